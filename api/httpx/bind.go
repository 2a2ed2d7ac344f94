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

// Bind reads the JSON body, validates it against the operation's request schema and
// decodes it into dst. Malformed JSON (invalid UTF-8 included, which a decoder would
// silently replace), a body over the limit, a non-JSON content type and every schema
// violation answer fix_required naming the fields, or the fields the specification fixes
// for the operation (x-app-validate) whatever the fault. An empty body is refused when
// the operation's body is required, and counts as {} when it is optional.
func Bind(c *gin.Context, dst any) error {
	v, ok := c.Get(operationKey)
	if !ok {
		return models.Internal("route %s %s has no contract operation", c.Request.Method, c.FullPath())
	}
	op := v.(*schemas.Operation)
	if err := bindJSON(c, op, dst); err != nil {
		if e := models.AsError(err); e.Kind == models.KindInvalid && len(op.ValidateFields) > 0 {
			return models.Invalid(e.Key, op.ValidateFields...)
		}
		return err
	}
	return nil
}

func bindJSON(c *gin.Context, op *schemas.Operation, dst any) error {
	raw, err := ReadBody(c)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		if op.BodyRequired {
			return models.Invalid("body_required", "body")
		}
		raw = []byte("{}")
	} else if mt, _, _ := mime.ParseMediaType(c.ContentType()); mt != "application/json" {
		return models.Invalid("unsupported_media_type", "body")
	}
	if !utf8.Valid(raw) {
		return models.Invalid("invalid_utf8", "body")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil || dec.More() {
		return models.Invalid("malformed_json", "body")
	}
	if fields := op.ValidateRequest(doc); len(fields) > 0 {
		return models.Invalid("invalid_body", fields...)
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return models.Internal("body valid by the contract does not decode into %T: %w", dst, err)
	}
	return nil
}

// PathID parses a UUID path parameter; a malformed one is invalid input naming it.
func PathID(c *gin.Context, name string) (uuid.UUID, error) {
	return models.ParseID(name, c.Param(name))
}

// Page reads the `limit` and `cursor` query parameters shared by every list.
func Page(c *gin.Context) (models.PageRequest, error) {
	limit, err := Limit(c)
	if err != nil {
		return models.PageRequest{}, err
	}
	return models.ParsePage(limit, c.Query("cursor"))
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
