package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// beginEventStream answers 200 with the headers of a Server-Sent Events stream and sends
// them at once, so the client sees the stream open before its first event; proxies are
// asked not to buffer it.
func beginEventStream(c *gin.Context) {
	h := c.Writer.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	c.Status(http.StatusOK)
	c.Writer.Flush()
}
