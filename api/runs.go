package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/activities"
	"agencyhub/api/httpx"
	"agencyhub/engine"
	"agencyhub/models"
	"agencyhub/models/automation"
)

type runView struct {
	WorkflowRunID     uuid.UUID            `json:"workflow_run_id"`
	WorkflowID        uuid.UUID            `json:"workflow_id"`
	WorkflowVersionID *uuid.UUID           `json:"workflow_version_id"`
	ProjectID         uuid.UUID            `json:"project_id"`
	Status            automation.RunStatus `json:"status"`
	Terminal          bool                 `json:"terminal"`
	TerminalReason    string               `json:"terminal_reason"`
	Error             string               `json:"error"`
	TriggerType       string               `json:"trigger_type"`
	TriggerActionKey  string               `json:"trigger_action_key"`
	IsTest            bool                 `json:"is_test"`
	InputJSON         map[string]any       `json:"input_json"`
	ReplayOfRunID     *uuid.UUID           `json:"replay_of_run_id"`
	StartedAt         *time.Time           `json:"started_at"`
	FinishedAt        *time.Time           `json:"finished_at"`
	CreatedAt         time.Time            `json:"created_at"`
	UpdatedAt         time.Time            `json:"updated_at"`
	HistoryURL        string               `json:"history_url"`
}

func (s *Server) viewRun(r *automation.Run) runView {
	return runView{HistoryURL: s.historyURL(r.ID),
		WorkflowRunID: r.ID, WorkflowID: r.WorkflowID, WorkflowVersionID: r.WorkflowVersionID, ProjectID: r.ProjectID,
		Status: r.Status, Terminal: r.Terminal(), TerminalReason: r.TerminalReason, Error: r.Error,
		TriggerType: r.TriggerType, TriggerActionKey: r.TriggerActionKey, IsTest: r.IsTest, InputJSON: r.InputJSON(),
		ReplayOfRunID: r.ReplayOfRunID, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}

// in is the run as a reader of lang sees it: its terminal reason and error, which the
// interpreter records in English, worded again, a failed action's reason from actions (a
// list of runs, which has none at hand, says only which action failed).
func (v runView) in(lang string, actions []automation.ActionRun) runView {
	v.TerminalReason = terminalReason(lang, v.TerminalReason, actions)
	if v.Error != "" {
		v.Error = terminalReason(lang, v.Error, actions)
	}
	return v
}

// terminalReason words a run's terminal reason, recorded in one of the forms of the
// failure table's run.* entries, in lang; a reason in no such form stays as recorded.
func terminalReason(lang, recorded string, actions []automation.ActionRun) string {
	say := func(key string, args map[string]string) string {
		text, _, _ := automation.FailureText(lang, key, "", args)
		return text
	}
	for _, key := range []string{"run.succeeded", "run.cancelled"} {
		if recorded == enText(key) {
			return say(key, nil)
		}
	}
	prefix, suffix, _ := strings.Cut(enText("run.failed"), "{action_key}")
	suffix, _, _ = strings.Cut(suffix, "{reason}")
	rest, ok := strings.CutPrefix(recorded, prefix)
	key, reason, found := strings.Cut(rest, suffix)
	if !ok || !found {
		return recorded
	}
	for _, a := range actions {
		if a.ActionKey == key && a.Error != nil && *a.Error == reason {
			if worded, _, ok := failureText(lang, automation.DecodeObject(a.Diagnostics)); ok {
				reason = worded
			}
			return say("run.failed", map[string]string{"action_key": key, "reason": reason})
		}
	}
	if lang == "en" {
		return recorded
	}
	return say("run.failed_short", map[string]string{"action_key": key})
}

// enText is the English text of a failure table entry without arguments.
func enText(key string) string {
	text, _, _ := automation.FailureText("en", key, "", map[string]string{"action_key": "{action_key}", "reason": "{reason}"})
	return text
}

// historyURL is where the Temporal Web UI lists the executions of a run (a retry is a new
// execution under the same workflow id); empty when no Web UI is known.
func (s *Server) historyURL(runID uuid.UUID) string {
	if s.TemporalUIURL == "" {
		return ""
	}
	query := url.QueryEscape(`WorkflowId="` + runID.String() + `"`)
	return fmt.Sprintf(
		"%s/namespaces/%s/workflows?query=%s",
		strings.TrimSuffix(s.TemporalUIURL, "/"), url.PathEscape(s.TemporalNamespace), query,
	)
}

type runInputRequest struct {
	Input map[string]any `json:"input"`
}

// runManual serves POST /api/v1/workflows/{workflow_id}/runs/manual.
func (s *Server) runManual(c *gin.Context) {
	var req runInputRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	r, err := s.Intake.StartManual(c, workflow(c), actor(c).UserID, req.Input)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusAccepted, s.viewRun(r))
}

