package engine

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"agencyhub/activities"
	"agencyhub/models/automation"
)

// testStart is the test environment's clock at the start of every execution, so two
// executions of the same input can be compared event for event.
var testStart = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// engineTest executes runs in Temporal's test environment: the interpreter as registered
// in production, fake action functions behind the production activity wrapper (which
// records attempts in a real database), and the projection as an in-memory log.
type engineTest struct {
	testsuite.WorkflowTestSuite
	t         *testing.T
	workflows *automation.Service
	// workerWorkflows is where runAction records attempts; workflows unless a test breaks it.
	workerWorkflows *automation.Service
	fakes           *fakeActions
	// env and log belong to the latest execution.
	env *testsuite.TestWorkflowEnvironment
	log *progressLog
	// project writes the projection to the database too, as loop items need: the rows of
	// their actions are made by their first write, and runAction records attempts in them.
	project bool
	// released ends fake activities that block until the test is over.
	released chan struct{}
}

func newEngineTest(t *testing.T) *engineTest {
	h := &engineTest{t: t, workflows: newTestWorkflows(t), fakes: newFakeActions(), released: make(chan struct{})}
	t.Cleanup(func() { close(h.released) })
	return h
}

func (h *engineTest) newRun(g automation.Graph, triggerKey string, payload map[string]any) RunInput {
	h.t.Helper()
	return newRun(h.t, h.workflows, g, triggerKey, payload)
}

// execute runs the input to its end in a fresh environment and returns the projection.
// before may schedule callbacks on the environment's clock.
func (h *engineTest) execute(in RunInput, before ...func(env *testsuite.TestWorkflowEnvironment)) projection {
	h.t.Helper()
	h.log = newProgressLog()
	if h.project {
		h.log.apply = h.workflows.ApplyProgress
	}
	h.env = h.NewTestWorkflowEnvironment()
	// The environment's defaults (a workflow task that runs a second, an execution idle for
	// three) are deadlines of wall time, which a busy two-core machine misses now and then.
	h.env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: 20 * time.Second})
	h.env.SetTestTimeout(time.Minute)
	h.env.SetStartTime(testStart)
	h.env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: in.RunID.String(), TaskQueue: TaskQueue})
	workerWorkflows := h.workerWorkflows
	if workerWorkflows == nil {
		workerWorkflows = h.workflows
	}
	registerEngine(h.env, workerWorkflows, h.log, h.fakes)
	for _, fn := range before {
		fn(h.env)
	}
	h.env.ExecuteWorkflow(WorkflowName, in)
	if !h.env.IsWorkflowCompleted() {
		h.t.Fatal("the workflow did not complete")
	}
	p := h.log.projection()
	checkSequence(h.t, p.Events, firstSequence(in))
	checkFinished(h.t, in.Graph, p)
	return p
}

// succeeded asserts that the workflow itself completed without error.
func (h *engineTest) succeeded() {
	h.t.Helper()
	if err := h.env.GetWorkflowError(); err != nil {
		h.t.Fatalf("workflow error: %v", err)
	}
}

// onlyRequest is the request of an action that ran exactly once.
func (h *engineTest) onlyRequest(actionKey string) activities.Request {
	h.t.Helper()
	reqs := h.fakes.requests(actionKey)
	if len(reqs) != 1 {
		h.t.Fatalf("%s ran %d times, want once", actionKey, len(reqs))
	}
	return reqs[0]
}

var errBlocked = errors.New("released at the end of the test")

// blockUntilReleased is a script for an activity that runs until the test is over.
func (h *engineTest) blockUntilReleased(ctx context.Context, _ activities.Request) (activities.Result, error) {
	select {
	case <-h.released:
		return activities.Result{}, errBlocked
	case <-ctx.Done():
		return activities.Result{}, ctx.Err()
	}
}

// checkSequence asserts that events are numbered one by one from first, and that the
// first event opens the run and the last ends it.
func checkSequence(t *testing.T, events []automation.EventRecord, first int) {
	t.Helper()
	if len(events) == 0 {
		t.Fatal("no events recorded")
	}
	for i, e := range events {
		if e.Sequence != first+i {
			t.Fatalf("event %d (%s %s) has sequence %d, want %d", i, e.Type, e.ActionKey, e.Sequence, first+i)
		}
	}
	if typ := events[0].Type; typ != "run.started" && typ != "run.resumed" {
		t.Errorf("first event is %s", typ)
	}
	if last := events[len(events)-1]; !strings.HasPrefix(last.Type, "run.") {
		t.Errorf("last event is %s", last.Type)
	}
}

// checkFinished asserts that a finished run left no action pending, running or waiting.
func checkFinished(t *testing.T, g automation.Graph, p projection) {
	t.Helper()
	finished := []automation.ActionStatus{automation.ActionSucceeded, automation.ActionFailed, automation.ActionSkipped, automation.ActionDeadLettered,
		automation.ActionCancelled}
	for _, a := range g.Scheduled().Actions {
		if st := p.status(a.ActionKey); !slices.Contains(finished, st) {
			t.Errorf("action %s is still %s after the run ended", a.ActionKey, st)
		}
	}
}

