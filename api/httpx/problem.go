package httpx

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"agencyhub/models"
	"agencyhub/schemas"
)

// Values of Problem.status and the X-App-Result header.
const (
	ResultOK          = "ok"
	ResultFixRequired = "fix_required"
	ResultError       = "error"
)

// Problem is the error body of every failed request: exactly the specification's six fields.
type Problem struct {
	Status    string `json:"status"`
	Title     string `json:"title"`
	Detail    string `json:"detail"`
	Action    string `json:"action"`
	Validate  string `json:"validate"`
	RequestID string `json:"request_id"`
}

var kindStatus = map[models.Kind]int{
	models.KindInvalid:         http.StatusBadRequest,
	models.KindUnauthenticated: http.StatusUnauthorized,
	models.KindForbidden:       http.StatusForbidden,
	models.KindNotFound:        http.StatusNotFound,
	models.KindConflict:        http.StatusConflict,
	models.KindRateLimited:     http.StatusTooManyRequests,
	models.KindUnavailable:     http.StatusServiceUnavailable,
	models.KindUpstream:        http.StatusBadGateway,
	models.KindInternal:        http.StatusInternalServerError,
}

// keyStatus overrides the kind's status for transport-level problems.
var keyStatus = map[string]int{
	"body_too_large":         http.StatusRequestEntityTooLarge,
	"file_too_large":         http.StatusRequestEntityTooLarge,
	"unsupported_media_type": http.StatusUnsupportedMediaType,
	"method_not_allowed":     http.StatusMethodNotAllowed,
}

// A Problem names at most maxValidateNames fields in validate, and its X-App-Validate
// header at most maxValidateHeader bytes of them (proxies refuse long header lines); a last
// item "+N more" counts the names left off. A draft with thousands of bad actions still
// answers a short list, and its diagnostics (validate) hold the whole of it.
const (
	maxValidateNames  = 100
	maxValidateHeader = 1024
)

// validateList joins names with commas, at most maxNames of them in at most maxBytes,
// ending in "+N more" when some are left off.
func validateList(names []string, maxNames, maxBytes int) string {
	reserve := len(fmt.Sprintf(",+%d more", len(names)))
	var b strings.Builder
	for i, name := range names {
		need := len(name)
		if i > 0 {
			need++
		}
		if i < len(names)-1 {
			need += reserve
		}
		if i == maxNames || b.Len()+need > maxBytes {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "+%d more", len(names)-i)
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(name)
	}
	return b.String()
}

// headerText is text as a header carries it: ASCII as it is, anything else (the ru
// messages) as RFC 2047 encoded-words of UTF-8 in base64 (=?UTF-8?b?...?=), which
// mime.WordDecoder and most mail and HTTP libraries decode; raw UTF-8 in a header is read
// as Latin-1 by browsers.
func headerText(s string) string { return mime.BEncoding.Encode("UTF-8", s) }

// fixRequired lists the kinds the caller resolves by changing the request.
var fixRequired = map[models.Kind]bool{
	models.KindInvalid: true, models.KindUnauthenticated: true, models.KindConflict: true,
}

// ProblemFor is the Problem err renders as, in lang, for the request requestID, with the
// HTTP status it answers: WriteError's body, for channels that are not an HTTP response
// (the site chat sockets' error envelopes).
func ProblemFor(lang, requestID string, err error) (int, Problem) {
	e := models.AsError(err)
	status, ok := keyStatus[e.Key]
	if !ok {
		status = kindStatus[e.Kind]
	}
	if status == 0 {
		status = http.StatusInternalServerError
	}
	result := ResultError
	if fixRequired[e.Kind] {
		result = ResultFixRequired
	}
	msg := Message(lang, e.Key, e.Kind)
	var violations schemas.Violations
	if errors.As(e.Err, &violations) && len(violations) > 0 {
		msg.Detail = violationsText(lang, violations)
	}
	return status, Problem{
		Status: result, Title: msg.Title, Detail: msg.Detail, Action: msg.Action,
		Validate: validateList(e.Fields, maxValidateNames, math.MaxInt), RequestID: requestID,
	}
}

// WriteError renders err as a Problem and aborts the request. Errors that are not domain
// errors are internal: their cause is logged with the request id and never sent.
func WriteError(c *gin.Context, err error) {
	e := models.AsError(err)
	status, p := ProblemFor(Lang(c), RequestID(c), e)
	if status == http.StatusInternalServerError {
		slog.ErrorContext(c.Request.Context(), "request failed", "request_id", RequestID(c), "err", e)
	}
	h := c.Writer.Header()
	h.Set("X-App-Result", p.Status)
	h.Set("X-App-Action", headerText(p.Action))
	if p.Validate != "" {
		h.Set("X-App-Validate", validateList(e.Fields, maxValidateNames, maxValidateHeader))
	}
	if e.RetryAfterSeconds > 0 {
		h.Set("Retry-After", strconv.Itoa(e.RetryAfterSeconds))
	}
	c.AbortWithStatusJSON(status, p)
}
