package automation_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/platform/realtime"
)

// TestAReplayedWorkflowTaskDoesNotReopenAnEndedRun: a workflow task that wrote a run's
// whole projection, its end included, and died before Temporal recorded it is run again
// from its first batch. Those batches must leave the ended run as it is, while the first
// batch of a run the engine refused before it started is still refused.
func TestAReplayedWorkflowTaskDoesNotReopenAnEndedRun(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		svc, wf := ordersWorkflow(t, db)
		started := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
		finished := started.Add(time.Second)
		begin := func(r *automation.Run) automation.Progress {
			return automation.Progress{RunID: r.ID, Begin: true, Run: &automation.RunUpdate{Status: automation.RunRunning, StartedAt: &started},
				Events: []automation.EventRecord{{Sequence: 1, Type: "run.started", Status: string(automation.RunRunning), At: started}}}
		}
		waiting := func(r *automation.Run) automation.Progress {
			return automation.Progress{RunID: r.ID, Run: &automation.RunUpdate{Status: automation.RunWaiting}}
		}
		end := func(r *automation.Run) automation.Progress {
			return automation.Progress{RunID: r.ID, Run: &automation.RunUpdate{Status: automation.RunSucceeded, TerminalReason: "all actions finished", FinishedAt: &finished},
				Events: []automation.EventRecord{{Sequence: 2, Type: "run.succeeded", Status: string(automation.RunSucceeded), At: finished}}}
		}

		run := createRun(t, svc, wf, "manual")
		for _, p := range []automation.Progress{begin(run), waiting(run), end(run), begin(run), waiting(run)} {
			if err := svc.ApplyProgress(ctx, p); err != nil {
				t.Fatalf("a batch of the run or of its replay: %v", err)
			}
		}
		got, err := svc.Run(ctx, run.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != automation.RunSucceeded || got.FinishedAt == nil {
			t.Fatalf("after the replay's batches the run is %s (finished %v), want it still succeeded", got.Status, got.FinishedAt)
		}
		if err := svc.ApplyProgress(ctx, end(run)); err != nil {
			t.Fatalf("the replay's end: %v", err)
		}

		refused := createRun(t, svc, wf, "manual")
		if err := svc.RefuseRun(ctx, refused.ID, "the engine is down"); err != nil {
			t.Fatal(err)
		}
		if err := svc.ApplyProgress(ctx, begin(refused)); !errors.Is(err, automation.ErrRunClosed) {
			t.Fatalf("the first batch of a refused run answered %v, want ErrRunClosed", err)
		}
		if got, err := svc.Run(ctx, refused.ID); err != nil || got.Status != automation.RunFailed || got.StartedAt != nil {
			t.Fatalf("the refused run became %+v, %v", got, err)
		}
	})
}

// TestAResumedExecutionKeepsWhenReusedActionsFinished: retry-action runs the run again from
// its recorded state, and the new execution reports once more the actions whose results it
// reuses. Those keep the time they really finished; the action run again gets its new one.
func TestAResumedExecutionKeepsWhenReusedActionsFinished(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		svc, wf := ordersWorkflow(t, db)
		run := &automation.Run{ID: models.NewID(), CompanyID: wf.CompanyID, ProjectID: wf.ProjectID, WorkflowID: wf.ID,
			Status: automation.RunPending, TriggerType: "manual", Input: "{}", Namespaces: "{}",
			Graph: `{"actions":[{"action_key":"fetch","action_type_key":"http.request"},{"action_key":"notify","action_type_key":"http.request"}],"connections":[]}`}
		if err := svc.CreateRun(ctx, run, nil); err != nil {
			t.Fatal(err)
		}
		at := func(minutes int) *time.Time {
			t := time.Date(2026, 11, 26, 9, minutes, 0, 0, time.UTC)
			return &t
		}
		batches := []automation.ActionUpdate{
			{ActionKey: "fetch", Status: automation.ActionRunning, StartedAt: at(0)},
			{ActionKey: "fetch", Status: automation.ActionSucceeded, FinishedAt: at(1)},
			{ActionKey: "notify", Status: automation.ActionRunning, StartedAt: at(1)},
			{ActionKey: "notify", Status: automation.ActionFailed, Error: "refused", FinishedAt: at(2)},
			// The retry, 30 minutes later: fetch is reused, notify acts again.
			{ActionKey: "fetch", Status: automation.ActionSucceeded, FinishedAt: at(30)},
			{ActionKey: "notify", Status: automation.ActionRunning, StartedAt: at(30)},
			{ActionKey: "notify", Status: automation.ActionSucceeded, FinishedAt: at(31)},
		}
		for _, a := range batches {
			if err := svc.ApplyProgress(ctx, automation.Progress{RunID: run.ID, Actions: []automation.ActionUpdate{a}}); err != nil {
				t.Fatal(err)
			}
		}
		rows, err := svc.ActionRuns(ctx, run)
		if err != nil {
			t.Fatal(err)
		}
		finished := map[string]time.Time{}
		for _, r := range rows {
			if r.FinishedAt != nil {
				finished[r.ActionKey] = r.FinishedAt.UTC()
			}
		}
		if !finished["fetch"].Equal(*at(1)) || !finished["notify"].Equal(*at(31)) {
			t.Fatalf("finished at %v, want fetch at 09:01 (reused) and notify at 09:31 (run again)", finished)
		}
	})
}

// ordersWorkflow is the projection service of a new tenant and a workflow of its project.
func ordersWorkflow(t *testing.T, db *dbtest.DB) (*automation.Service, *automation.Workflow) {
	t.Helper()
	tenant := dbtest.NewTenant(t, db.DB, "northwind")
	svc := automation.NewService(db.DB, tenant.Companies, tenant.Catalog, realtime.NewLocal())
	wf, err := svc.Create(context.Background(), tenant.Project, tenant.UserID, "Orders", "")
	if err != nil {
		t.Fatal(err)
	}
	return svc, wf
}

// createRun stores a pending run of wf started by trigger.
func createRun(t *testing.T, svc *automation.Service, wf *automation.Workflow, trigger string) *automation.Run {
	t.Helper()
	r := &automation.Run{ID: models.NewID(), CompanyID: wf.CompanyID, ProjectID: wf.ProjectID, WorkflowID: wf.ID,
		Status: automation.RunPending, TriggerType: trigger, Input: "{}", Namespaces: "{}", Graph: "{}"}
	if err := svc.CreateRun(context.Background(), r, nil); err != nil {
		t.Fatal(err)
	}
	return r
}
