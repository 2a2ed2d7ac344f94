package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"agencyhub/activities"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/integration"
	"agencyhub/schemas"
)

// Trigger types of runs.
const (
	TriggerManual   = "manual"
	TriggerTest     = "test"
	TriggerReplay   = "replay"
	TriggerWebhook  = "webhook"
	TriggerSchedule = "schedule"
	TriggerRelay    = "relay"
	TriggerPayment  = "payment"
	TriggerTask     = "task"
	TriggerRunEvent = automation.TriggerRunEvent
)

// Default execution policy of activity actions; http.request's config may override it.
const (
	defaultActionTimeout = time.Minute
	defaultMaxAttempts   = 3
	defaultInitial       = time.Second
	defaultBackoff       = 2.0
	defaultMaxInterval   = time.Minute
	// timeoutMargin lets an action's own timeout fire, and be classified, before
	// Temporal's start-to-close timeout does.
	timeoutMargin = 15 * time.Second
	// localActionTimeout is the longest an action may be allowed to take and still run as
	// a local activity: a local activity holds its run's workflow task open, which Temporal
	// keeps alive with a new task every few seconds; longer actions are worth their own
	// activity task.
	localActionTimeout = defaultActionTimeout + timeoutMargin
)

// Runs starts and steers runs: it has the run's projection rows written, then hands the run
// to Temporal with the run id as the Temporal workflow id. Runs of published versions start
// through the Intake; Runs itself starts test runs of drafts, replays, retries and cancels.
type Runs struct {
	Client    client.Client
	Workflows *automation.Service
	Catalog   *schemas.Catalog
	// Drafts validates the drafts test runs start from.
	Drafts *Drafts
	// Templates resolves the project templates send actions name.
	Templates *integration.Service
	// TaskQueue is where runs are dispatched; the worker polls the same one.
	TaskQueue string
	// WebURL is the console's base address: system.run_url and system.link open the run in
	// the console, at /runs/{id} (APP_WEB_URL, by default the service's own address).
	WebURL string
	// Namespace is the client's namespace, where the runs' search attributes are looked up;
	// empty, runs carry none.
	Namespace string
	// OnQueued wakes the Dispatcher (intake.Dispatcher.Notify, which sets it): a run or a
	// reply was queued.
	OnQueued func()
	searchAttributeState
}

// Start describes a run to start.
type Start struct {
	// RunID, when set, makes the start idempotent: a run that already has this id is
	// answered (and handed to Temporal again if it never got there) instead of a new one.
	RunID                            uuid.UUID
	CompanyID, ProjectID, WorkflowID uuid.UUID
	Version                          *automation.Version // nil for test runs of the draft
	Graph                            automation.Graph
	TriggerType                      string
	TriggerKey                       string
	Payload                          map[string]any
	// Namespaces are template namespaces the trigger provides beyond its payload under its
	// own namespace (a schedule's planned time, a relay's chat and bot session); they
	// override the defaults.
	Namespaces map[string]any
	ReplayOf   *uuid.UUID
	StartedBy  *uuid.UUID
	// Queued leaves handing the run to Temporal to the Dispatcher: start answers once the
	// run is stored, whether Temporal is up or not.
	Queued bool
}

// StartTest runs the draft, marked as a test, from its manual trigger (or else its first
// trigger) with the given input, else the draft's test input; an empty one is the
// trigger's sample payload, as the trigger's help promises.
// Errors: invalid (the draft's problems), conflict (archived), unavailable.
func (s *Runs) StartTest(ctx context.Context, w *automation.Workflow, userID uuid.UUID, input map[string]any) (*automation.Run, error) {
	if err := w.RequireLive(); err != nil {
		return nil, err
	}
	d := w.Draft()
	if err := s.Drafts.Require(ctx, w, d.Graph); err != nil {
		return nil, err
	}
	trigger, ok := automation.FirstOfType(d.Graph, automation.TypeManual)
	if !ok {
		trigger = s.firstTrigger(d.Graph)
	}
	if input == nil {
		input = d.TestInput
	}
	if a, _ := d.Graph.Action(trigger); len(input) == 0 && a.SamplePayload() != nil {
		input = a.SamplePayload()
	}
	return s.Start(ctx, Start{CompanyID: w.CompanyID, ProjectID: w.ProjectID, WorkflowID: w.ID, Graph: d.Graph,
		TriggerType: TriggerTest, TriggerKey: trigger, Payload: input, StartedBy: &userID})
}