func wantStatuses(t *testing.T, p projection, want map[string]automation.ActionStatus) {
	t.Helper()
	for _, key := range slices.Sorted(maps.Keys(want)) {
		if got := p.status(key); got != want[key] {
			t.Errorf("action %s is %s, want %s", key, got, want[key])
		}
	}
}

func wantRun(t *testing.T, p projection, status automation.RunStatus) {
	t.Helper()
	if p.Run.Status != status {
		t.Fatalf("run is %s (%s), want %s; events %v", p.Run.Status, p.Run.TerminalReason, status, p.eventsOf())
	}
	if p.Run.StartedAt == nil {
		t.Error("run has no started_at")
	}
	if p.Run.FinishedAt == nil {
		t.Error("run has no finished_at")
	}
	if last := p.Events[len(p.Events)-1]; last.Type != "run."+string(status) {
		t.Errorf("last event is %s, want run.%s", last.Type, status)
	}
}

func wantEvents(t *testing.T, p projection, want ...string) {
	t.Helper()
	if got := p.eventsOf(); !slices.Equal(got, want) {
		t.Errorf("events\n got %q\nwant %q", got, want)
	}
}

// action is an action's folded row; the test stops if the log never mentions it.
func (p projection) action(t *testing.T, key string) *actionRow {
	t.Helper()
	a, ok := p.Actions[key]
	if !ok {
		t.Fatalf("no progress of action %s in %v", key, p.eventsOf())
	}
	return a
}

func (p projection) event(t *testing.T, typ, actionKey string) automation.EventRecord {
	t.Helper()
	i := p.indexOf(typ, actionKey)
	if i < 0 {
		t.Fatalf("no %s event of %s in %v", typ, actionKey, p.eventsOf())
	}
	return p.Events[i]
}

// Trigger, template and activity actions.

func TestTheTriggerPayloadBecomesTheTriggersStepOutput(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		emailSend("greet", map[string]any{
			"to": "{{ steps.start.email }}", "subject": "Hello {{ start.name }}", "run": "{{ system.run_id }}",
		}),
	}, edge("start", "greet"))
	in := h.newRun(g, "start", map[string]any{"email": "ada@example.com", "name": "Ada"})
	p := h.execute(in)
	h.succeeded()

	wantRun(t, p, automation.RunSucceeded)
	if p.Run.TerminalReason != "all actions finished" {
		t.Errorf("terminal reason %q", p.Run.TerminalReason)
	}
	if got := p.action(t, "start").Output; !reflect.DeepEqual(got, in.Payload) {
		t.Errorf("trigger output %v, want the payload", got)
	}
	greet := h.onlyRequest("greet")
	want := map[string]any{"to": "ada@example.com", "subject": "Hello Ada", "run": in.RunID.String()}
	if !reflect.DeepEqual(greet.Config, want) {
		t.Errorf("greet's rendered config %v, want %v", greet.Config, want)
	}
	if r := greet; r.RunID != in.RunID || r.CompanyID != in.CompanyID || r.ProjectID != in.ProjectID || r.ActionType != activities.ActionEmailSend || r.Attempt != 1 {
		t.Errorf("greet's request %+v", r)
	}
	if got := p.action(t, "greet").Input; !reflect.DeepEqual(got, want) {
		t.Errorf("greet's recorded input %v", got)
	}
	wantEvents(t, p, "run.started start", "action.succeeded start", "action.started greet", "action.succeeded greet", "run.succeeded")
}

func TestAnActivitysOutputReachesTheTemplatesOfLaterActions(t *testing.T) {
	h := newEngineTest(t)
	h.fakes.on("fetch", succeeding(map[string]any{"status_code": 200, "body": map[string]any{"id": "inv_1"}}))
	g := graph([]automation.Action{
		manualTrigger("start"),
		httpRequest("fetch", map[string]any{"url": "https://api.example.com/invoices/{{ start.invoice }}"}),
		messengerSend("notify", map[string]any{
			"code": "{{ steps.fetch.status_code }}",
			"text": "status {{ steps.fetch.status_code }} for {{ steps.fetch.body.id }}{{ steps.fetch.missing }}",
		}),
	}, edge("start", "fetch"), edge("fetch", "notify"))
	in := h.newRun(g, "start", map[string]any{"invoice": "inv_1"})
	p := h.execute(in)
	h.succeeded()

	wantRun(t, p, automation.RunSucceeded)
	if got := h.onlyRequest("fetch").Config["url"]; got != "https://api.example.com/invoices/inv_1" {
		t.Errorf("fetch url %v", got)
	}
	notify := h.onlyRequest("notify").Config
	// A template that is the whole string keeps the value's type (a JSON number here).
	if notify["code"] != float64(200) {
		t.Errorf("code %#v, want the number 200", notify["code"])
	}
	if notify["text"] != "status 200 for inv_1" {
		t.Errorf("text %q", notify["text"])
	}
	fetch := p.action(t, "fetch")
	if fetch.Output["status_code"] != float64(200) || !reflect.DeepEqual(fetch.ProviderResponse, map[string]any{"status": "ok"}) {
		t.Errorf("fetch output %v, provider response %v", fetch.Output, fetch.ProviderResponse)
	}
	if fetch.StartedAt == nil || fetch.FinishedAt == nil || fetch.MaxAttempts != defaultMaxAttempts {
		t.Errorf("fetch row %+v", fetch)
	}
	if n := attemptCount(t, h.workflows.DB, in, "fetch"); n != 1 {
		t.Errorf("fetch attempt count %d", n)
	}
}

