package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

type dependencyHealth struct {
	Status    string `json:"status"`
	LatencyMS int64  `json:"latency_ms"`
	Error     string `json:"error,omitempty"`
}

type healthResponse struct {
	Status string                      `json:"status"`
	Checks map[string]dependencyHealth `json:"checks"`
}

// healthz serves GET /healthz: each dependency's state, 503 when any is down. A failing
// check reports its error text: the probe is for operators, and the text names no secret.
func (s *Server) healthz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c, 3*time.Second)
	defer cancel()
	resp := healthResponse{Status: "ok", Checks: map[string]dependencyHealth{}}
	status := http.StatusOK
	for _, h := range s.Health {
		start := time.Now()
		err := h.Check(ctx)
		d := dependencyHealth{Status: "ok", LatencyMS: time.Since(start).Milliseconds()}
		if err != nil {
			d.Status, d.Error = "down", err.Error()
			resp.Status, status = "unavailable", http.StatusServiceUnavailable
		}
		resp.Checks[h.Name] = d
	}
	if status != http.StatusOK {
		c.Header("X-App-Result", "error")
	}
	c.JSON(status, resp)
}