// workflowTestRunCreate serves POST /api/v1/workflows/{workflow_id}/test-runs: the draft
// runs with its test input (or the input given), marked as a test.
func (s *Server) workflowTestRunCreate(c *gin.Context) {
	var req runInputRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	w := workflow(c)
	if err := mayRunWrites(c, w.Draft().Graph); err != nil {
		httpx.WriteError(c, err)
		return
	}
	r, err := s.Runs.StartTest(c, w, actor(c).UserID, req.Input)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusAccepted, s.viewRun(r))
}

// runList serves GET /api/v1/workflows/{workflow_id}/runs.
func (s *Server) runList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]automation.Run, string, error) {
		filter, err := runFilter(c.Query)
		if err != nil {
			return nil, "", err
		}
		return s.Workflows.Runs(c, workflow(c), filter, page)
	}, each(func(r automation.Run) runView { return s.viewRun(&r).in(httpx.Lang(c), nil) }))
}

type projectRunView struct {
	runView
	WorkflowName string `json:"workflow_name"`
}

// projectRunList serves GET /api/v1/projects/{project_id}/runs: the runs of every workflow
// of the project, each with its workflow's name.
func (s *Server) projectRunList(c *gin.Context) {
	p := project(c)
	servePage(c, func(page models.PageRequest) ([]automation.ProjectRun, string, error) {
		filter, err := runFilter(c.Query)
		if err != nil {
			return nil, "", err
		}
		return s.Workflows.ProjectRuns(c, p.CompanyID, p.ID, filter, page)
	}, each(func(r automation.ProjectRun) projectRunView {
		return projectRunView{runView: s.viewRun(&r.Run).in(httpx.Lang(c), nil), WorkflowName: r.WorkflowName}
	}))
}

// runFilter reads the filters of a run list (status, trigger_type, workflow_version_id,
// created_from, created_to, q, failed_action_key, retry_class).
// Errors: invalid (the parameter).
func runFilter(param func(name string) string) (automation.RunFilter, error) {
	f := automation.RunFilter{
		Status: automation.RunStatus(param("status")), TriggerType: param("trigger_type"),
		Q: param("q"), FailedActionKey: param("failed_action_key"), RetryClass: param("retry_class"),
	}
	if f.RetryClass != "" && !slices.Contains(activities.RetryClasses, f.RetryClass) {
		return f, models.Invalid("invalid_run_filter", "retry_class")
	}
	if v := param("workflow_version_id"); v != "" {
		id, err := uuid.Parse(v)
		if err != nil {
			return f, models.Invalid("invalid_run_filter", "workflow_version_id")
		}
		f.WorkflowVersionID = &id
	}
	for _, bound := range []struct {
		name string
		to   **time.Time
	}{{"created_from", &f.CreatedFrom}, {"created_to", &f.CreatedTo}} {
		if v := param(bound.name); v != "" {
			t, err := time.Parse(time.RFC3339Nano, v)
			if err != nil {
				return f, models.Invalid("invalid_run_filter", bound.name)
			}
			*bound.to = &t
		}
	}
	return f, nil
}

// runGet serves GET /api/v1/runs/{workflow_run_id}.
func (s *Server) runGet(c *gin.Context) {
	r := run(c)
	actions, err := s.Workflows.ActionRuns(c, r)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, s.viewRun(r).in(httpx.Lang(c), actions))
}

type actionRunView struct {
	ActionRunID          uuid.UUID               `json:"action_run_id"`
	ActionKey            string                  `json:"action_key"`
	ActionTypeKey        string                  `json:"action_type_key"`
	Status               automation.ActionStatus `json:"status"`
	AttemptCount         int                     `json:"attempt_count"`
	MaxAttempts          int                     `json:"max_attempts"`
	RetryCount           int                     `json:"retry_count"`
	RetryClass           string                  `json:"retry_class,omitempty"`
	InputJSON            map[string]any          `json:"input_json"`
	OutputJSON           map[string]any          `json:"output_json"`
	ProviderResponseJSON map[string]any          `json:"provider_response_json"`
	Error                *string                 `json:"error"`
	Diagnostics          map[string]any          `json:"diagnostics"`
	StartedAt            *time.Time              `json:"started_at"`
	FinishedAt           *time.Time              `json:"finished_at"`
}