// ReplayChanges are what a replay changes of the run it replays: Input replaces its
// recorded trigger input (nil keeps it), and Latest runs the workflow's current version
// instead of the run's own.
type ReplayChanges struct {
	Input  map[string]any
	Latest bool
	// RunID, when set, is the new run's id, which makes the replay idempotent (Start.RunID).
	RunID uuid.UUID
}

// Replay starts a new run of r's version (or draft graph), or of the current version when
// asked, from the trigger that started r, with its recorded input or the one given, which
// must then satisfy the trigger's input_schema_json. Errors: invalid (input_json's fields
// that fail the schema; version latest of a workflow never published), conflict (archived;
// the latest version has no such trigger), unavailable.
func (s *Runs) Replay(ctx context.Context, r *automation.Run, userID uuid.UUID, changes ReplayChanges) (*automation.Run, error) {
	w, err := s.Workflows.WorkflowOf(ctx, r.CompanyID, r.WorkflowID)
	if err != nil {
		return nil, err
	}
	if err := w.RequireLive(); err != nil {
		return nil, err
	}
	start := Start{CompanyID: r.CompanyID, ProjectID: r.ProjectID, WorkflowID: r.WorkflowID, Graph: r.GraphJSON(),
		TriggerType: TriggerReplay, TriggerKey: r.TriggerActionKey, Payload: r.InputJSON(), Namespaces: r.NamespacesJSON(),
		ReplayOf: &r.ID, StartedBy: &userID, RunID: changes.RunID}
	if start.Version, start.Graph, err = s.replayed(ctx, w, r, changes.Latest); err != nil {
		return nil, err
	}
	if changes.Input != nil {
		if trigger, ok := start.Graph.Action(r.TriggerActionKey); ok {
			if err := automation.CheckTriggerInput(trigger.Config, changes.Input, "input_json"); err != nil {
				return nil, err
			}
		}
		start.Payload = changes.Input
	}
	return s.Start(ctx, start)
}

// replayed is the version and graph a replay of r runs: r's own (the graph it recorded), or
// the workflow's current version when latest. Errors: invalid (latest, never published),
// conflict (the latest version lacks r's trigger).
func (s *Runs) replayed(ctx context.Context, w *automation.Workflow, r *automation.Run, latest bool) (*automation.Version, automation.Graph, error) {
	if !latest {
		if r.WorkflowVersionID == nil {
			return nil, r.GraphJSON(), nil // a test run of the draft
		}
		v, err := s.Workflows.Version(ctx, r.WorkflowID, *r.WorkflowVersionID)
		return v, r.GraphJSON(), err
	}
	if w.CurrentVersionID == nil {
		return nil, automation.Graph{}, models.Invalid("workflow_not_published", "version")
	}
	v, err := s.Workflows.Version(ctx, r.WorkflowID, *w.CurrentVersionID)
	if err != nil {
		return nil, automation.Graph{}, err
	}
	g := v.Graph()
	if _, ok := g.Action(r.TriggerActionKey); !ok {
		return nil, automation.Graph{}, models.Conflict("replay_trigger_missing", "version")
	}
	return v, g, nil
}

func (s *Runs) firstTrigger(g automation.Graph) string {
	for _, a := range g.Actions {
		if t, ok := s.Catalog.Action(a.ActionTypeKey); ok && t.Trigger {
			return a.ActionKey
		}
	}
	return ""
}