// Conditions and stops.

func TestAConditionTakesOnlyTheEdgeOfItsResult(t *testing.T) {
	g := graph([]automation.Action{
		manualTrigger("start"),
		condition("check", "start.amount > 100"),
		emailSend("big", nil),
		emailSend("small", nil),
	}, edge("start", "check"), branch("check", "big", automation.BranchTrue), branch("check", "small", automation.BranchFalse))
	for _, tc := range []struct {
		amount     int
		result     bool
		ran, skips string
	}{
		{amount: 150, result: true, ran: "big", skips: "small"},
		{amount: 50, result: false, ran: "small", skips: "big"},
	} {
		t.Run(tc.ran, func(t *testing.T) {
			h := newEngineTest(t)
			p := h.execute(h.newRun(g, "start", map[string]any{"amount": tc.amount}))
			h.succeeded()
			wantRun(t, p, automation.RunSucceeded)
			wantStatuses(t, p, map[string]automation.ActionStatus{"check": automation.ActionSucceeded, tc.ran: automation.ActionSucceeded, tc.skips: automation.ActionSkipped})
			if got := p.action(t, "check").Output["result"]; got != tc.result {
				t.Errorf("condition output %v", got)
			}
			if n := len(h.fakes.requests(tc.skips)); n != 0 {
				t.Errorf("%s ran %d times", tc.skips, n)
			}
			if e := p.event(t, "action.skipped", tc.skips); e.Message != "no incoming branch was taken" {
				t.Errorf("skip message %q", e.Message)
			}
		})
	}
}

func TestAConditionWhoseExpressionFailsFailsTheRunAsAValidationError(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		condition("check", "start.amount >"),
		emailSend("big", nil),
		emailSend("small", nil),
	}, edge("start", "check"), branch("check", "big", automation.BranchTrue), branch("check", "small", automation.BranchFalse))
	p := h.execute(h.newRun(g, "start", map[string]any{"amount": 1}))
	h.succeeded()

	wantRun(t, p, automation.RunFailed)
	wantStatuses(t, p, map[string]automation.ActionStatus{"check": automation.ActionFailed, "big": automation.ActionSkipped, "small": automation.ActionSkipped})
	check := p.action(t, "check")
	if check.RetryClass != activities.ClassValidation || check.Diagnostics["reason_code"] != "condition_error" || check.Diagnostics["retryable"] != false {
		t.Errorf("check failed as %s, diagnostics %v", check.RetryClass, check.Diagnostics)
	}
	if !strings.Contains(p.Run.TerminalReason, "check") {
		t.Errorf("terminal reason %q does not name the action", p.Run.TerminalReason)
	}
	if len(h.fakes.requests("big"))+len(h.fakes.requests("small")) != 0 {
		t.Error("an action after the failed condition ran")
	}
}

func TestAStopEndsItsOwnBranchOnly(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		action("done", automation.TypeStop, nil),
		emailSend("after_stop", nil),
		emailSend("beside", nil),
	}, edge("start", "done"), edge("done", "after_stop"), edge("start", "beside"))
	p := h.execute(h.newRun(g, "start", nil))
	h.succeeded()

	wantRun(t, p, automation.RunSucceeded)
	wantStatuses(t, p, map[string]automation.ActionStatus{"done": automation.ActionSucceeded, "after_stop": automation.ActionSkipped, "beside": automation.ActionSucceeded})
	if len(h.fakes.requests("after_stop")) != 0 {
		t.Error("the action after stop ran")
	}
}

// Delays.

func TestADelayIsADurableTimerDuringWhichTheRunWaits(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		delay("wait", 3600),
		emailSend("after", nil),
	}, edge("start", "wait"), edge("wait", "after"))
	in := h.newRun(g, "start", nil)
	var during projection
	began := time.Now()
	p := h.execute(in, func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(func() { during = h.log.projection() }, 30*time.Minute)
	})
	h.succeeded()

	if took := time.Since(began); took > 10*time.Second {
		t.Errorf("an hour's delay took %v of real time", took)
	}
	if during.Run.Status != automation.RunWaiting {
		t.Errorf("run is %s half-way through the delay, want waiting", during.Run.Status)
	}
	wantStatuses(t, during, map[string]automation.ActionStatus{"wait": automation.ActionWaiting, "after": automation.ActionPending})
	wantRun(t, p, automation.RunSucceeded)
	wantStatuses(t, p, map[string]automation.ActionStatus{"wait": automation.ActionSucceeded, "after": automation.ActionSucceeded})
	if got := p.action(t, "wait").Output["waited_seconds"]; ToInt(got) != 3600 {
		t.Errorf("waited_seconds %v", got)
	}
	if after, wait := p.action(t, "after"), p.action(t, "wait"); after.StartedAt == nil || wait.StartedAt == nil ||
		after.StartedAt.Sub(*wait.StartedAt) != time.Hour {
		t.Errorf("after started at %v, the delay at %v: want an hour apart", after.StartedAt, wait.StartedAt)
	}
	if e := p.event(t, "action.waiting", "wait"); e.Message != "waiting 3600 seconds" {
		t.Errorf("waiting message %q", e.Message)
	}
}

