package api

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/aiemployee"
	"agencyhub/models/automation"
	"agencyhub/models/company"
)

const (
	aiSessionKey  = "api.ai_session"
	aiToolCallKey = "api.ai_tool_call"
	// aiAnswerWait bounds how long a posted message waits for its turn to end or pause.
	aiAnswerWait = 2 * time.Minute
)

func aiSession(c *gin.Context) *aiemployee.Session {
	return c.MustGet(aiSessionKey).(*aiemployee.Session)
}

func aiToolCall(c *gin.Context) *aiemployee.ToolCall {
	return c.MustGet(aiToolCallKey).(*aiemployee.ToolCall)
}

// inAISession loads the caller's own session of :session_id in :project_id; a session of
// another user, project or company is not found.
func (s *Server) inAISession(perm company.Permission) gin.HandlerFunc {
	return inNested(s.inProject(perm), "session_id", aiSessionKey, func(c *gin.Context, id uuid.UUID) (*aiemployee.Session, error) {
		p := project(c)
		return s.Agent.Store.SessionOf(c, p.CompanyID, p.ID, actor(c).UserID, id)
	})
}

// inAIToolCall loads a tool call of the caller's own sessions in :project_id.
func (s *Server) inAIToolCall(perm company.Permission) gin.HandlerFunc {
	return inNested(s.inProject(perm), "tool_call_id", aiToolCallKey, func(c *gin.Context, id uuid.UUID) (*aiemployee.ToolCall, error) {
		p := project(c)
		return s.Agent.Store.ToolCallOf(c, p.CompanyID, p.ID, actor(c).UserID, id)
	})
}

type aiToolCallView struct {
	AIToolCallID     uuid.UUID      `json:"ai_tool_call_id"`
	AIChatSessionID  uuid.UUID      `json:"ai_chat_session_id"`
	ToolKey          string         `json:"tool_key"`
	Status           string         `json:"status"`
	RiskLevel        string         `json:"risk_level"`
	RequiresApproval bool           `json:"requires_approval"`
	InputJSON        map[string]any `json:"input_json"`
	OutputJSON       map[string]any `json:"output_json"`
	Turn             int            `json:"turn"`
	CreatedAt        time.Time      `json:"created_at"`
	UpdatedAt        time.Time      `json:"updated_at"`
}