// Start has the run and its pending actions stored, then starts the interpreter, or leaves
// that to the Dispatcher when st.Queued. A run the engine refuses is kept, marked failed with
// the reason, and reported unavailable.
func (s *Runs) Start(ctx context.Context, st Start) (*automation.Run, error) {
	if st.RunID != uuid.Nil {
		if run, err := s.Workflows.Run(ctx, st.RunID); err == nil && st.Queued {
			return run, nil // stored before: handed over, or still in the Dispatcher's queue
		} else if err == nil {
			return run, s.resume(ctx, run)
		} else if !models.IsKind(err, models.KindNotFound) {
			return nil, err
		}
	} else {
		st.RunID = models.NewID()
	}
	if st.Payload == nil {
		st.Payload = map[string]any{}
	}
	graph, err := s.withTemplates(ctx, st.CompanyID, st.ProjectID, st.Graph)
	if err != nil {
		return nil, err
	}
	st.Graph = graph
	run := &automation.Run{
		ID: st.RunID, CompanyID: st.CompanyID, ProjectID: st.ProjectID, WorkflowID: st.WorkflowID,
		Status: automation.RunPending, TriggerType: st.TriggerType, TriggerActionKey: st.TriggerKey,
		IsTest: st.Version == nil, Input: mustJSON(st.Payload), Namespaces: mustJSON(nonNilMap(st.Namespaces)), Graph: mustJSON(st.Graph),
		ReplayOfRunID: st.ReplayOf, StartedBy: st.StartedBy,
	}
	if st.Version != nil {
		run.WorkflowVersionID = &st.Version.ID
	}
	policies := s.policies(st.Graph)
	maxAttempts := make(map[string]int, len(policies))
	for key, p := range policies {
		maxAttempts[key] = p.MaxAttempts
	}
	if st.Queued {
		run.TraceParent = traceParent(ctx) // the dispatcher starts it in this request's trace
	} else {
		now := time.Now().UTC()
		run.DispatchedAt = &now // this request hands it over, right below
	}
	if err := s.Workflows.CreateRun(ctx, run, maxAttempts); err != nil {
		return nil, err
	}
	if st.Queued {
		s.OnQueued()
		return run, nil
	}
	return run, s.execute(ctx, run, s.runInput(run), enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
}

// resume hands a run that never began to Temporal again: one whose starter died before
// handing it over (still pending), or one the engine refused (failed without starting).
// A run that began is left as it is.
func (s *Runs) resume(ctx context.Context, run *automation.Run) error {
	if run.StartedAt != nil || (run.Status != automation.RunPending && run.Status != automation.RunFailed) {
		return nil
	}
	if run.Status == automation.RunFailed {
		if err := s.Workflows.ReopenRun(ctx, run, ""); err != nil {
			return err
		}
	}
	return s.execute(ctx, run, s.runInput(run), enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
}

// runInput is the interpreter's input for a stored run: its graph, trigger, payload and
// namespaces as recorded when it was accepted.
func (s *Runs) runInput(run *automation.Run) RunInput {
	st := Start{Graph: run.GraphJSON(), TriggerKey: run.TriggerActionKey, Payload: run.InputJSON(), Namespaces: run.NamespacesJSON()}
	return RunInput{
		RunID: run.ID, CompanyID: run.CompanyID, ProjectID: run.ProjectID, WorkflowID: run.WorkflowID,
		Graph: st.Graph, TriggerKey: st.TriggerKey, Payload: st.Payload,
		Namespaces: s.namespaces(run, st), Policies: s.policies(st.Graph),
	}
}

// startExecution hands the run to Temporal; the run id is the workflow id, so Temporal's
// view and ours line up. A new run refuses an id Temporal has seen; a retry of a finished
// run is a new execution under the same id. An execution that already exists is the run's.
// Eager start hands the first workflow task straight to this process's worker, when it has
// a free slot, instead of through a task queue poll. Errors: Temporal's.
func (s *Runs) startExecution(ctx context.Context, run *automation.Run, in RunInput, reuse enumspb.WorkflowIdReusePolicy) error {
	attributes := s.searchAttributes(ctx, run)
	in.SearchAttributes = attributes.Size() > 0
	_, err := s.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                    run.ID.String(),
		TaskQueue:             s.TaskQueue,
		WorkflowIDReusePolicy: reuse,
		TypedSearchAttributes: attributes,
		EnableEagerStart:      true,
	}, WorkflowName, in)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if err == nil || errors.As(err, &started) {
		return nil
	}
	return err
}