func TestTheRunIsRunningWhileAnActivityRunsBesideADelay(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		delay("wait", 60),
		httpRequest("fetch", nil),
	}, edge("start", "wait"), edge("start", "fetch"))
	p := h.execute(h.newRun(g, "start", nil))
	h.succeeded()

	wantRun(t, p, automation.RunSucceeded)
	// running while fetch runs, waiting when only the timer is left, then finished: what
	// follows the timer and the end are written as one batch.
	want := []automation.RunStatus{automation.RunRunning, automation.RunWaiting, automation.RunSucceeded}
	if got := runStatuses(h.log.snapshot()); !slices.Equal(got, want) {
		t.Errorf("run statuses %v, want %v", got, want)
	}
}

func TestARunThatNeverWaitsWritesItsProjectionOnce(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		condition("ok", "true"),
		action("halt", automation.TypeStop, nil),
	}, edge("start", "ok"), branch("ok", "halt", automation.BranchTrue))
	p := h.execute(h.newRun(g, "start", nil))
	h.succeeded()

	wantRun(t, p, automation.RunSucceeded)
	batches := h.log.snapshot()
	if len(batches) != 1 {
		t.Fatalf("%d projection batches, want 1: %+v", len(batches), batches)
	}
	if b := batches[0]; !b.Begin || b.Run == nil || b.Run.StartedAt == nil || b.Run.FinishedAt == nil || len(b.Actions) != 3 {
		t.Fatalf("the batch %+v", b)
	}
}

// runStatuses lists the run statuses the batches wrote, without repeats.
func runStatuses(batches []automation.Progress) []automation.RunStatus {
	var out []automation.RunStatus
	for _, b := range batches {
		if b.Run != nil && (len(out) == 0 || out[len(out)-1] != b.Run.Status) {
			out = append(out, b.Run.Status)
		}
	}
	return out
}

// Branches, joins and skips.

func TestAFanOutRunsBothBranchesInParallelAndTheJoinOnceAfterBoth(t *testing.T) {
	h := newEngineTest(t)
	bStarted := make(chan struct{})
	h.fakes.on("a", func(ctx context.Context, _ activities.Request) (activities.Result, error) {
		// a finishes only once b is running too: the branches run side by side.
		select {
		case <-bStarted:
			return activities.Result{Output: map[string]any{"value": "A"}}, nil
		case <-time.After(10 * time.Second):
			return activities.Result{}, activities.Fail(activities.ClassPermanent, "not_parallel", "b never started while a ran", "")
		}
	})
	h.fakes.on("b", func(context.Context, activities.Request) (activities.Result, error) {
		close(bStarted)
		return activities.Result{Output: map[string]any{"value": "B"}}, nil
	})
	g := graph([]automation.Action{
		manualTrigger("start"),
		httpRequest("a", nil),
		messengerSend("b", nil),
		emailSend("join", map[string]any{"combined": "{{ steps.a.value }}+{{ steps.b.value }}"}),
	}, edge("start", "a"), edge("start", "b"), edge("a", "join"), edge("b", "join"))
	p := h.execute(h.newRun(g, "start", nil))
	h.succeeded()

	wantRun(t, p, automation.RunSucceeded)
	wantStatuses(t, p, map[string]automation.ActionStatus{"a": automation.ActionSucceeded, "b": automation.ActionSucceeded, "join": automation.ActionSucceeded})
	if got := h.onlyRequest("join").Config["combined"]; got != "A+B" {
		t.Errorf("join saw %v", got)
	}
	joinStarted := p.indexOf("action.started", "join")
	if joinStarted < p.indexOf("action.succeeded", "a") || joinStarted < p.indexOf("action.succeeded", "b") {
		t.Errorf("join started before both branches finished: %v", p.eventsOf())
	}
	if n := strings.Count(strings.Join(p.eventsOf(), ","), "action.started join"); n != 1 {
		t.Errorf("join started %d times", n)
	}
}

func TestAJoinRunsWhenOneInboundBranchIsTakenAndTheOtherIsNot(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		condition("check", "true"),
		httpRequest("yes", nil),
		httpRequest("no", nil),
		emailSend("join", nil),
	}, edge("start", "check"), branch("check", "yes", automation.BranchTrue), branch("check", "no", automation.BranchFalse),
		edge("yes", "join"), edge("no", "join"))
	p := h.execute(h.newRun(g, "start", nil))
	h.succeeded()

	wantRun(t, p, automation.RunSucceeded)
	wantStatuses(t, p, map[string]automation.ActionStatus{"yes": automation.ActionSucceeded, "no": automation.ActionSkipped, "join": automation.ActionSucceeded})
	if n := len(h.fakes.requests("join")); n != 1 {
		t.Errorf("join ran %d times", n)
	}
}