// viewActionRun is the action as a reader of lang sees it: a failure the catalog words
// (automation.FailureText) in their language.
func viewActionRun(lang string, a automation.ActionRun) actionRunView {
	v := actionRunView{
		ActionRunID: a.ID, ActionKey: a.ActionKey, ActionTypeKey: a.ActionTypeKey, Status: a.Status,
		AttemptCount: a.SeriesAttempts(), MaxAttempts: a.SeriesMaxAttempts(), RetryCount: a.RetryCount, RetryClass: a.RetryClass,
		InputJSON: automation.DecodeObject(a.Input), OutputJSON: automation.DecodeObject(a.Output),
		ProviderResponseJSON: automation.DecodeObject(a.ProviderResponse), Error: a.Error,
		Diagnostics: automation.DecodeObject(a.Diagnostics), StartedAt: a.StartedAt, FinishedAt: a.FinishedAt,
	}
	if reason, next, ok := failureText(lang, v.Diagnostics); ok {
		v.Error = &reason
		v.Diagnostics["human_reason"], v.Diagnostics["next_action"] = reason, next
		v.Diagnostics["summary"] = a.RetryClass + ": " + reason
	}
	if a.Status == automation.ActionDeadLettered {
		// The last failure's advice was written while attempts remained.
		_, v.Diagnostics["next_action"], _ = automation.FailureText(lang, automation.ReasonAttemptsExhausted, "", nil)
	}
	return v
}

// failureText words the failure recorded in a diagnostics object (or a failure event's
// data) in lang, when the failure table has its text_key (or, recorded before failures had
// one, its reason_code).
func failureText(lang string, recorded map[string]any) (reason, next string, ok bool) {
	key, _ := recorded["text_key"].(string)
	if key == "" {
		key, _ = recorded["reason_code"].(string)
	}
	nextKey, _ := recorded["next_key"].(string)
	recordedArgs, _ := recorded["reason_args"].(map[string]any)
	args := make(map[string]string, len(recordedArgs))
	for k, v := range recordedArgs {
		args[k], _ = v.(string)
	}
	return automation.FailureText(lang, key, nextKey, args)
}