// HandOver starts the execution of a run the Dispatcher took from the queue, or finds it
// started, and marks the run dispatched. The start continues the trace of the request that
// queued the run (Run.TraceParent), when it had one.
func (s *Runs) HandOver(ctx context.Context, run *automation.Run) error {
	if err := s.startExecution(withTraceParent(ctx, run.TraceParent), run, s.runInput(run), enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE); err != nil {
		return err
	}
	return s.Workflows.MarkDispatched(ctx, run.ID)
}

// execute starts the run's execution; a run Temporal does not take is refused: kept, failed
// with the reason, and reported unavailable.
func (s *Runs) execute(ctx context.Context, run *automation.Run, in RunInput, reuse enumspb.WorkflowIdReusePolicy) error {
	err := s.startExecution(ctx, run, in, reuse)
	if err == nil {
		return nil
	}
	if rerr := s.Workflows.RefuseRun(ctx, run.ID, "the workflow engine did not accept the run: "+err.Error()); rerr != nil {
		return rerr
	}
	return models.Unavailable("engine_unavailable", err)
}

// namespaces are the template namespaces besides steps: the trigger's payload under the
// trigger's namespace, and the service's system variables.
func (s *Runs) namespaces(run *automation.Run, st Start) map[string]any {
	url := fmt.Sprintf("%s/runs/%s", s.WebURL, run.ID)
	ns := map[string]any{
		"system": map[string]any{"id": run.ID.String(), "run_id": run.ID.String(), "run_url": url, "link": url},
	}
	if trigger, ok := st.Graph.Action(st.TriggerKey); ok {
		for name := range automation.TriggerNamespaces(automation.Graph{Actions: []automation.Action{trigger}}) {
			ns[name] = st.Payload
		}
	}
	maps.Copy(ns, st.Namespaces)
	return ns
}

// policies computes each activity action's timeouts and retry policy from the catalog and
// its config, outside workflow code. Actions without an activity have none.
func (s *Runs) policies(g automation.Graph) map[string]ActionPolicy {
	out := map[string]ActionPolicy{}
	for _, a := range g.Actions {
		t, ok := s.Catalog.Action(a.ActionTypeKey)
		if !ok || t.Trigger || interpreted[a.ActionTypeKey] {
			continue // no activity, no attempts to plan
		}
		p := ActionPolicy{Timeout: defaultActionTimeout + timeoutMargin, MaxAttempts: defaultMaxAttempts,
			InitialInterval: defaultInitial, BackoffCoefficient: defaultBackoff, MaxInterval: defaultMaxInterval}
		config := t.ApplyDefaults(a.Config)
		p.Idempotent = t.Idempotent
		if method, ok := config["method"].(string); ok && a.ActionTypeKey == activities.ActionHTTPRequest {
			// A target that acts once per Idempotency-Key makes any method safe to repeat.
			p.Idempotent = idempotentMethods[method] || config["target_deduplicates"] == true
		}
		if readOnly, ok := config["read_only"].(bool); ok && a.ActionTypeKey == activities.ActionDBQuery {
			p.Idempotent = readOnly // a read repeated reads again; a write may not be repeated
		}
		// An approval's timeout_seconds is how long it waits, not how long its activity may take.
		if secs := ToInt(config["timeout_seconds"]); secs > 0 && a.ActionTypeKey != automation.TypeApproval {
			p.Timeout = time.Duration(secs)*time.Second + timeoutMargin
		}
		if rp, ok := config["retry_policy"].(map[string]any); ok {
			p.MaxAttempts = intOr(rp["max_attempts"], p.MaxAttempts)
			p.InitialInterval = secondsOr(rp["initial_interval_seconds"], p.InitialInterval)
			p.MaxInterval = secondsOr(rp["max_interval_seconds"], p.MaxInterval)
			if b, ok := rp["backoff_coefficient"].(float64); ok && b >= 1 {
				p.BackoffCoefficient = b
			}
		}
		p.Local = p.Timeout <= localActionTimeout
		out[a.ActionKey] = p
	}
	return out
}

// interpreted are the action types the interpreter evaluates itself, without an activity.
var interpreted = map[string]bool{
	automation.TypeCondition: true, automation.TypeSwitch: true, automation.TypeDataSet: true,
	automation.TypeStop: true, automation.TypeDelay: true, automation.TypeLoop: true,
}

