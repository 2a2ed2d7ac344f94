package engine

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"agencyhub/activities"
	"agencyhub/engine/devserver"
	"agencyhub/models/automation"
)

// The files in testdata are Temporal histories of representative runs, recorded against the
// embedded server. Replaying them with the current interpreter is the guard that a change
// does not break runs already in flight: a change that makes different decisions for the
// same history must go behind workflow.GetVersion (docs/workflows.md, "Versioning"). The
// histories without a progress-writes marker are runs started before progressChange, whose
// input's flags said how they write: the unbatched_* ones before RunInput.BatchedProgress,
// separate_progress_local_retries before RunInput.ProgressWithAction, the others with
// BatchedProgress, local_retries with both; marked_local_branching and language_steps (a
// data step, a switch and an error path), loop_items (a loop.for_each, with its loop's
// own workflow in loop_items_loop), approval_decided and approval_timed_out (an
// approval.wait decided by signal, and one that timed out) are runs of today, with the marker. They are kept
// as they are. local_retries and marked_local_branching have
// actions run as local activities (ActionPolicy.Local), as new runs of short actions do,
// the others as activity tasks. Record a new one, or the others again only for a
// deliberate break, with a regular expression of the names to write:
//
//	ENGINE_RECORD_HISTORIES=marked_local_branching go test ./engine -run TestRecordHistories
const recordHistoriesEnv = "ENGINE_RECORD_HISTORIES"

func recordedHistories(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded histories in testdata (%v)", err)
	}
	return files
}

func quietLogger() sdklog.Logger { return sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)) }