func viewToolCall(t aiemployee.ToolCall) aiToolCallView {
	return aiToolCallView{AIToolCallID: t.ID, AIChatSessionID: t.SessionID, ToolKey: t.ToolKey, Status: t.Status, RiskLevel: t.RiskLevel,
		RequiresApproval: t.RequiresApproval, InputJSON: nonNilMap(t.Input), OutputJSON: nonNilMap(t.Output), Turn: t.Turn,
		CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

func nonNilMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

type aiMessageView struct {
	MessageID   uuid.UUID   `json:"message_id"`
	Role        string      `json:"role"`
	Content     string      `json:"content"`
	Turn        int         `json:"turn"`
	ToolCallIDs []uuid.UUID `json:"tool_call_ids"`
	CreatedAt   time.Time   `json:"created_at"`
}

type aiSessionView struct {
	AIChatSessionID       uuid.UUID        `json:"ai_chat_session_id"`
	CompanyID             uuid.UUID        `json:"company_id"`
	ProjectID             uuid.UUID        `json:"project_id"`
	ActivePatchProposalID *uuid.UUID       `json:"active_patch_proposal_id"`
	ActiveToolCallID      *uuid.UUID       `json:"active_tool_call_id"`
	AgentRuntime          string           `json:"agent_runtime"`
	AgentThreadID         string           `json:"agent_thread_id"`
	ScreenScope           string           `json:"screen_scope"`
	Status                string           `json:"status"`
	SessionRevision       int              `json:"session_revision"`
	PageContextJSON       map[string]any   `json:"page_context_json"`
	LastPageContextJSON   map[string]any   `json:"last_page_context_json"`
	RuntimeStateJSON      map[string]any   `json:"runtime_state_json"`
	WorkingMemoryJSON     map[string]any   `json:"working_memory_json"`
	Messages              []aiMessageView  `json:"messages"`
	ToolCalls             []aiToolCallView `json:"tool_calls"`
	ActionDependencyID    *uuid.UUID       `json:"action_dependency_id"`
	ModelID               string           `json:"model_id"`
	CreatedAt             time.Time        `json:"created_at"`
	UpdatedAt             time.Time        `json:"updated_at"`
}

// viewSession is the session with its transcript, read now.
func (s *Server) viewSession(ctx context.Context, sess *aiemployee.Session) (*aiSessionView, error) {
	msgs, calls, err := s.Agent.Store.Transcript(ctx, sess.ID)
	if err != nil {
		return nil, err
	}
	v := &aiSessionView{
		AIChatSessionID:       sess.ID,
		CompanyID:             sess.CompanyID,
		ProjectID:             sess.ProjectID,
		ActivePatchProposalID: sess.ActivePatchProposalID,
		ActiveToolCallID:      sess.ActiveToolCallID,
		AgentRuntime:          sess.AgentRuntime,
		AgentThreadID:         sess.AgentThreadID,
		ScreenScope:           sess.ScreenScope,
		Status:                sess.Status,
		SessionRevision:       sess.SessionRevision,
		PageContextJSON:       nonNilMap(sess.PageContext),
		LastPageContextJSON:   nonNilMap(sess.LastPageContext),
		RuntimeStateJSON:      nonNilMap(sess.RuntimeState),
		WorkingMemoryJSON:     nonNilMap(sess.WorkingMemory),
		Messages:              []aiMessageView{},
		ToolCalls:             []aiToolCallView{},
		ActionDependencyID:    sess.ActionDependencyID,
		ModelID:               sess.ModelID,
		CreatedAt:             sess.CreatedAt,
		UpdatedAt:             sess.UpdatedAt,
	}
	for _, m := range msgs {
		mv := aiMessageView{MessageID: m.ID, Role: m.Role, Content: m.Content, Turn: m.Turn, ToolCallIDs: []uuid.UUID{}, CreatedAt: m.CreatedAt}
		for _, t := range calls {
			if t.MessageID == m.ID {
				mv.ToolCallIDs = append(mv.ToolCallIDs, t.ID)
			}
		}
		v.Messages = append(v.Messages, mv)
	}
	for _, t := range calls {
		v.ToolCalls = append(v.ToolCalls, viewToolCall(t))
	}
	return v, nil
}

func (s *Server) renderSession(c *gin.Context, status int, sess *aiemployee.Session) {
	v, err := s.viewSession(c, sess)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	v.RuntimeStateJSON = turnDetailIn(httpx.Lang(c), v.RuntimeStateJSON, "last_error")
	c.JSON(status, v)
}

type aiSessionCreateRequest struct {
	ActionDependencyID *uuid.UUID     `json:"action_dependency_id"`
	ClientID           *uuid.UUID     `json:"client_id"`
	TaskID             *uuid.UUID     `json:"task_id"`
	WorkflowID         *uuid.UUID     `json:"workflow_id"`
	WorkflowRunID      *uuid.UUID     `json:"workflow_run_id"`
	ModelID            string         `json:"model_id"`
	ScreenEntityID     string         `json:"screen_entity_id"`
	ScreenEntityType   string         `json:"screen_entity_type"`
	ScreenScope        string         `json:"screen_scope"`
	PageContextJSON    map[string]any `json:"page_context_json"`
}

// sessionMemory checks that the entities a session is opened on are of the project (a
// client of its company) and notes them in the working memory. Errors: invalid naming the
// field of one that is not.
func (s *Server) sessionMemory(c *gin.Context, p *company.Project, req aiSessionCreateRequest) (map[string]any, error) {
	memory := map[string]any{}
	if id := req.WorkflowID; id != nil {
		w, err := s.Workflows.WorkflowOf(c, p.CompanyID, *id)
		if models.IsKind(err, models.KindNotFound) || err == nil && w.ProjectID != p.ID {
			return nil, models.Invalid("invalid_ai_session", "workflow_id")
		}
		if err != nil {
			return nil, err
		}
		memory["workflow"] = map[string]any{"workflow_id": w.ID, "name": w.Name}
	}
	if id := req.WorkflowRunID; id != nil {
		r, err := s.Workflows.Run(c, *id)
		if models.IsKind(err, models.KindNotFound) || err == nil && (r.CompanyID != p.CompanyID || r.ProjectID != p.ID) {
			return nil, models.Invalid("invalid_ai_session", "workflow_run_id")
		}
		if err != nil {
			return nil, err
		}
		memory["workflow_run"] = map[string]any{"workflow_run_id": r.ID, "status": r.Status}
	}
	if id := req.ClientID; id != nil {
		cl, _, err := s.Billing.ClientAccess(c, actor(c).UserID, *id)
		if models.IsKind(err, models.KindNotFound) || err == nil && cl.CompanyID != p.CompanyID {
			return nil, models.Invalid("invalid_ai_session", "client_id")
		}
		if err != nil {
			return nil, err
		}
		memory["client"] = map[string]any{"client_id": cl.ID, "name": cl.Name}
	}
	if req.TaskID != nil {
		memory["task_id"] = req.TaskID.String()
	}
	if req.ScreenEntityType != "" || req.ScreenEntityID != "" {
		memory["screen_entity"] = map[string]any{"type": req.ScreenEntityType, "id": req.ScreenEntityID}
	}
	return memory, nil
}

// aiEmployeeSessionCreate serves POST /api/v1/projects/{project_id}/ai/employee/sessions:
// a new session of the caller, idle, opened on the page and entities given.
func (s *Server) aiEmployeeSessionCreate(c *gin.Context) {
	var req aiSessionCreateRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	p := project(c)
	memory, err := s.sessionMemory(c, p, req)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	sess, err := s.Agent.CreateSession(c, p, aiemployee.SessionInput{UserID: actor(c).UserID, ActionDependencyID: req.ActionDependencyID,
		ModelID: req.ModelID, ScreenScope: req.ScreenScope, PageContext: req.PageContextJSON, Memory: memory})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderSession(c, http.StatusCreated, sess)
}

// aiEmployeeSessionGet serves GET .../ai/employee/sessions/{session_id}: the session with
// its messages and tool calls.
func (s *Server) aiEmployeeSessionGet(c *gin.Context) {
	s.renderSession(c, http.StatusOK, aiSession(c))
}

// aiEmployeeSessionCancel serves POST .../ai/employee/sessions/{session_id}/cancel: the
// turn in progress stops (tool calls not run are cancelled); the transcript stays and the
// session takes messages again. The answer comes once the turn has stopped.
func (s *Server) aiEmployeeSessionCancel(c *gin.Context) {
	sess, err := s.Agent.Cancel(c, aiSession(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.awaitTurn(c, sess, func(cur *aiemployee.Session) bool { return cur.Status == aiemployee.SessionIdle })
}

type aiMessageRequest struct {
	Content         string         `json:"content"`
	SessionRevision *int           `json:"session_revision"`
	PageContextJSON map[string]any `json:"page_context_json"`
}

// postMessage binds and posts the user's message, answering the session as posted.
func (s *Server) postMessage(c *gin.Context) (*aiemployee.Session, error) {
	var req aiMessageRequest
	if err := httpx.Bind(c, &req); err != nil {
		return nil, err
	}
	return s.Agent.PostMessage(c, aiSession(c), aiemployee.MessageInput{
		Content:     req.Content,
		Revision:    req.SessionRevision,
		PageContext: req.PageContextJSON,
	})
}

// aiEmployeeMessagePost serves POST .../ai/employee/sessions/{session_id}/messages: the
// message starts a turn; the answer is the session once the turn has ended or waits for a
// tool call's approval (202 with the session as it stands if that takes over 2 minutes).
func (s *Server) aiEmployeeMessagePost(c *gin.Context) {
	sess, err := s.postMessage(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.awaitTurn(c, sess, func(cur *aiemployee.Session) bool { return cur.Status != aiemployee.SessionRunning })
}

// awaitTurn answers the session once done says so, waking when the bus says it changed.
func (s *Server) awaitTurn(c *gin.Context, sess *aiemployee.Session, done func(*aiemployee.Session) bool) {
	w := s.watchSession(sess.ID)
	defer w.close()
	deadline := time.NewTimer(aiAnswerWait)
	defer deadline.Stop()
	for {
		cur, err := s.Agent.Store.Session(c, sess.ID)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		if done(cur) {
			s.renderSession(c, http.StatusOK, cur)
			return
		}
		if !w.wait(c.Request.Context(), deadline.C) {
			s.renderSession(c, http.StatusAccepted, cur)
			return
		}
	}
}

// turnDetailIn is m (a session's runtime state, an error event's data) with the failed
// turn's detail under field worded in lang, where its field_key names it in the failure
// table (with its field_args).
func turnDetailIn(lang string, m map[string]any, field string) map[string]any {
	key, _ := m[field+"_key"].(string)
	if key == "" {
		return m
	}
	args := map[string]string{}
	switch recorded := m[field+"_args"].(type) {
	case map[string]any:
		for k, v := range recorded {
			args[k], _ = v.(string)
		}
	case map[string]string:
		args = recorded
	}
	text, _, ok := automation.FailureText(lang, key, "", args)
	if !ok {
		return m
	}
	out := maps.Clone(m)
	out[field] = text
	return out
}

// watchSession watches the session's events.
func (s *Server) watchSession(id uuid.UUID) *busWatch { return s.watch(aiemployee.SessionTopic(id)) }

// aiEmployeeMessageStream serves POST .../messages/stream: the message starts a turn,
// streamed as Server-Sent Events (message.created, message.delta, tool_call.created,
// tool_call.updated, approval.needed, done, error), each with its sequence as id, until the
// turn ends or waits for approval. A request with Last-Event-ID (or ?cursor=) posts nothing
// and resumes the stream after that event.
func (s *Server) aiEmployeeMessageStream(c *gin.Context) {
	resume := c.GetHeader("Last-Event-ID")
	if resume == "" {
		resume = c.Query("cursor")
	}
	after, err := afterSequence(resume, "cursor")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	sess := aiSession(c)
	if resume == "" {
		after = sess.EventSequence
		if sess, err = s.postMessage(c); err != nil {
			httpx.WriteError(c, err)
			return
		}
	}
	watch := s.watchSession(sess.ID)
	defer watch.close()
	beginEventStream(c)
	keepAlive := time.NewTicker(streamKeepAlive)
	defer keepAlive.Stop()
	for {
		events, err := s.Agent.Store.Events(c, sess.ID, after, 500)
		if err != nil {
			return
		}
		for _, e := range events {
			data, _ := json.Marshal(map[string]any{
				"sequence":   e.Sequence,
				"turn":       e.Turn,
				"event_type": e.EventType,
				"data":       turnDetailIn(httpx.Lang(c), e.Data, "detail"),
				"created_at": e.CreatedAt,
			})
			fmt.Fprintf(c.Writer, "id: %d\nevent: %s\ndata: %s\n\n", e.Sequence, e.EventType, data)
			after = e.Sequence
			if e.Ends() {
				c.Writer.Flush()
				return
			}
		}
		if len(events) > 0 {
			c.Writer.Flush()
			keepAlive.Reset(streamKeepAlive)
			continue
		}
		for !watch.wait(c.Request.Context(), keepAlive.C) {
			if c.Request.Context().Err() != nil {
				return
			}
			fmt.Fprint(c.Writer, ": keep-alive\n\n")
			c.Writer.Flush()
		}
	}
}
