package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"agencyhub/activities"
	"agencyhub/engine/enginetest"
	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/platform/realtime"
)

// liveEngine is the engine on the embedded Temporal server with fake actions: a tenant, the
// workflow store, the runs and a worker on a task queue of the test's own.
type liveEngine struct {
	tenant    *dbtest.Tenant
	workflows *automation.Service
	runs      *Runs
	fakes     *fakeActions
}

// newLiveEngine starts the worker; progress replaces the projection writer when not nil,
// and interceptors wrap the worker's calls.
func newLiveEngine(t *testing.T, progress func(context.Context, automation.Progress) error, interceptors ...interceptor.WorkerInterceptor) *liveEngine {
	t.Helper()
	c := enginetest.Temporal(t)
	db := dbtest.SQLite(t)
	l := &liveEngine{tenant: dbtest.NewTenant(t, db.DB, "live"), fakes: newFakeActions()}
	l.workflows = automation.NewService(db.DB, l.tenant.Companies, l.tenant.Catalog, realtime.NewLocal())
	queue := "live-" + models.NewID().String()
	l.runs = &Runs{Client: c, Workflows: l.workflows, Catalog: l.tenant.Catalog, TaskQueue: queue, WebURL: "https://hub.test"}
	deps := WorkerDeps{Workflows: l.workflows, Progress: progress}
	w := worker.New(c, queue, worker.Options{Interceptors: interceptors})
	w.RegisterWorkflowWithOptions(Interpret, workflow.RegisterOptions{Name: WorkflowName})
	w.RegisterActivityWithOptions(deps.writeProgress, activity.RegisterOptions{Name: progressActivity})
	w.RegisterActivityWithOptions(runAction(deps, l.fakes.run), activity.RegisterOptions{Name: activities.ActionHTTPRequest})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return l
}

// chargeGraph is a manual trigger and a POST: an action that must not run twice.
func chargeGraph() automation.Graph {
	return graph([]automation.Action{manualTrigger("start"), httpRequest("charge", map[string]any{"method": "POST", "url": "https://pay.example/charges"})},
		edge("start", "charge"))
}

