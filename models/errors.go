package models

import (
	"errors"
	"fmt"
	"strings"

	"agencyhub/platform/filestore"
)

// Kind classifies a domain error; the API maps each kind to one HTTP status.
type Kind string

const (
	KindInvalid         Kind = "invalid"
	KindUnauthenticated Kind = "unauthenticated"
	KindForbidden       Kind = "forbidden"
	KindNotFound        Kind = "not_found"
	KindConflict        Kind = "conflict"
	KindRateLimited     Kind = "rate_limited"
	KindUnavailable     Kind = "unavailable"
	KindInternal        Kind = "internal"
	// KindUpstream is a provider the caller configured that failed or may not be called;
	// the message says what to check.
	KindUpstream Kind = "upstream"
)

// Error is the one error type domain code returns. Key names an entry of the API's message
// catalog; Fields are the request fields the caller must fix.
type Error struct {
	Kind   Kind
	Key    string
	Fields []string
	// RetryAfterSeconds is set on rate_limited errors.
	RetryAfterSeconds int
	Err               error
}

func (e *Error) Error() string {
	msg := string(e.Kind) + ": " + e.Key
	if len(e.Fields) > 0 {
		msg += " [" + strings.Join(e.Fields, ",") + "]"
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Invalid reports input the caller must correct; fields name the offending request fields.
func Invalid(key string, fields ...string) *Error {
	return &Error{Kind: KindInvalid, Key: key, Fields: fields}
}

// NotFound reports a missing resource, or one the caller may not know exists.
func NotFound(key string) *Error { return &Error{Kind: KindNotFound, Key: key} }

// Unauthenticated reports missing or bad credentials.
func Unauthenticated(key string, fields ...string) *Error {
	return &Error{Kind: KindUnauthenticated, Key: key, Fields: fields}
}

// Forbidden reports a caller whose role does not allow the operation.
func Forbidden(key string) *Error { return &Error{Kind: KindForbidden, Key: key} }

// Conflict reports a request that clashes with stored state.
func Conflict(key string, fields ...string) *Error {
	return &Error{Kind: KindConflict, Key: key, Fields: fields}
}

// RateLimited reports a caller that must wait before trying again.
func RateLimited(key string, retryAfterSeconds int) *Error {
	return &Error{Kind: KindRateLimited, Key: key, RetryAfterSeconds: retryAfterSeconds}
}

// Unavailable reports a dependency that is down (the workflow engine, a provider); cause
// says which and why, for the log, never for the caller.
func Unavailable(key string, cause error) *Error {
	return &Error{Kind: KindUnavailable, Key: key, Err: cause}
}

// Internal wraps an unexpected failure; its cause is logged, never shown.
func Internal(format string, args ...any) *Error {
	return &Error{Kind: KindInternal, Key: "internal", Err: fmt.Errorf(format, args...)}
}

// AsError returns err as *Error, wrapping anything unrecognised as internal. It is the one
// place where errors become domain errors: the ground floor below models (platform) has
// errors of its own, which carry their problem codes and fields, and are read here.
func AsError(err error) *Error {
	if e, ok := asDomain(err); ok {
		return e
	}
	return &Error{Kind: KindInternal, Key: "internal", Err: err}
}

// IsKind reports whether err is a domain error of the given kind.
func IsKind(err error, kind Kind) bool {
	e, ok := asDomain(err)
	return ok && e.Kind == kind
}

// asDomain finds the domain error in err's chain: an *Error, or the file store's refusal
// or not-found, read as the invalid or not_found error of the same code and field.
func asDomain(err error) (*Error, bool) {
	var (
		e        *Error
		refusal  *filestore.Refusal
		notFound *filestore.NotFoundError
	)
	switch {
	case errors.As(err, &e):
		return e, true
	case errors.As(err, &refusal):
		return &Error{Kind: KindInvalid, Key: refusal.Code, Fields: []string{refusal.Field}, Err: err}, true
	case errors.As(err, &notFound):
		return &Error{Kind: KindNotFound, Key: notFound.Code, Err: err}, true
	}
	return nil, false
}