// idempotentMethods are the HTTP methods whose repetition has the effect of one request.
var idempotentMethods = map[string]bool{"GET": true, "HEAD": true, "PUT": true, "DELETE": true, "OPTIONS": true}

func nonNilMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func intOr(v any, def int) int {
	if n := ToInt(v); n > 0 {
		return n
	}
	return def
}

func secondsOr(v any, def time.Duration) time.Duration {
	if n := ToInt(v); n > 0 {
		return time.Duration(n) * time.Second
	}
	return def
}

// Cancel asks Temporal to cancel a run; the interpreter stops its running activity or
// timer and records the run cancelled. Errors: conflict (already finished), unavailable.
func (s *Runs) Cancel(ctx context.Context, r *automation.Run) error {
	if r.Terminal() {
		return models.Conflict("run_finished", "workflow_run_id")
	}
	if err := s.Client.CancelWorkflow(ctx, r.ID.String(), ""); err != nil {
		return models.Unavailable("engine_unavailable", err)
	}
	return nil
}

// closeTimeout bounds how long a retry waits for the failed execution to close.
const closeTimeout = 30 * time.Second

// awaitClosed waits until the run's current Temporal execution has closed, however it
// ended. Errors: unavailable.
func (s *Runs) awaitClosed(ctx context.Context, runID uuid.UUID) error {
	ctx, cancel := context.WithTimeout(ctx, closeTimeout)
	defer cancel()
	err := s.Client.GetWorkflow(ctx, runID.String(), "").Get(ctx, nil)
	var ended *temporal.WorkflowExecutionError
	var canceled *temporal.CanceledError
	if err == nil || errors.As(err, &ended) || errors.As(err, &canceled) {
		return nil
	}
	return models.Unavailable("engine_unavailable", err)
}

// RetryAction re-executes one failed action of a failed run and continues the graph from
// it. The run keeps its id: a new Temporal execution of the same workflow id starts from
// the recorded state, where actions that succeeded keep their outputs and are not run
// again. Errors: conflict (the run is not failed, or the action did not fail),
// invalid (unknown action), unavailable.
//
// An action of a loop item's body is named by its key in the run (lines[3].create): the
// loop runs again, where that item runs again from that action and keeps what its other
// actions came to, the items that ran keep what they came to, and those that never ran,
// run.
func (s *Runs) RetryAction(ctx context.Context, r *automation.Run, actionKey string) (*automation.Run, error) {
	rows, err := s.Workflows.ActionRuns(ctx, r)
	if err != nil {
		return nil, err
	}
	resume := &Resume{RetryKey: actionKey, Actions: map[string]ResumedAction{}}
	if loop, _, _, inLoop := automation.SplitItemActionKey(actionKey); inLoop {
		if err := s.itemRetryable(ctx, r, rows, loop, actionKey); err != nil {
			return nil, err
		}
		resume.RetryKey, resume.ItemAction = loop, actionKey
	} else if err := retryable(r, rows, actionKey); err != nil {
		return nil, err
	}
	for _, row := range rows {
		resume.Actions[row.ActionKey] = ResumedAction{Status: row.Status, Output: automation.DecodeObject(row.Output), Attempts: row.AttemptCount}
	}
	lastSeq, err := s.Workflows.LastEventSequence(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	resume.NextSequence = lastSeq + 1
	// The projection says failed once the interpreter's last write committed, a moment
	// before its Temporal execution closes: the new execution may start only after that,
	// or Temporal would answer the closing one instead of starting it.
	if err := s.awaitClosed(ctx, r.ID); err != nil {
		return nil, err
	}
	in := s.runInput(r)
	in.Resume = resume
	reopened := *r
	if err := s.Workflows.ReopenRun(ctx, &reopened, actionKey); err != nil {
		return nil, err
	}
	if err := s.execute(ctx, &reopened, in, enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE); err != nil {
		return nil, err
	}
	// The contract answers the run pending again, as reopened: a read after the start
	// could find a short run, started eagerly, finished already.
	return &reopened, nil
}
