package filestore

// The store's errors carry the problem codes and request fields the API answers with, but
// the store makes no Problems: models.AsError turns them into domain errors, the one place
// any error becomes one, so the callers (billing, work, site chat, the file route) pass
// them on as they are. Any other error the store returns is internal.

// NotFoundError says that there is nothing to serve; Code is the problem code.
type NotFoundError struct{ Code string }

func (e *NotFoundError) Error() string { return "filestore: " + e.Code }

var (
	// ErrNotFound is Open's answer for a key with no object.
	ErrNotFound = &NotFoundError{Code: "file_not_found"}
	// ErrLinkNotFound is OpenLink's one answer for every token it does not honour.
	ErrLinkNotFound = &NotFoundError{Code: "file_link_not_found"}
)

// Refusal is an upload or a key the store refuses: Code says why (invalid_file_key,
// file_too_large, file_type_not_allowed), Field names the request field the caller must
// fix (key, file).
type Refusal struct {
	Code  string
	Field string
}

func (e *Refusal) Error() string { return "filestore: " + e.Code + " [" + e.Field + "]" }

func refuse(code, field string) *Refusal { return &Refusal{Code: code, Field: field} }
