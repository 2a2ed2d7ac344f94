package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
)

type aiToolCallPatchRequest struct {
	InputJSON map[string]any `json:"input_json"`
}

// aiToolCallPatch serves PATCH /api/v1/projects/{project_id}/ai/tool-calls/{tool_call_id}:
// the user corrects the input of a call that waits for approval (checked against the
// tool's input schema) before approving it.
func (s *Server) aiToolCallPatch(c *gin.Context) {
	var req aiToolCallPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	out, err := s.Agent.PatchToolCall(c, aiToolCall(c), req.InputJSON)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewToolCall(*out))
}

// aiToolCallApprove serves POST .../ai/tool-calls/{tool_call_id}/approve: the waiting turn
// runs the call and goes on. Approving again answers the call as it is.
func (s *Server) aiToolCallApprove(c *gin.Context) { s.decideToolCall(c, true) }

// aiToolCallReject serves POST .../ai/tool-calls/{tool_call_id}/reject: the call never
// runs; the model is told and the turn goes on.
func (s *Server) aiToolCallReject(c *gin.Context) { s.decideToolCall(c, false) }

func (s *Server) decideToolCall(c *gin.Context, approve bool) {
	out, err := s.Agent.Decide(c, aiToolCall(c), approve, actor(c).UserID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewToolCall(*out))
}