// runActions serves GET /api/v1/runs/{workflow_run_id}/actions: every action of the run, in
// graph order (one page: a run's actions are bounded by its graph).
func (s *Server) runActions(c *gin.Context) {
	rows, err := s.Workflows.ActionRuns(c, run(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	lang := httpx.Lang(c)
	renderList(c, rows, "", func(a automation.ActionRun) actionRunView { return viewActionRun(lang, a) })
}

type graphActionView struct {
	automation.Action
	Status       automation.ActionStatus `json:"status"`
	AttemptCount int                     `json:"attempt_count"`
	MaxAttempts  int                     `json:"max_attempts"`
	RetryCount   int                     `json:"retry_count"`
}

type runGraphView struct {
	WorkflowRunID uuid.UUID               `json:"workflow_run_id"`
	Status        automation.RunStatus    `json:"status"`
	Actions       []graphActionView       `json:"actions"`
	Connections   []automation.Connection `json:"connections"`
}

// runGraph serves GET /api/v1/runs/{workflow_run_id}/graph: the graph the run executes,
// each action with its state.
func (s *Server) runGraph(c *gin.Context) {
	r := run(c)
	rows, err := s.Workflows.ActionRuns(c, r)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	byKey := map[string]automation.ActionRun{}
	for _, row := range rows {
		byKey[row.ActionKey] = row
	}
	g := r.GraphJSON()
	view := runGraphView{
		WorkflowRunID: r.ID,
		Status:        r.Status,
		Connections:   nonNil(g.Connections),
		Actions:       make([]graphActionView, len(g.Actions)),
	}
	for i, a := range g.Actions {
		st := byKey[a.ActionKey]
		view.Actions[i] = graphActionView{Action: a, Status: st.Status, AttemptCount: st.SeriesAttempts(), MaxAttempts: st.SeriesMaxAttempts(),
			RetryCount: st.RetryCount}
	}
	c.JSON(http.StatusOK, view)
}

type runEventView struct {
	EventID   uuid.UUID      `json:"event_id"`
	Sequence  int            `json:"sequence"`
	EventType string         `json:"event_type"`
	ActionKey string         `json:"action_key"`
	Status    string         `json:"status"`
	Message   string         `json:"message"`
	DataJSON  map[string]any `json:"data_json"`
	CreatedAt time.Time      `json:"created_at"`
}

// viewEvent is the event as a reader of lang sees it: a failure the catalog words in their
// language.
func viewEvent(lang string, e automation.RunEvent) runEventView {
	v := runEventView{
		EventID: e.ID, Sequence: e.Sequence, EventType: e.EventType, ActionKey: e.ActionKey, Status: e.Status,
		Message: e.Message, DataJSON: automation.DecodeObject(e.Data), CreatedAt: e.CreatedAt,
	}
	if reason, _, ok := failureText(lang, v.DataJSON); ok {
		v.Message = reason
	}
	if strings.HasPrefix(e.EventType, "run.") {
		v.Message = terminalReason(lang, v.Message, nil)
	}
	return v
}

// afterSequence reads where an event listing resumes: the cursor of the previous page (the
// last sequence seen), or for streams the Last-Event-ID header.
func afterSequence(value, field string) (int, error) {
	if value == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(value)
	if err != nil || n < 0 {
		return 0, models.Invalid("invalid_cursor", field)
	}
	return n, nil
}

// runEvents serves GET /api/v1/runs/{workflow_run_id}/events: the run's events in order.
// The cursor is the sequence number of the last event seen.
func (s *Server) runEvents(c *gin.Context) {
	limit, err := httpx.Limit(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	after, err := afterSequence(c.Query("cursor"), "cursor")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	rows, err := s.Workflows.Events(c, run(c).ID, after, limit+1)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	next := ""
	if len(rows) > limit {
		rows = rows[:limit]
		next = strconv.Itoa(rows[len(rows)-1].Sequence)
	}
	lang := httpx.Lang(c)
	renderList(c, rows, next, func(e automation.RunEvent) runEventView { return viewEvent(lang, e) })
}

// streamKeepAlive is how often an idle stream sends a comment so proxies keep it open.
const streamKeepAlive = 15 * time.Second

// runEventsStream serves GET /api/v1/runs/{workflow_run_id}/events/stream as Server-Sent
// Events: each event's id is its sequence number, so a client reconnecting with
// Last-Event-ID (or ?cursor=) resumes after it. New events are read when the bus says the
// run changed. The stream ends with an `end` event once the run is finished and every event
// was sent.
func (s *Server) runEventsStream(c *gin.Context) {
	resume := c.GetHeader("Last-Event-ID")
	if resume == "" {
		resume = c.Query("cursor")
	}
	after, err := afterSequence(resume, "cursor")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	runID := run(c).ID
	watch := s.watchRun(runID)
	defer watch.close()
	beginEventStream(c)
	keepAlive := time.NewTicker(streamKeepAlive)
	defer keepAlive.Stop()
	for {
		r, err := s.Workflows.Run(c, runID)
		if err != nil {
			return
		}
		events, err := s.Workflows.Events(c, runID, after, 500)
		if err != nil {
			return
		}
		for _, e := range events {
			data, _ := json.Marshal(viewEvent(httpx.Lang(c), e))
			fmt.Fprintf(c.Writer, "id: %d\nevent: %s\ndata: %s\n\n", e.Sequence, e.EventType, data)
			after = e.Sequence
		}
		if len(events) > 0 {
			c.Writer.Flush()
			keepAlive.Reset(streamKeepAlive)
			continue
		}
		if r.Terminal() {
			fmt.Fprintf(c.Writer, "event: end\ndata: {\"status\":%q}\n\n", r.Status)
			c.Writer.Flush()
			return
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

// runCancel serves POST /api/v1/runs/{workflow_run_id}/cancel. Cancellation is
// asynchronous: the answer is the run as it stands; it turns cancelled within moments.
func (s *Server) runCancel(c *gin.Context) {
	r := run(c)
	if err := s.Runs.Cancel(c, r); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusAccepted, s.viewRun(r))
}

// replayRequest is runReplay's optional body: the input the replay starts with instead of
// the recorded one, and which version it runs (original, the default, or latest).
type replayRequest struct {
	InputJSON map[string]any `json:"input_json"`
	Version   string         `json:"version"`
}

// runReplay serves POST /api/v1/runs/{workflow_run_id}/replay: a new run of the same
// version and input, or of those the body gives, linked to the original by replay_of_run_id.
func (s *Server) runReplay(c *gin.Context) {
	var req replayRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	r, err := s.Runs.Replay(c, run(c), actor(c).UserID, engine.ReplayChanges{Input: req.InputJSON, Latest: req.Version == "latest"})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusAccepted, s.viewRun(r))
}

type retryActionRequest struct {
	ActionKey string `json:"action_key"`
}

// runRetryAction serves POST /api/v1/runs/{workflow_run_id}/retry-action.
func (s *Server) runRetryAction(c *gin.Context) {
	var req retryActionRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	r, err := s.Runs.RetryAction(c, run(c), req.ActionKey)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusAccepted, s.viewRun(r))
}
