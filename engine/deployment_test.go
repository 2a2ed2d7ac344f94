package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"agencyhub/activities"
	"agencyhub/engine/enginetest"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// builds runs workers of several builds on one task queue, each with an http.request
// action that notes the build that ran it.
type builds struct {
	t         *testing.T
	ctx       context.Context
	c         client.Client
	queue     string
	workflows *automation.Service
	mu        sync.Mutex
	ranOn     map[string][]string // action key → builds that ran it
}

func newBuilds(t *testing.T) *builds {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	// One queue for every test of the deployment: a version becomes current only once it polls
	// every queue the current one polled (the server's guard against forgotten queues).
	return &builds{t: t, ctx: ctx, c: enginetest.Temporal(t), queue: "deployment-test",
		workflows: newTestWorkflows(t), ranOn: map[string][]string{}}
}

// start runs a worker of build until the test ends.
func (b *builds) start(build string) {
	b.t.Helper()
	act := func(_ context.Context, req activities.Request) (activities.Result, error) {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.ranOn[req.ActionKey] = append(b.ranOn[req.ActionKey], build)
		return activities.Result{Output: map[string]any{}}, nil
	}
	w := NewWorker(b.c, b.queue, WorkerDeps{Workflows: b.workflows, BuildID: build,
		Actions: map[string]activities.Func{activities.ActionHTTPRequest: act}})
	if err := w.Start(); err != nil {
		b.t.Fatal(err)
	}
	b.t.Cleanup(w.Stop)
}

func (b *builds) promote(build, wantCurrent string) {
	b.t.Helper()
	current, err := Promote(b.ctx, b.c, build)
	if err != nil {
		b.t.Fatal(err)
	}
	if current != wantCurrent {
		b.t.Fatalf("after promoting %s the current build is %s, want %s", build, current, wantCurrent)
	}
}

// run starts a run of g, from a client that hands no task to a worker of this process
// directly (no eager start): the server routes every task.
func (b *builds) run(g automation.Graph) client.WorkflowRun {
	b.t.Helper()
	in := newRun(b.t, b.workflows, g, "start", nil)
	run, err := b.c.ExecuteWorkflow(b.ctx, client.StartWorkflowOptions{ID: in.RunID.String(), TaskQueue: b.queue}, WorkflowName, in)
	if err != nil {
		b.t.Fatal(err)
	}
	return run
}