func TestASkipPropagatesDownstreamOfASkippedAction(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		condition("check", "false"),
		httpRequest("x", nil),
		delay("y", 60),
		emailSend("z", nil),
		emailSend("other", nil),
	}, edge("start", "check"), branch("check", "x", automation.BranchTrue), edge("x", "y"), edge("y", "z"),
		branch("check", "other", automation.BranchFalse))
	p := h.execute(h.newRun(g, "start", nil))
	h.succeeded()

	wantRun(t, p, automation.RunSucceeded)
	wantStatuses(t, p, map[string]automation.ActionStatus{"x": automation.ActionSkipped, "y": automation.ActionSkipped, "z": automation.ActionSkipped, "other": automation.ActionSucceeded})
	// One pass over the graph resolves the whole skipped chain.
	wantEvents(t, p, "run.started start", "action.succeeded start", "action.succeeded check",
		"action.skipped x", "action.skipped y", "action.skipped z", "action.started other",
		"action.succeeded other", "run.succeeded")
	if len(h.fakes.requests("x"))+len(h.fakes.requests("z")) != 0 {
		t.Error("a skipped action ran")
	}
}

func TestASecondTriggerInTheGraphIsSkipped(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		action("hook", automation.TypeWebhook, map[string]any{"endpoint_key": "orders"}),
		emailSend("notify", nil),
	}, edge("start", "notify"), edge("hook", "notify"))
	p := h.execute(h.newRun(g, "start", map[string]any{"n": 1}))
	h.succeeded()

	wantRun(t, p, automation.RunSucceeded)
	wantStatuses(t, p, map[string]automation.ActionStatus{"start": automation.ActionSucceeded, "hook": automation.ActionSkipped, "notify": automation.ActionSucceeded})
	if e := p.event(t, "action.skipped", "hook"); e.Message != "another trigger started this run" {
		t.Errorf("skip message %q", e.Message)
	}
	if n := len(h.fakes.requests("notify")); n != 1 {
		t.Errorf("notify ran %d times", n)
	}
}

// Failures.

func failureGraph() automation.Graph {
	return graph([]automation.Action{
		manualTrigger("start"),
		httpRequest("charge", map[string]any{"url": "https://pay.example.com"}),
		emailSend("receipt", nil),
	}, edge("start", "charge"), edge("charge", "receipt"))
}

func TestANonRetryableFailureFailsTheActionAfterOneAttempt(t *testing.T) {
	classified := func(class string) error {
		f := activities.Fail(class, class+"_code", "the provider said no ("+class+")", "Fix it")
		f.Provider, f.ProviderResponse = "acme", map[string]any{"status": 400}
		return f
	}
	for _, tc := range []struct {
		name, class, reasonCode string
		err                     error
	}{
		{name: "validation", class: activities.ClassValidation, reasonCode: "validation_code", err: classified(activities.ClassValidation)},
		{name: "auth", class: activities.ClassAuth, reasonCode: "auth_code", err: classified(activities.ClassAuth)},
		{name: "permanent", class: activities.ClassPermanent, reasonCode: "permanent_code", err: classified(activities.ClassPermanent)},
		{name: "timeout_unknown", class: activities.ClassTimeoutUnknown, reasonCode: "timeout_unknown_code", err: classified(activities.ClassTimeoutUnknown)},
		{name: "unknown_outcome", class: activities.ClassUnknownOutcome, reasonCode: "unknown_outcome_code", err: classified(activities.ClassUnknownOutcome)},
		{name: "unclassified error", class: activities.ClassUnknownOutcome, reasonCode: "unexpected_error", err: errors.New("boom")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newEngineTest(t)
			h.fakes.on("charge", func(context.Context, activities.Request) (activities.Result, error) {
				return activities.Result{}, tc.err
			})
			in := h.newRun(failureGraph(), "start", nil)
			p := h.execute(in)
			h.succeeded()

			wantRun(t, p, automation.RunFailed)
			wantStatuses(t, p, map[string]automation.ActionStatus{"charge": automation.ActionFailed, "receipt": automation.ActionSkipped})
			if n := len(h.fakes.requests("charge")); n != 1 {
				t.Errorf("charge ran %d times", n)
			}
			if n := attemptCount(t, h.workflows.DB, in, "charge"); n != 1 {
				t.Errorf("attempt count %d", n)
			}
			charge := p.action(t, "charge")
			f := activities.AsFailure(tc.err)
			if charge.RetryClass != tc.class || charge.Error != f.HumanReason || charge.FinishedAt == nil {
				t.Errorf("charge row %+v", charge)
			}
			d := charge.Diagnostics
			if d["reason_code"] != tc.reasonCode || d["human_reason"] != f.HumanReason || d["retryable"] != false ||
				d["status"] != "failed" || d["next_action"] != f.NextAction {
				t.Errorf("diagnostics %v", d)
			}
			if f.Provider != "" && (d["provider"] != "acme" || charge.ProviderResponse["status"] != float64(400)) {
				t.Errorf("provider %v, provider response %v", d["provider"], charge.ProviderResponse)
			}
			wantTerminal := "action charge failed: " + f.HumanReason
			if p.Run.TerminalReason != wantTerminal || p.Run.Error != wantTerminal {
				t.Errorf("terminal reason %q, error %q, want %q", p.Run.TerminalReason, p.Run.Error, wantTerminal)
			}
			e := p.event(t, "action.failed", "charge")
			if e.Data["retry_class"] != tc.class || e.Data["reason_code"] != tc.reasonCode {
				t.Errorf("failure event data %v", e.Data)
			}
		})
	}
}

