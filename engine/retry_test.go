package engine

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"agencyhub/activities"
	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/realtime"
)

// TestRetryActionWaitsForTheFailedExecutionToClose: the projection says failed as soon as
// the interpreter's last write commits, while its Temporal execution is still open. A
// retry asked for in that moment must start a new execution once the old one closed, not
// attach to the closing one and leave the run pending for ever.
func TestRetryActionWaitsForTheFailedExecutionToClose(t *testing.T) {
	ctx := context.Background()
	c := testTemporal(t)
	db := dbtest.SQLite(t)
	tenant := dbtest.NewTenant(t, db.DB, "retry")
	workflows := automation.NewService(db.DB, tenant.Companies, tenant.Catalog, realtime.NewLocal())
	queue := "retry-" + models.NewID().String()
	engine := NewServices(c, queue, "https://hub.test", tenant.Catalog, Stores{Workflows: workflows})

	fakes := newFakeActions()
	fakes.on("charge", failing(activities.Fail(activities.ClassPermanent, "declined", "the card was declined", "Retry"), 1, map[string]any{"ok": true}))
	release := make(chan struct{})
	var held atomic.Bool
	w := worker.New(c, queue, worker.Options{})
	w.RegisterWorkflowWithOptions(Interpret, workflow.RegisterOptions{Name: WorkflowName})
	w.RegisterActivityWithOptions(func(ctx context.Context, p automation.Progress) error {
		if err := workflows.ApplyProgress(ctx, p); err != nil {
			return err
		}
		if p.Run != nil && p.Run.Status == automation.RunFailed && held.CompareAndSwap(false, true) {
			<-release // the failed execution stays open after its failure is recorded
		}
		return nil
	}, activity.RegisterOptions{Name: progressActivity})
	w.RegisterActivityWithOptions(runAction(WorkerDeps{Workflows: workflows}, fakes.run), activity.RegisterOptions{Name: activities.ActionHTTPRequest})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)

	wf, err := workflows.Create(ctx, tenant.Project, tenant.UserID, "Charge", "")
	if err != nil {
		t.Fatal(err)
	}
	g := graph([]automation.Action{manualTrigger("start"), httpRequest("charge", map[string]any{"method": "POST", "url": "https://pay.example/charges"})},
		edge("start", "charge"))
	if wf, _, err = workflows.PutDraft(ctx, wf, automation.Draft{Graph: g}); err != nil {
		t.Fatal(err)
	}
	v, err := engine.Publisher.Publish(ctx, wf, tenant.UserID, nil)
	if err != nil {
		t.Fatal(err)
	}
	wf.CurrentVersionID = &v.ID
	run, err := engine.Intake.StartManual(ctx, wf, tenant.UserID, nil)
	if err != nil {
		t.Fatal(err)
	}
	failed := awaitStatus(t, workflows, run, automation.RunFailed)

	retried := make(chan error, 1)
	go func() {
		_, err := engine.Runs.RetryAction(ctx, failed, "charge")
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
	awaitStatus(t, workflows, run, automation.RunSucceeded)
	if n := len(fakes.requests("charge")); n != 2 {
		t.Fatalf("charge ran %d times, want 2: once failing, once retried", n)
	}
}

// awaitStatus waits, on the run's bus topic, until the run's projection has status.
func awaitStatus(t *testing.T, workflows *automation.Service, run *automation.Run, status string) *automation.Run {
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