// start publishes g and starts a manual run of it.
func (l *liveEngine) start(t *testing.T, g automation.Graph) *automation.Run {
	t.Helper()
	run, err := l.startManual(l.publish(t, g))
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// publish creates a workflow of g and publishes it.
func (l *liveEngine) publish(t *testing.T, g automation.Graph) (*automation.Workflow, *automation.Version) {
	t.Helper()
	ctx := context.Background()
	wf, err := l.workflows.Create(ctx, l.tenant.Project, l.tenant.UserID, "Charge", "")
	if err != nil {
		t.Fatal(err)
	}
	if wf, err = l.workflows.PutDraft(ctx, wf, automation.Draft{Graph: g}); err != nil {
		t.Fatal(err)
	}
	v, err := l.workflows.Publish(ctx, wf, l.tenant.UserID, nil)
	if err != nil {
		t.Fatal(err)
	}
	return wf, v
}

// startManual starts a run of the version from its manual trigger, start, as the intake
// does once it has found the trigger.
func (l *liveEngine) startManual(wf *automation.Workflow, v *automation.Version) (*automation.Run, error) {
	return l.runs.Start(context.Background(), Start{CompanyID: wf.CompanyID, ProjectID: wf.ProjectID, WorkflowID: wf.ID,
		Version: v, Graph: v.Graph(), TriggerType: TriggerManual, TriggerKey: "start", StartedBy: &l.tenant.UserID})
}

// TestRetryActionWaitsForTheFailedExecutionToClose: the projection says failed as soon as
// the interpreter's last write commits, while its Temporal execution is still open. A
// retry asked for in that moment must start a new execution once the old one closed, not
// attach to the closing one and leave the run pending for ever.
func TestRetryActionWaitsForTheFailedExecutionToClose(t *testing.T) {
	release := make(chan struct{})
	var held atomic.Bool
	var l *liveEngine
	l = newLiveEngine(t, func(ctx context.Context, p automation.Progress) error {
		if err := l.workflows.ApplyProgress(ctx, p); err != nil {
			return err
		}
		if p.Run != nil && p.Run.Status == automation.RunFailed && held.CompareAndSwap(false, true) {
			<-release // the failed execution stays open after its failure is recorded
		}
		return nil
	})
	l.fakes.on("charge", failing(activities.Fail(activities.ClassPermanent, "declined", "the card was declined", "Retry"), 1, map[string]any{"ok": true}))
	run := l.start(t, chargeGraph())
	failed := awaitStatus(t, l.workflows, run, automation.RunFailed)

	retried := make(chan error, 1)
	go func() {
		_, err := l.runs.RetryAction(context.Background(), failed, "charge")
		retried <- err
	}()
	// Whether the retry returns at once (attached) or waits (right), the old execution may
	// close only now.
	select {
	case err := <-retried:
		retried <- err
	case <-time.After(time.Second):
	}
	close(release)
	if err := <-retried; err != nil {
		t.Fatalf("retry-action: %v", err)
	}
	awaitStatus(t, l.workflows, run, automation.RunSucceeded)
	if n := len(l.fakes.requests("charge")); n != 2 {
		t.Fatalf("charge ran %d times, want 2: once failing, once retried", n)
	}
}

// TestARunRefusedWhenTemporalsAnswerWasLostNeverActs: the start of a run reaches Temporal,
// but its answer does not reach us (a timeout, a connection cut). The caller got 503 and
// the run was recorded as refused, so a 503 is definite: the execution Temporal did start
// must end without acting, and the projection keeps the refusal.
func TestARunRefusedWhenTemporalsAnswerWasLostNeverActs(t *testing.T) {
	l := newLiveEngine(t, nil)
	l.runs.Client = loseStartAnswer{l.runs.Client}
	run, err := l.startManual(l.publish(t, chargeGraph()))
	if !models.IsKind(err, models.KindUnavailable) {
		t.Fatalf("start answered %v; want unavailable", err)
	}
	refused := awaitStatus(t, l.workflows, run, automation.RunFailed)
	execution := l.runs.Client.GetWorkflow(context.Background(), refused.ID.String(), "")
	if err := execution.Get(context.Background(), nil); err == nil {
		t.Fatal("the execution Temporal started succeeded; want it to end refused")
	}
	if n := len(l.fakes.requests("charge")); n != 0 {
		t.Fatalf("charge ran %d times; a refused run must not act", n)
	}
	after, err := l.workflows.Run(context.Background(), refused.ID)
	if err != nil || after.Status != automation.RunFailed || after.Error != refused.Error || after.StartedAt != nil {
		t.Fatalf("the refused run became %+v, %v; was %+v", after, err, refused)
	}
}

// TestABatchALocalActionCouldNotWriteIsWrittenAfterIt: a local action that starts alone
// carries the projection write that says the run and the action started, and makes it
// before it acts. When that write fails, the action fails without acting, and the batch it
// carried is written with the failure: the run keeps its start and every event.
func TestABatchALocalActionCouldNotWriteIsWrittenAfterIt(t *testing.T) {
	var l *liveEngine
	l = newLiveEngine(t, func(ctx context.Context, p automation.Progress) error {
		if activity.GetInfo(ctx).ActivityType.Name == activities.ActionHTTPRequest {
			return errors.New("the database went away")
		}
		return l.workflows.ApplyProgress(ctx, p)
	})
	once := graph([]automation.Action{manualTrigger("start"), httpRequest("charge", map[string]any{
		"method": "POST", "url": "https://pay.example/charges", "retry_policy": map[string]any{"max_attempts": 1},
	})}, edge("start", "charge"))
	failed := awaitStatus(t, l.workflows, l.start(t, once), automation.RunFailed)
	if n := len(l.fakes.requests("charge")); n != 0 {
		t.Fatalf("charge ran %d times; an action whose start was not recorded must not act", n)
	}
	if failed.StartedAt == nil {
		t.Fatal("the failed run has no start time: the batch the action carried was lost")
	}
	events, err := l.workflows.Events(context.Background(), failed.ID, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range events {
		got = append(got, strings.TrimSpace(e.EventType+" "+e.ActionKey))
	}
	want := []string{"run.started start", "action.succeeded start", "action.started charge", "action.dead_lettered charge", "run.failed"}
	if !slices.Equal(got, want) {
		t.Fatalf("events %q, want %q", got, want)
	}
}

// loseStartAnswer starts executions, then answers as if Temporal could not be reached.
type loseStartAnswer struct{ client.Client }

func (c loseStartAnswer) ExecuteWorkflow(ctx context.Context, options client.StartWorkflowOptions, workflow any, args ...any) (client.WorkflowRun, error) {
	if _, err := c.Client.ExecuteWorkflow(ctx, options, workflow, args...); err != nil {
		return nil, err
	}
	return nil, serviceerror.NewUnavailable("connection reset before the answer arrived")
}

// TestAnAnswerLostOnItsWayToTemporalIsNotActedTwice: a worker that dies after an attempt
// succeeded and was recorded, but before Temporal heard of it, leaves Temporal to retry the
// action. The retry must answer the recorded result, not make the POST again.
func TestAnAnswerLostOnItsWayToTemporalIsNotActedTwice(t *testing.T) {
	l := newLiveEngine(t, nil, &loseFirstAnswer{})
	l.chargedOnce(t, l.start(t, chargeGraph()))
}

// chargedOnce waits for run to succeed, and checks that its charge acted once, in one
// recorded attempt.
func (l *liveEngine) chargedOnce(t *testing.T, run *automation.Run) {
	t.Helper()
	done := awaitStatus(t, l.workflows, run, automation.RunSucceeded)
	if n := len(l.fakes.requests("charge")); n != 1 {
		t.Fatalf("charge ran %d times, want once", n)
	}
	actions, err := l.workflows.ActionRuns(context.Background(), done)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range actions {
		if a.ActionKey == "charge" && (a.Status != automation.ActionSucceeded || a.AttemptCount != 1) {
			t.Fatalf("charge = %s after %d attempts, want succeeded after 1", a.Status, a.AttemptCount)
		}
	}
}

// loseFirstAnswer plays a worker that dies between recording an action's first answer and
// telling Temporal: the answer is replaced by an error, and Temporal retries the activity.
type loseFirstAnswer struct {
	interceptor.WorkerInterceptorBase
}

func (*loseFirstAnswer) InterceptActivity(ctx context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	i := &lostAnswer{}
	i.Next = next
	return i
}

type lostAnswer struct {
	interceptor.ActivityInboundInterceptorBase
}

func (l *lostAnswer) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	res, err := l.Next.ExecuteActivity(ctx, in)
	if info := activity.GetInfo(ctx); err == nil && info.Attempt == 1 && info.ActivityType.Name == activities.ActionHTTPRequest {
		return nil, errors.New("the worker died before Temporal heard the answer")
	}
	return res, err
}

// awaitStatus waits, on the run's bus topic, until the run's projection has status.
func awaitStatus(t *testing.T, workflows *automation.Service, run *automation.Run, status automation.RunStatus) *automation.Run {
	t.Helper()
	sub := workflows.Bus.Subscribe(automation.RunTopic(run.ID))
	defer sub.Close()
	timeout := time.After(30 * time.Second)
	for {
		r, err := workflows.Run(context.Background(), run.ID)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status == status {
			return r
		}
		select {
		case <-sub.C():
		case <-timeout:
			t.Fatalf("run %s is %s after 30s, want %s", run.ID, r.Status, status)
		}
	}
}

// TestALocalActionRunAgainAfterItsWorkerDiedIsNotActedTwice: a short action runs as a
// local activity, whose answer Temporal records only when the workflow task completes. A
// worker that dies after the action answered, before that, leaves the next worker to run
// the workflow task again, and the local activity with it, counting its attempts from one
// again. The recorded attempt must be answered again, not the POST made twice.
func TestALocalActionRunAgainAfterItsWorkerDiedIsNotActedTwice(t *testing.T) {
	crash := &crashAfterFirstLocalAnswer{}
	l := newLiveEngine(t, nil, crash)
	l.chargedOnce(t, l.start(t, chargeGraph()))
	if !crash.crashed.Load() {
		t.Fatal("the charge did not run as a local activity")
	}
}

// crashAfterFirstLocalAnswer plays a worker that dies once, right after the first local
// http.request answered: the workflow task fails (a panic), so Temporal records neither
// the answer nor anything after it, and runs the task again.
type crashAfterFirstLocalAnswer struct {
	interceptor.WorkerInterceptorBase
	crashed atomic.Bool
}

func (c *crashAfterFirstLocalAnswer) InterceptWorkflow(ctx workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	i := &crashInbound{crash: c}
	i.Next = next
	return i
}

type crashInbound struct {
	interceptor.WorkflowInboundInterceptorBase
	crash *crashAfterFirstLocalAnswer
}

func (i *crashInbound) Init(outbound interceptor.WorkflowOutboundInterceptor) error {
	o := &crashOutbound{crash: i.crash}
	o.Next = outbound
	return i.Next.Init(o)
}

type crashOutbound struct {
	interceptor.WorkflowOutboundInterceptorBase
	crash *crashAfterFirstLocalAnswer
}

func (o *crashOutbound) ExecuteLocalActivity(ctx workflow.Context, activityType string, args ...any) workflow.Future {
	answer := o.Next.ExecuteLocalActivity(ctx, activityType, args...)
	if activityType == activities.ActionHTTPRequest {
		workflow.Go(ctx, func(ctx workflow.Context) {
			if answer.Get(ctx, nil) == nil && o.crash.crashed.CompareAndSwap(false, true) {
				panic("the worker died before Temporal recorded the local action's answer")
			}
		})
	}
	return answer
}

// TestAnUnansweredPostIsSentAgainOnlyToATargetThatDeduplicates: a worker that dies after a
// POST left, before its answer was recorded, leaves its outcome unknown. The next attempt
// refuses to send it again, unless the author said the target acts once per
// Idempotency-Key: then it is sent again, with the same key.
func TestAnUnansweredPostIsSentAgainOnlyToATargetThatDeduplicates(t *testing.T) {
	for _, c := range []struct {
		name        string
		deduplicate bool
		want        automation.RunStatus
		sends       int
	}{
		{"the target deduplicates: sent again", true, automation.RunSucceeded, 1},
		{"it does not: refused as an unknown outcome", false, automation.RunFailed, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			died := &dieAfterSending{}
			l := newLiveEngine(t, nil, died)
			died.workflows = l.workflows
			run := l.start(t, graph([]automation.Action{manualTrigger("start"), httpRequest("charge",
				map[string]any{"method": "POST", "url": "https://pay.example/charges", "target_deduplicates": c.deduplicate})},
				edge("start", "charge")))
			done := awaitStatus(t, l.workflows, run, c.want)
			sent := l.fakes.requests("charge")
			if len(sent) != c.sends || c.sends > 0 && sent[0].Attempt != 2 {
				t.Fatalf("after the lost attempt charge was sent %d times (%+v), want %d, as attempt 2", len(sent), sent, c.sends)
			}
			if c.want == automation.RunFailed {
				actions, err := l.workflows.ActionRuns(context.Background(), done)
				if err != nil {
					t.Fatal(err)
				}
				if a := actions[1]; a.RetryClass != activities.ClassUnknownOutcome {
					t.Fatalf("charge failed as %q, want unknown_outcome", a.RetryClass)
				}
			}
		})
	}
}

// dieAfterSending plays a worker that dies while its first http.request is in flight: the
// attempt is recorded as begun, and never settled, and Temporal retries the activity.
type dieAfterSending struct {
	interceptor.WorkerInterceptorBase
	workflows *automation.Service
	died      atomic.Bool
}

func (d *dieAfterSending) InterceptActivity(ctx context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	i := &diesAfterSending{worker: d}
	i.Next = next
	return i
}

type diesAfterSending struct {
	interceptor.ActivityInboundInterceptorBase
	worker *dieAfterSending
}

func (i *diesAfterSending) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	req, ok := in.Args[0].(ActionRequest)
	if ok && activity.GetInfo(ctx).ActivityType.Name == activities.ActionHTTPRequest && i.worker.died.CompareAndSwap(false, true) {
		if err := i.worker.workflows.BeginAttempt(ctx, req.RunID, req.ActionKey, 1); err != nil {
			return nil, err
		}
		return nil, errors.New("the worker died with the request in flight")
	}
	return i.Next.ExecuteActivity(ctx, in)
}