func TestATransientFailureThatSucceedsOnTheSecondAttemptSucceeds(t *testing.T) {
	h := newEngineTest(t)
	h.fakes.on("charge", failing(activities.Fail(activities.ClassTransient, "http_503", "the provider is unavailable", "Retry"), 1,
		map[string]any{"charged": true}))
	in := h.newRun(failureGraph(), "start", nil)
	p := h.execute(in)
	h.succeeded()

	wantRun(t, p, automation.RunSucceeded)
	wantStatuses(t, p, map[string]automation.ActionStatus{"charge": automation.ActionSucceeded, "receipt": automation.ActionSucceeded})
	var attempts []int
	for _, r := range h.fakes.requests("charge") {
		attempts = append(attempts, r.Attempt)
	}
	if !slices.Equal(attempts, []int{1, 2}) {
		t.Errorf("charge attempts %v", attempts)
	}
	if n := attemptCount(t, h.workflows.DB, in, "charge"); n != 2 {
		t.Errorf("recorded attempt count %d, want 2", n)
	}
	if got := p.action(t, "charge").Output["charged"]; got != true {
		t.Errorf("charge output %v", p.action(t, "charge").Output)
	}
}

func TestATransientFailureThatExhaustsItsAttemptsIsDeadLettered(t *testing.T) {
	h := newEngineTest(t)
	h.fakes.on("charge", failing(activities.Fail(activities.ClassTransient, "http_503", "the provider is unavailable", "Retry later"), 0, nil))
	in := h.newRun(failureGraph(), "start", nil)
	p := h.execute(in)
	h.succeeded()

	wantRun(t, p, automation.RunFailed)
	wantStatuses(t, p, map[string]automation.ActionStatus{"charge": automation.ActionDeadLettered, "receipt": automation.ActionSkipped})
	if n := len(h.fakes.requests("charge")); n != defaultMaxAttempts {
		t.Errorf("charge ran %d times, want %d", n, defaultMaxAttempts)
	}
	if n := attemptCount(t, h.workflows.DB, in, "charge"); n != defaultMaxAttempts {
		t.Errorf("recorded attempt count %d", n)
	}
	charge := p.action(t, "charge")
	if charge.RetryClass != activities.ClassTransient || charge.Diagnostics["retryable"] != true || charge.Diagnostics["reason_code"] != "http_503" {
		t.Errorf("charge row %+v", charge)
	}
	if !strings.Contains(p.Run.TerminalReason, "charge") {
		t.Errorf("terminal reason %q", p.Run.TerminalReason)
	}
	if e := p.event(t, "action.dead_lettered", "charge"); e.Status != string(automation.ActionDeadLettered) {
		t.Errorf("event %+v", e)
	}
}

func TestAFailureStartsNothingNewWhileARunningBranchFinishes(t *testing.T) {
	h := newEngineTest(t)
	h.fakes.on("bad", failing(activities.Fail(activities.ClassPermanent, "rejected", "the target refused", ""), 0, nil))
	h.fakes.on("slow", func(ctx context.Context, _ activities.Request) (activities.Result, error) {
		// slow is still running when bad's failure is recorded.
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := h.log.waitForEvent(ctx, "action.failed", "bad"); err != nil {
			return activities.Result{}, err
		}
		return activities.Result{Output: map[string]any{"done": true}}, nil
	})
	g := graph([]automation.Action{
		manualTrigger("start"),
		httpRequest("bad", nil),
		emailSend("after_bad", nil),
		messengerSend("slow", nil),
		emailSend("after_slow", nil),
	}, edge("start", "bad"), edge("bad", "after_bad"), edge("start", "slow"), edge("slow", "after_slow"))
	p := h.execute(h.newRun(g, "start", nil))
	h.succeeded()

	wantRun(t, p, automation.RunFailed)
	wantStatuses(t, p, map[string]automation.ActionStatus{
		"bad": automation.ActionFailed, "after_bad": automation.ActionSkipped,
		"slow": automation.ActionSucceeded, "after_slow": automation.ActionSkipped,
	})
	if p.indexOf("action.succeeded", "slow") < p.indexOf("action.failed", "bad") {
		t.Errorf("slow finished before bad failed: %v", p.eventsOf())
	}
	if e := p.event(t, "action.skipped", "after_slow"); e.Message != "the run stopped before this action" {
		t.Errorf("skip message %q", e.Message)
	}
	if len(h.fakes.requests("after_slow")) != 0 {
		t.Error("an action started after the run failed")
	}
	if !strings.HasPrefix(p.Run.TerminalReason, "action bad failed") {
		t.Errorf("terminal reason %q", p.Run.TerminalReason)
	}
}