// taskBuilds lists the build of every workflow task the run completed, in order, as its
// history recorded them.
func (b *builds) taskBuilds(run client.WorkflowRun) []string {
	b.t.Helper()
	var out []string
	events := b.c.GetWorkflowHistory(b.ctx, run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for events.HasNext() {
		e, err := events.Next()
		if err != nil {
			b.t.Fatal(err)
		}
		if done := e.GetWorkflowTaskCompletedEventAttributes(); done != nil {
			out = append(out, done.GetDeploymentVersion().GetBuildId())
		}
	}
	return out
}

// awaitRegistered waits until the server knows build as a version of the deployment, so
// that promoting it takes no longer than the call.
func (b *builds) awaitRegistered(build string) {
	b.t.Helper()
	for {
		d, err := b.c.WorkerDeploymentClient().GetHandle(DeploymentName).Describe(b.ctx, client.WorkerDeploymentDescribeOptions{})
		if err == nil && slices.ContainsFunc(d.Info.VersionSummaries, func(v client.WorkerDeploymentVersionSummary) bool {
			return v.Version.BuildID == build
		}) {
			return
		}
		select {
		case <-b.ctx.Done():
			b.t.Fatalf("build %s was never registered (%v)", build, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// awaitTimer waits until the run waits on its timer.
func (b *builds) awaitTimer(run client.WorkflowRun) {
	b.t.Helper()
	for {
		events := b.c.GetWorkflowHistory(b.ctx, run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for events.HasNext() {
			e, err := events.Next()
			if err != nil {
				b.t.Fatal(err)
			}
			if e.GetEventType() == enumspb.EVENT_TYPE_TIMER_STARTED {
				return
			}
		}
		select {
		case <-b.ctx.Done():
			b.t.Fatal("the run never started its timer")
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (b *builds) ran(key string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.ranOn[key])
}

// TestAWorkerOfAnotherBuildTakesNoRunOfTheCurrentOne runs the workers of an old and a new
// build side by side on one task queue, as a rollout does: whichever build is current
// executes every workflow task and action, the other none; a run waiting on a timer when the
// new build becomes current continues on the new build (AutoUpgrade), and the old build
// starting again does not take the runs back.
func TestAWorkerOfAnotherBuildTakesNoRunOfTheCurrentOne(t *testing.T) {
	b := newBuilds(t)
	old, next := "old-"+models.NewID().String(), "new-"+models.NewID().String()
	b.start(old)
	b.promote(old, old)
	b.start(next) // polls from here on, but is not current
	b.awaitRegistered(next)

	waiting := b.run(graph([]automation.Action{manualTrigger("start"), httpRequest("before", nil), delay("wait", 3), httpRequest("after", nil)},
		edge("start", "before"), edge("before", "wait"), edge("wait", "after")))
	b.awaitTimer(waiting)
	b.promote(next, next)
	var fresh []client.WorkflowRun
	for range 5 {
		fresh = append(fresh, b.run(graph([]automation.Action{manualTrigger("start"), httpRequest("fresh", nil)}, edge("start", "fresh"))))
	}
	for _, run := range append(fresh, waiting) {
		if err := run.Get(b.ctx, nil); err != nil {
			t.Fatalf("run %s: %v", run.GetID(), err)
		}
	}

	got := b.taskBuilds(waiting)
	if moved := slices.Index(got, next); moved < 1 || slices.ContainsFunc(got[:moved], func(b string) bool { return b != old }) ||
		slices.ContainsFunc(got[moved:], func(b string) bool { return b != next }) {
		t.Errorf("the waiting run's workflow tasks ran on %v: want those before the timer on the old build, the rest on the new", got)
	}
	if got, want := b.ran("before"), []string{old}; !slices.Equal(got, want) {
		t.Errorf("the action before the timer ran on %v, want %v", got, want)
	}
	if got, want := b.ran("after"), []string{next}; !slices.Equal(got, want) {
		t.Errorf("the action after the timer ran on %v, want %v", got, want)
	}
	for _, run := range fresh {
		if got := b.taskBuilds(run); slices.Contains(got, old) || len(got) == 0 {
			t.Errorf("a run started while the new build is current ran its workflow tasks on %v", got)
		}
	}
	if got := b.ran("fresh"); len(got) != len(fresh) || slices.Contains(got, old) {
		t.Errorf("the actions of runs started while the new build is current ran on %v", got)
	}
	b.promote(old, next)
}

// TestPromoteTriesAgainAfterABusyServer: the refusals a busy or still-starting server
// answers are tried again; a real refusal ends the promotion.
func TestPromoteTriesAgainAfterABusyServer(t *testing.T) {
	for err, want := range map[error]bool{
		errNotRegistered: true,
		serviceerror.NewNotFound("no deployment"):                                                                              true,
		serviceerror.NewFailedPrecondition("conflict token"):                                                                   true,
		serviceerror.NewUnavailable("busy"):                                                                                    true,
		serviceerror.NewCanceled("stream terminated by RST_STREAM with error code: CANCEL"):                                    true,
		fmt.Errorf("describe: %w", serviceerror.NewResourceExhausted(enumspb.RESOURCE_EXHAUSTED_CAUSE_RPS_LIMIT, "slow down")): true,
		serviceerror.NewPermissionDenied("no", ""):                                                                             false,
		serviceerror.NewInvalidArgument("bad build"):                                                                           false,
		errors.New("something else"):                                                                                           false,
	} {
		if got := worthAnotherTry(err); got != want {
			t.Errorf("worthAnotherTry(%v) = %v, want %v", err, got, want)
		}
	}
}
