package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/schemas"
)

const bodyLimitKey = "httpx.body_limit"

// LimitBodies sets the largest request body ReadBody reads (APP_MAX_BODY_BYTES).
func LimitBodies(max int64) gin.HandlerFunc {
	return func(c *gin.Context) { c.Set(bodyLimitKey, max) }
}

// ReadBody reads the request body up to the limit LimitBodies set. Errors: invalid
// (body_too_large, 413; an unreadable body).
func ReadBody(c *gin.Context) ([]byte, error) { return ReadBodyUpTo(c, c.GetInt64(bodyLimitKey)) }

// ReadBodyUpTo reads the request body, refusing one over limit bytes before reading it
// when its length is declared. Errors: invalid (body_too_large, 413; an unreadable body).
func ReadBodyUpTo(c *gin.Context, limit int64) ([]byte, error) {
	if c.Request.ContentLength > limit {
		return nil, models.Invalid("body_too_large", "body")
	}
	raw, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, limit))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return nil, models.Invalid("body_too_large", "body")
	}
	if err != nil {
		return nil, models.Invalid("invalid_body", "body")
	}
	return raw, nil
}

const operationKey = "httpx.operation"

// WithOperation attaches the contract operation of the matched route to the request.
func WithOperation(contract *schemas.Contract) gin.HandlerFunc {
	return func(c *gin.Context) {
		if op := contract.Operation(c.Request.Method, TemplatePath(c.FullPath())); op != nil {
			c.Set(operationKey, op)
		}
		c.Next()
	}
}

// TemplatePath turns a Gin route (/x/:id) into an OpenAPI path template (/x/{id}). Gin
// cannot route a parameter followed by literal text in the same segment, so a parameter
// whose name has a dot stands for one with a suffix: /x/:slug.md is /x/{slug}.md (the
// handler reads the whole segment from c.Param("slug.md") and checks the suffix).
func TemplatePath(route string) string {
	parts := strings.Split(route, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, ":") {
			name, suffix, dotted := strings.Cut(p[1:], ".")
			parts[i] = "{" + name + "}"
			if dotted {
				parts[i] += "." + suffix
			}
		}
	}
	return strings.Join(parts, "/")
}

// CheckRequest checks the shape of a request against its contract operation before
// credentials, permissions or stored state are looked at: the query and path parameters,
// then a JSON body, which it keeps for Bind. Malformed JSON (invalid UTF-8 included, which
// a decoder would silently replace), a body over the limit, a non-JSON content type and
// every schema violation answer fix_required naming the fields, or the fields the
// specification fixes for the operation (x-app-validate) whatever the fault. An empty body
// is refused when the operation's body is required; when it is optional it is left to
// Bind, as a request may mean something without one (a stream resumed by Last-Event-ID).
func CheckRequest(c *gin.Context) {
	op, ok := operation(c)
	if !ok {
		return
	}
	if names := op.ValidateParameters(c.Request.URL.Path, c.Request.URL.Query()); len(names) > 0 {
		WriteError(c, models.Invalid("invalid_parameter", names...))
		return
	}
	if !op.BindsJSON() {
		return
	}
	raw, err := readJSON(c, op)
	if err != nil {
		WriteError(c, asOperationFields(op, err))
		return
	}
	if raw != nil {
		c.Set(bodyKey, raw)
	}
}

// asOperationFields names the fields the specification fixes for the operation, if it
// does, in an invalid-body error.
func asOperationFields(op *schemas.Operation, err error) error {
	if e := models.AsError(err); e.Kind == models.KindInvalid && len(op.ValidateFields) > 0 {
		fixed := *e
		fixed.Fields = op.ValidateFields
		return &fixed
	}
	return err
}

const bodyKey = "httpx.body"

func operation(c *gin.Context) (*schemas.Operation, bool) {
	v, ok := c.Get(operationKey)
	if !ok {
		return nil, false
	}
	return v.(*schemas.Operation), true
}

// Bind decodes the JSON body CheckRequest read and checked into dst; an empty optional body
// counts as {}, which must be valid.
func Bind(c *gin.Context, dst any) error {
	op, ok := operation(c)
	if !ok || !op.BindsJSON() {
		return models.Internal("route %s %s has no JSON body in the contract", c.Request.Method, c.FullPath())
	}
	raw := []byte("{}")
	if v, ok := c.Get(bodyKey); ok {
		raw = v.([]byte)
	} else if violations := op.RequestViolations(map[string]any{}); violations != nil {
		return asOperationFields(op, invalidBody(violations))
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return models.Internal("body valid by the contract does not decode into %T: %w", dst, err)
	}
	return nil
}

// invalidBody is the error of a body that breaks the contract: it names the fields, and
// carries the violations for the Problem's detail.
func invalidBody(violations schemas.Violations) error {
	return &models.Error{Kind: models.KindInvalid, Key: "invalid_body", Fields: violations.Fields(), Err: violations}
}

// readJSON reads the JSON body and checks it against the operation's request schema; an
// empty optional body reads as nil.
func readJSON(c *gin.Context, op *schemas.Operation) ([]byte, error) {
	raw, err := ReadBody(c)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		if op.BodyRequired {
			return nil, models.Invalid("body_required", "body")
		}
		return nil, nil
	}
	if mt, _, _ := mime.ParseMediaType(c.ContentType()); mt != "application/json" {
		return nil, models.Invalid("unsupported_media_type", "body")
	}
	if !utf8.Valid(raw) {
		return nil, models.Invalid("invalid_utf8", "body")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil || dec.More() {
		return nil, models.Invalid("malformed_json", "body")
	}
	if violations := op.RequestViolations(doc); violations != nil {
		return nil, invalidBody(violations)
	}
	return raw, nil
}

// PathID parses a UUID path parameter; a malformed one is invalid input naming it.
func PathID(c *gin.Context, name string) (uuid.UUID, error) {
	return models.ParseID(name, c.Param(name))
}

// Page reads the `limit` and `cursor` query parameters shared by every list, and `order`
// (asc, the default, or desc) of the lists that offer both orders.
func Page(c *gin.Context) (models.PageRequest, error) {
	limit, err := Limit(c)
	if err != nil {
		return models.PageRequest{}, err
	}
	page, err := models.ParsePage(limit, c.Query("cursor"))
	if err != nil {
		return page, err
	}
	switch c.Query("order") {
	case "", "asc":
	case "desc":
		page.Descending = true
	default:
		return page, models.Invalid("invalid_parameter", "order")
	}
	return page, nil
}

// Limit reads the `limit` query parameter alone, for lists whose cursor is not an id
// cursor (a run's events resume after a sequence number).
func Limit(c *gin.Context) (int, error) {
	limit := models.DefaultPageLimit
	if s := c.Query("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, models.Invalid("invalid_limit", "limit")
		}
		limit = n
	}
	if _, err := models.ParsePage(limit, ""); err != nil {
		return 0, err
	}
	return limit, nil
}

// Optional is a JSON field that tells absent (Set false), null (Set, Null) and a value apart.
type Optional[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// UnmarshalJSON is only called for a present field.
func (o *Optional[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Null = true
		return nil
	}
	return json.Unmarshal(b, &o.Value)
}

// CreatedOrOK is the status of a create that may find what it would make there already:
// 201 when it created it, 200 when it found it.
func CreatedOrOK(created bool) int {
	if created {
		return http.StatusCreated
	}
	return http.StatusOK
}