func TestAPanickingActionIsAnUnknownOutcomeAndNotRetried(t *testing.T) {
	h := newEngineTest(t)
	h.fakes.on("charge", func(context.Context, activities.Request) (activities.Result, error) {
		panic("nil map")
	})
	in := h.newRun(failureGraph(), "start", nil)
	p := h.execute(in)
	h.succeeded()

	wantRun(t, p, automation.RunFailed)
	wantStatuses(t, p, map[string]automation.ActionStatus{"charge": automation.ActionFailed, "receipt": automation.ActionSkipped})
	if n := len(h.fakes.requests("charge")); n != 1 {
		t.Errorf("charge ran %d times, want 1: it may have taken effect before it panicked", n)
	}
	if c := p.action(t, "charge"); c.RetryClass != activities.ClassUnknownOutcome || c.Diagnostics["retryable"] != false {
		t.Errorf("charge row %+v", c)
	}
}

func TestAnAttemptThatCannotBeRecordedIsRetriedThenDeadLettered(t *testing.T) {
	h := newEngineTest(t)
	broken := newTestWorkflows(t)
	sqlDB, err := broken.DB.DB()
	if err != nil {
		t.Fatal(err)
	}
	sqlDB.Close()
	h.workerWorkflows = broken
	in := h.newRun(failureGraph(), "start", nil)
	p := h.execute(in)
	h.succeeded()

	wantRun(t, p, automation.RunFailed)
	if n := len(h.fakes.requests("charge")); n != 0 {
		t.Errorf("charge ran %d times without its attempt recorded", n)
	}
	c := p.action(t, "charge")
	if c.Status != automation.ActionDeadLettered || c.RetryClass != activities.ClassTransient || c.Diagnostics["retryable"] != true {
		t.Errorf("charge row %+v", c)
	}
}

// Cancellation.

func wantCancelled(t *testing.T, h *engineTest, p projection, interrupted string) {
	t.Helper()
	if err := h.env.GetWorkflowError(); !temporal.IsCanceledError(err) {
		t.Errorf("workflow error %v, want cancelled", err)
	}
	wantRun(t, p, automation.RunCancelled)
	if p.Run.TerminalReason != "the run was cancelled" {
		t.Errorf("terminal reason %q", p.Run.TerminalReason)
	}
	a := p.action(t, interrupted)
	if a.Status != automation.ActionCancelled || a.RetryClass != activities.ClassCanceled || a.FinishedAt == nil {
		t.Errorf("interrupted action %s: %+v", interrupted, a)
	}
	wantStatuses(t, p, map[string]automation.ActionStatus{"after": automation.ActionCancelled})
	if e := p.event(t, "action.cancelled", "after"); e.Message != "the run was cancelled before this action" {
		t.Errorf("cancellation message %q", e.Message)
	}
	if len(h.fakes.requests("after")) != 0 {
		t.Error("an action ran after the cancellation")
	}
}

func TestCancellingDuringADelayCancelsTheRunAndWhatItReachesAfter(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		delay("wait", 3600),
		emailSend("after", nil),
	}, edge("start", "wait"), edge("wait", "after"))
	p := h.execute(h.newRun(g, "start", nil), func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(env.CancelWorkflow, 10*time.Minute)
	})
	wantCancelled(t, h, p, "wait")
	if got := p.Run.FinishedAt.Sub(testStart); got != 10*time.Minute {
		t.Errorf("run finished %v after it started, want at the cancellation", got)
	}
}

func TestCancellingDuringARunningActivityCancelsTheRunAndWhatItReachesAfter(t *testing.T) {
	h := newEngineTest(t)
	h.fakes.on("send", func(ctx context.Context, req activities.Request) (activities.Result, error) {
		h.env.CancelWorkflow()
		return h.blockUntilReleased(ctx, req)
	})
	g := graph([]automation.Action{
		manualTrigger("start"),
		messengerSend("send", nil),
		emailSend("after", nil),
	}, edge("start", "send"), edge("send", "after"))
	p := h.execute(h.newRun(g, "start", nil))
	wantCancelled(t, h, p, "send")
}

// Retry of a failed action.

