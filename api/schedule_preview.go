package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
	"agencyhub/engine/schedules"
)

type schedulePreviewRequest struct {
	Cron            string `json:"cron"`
	IntervalSeconds int    `json:"interval_seconds"`
	Timezone        string `json:"timezone"`
	Count           *int   `json:"count"`
}

type schedulePreviewView struct {
	FireTimes []time.Time `json:"fire_times"`
}

// schedulePreview serves POST /api/v1/schedules/preview: the next times a schedule.trigger
// with these fields fires, read as publishing and the engine read them.
func (s *Server) schedulePreview(c *gin.Context) {
	var req schedulePreviewRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	count := 5
	if req.Count != nil {
		count = *req.Count
	}
	fires, err := schedules.ScheduleFires(req.Cron, time.Duration(req.IntervalSeconds)*time.Second, req.Timezone, s.Now(), count)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, schedulePreviewView{FireTimes: fires})
}