func TestRecordedHistoriesReplay(t *testing.T) {
	for _, file := range recordedHistories(t) {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			replayer := worker.NewWorkflowReplayer()
			registerReplayed(replayer, Interpret, RunLoop)
			if err := replayer.ReplayWorkflowHistoryFromJSONFile(quietLogger(), file); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestRecordedHistoriesReplayWithTracing: a worker that traces (TracingInterceptor) replays
// the histories recorded without tracing: the trace context travels in headers, which
// replay does not compare, and the interpreter's decisions are the same.
func TestRecordedHistoriesReplayWithTracing(t *testing.T) {
	tracing, err := TracingInterceptor(sdktrace.NewTracerProvider())
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range recordedHistories(t) {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			replayer, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{
				Interceptors: []interceptor.WorkerInterceptor{tracing},
			})
			if err != nil {
				t.Fatal(err)
			}
			registerReplayed(replayer, Interpret, RunLoop)
			if err := replayer.ReplayWorkflowHistoryFromJSONFile(quietLogger(), file); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// registerReplayed registers the run's and the loop's workflow code for a replay: the
// histories are of both.
func registerReplayed(r worker.WorkflowReplayer, run func(workflow.Context, RunInput) error,
	loop func(workflow.Context, LoopInput) (activities.Result, error)) {
	r.RegisterWorkflowWithOptions(run, workflow.RegisterOptions{Name: WorkflowName})
	r.RegisterWorkflowWithOptions(loop, workflow.RegisterOptions{Name: LoopWorkflowName})
}

// reorderedInterpreter makes the same decisions as Interpret, after a timer Interpret never
// started: the kind of change the replay test is there to catch.
func reorderedInterpreter(ctx workflow.Context, in RunInput) error {
	if err := workflow.Sleep(ctx, time.Second); err != nil {
		return err
	}
	return Interpret(ctx, in)
}

// reorderedLoop is reorderedInterpreter's counterpart for the loop's workflow.
func reorderedLoop(ctx workflow.Context, in LoopInput) (activities.Result, error) {
	if err := workflow.Sleep(ctx, time.Second); err != nil {
		return activities.Result{}, err
	}
	return RunLoop(ctx, in)
}

func TestReplayCatchesANonDeterministicChange(t *testing.T) {
	for _, file := range recordedHistories(t) {
		replayer := worker.NewWorkflowReplayer()
		registerReplayed(replayer, reorderedInterpreter, reorderedLoop)
		// TMPRL1100 is the SDK's code for a history the workflow code no longer matches.
		if err := replayer.ReplayWorkflowHistoryFromJSONFile(quietLogger(), file); err == nil || !strings.Contains(err.Error(), "TMPRL1100") {
			t.Errorf("%s replayed with a changed interpreter: %v", file, err)
		}
	}
}

// historyRecorder runs scenarios on the embedded server with a real worker, whose progress
// activity is the in-memory log and whose actions are fakes, and saves their histories.
type historyRecorder struct {
	t   *testing.T
	ctx context.Context
	c   client.Client
	// names matches the histories to write; the other scenarios run without being saved.
	names     *regexp.Regexp
	workflows *automation.Service
	log       *progressLog
	fakes     *fakeActions
}

func TestRecordHistories(t *testing.T) {
	if os.Getenv(recordHistoriesEnv) == "" {
		t.Skipf("set %s=1 to record the histories in testdata", recordHistoriesEnv)
	}
	// A data directory rather than memory: devserver.Start's in-memory mode sets up a schema
	// the SQLite plugin has already created, and fails.
	srv, err := devserver.Start(devserver.Options{Namespace: "record", DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := Dial(ctx, ClientOptions{Address: srv.Address(), Namespace: "record"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	names, err := regexp.Compile(os.Getenv(recordHistoriesEnv))
	if err != nil {
		t.Fatalf("%s: %v", recordHistoriesEnv, err)
	}
	r := &historyRecorder{t: t, ctx: ctx, c: c, names: names, workflows: newTestWorkflows(t), log: newProgressLog(), fakes: newFakeActions()}
	r.log.apply = r.workflows.ApplyProgress // loop items' action rows are made by their first write
	w := worker.New(c, TaskQueue, worker.Options{})
	registerEngine(w, r.workflows, r.log, r.fakes)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	r.branchingSuccess()
	failed := r.failureWithRetries()
	r.resumedRetry(failed)
	r.cancelledDuringDelay()
	r.localRetries()
	r.markedLocalBranching()
	r.languageSteps()
	r.loopItems()
	r.approvals()
}

// quickRetries keeps a recording short: the server really waits between attempts.
func quickRetries(in RunInput) {
	for key, p := range in.Policies {
		p.InitialInterval, p.MaxInterval = 100*time.Millisecond, 200*time.Millisecond
		in.Policies[key] = p
	}
}

// allLocal runs every action of a run as a local activity.
func allLocal(in RunInput) {
	for key, p := range in.Policies {
		p.Local = true
		in.Policies[key] = p
	}
}

// branchingSuccess: a second trigger, an activity whose output a condition and a template
// read, a fan-out into a delay and an activity, a join, and a stop on the untaken branch.
func (r *historyRecorder) branchingSuccess() {
	r.fakes.on("fetch", succeeding(map[string]any{"status_code": 200}))
	g := graph([]automation.Action{
		manualTrigger("start"),
		action("hook", automation.TypeWebhook, map[string]any{"endpoint_key": "orders"}),
		httpRequest("fetch", map[string]any{"url": "https://api.example.com/{{ start.id }}"}),
		condition("ok", "steps.fetch.status_code == 200"),
		delay("wait", 1),
		messengerSend("notify", map[string]any{"text": "status {{ steps.fetch.status_code }}"}),
		emailSend("join", nil),
		action("halt", automation.TypeStop, nil),
	}, edge("start", "fetch"), edge("hook", "fetch"), edge("fetch", "ok"),
		branch("ok", "wait", automation.BranchTrue), branch("ok", "notify", automation.BranchTrue),
		branch("ok", "halt", automation.BranchFalse), edge("wait", "join"), edge("notify", "join"))
	in := newRun(r.t, r.workflows, g, "start", map[string]any{"id": "inv_1"})
	p := r.record("branching_success", in, nil)
	r.want(p, automation.RunSucceeded, map[string]automation.ActionStatus{"hook": automation.ActionSkipped, "join": automation.ActionSucceeded, "halt": automation.ActionSkipped})
}

func failureGraphWithSideBranch() automation.Graph {
	return graph([]automation.Action{
		manualTrigger("start"),
		httpRequest("flaky", nil),
		httpRequest("charge", nil),
		emailSend("receipt", map[string]any{"text": "{{ steps.charge.id }}"}),
		messengerSend("side", nil),
	}, edge("start", "flaky"), edge("flaky", "charge"), edge("charge", "receipt"), edge("start", "side"))
}

// failureWithRetries: a transient failure that a retry mends, then one that exhausts its
// attempts, beside a branch that succeeds.
func (r *historyRecorder) failureWithRetries() RunInput {
	transient := activities.Fail(activities.ClassTransient, "http_503", "the provider is unavailable", "Retry later")
	r.fakes.on("flaky", failing(transient, 1, map[string]any{"ok": true}))
	r.fakes.on("charge", failing(transient, 0, nil))
	in := newRun(r.t, r.workflows, failureGraphWithSideBranch(), "start", nil)
	quickRetries(in)
	p := r.record("failure_with_retries", in, nil)
	r.want(p, automation.RunFailed, map[string]automation.ActionStatus{
		"flaky": automation.ActionSucceeded, "charge": automation.ActionDeadLettered,
		"receipt": automation.ActionSkipped, "side": automation.ActionSucceeded,
	})
	return in
}

// resumedRetry: the failed run again, retrying the dead-lettered action, as
// Runs.RetryAction builds it from the projection.
func (r *historyRecorder) resumedRetry(failed RunInput) {
	r.fakes.on("charge", succeeding(map[string]any{"id": "ch_1"}))
	p := r.projection(failed)
	resume := &Resume{RetryKey: "charge", Actions: map[string]ResumedAction{}, NextSequence: p.Events[len(p.Events)-1].Sequence + 1}
	for _, a := range failed.Graph.Actions {
		row := p.Actions[a.ActionKey]
		resume.Actions[a.ActionKey] = ResumedAction{Status: row.Status, Output: row.Output, Attempts: attemptCount(r.t, r.workflows.DB, failed, a.ActionKey)}
	}
	in := failed
	in.Resume = resume
	p = r.record("resumed_retry", in, nil)
	r.want(p, automation.RunSucceeded, map[string]automation.ActionStatus{"charge": automation.ActionSucceeded, "receipt": automation.ActionSucceeded})
}

// localRetries: failureWithRetries with its actions run as local activities, retried by
// the worker within the workflow task or after a timer.
func (r *historyRecorder) localRetries() {
	transient := activities.Fail(activities.ClassTransient, "http_503", "the provider is unavailable", "Retry later")
	r.fakes.on("flaky", failing(transient, 1, map[string]any{"ok": true}))
	r.fakes.on("charge", failing(transient, 0, nil))
	in := newRun(r.t, r.workflows, failureGraphWithSideBranch(), "start", nil)
	quickRetries(in)
	allLocal(in)
	p := r.record("local_retries", in, nil)
	r.want(p, automation.RunFailed, map[string]automation.ActionStatus{
		"flaky": automation.ActionSucceeded, "charge": automation.ActionDeadLettered,
		"receipt": automation.ActionSkipped, "side": automation.ActionSucceeded,
	})
}

// markedLocalBranching: a run of today, whose history records its progress-writes
// version: a local action that starts alone and carries its batch, a condition, a fan-out
// into a delay and two local actions that start together after a batch of their own, and a
// join after the timer.
func (r *historyRecorder) markedLocalBranching() {
	r.fakes.on("fetch", succeeding(map[string]any{"status_code": 200}))
	g := graph([]automation.Action{
		manualTrigger("start"),
		httpRequest("fetch", nil),
		condition("ok", "steps.fetch.status_code == 200"),
		delay("wait", 1),
		messengerSend("notify", map[string]any{"text": "status {{ steps.fetch.status_code }}"}),
		emailSend("receipt", nil),
		emailSend("join", nil),
		action("halt", automation.TypeStop, nil),
	}, edge("start", "fetch"), edge("fetch", "ok"),
		branch("ok", "wait", automation.BranchTrue), branch("ok", "notify", automation.BranchTrue),
		branch("ok", "receipt", automation.BranchTrue), branch("ok", "halt", automation.BranchFalse),
		edge("wait", "join"), edge("notify", "join"), edge("receipt", "join"))
	in := newRun(r.t, r.workflows, g, "start", nil)
	allLocal(in)
	p := r.record("marked_local_branching", in, nil)
	r.want(p, automation.RunSucceeded, map[string]automation.ActionStatus{
		"fetch": automation.ActionSucceeded, "notify": automation.ActionSucceeded,
		"join": automation.ActionSucceeded, "halt": automation.ActionSkipped,
	})
}

// languageSteps: a data step whose value a switch routes on, the switch's case whose action
// fails for good and takes its error path with the failure, and the untaken case and default.
func (r *historyRecorder) languageSteps() {
	refused := activities.Fail(activities.ClassPermanent, "http_422", "the CRM refused the contact", "Correct the request")
	refused.ProviderResponse = map[string]any{"status_code": 422}
	r.fakes.on("crm", failing(refused, 0, nil))
	g := graph([]automation.Action{
		manualTrigger("start"),
		dataSet("shape", map[string]any{"region": "lower(start.region)", "total": "start.amount * 2"}),
		switchOn("route", true, automation.SwitchCase{Name: "north", Text: `steps.shape.region == "north"`},
			automation.SwitchCase{Name: "south", Text: `steps.shape.region == "south"`}),
		httpRequest("crm", map[string]any{"url": "https://crm.example.com/{{ steps.shape.total }}"}),
		emailSend("thank", nil),
		messengerSend("tell_manager", map[string]any{"text": "{{ steps.crm.error.message }}"}),
		emailSend("south_mail", nil),
		emailSend("elsewhere", nil),
	}, edge("start", "shape"), edge("shape", "route"), branch("route", "crm", "north"), branch("route", "south_mail", "south"),
		branch("route", "elsewhere", automation.BranchDefault), edge("crm", "thank"), branch("crm", "tell_manager", automation.BranchError))
	in := newRun(r.t, r.workflows, g, "start", map[string]any{"region": "North", "amount": 5})
	p := r.record("language_steps", in, nil)
	r.want(p, automation.RunSucceeded, map[string]automation.ActionStatus{
		"shape": automation.ActionSucceeded, "route": automation.ActionSucceeded, "crm": automation.ActionFailed,
		"thank": automation.ActionSkipped, "tell_manager": automation.ActionSucceeded,
		"south_mail": automation.ActionSkipped, "elsewhere": automation.ActionSkipped,
	})
}

// loopItems: a loop over three order lines, two at a time, whose body shapes each line and
// posts it; one line's post fails, and the loop goes on past it to the e-mail after it. The
// loop's own workflow is recorded too, as loop_items_loop.
func (r *historyRecorder) loopItems() {
	r.fakes.on("lines[1].create", failing(activities.Fail(activities.ClassPermanent, "http_422", "the CRM refused the line", "Correct the request"), 0, nil))
	g := graph([]automation.Action{
		manualTrigger("start"),
		forEach("lines", "start.lines", map[string]any{"concurrency": 2, "on_item_error": "continue"}),
		dataSet("shape", map[string]any{"label": `start.order_id + "/" + item.sku`}),
		httpRequest("create", map[string]any{"url": "https://crm.example.com/{{ steps.shape.label }}/{{ loop.index }}"}),
		emailSend("mail", map[string]any{"subject": "{{ steps.lines.failed }} failed"}),
	}, edge("start", "lines"), branch("lines", "shape", automation.BranchEach), edge("shape", "create"),
		branch("lines", "mail", automation.BranchDone))
	in := newRun(r.t, r.workflows, g, "start", map[string]any{"order_id": "A-1001", "lines": []any{
		map[string]any{"sku": "A-1"}, map[string]any{"sku": "B-2"}, map[string]any{"sku": "C-3"},
	}})
	p := r.record("loop_items", in, nil)
	r.want(p, automation.RunSucceeded, map[string]automation.ActionStatus{
		"lines": automation.ActionSucceeded, "lines[0].create": automation.ActionSucceeded,
		"lines[1].create": automation.ActionFailed, "mail": automation.ActionSucceeded,
	})
	r.save("loop_items_loop", in.RunID.String()+"/lines", "")
}

// approvals: an approval.wait whose link an e-mail carries before the wait, decided through
// the API's signal (approval_decided), and one nobody decides, whose timeout the expiry
// activity records (approval_timed_out).
func (r *historyRecorder) approvals() {
	decided := newRun(r.t, r.workflows, approvalGraph(3600), "start", map[string]any{"amount": 120})
	p := r.record("approval_decided", decided, func(run client.WorkflowRun) {
		if err := r.log.waitForEvent(r.ctx, "action.waiting", "approve"); err != nil {
			r.t.Fatal(err)
		}
		a, err := r.workflows.RunApprovals(r.ctx, decided.RunID)
		if err != nil || len(a) != 1 {
			r.t.Fatalf("approvals %v, %v", a, err)
		}
		d, err := r.workflows.Decide(r.ctx, &a[0], automation.Decision{Decision: "approved", Comment: "fine", By: "boss@example.com"})
		if err != nil {
			r.t.Fatal(err)
		}
		if err := r.c.SignalWorkflow(r.ctx, run.GetID(), run.GetRunID(), ApprovalSignal("approve"), d.Output()); err != nil {
			r.t.Fatal(err)
		}
	})
	r.want(p, automation.RunSucceeded, map[string]automation.ActionStatus{"on_approved": automation.ActionSucceeded, "on_timeout": automation.ActionSkipped})
	late := newRun(r.t, r.workflows, approvalGraph(1), "start", map[string]any{"amount": 5})
	p = r.record("approval_timed_out", late, nil)
	r.want(p, automation.RunSucceeded, map[string]automation.ActionStatus{"on_approved": automation.ActionSkipped, "on_timeout": automation.ActionSucceeded})
}

// approvalGraph mails the decide link, waits timeoutSeconds for the decision and mails
// along the branch taken.
func approvalGraph(timeoutSeconds int) automation.Graph {
	return graph([]automation.Action{
		manualTrigger("start"),
		emailSend("ask", map[string]any{"body": "{{ steps.approve.decide_url }}"}),
		approvalWait("approve", timeoutSeconds),
		emailSend("on_approved", map[string]any{"body": "{{ steps.approve.decided_by }}"}),
		emailSend("on_timeout", nil),
	}, edge("start", "ask"), edge("ask", "approve"), branch("approve", "on_approved", automation.BranchApproved),
		branch("approve", "on_timeout", automation.BranchTimeout))
}

// cancelledDuringDelay: a cancellation while the run waits on a timer.
func (r *historyRecorder) cancelledDuringDelay() {
	g := graph([]automation.Action{
		manualTrigger("start"),
		delay("pause", 3600),
		emailSend("after", nil),
	}, edge("start", "pause"), edge("pause", "after"))
	in := newRun(r.t, r.workflows, g, "start", nil)
	p := r.record("cancelled_during_delay", in, func(run client.WorkflowRun) {
		if err := r.log.waitForEvent(r.ctx, "action.waiting", "pause"); err != nil {
			r.t.Fatal(err)
		}
		if err := r.c.CancelWorkflow(r.ctx, run.GetID(), run.GetRunID()); err != nil {
			r.t.Fatal(err)
		}
	})
	r.want(p, automation.RunCancelled, map[string]automation.ActionStatus{"pause": automation.ActionCancelled, "after": automation.ActionCancelled})
}

// record executes a run to its end, writes its history to testdata/<name>.json and returns
// the run's projection.
func (r *historyRecorder) record(name string, in RunInput, during func(client.WorkflowRun)) projection {
	r.t.Helper()
	run, err := r.c.ExecuteWorkflow(r.ctx, client.StartWorkflowOptions{ID: in.RunID.String(), TaskQueue: TaskQueue}, WorkflowName, in)
	if err != nil {
		r.t.Fatal(err)
	}
	if during != nil {
		during(run)
	}
	if err := run.Get(r.ctx, nil); err != nil && !temporal.IsCanceledError(err) {
		r.t.Fatalf("%s: %v", name, err)
	}
	r.save(name, run.GetID(), run.GetRunID())
	return r.projection(in)
}

// save writes the history of a workflow execution (its latest when runID is "") to
// testdata, when names match.
func (r *historyRecorder) save(name, workflowID, runID string) {
	r.t.Helper()
	hist := &historypb.History{}
	events := r.c.GetWorkflowHistory(r.ctx, workflowID, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for events.HasNext() {
		e, err := events.Next()
		if err != nil {
			r.t.Fatal(err)
		}
		hist.Events = append(hist.Events, e)
	}
	b, err := temporalproto.CustomJSONMarshalOptions{Indent: "  "}.Marshal(hist)
	if err != nil {
		r.t.Fatal(err)
	}
	if !r.names.MatchString(name) {
		return
	}
	if err := os.WriteFile(filepath.Join("testdata", name+".json"), append(b, '\n'), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// projection folds the batches of one run; a resumed run's batches continue the earlier
// execution's, as they do in the database.
func (r *historyRecorder) projection(in RunInput) projection {
	var batches []automation.Progress
	for _, b := range r.log.snapshot() {
		if b.RunID == in.RunID {
			batches = append(batches, b)
		}
	}
	return fold(batches)
}

// want checks that the recorded run is the one the scenario describes.
func (r *historyRecorder) want(p projection, status automation.RunStatus, actions map[string]automation.ActionStatus) {
	r.t.Helper()
	wantRun(r.t, p, status)
	wantStatuses(r.t, p, actions)
}