func TestRetryingAnActionReusesEarlierOutputsAndContinuesTheRun(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		httpRequest("fetch", nil),
		messengerSend("send", map[string]any{"text": "code {{ steps.fetch.status_code }}"}),
		emailSend("after", nil),
	}, edge("start", "fetch"), edge("fetch", "send"), edge("send", "after"))
	in := h.newRun(g, "start", map[string]any{"x": 1})
	setAttempts(t, h.workflows.DB, in, map[string]int{"fetch": 1, "send": 3})
	in.Resume = &Resume{
		RetryKey: "send",
		Actions: map[string]ResumedAction{
			"start": {Status: automation.ActionSucceeded, Output: map[string]any{"x": 1}},
			"fetch": {Status: automation.ActionSucceeded, Output: map[string]any{"status_code": 201}, Attempts: 1},
			"send":  {Status: automation.ActionDeadLettered, Output: map[string]any{}, Attempts: 3},
			"after": {Status: automation.ActionSkipped, Output: map[string]any{}},
		},
		NextSequence: 12,
	}
	p := h.execute(in)
	h.succeeded()

	wantRun(t, p, automation.RunSucceeded)
	wantStatuses(t, p, map[string]automation.ActionStatus{"fetch": automation.ActionSucceeded, "send": automation.ActionSucceeded, "after": automation.ActionSucceeded})
	if n := len(h.fakes.requests("fetch")); n != 0 {
		t.Errorf("fetch ran %d times, want its earlier output reused", n)
	}
	if send := h.onlyRequest("send"); send.Config["text"] != "code 201" || send.Attempt != 4 {
		t.Errorf("send ran with %+v", send)
	}
	if n := attemptCount(t, h.workflows.DB, in, "send"); n != 4 {
		t.Errorf("send's attempt count %d, want 4 (3 earlier + 1)", n)
	}
	if got := p.action(t, "fetch").Output["status_code"]; got != float64(201) {
		t.Errorf("fetch output %v", p.action(t, "fetch").Output)
	}
	if e := p.Events[0]; e.Type != "run.resumed" || e.ActionKey != "send" || e.Sequence != 12 {
		t.Errorf("first event %+v", e)
	}
	if p.indexOf("action.started", "fetch") >= 0 {
		t.Error("fetch was started again")
	}
}

func TestARetryKeepsOtherFailedActionsFailed(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		httpRequest("a", nil),
		httpRequest("b", nil),
	}, edge("start", "a"), edge("start", "b"))
	in := h.newRun(g, "start", nil)
	in.Resume = &Resume{
		RetryKey: "a",
		Actions: map[string]ResumedAction{
			"start": {Status: automation.ActionSucceeded, Output: map[string]any{}},
			"a":     {Status: automation.ActionFailed, Attempts: 1},
			"b":     {Status: automation.ActionFailed, Attempts: 1},
		},
		NextSequence: 8,
	}
	p := h.execute(in)
	h.succeeded()

	wantRun(t, p, automation.RunFailed)
	wantStatuses(t, p, map[string]automation.ActionStatus{"a": automation.ActionSucceeded, "b": automation.ActionFailed})
	if len(h.fakes.requests("b")) != 0 {
		t.Error("b ran again")
	}
	if got := p.action(t, "b").Diagnostics["reason_code"]; got != "failed_earlier" {
		t.Errorf("b's reason code %v", got)
	}
}

// Determinism.

func TestTheSameInputProducesTheSameProgress(t *testing.T) {
	h := newEngineTest(t)
	h.fakes.on("fetch", succeeding(map[string]any{"status_code": 200}))
	g := graph([]automation.Action{
		manualTrigger("start"),
		httpRequest("fetch", nil),
		condition("ok", "steps.fetch.status_code == 200"),
		delay("wait", 60),
		messengerSend("notify", map[string]any{"text": "{{ steps.fetch.status_code }}"}),
		emailSend("join", nil),
		action("halt", automation.TypeStop, nil),
	}, edge("start", "fetch"), edge("fetch", "ok"),
		branch("ok", "wait", automation.BranchTrue), branch("ok", "notify", automation.BranchTrue),
		edge("wait", "join"), edge("notify", "join"), branch("ok", "halt", automation.BranchFalse))
	in := h.newRun(g, "start", map[string]any{"k": "v"})
	first := h.execute(in)
	h.succeeded()
	firstLog := h.log.snapshot()
	second := h.execute(in)
	h.succeeded()

	wantRun(t, first, automation.RunSucceeded)
	a, _ := json.Marshal(firstLog)
	b, _ := json.Marshal(h.log.snapshot())
	if string(a) != string(b) {
		t.Errorf("two executions of the same input differ:\n%s\n%s", a, b)
	}
	if !slices.Equal(first.eventsOf(), second.eventsOf()) {
		t.Errorf("events differ: %v / %v", first.eventsOf(), second.eventsOf())
	}
}

func TestAConditionOverAValueTheRunLacksNamesIt(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		condition("check", "start.total > 200"),
		emailSend("big", nil),
	}, edge("start", "check"), branch("check", "big", automation.BranchTrue))
	p := h.execute(h.newRun(g, "start", map[string]any{"amount": 1}))
	h.succeeded()

	wantRun(t, p, automation.RunFailed)
	check := p.action(t, "check")
	args, _ := json.Marshal(check.Diagnostics["reason_args"])
	if check.RetryClass != activities.ClassValidation || check.Diagnostics["reason_code"] != automation.ReasonMissingValue || string(args) != `{"path":"start.total"}` {
		t.Errorf("check failed as %s, diagnostics %v", check.RetryClass, check.Diagnostics)
	}
	if e := p.event(t, "action.failed", "check"); e.Message != `"start.total" is missing from the run's data.` {
		t.Errorf("failure message %q", e.Message)
	}
}
