package httpx

import (
	"log/slog"
	"regexp"
	"runtime/debug"
	"time"

	"github.com/gin-gonic/gin"

	"agencyhub/models"
)

const requestIDKey = "httpx.request_id"

// saneRequestID is what an incoming X-Request-Id must look like to be kept.
var saneRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{8,64}$`)

// RequestID is the id of the current request.
func RequestID(c *gin.Context) string { return c.GetString(requestIDKey) }

// Start runs first on every request: it fixes the request id and the language, and presets
// X-App-Result to ok, which the Problem writer overrides on failure.
func Start(c *gin.Context) {
	id := c.GetHeader("X-Request-Id")
	if !saneRequestID.MatchString(id) {
		id = models.NewID().String()
	}
	c.Set(requestIDKey, id)
	lang := negotiate(c.GetHeader("Accept-Language"))
	c.Set(langKey, lang)
	c.Request = c.Request.WithContext(models.WithLanguage(c.Request.Context(), lang))
	h := c.Writer.Header()
	h.Set("X-Request-Id", id)
	h.Set("Content-Language", lang)
	h.Set("X-App-Result", ResultOK)
	c.Next()
}

// Log writes one structured line per request.
func Log(c *gin.Context) {
	start := time.Now()
	c.Next()
	route := c.FullPath()
	if route == "" {
		route = "(unmatched)"
	}
	slog.InfoContext(c.Request.Context(), "request",
		"request_id", RequestID(c), "method", c.Request.Method, "route", route,
		"status", c.Writer.Status(), "latency_ms", time.Since(start).Milliseconds())
}

// Recover turns a panic into a 500 Problem and logs the cause with the request id.
func Recover(c *gin.Context) {
	defer func() {
		if r := recover(); r != nil {
			WriteError(c, models.Internal("panic: %v\n%s", r, debug.Stack()))
		}
	}()
	c.Next()
}

// NotFound answers unknown routes.
func NotFound(c *gin.Context) { WriteError(c, models.NotFound("route_not_found")) }

// MethodNotAllowed answers a known path called with a method it does not accept; allow
// lists the methods it does.
func MethodNotAllowed(allow func(path string) string) gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Header("Allow", allow(c.Request.URL.Path))
		WriteError(c, &models.Error{Kind: models.KindInvalid, Key: "method_not_allowed"})
	}
}
