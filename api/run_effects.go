package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
	"agencyhub/engine"
	"agencyhub/models"
	"agencyhub/models/automation"
)

type actionEffectView struct {
	ActionKey     string `json:"action_key"`
	Label         string `json:"label"`
	ActionTypeKey string `json:"action_type_key"`
	Idempotent    bool   `json:"idempotent"`
	// Status is nil for an action the run previewed does not have (a replay on a later
	// version).
	Status *automation.ActionStatus `json:"status"`
}

type runEffectsView struct {
	ActsAgain []actionEffectView `json:"acts_again"`
	Reused    []actionEffectView `json:"reused"`
}

func viewRunEffects(e engine.RunEffects) runEffectsView {
	view := func(effects []engine.ActionEffect) []actionEffectView {
		out := make([]actionEffectView, len(effects))
		for i, a := range effects {
			out[i] = actionEffectView{ActionKey: a.ActionKey, Label: a.Label, ActionTypeKey: a.ActionTypeKey, Idempotent: a.Idempotent}
			if a.Status != "" {
				out[i].Status = &a.Status
			}
		}
		return out
	}
	return runEffectsView{ActsAgain: view(e.ActsAgain), Reused: view(e.Reused)}
}

// runRetryPreview serves GET /api/v1/runs/{workflow_run_id}/retry-preview: what
// retry-action of action_key would do, refused as retry-action would refuse it.
func (s *Server) runRetryPreview(c *gin.Context) {
	key := c.Query("action_key")
	if key == "" {
		httpx.WriteError(c, models.Invalid("unknown_action", "action_key"))
		return
	}
	effects, err := s.Runs.RetryEffects(c, run(c), key)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewRunEffects(effects))
}

// runReplayPreview serves GET /api/v1/runs/{workflow_run_id}/replay-preview: what replay
// would do.
func (s *Server) runReplayPreview(c *gin.Context) {
	effects, err := s.Runs.ReplayEffects(c, run(c), c.Query("version") == "latest")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewRunEffects(effects))
}
