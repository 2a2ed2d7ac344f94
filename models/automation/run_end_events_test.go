package automation_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"gorm.io/gorm"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// runEnd is the terminal batch of a run, as the interpreter writes it.
func runEnd(r *automation.Run, status automation.RunStatus, reason, failedKey string) automation.Progress {
	finished := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	u := &automation.RunUpdate{Status: status, TerminalReason: reason, FinishedAt: &finished, FailedActionKey: failedKey}
	if status == automation.RunFailed {
		u.Error = reason
	}
	return automation.Progress{RunID: r.ID, Run: u,
		Events: []automation.EventRecord{{Sequence: 1, Type: "run." + string(status), Status: string(status), Message: reason, At: finished}}}
}

func queuedEnds(t *testing.T, svc *automation.Service) []automation.RunEndEvent {
	t.Helper()
	events, err := svc.QueuedRunEndEvents(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

func TestTheEndOfAFailedOrCancelledRunIsQueuedForRunEventTriggers(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		svc, wf := ordersWorkflow(t, db)

		failed := createRun(t, svc, wf, "manual")
		end := runEnd(failed, automation.RunFailed, "action fetch failed: the CRM answered 500", "fetch")
		for range 2 { // the second is a replayed workflow task writing the end again
			if err := svc.ApplyProgress(ctx, end); err != nil {
				t.Fatal(err)
			}
		}
		cancelled := createRun(t, svc, wf, "webhook")
		if err := svc.ApplyProgress(ctx, runEnd(cancelled, automation.RunCancelled, "the run was cancelled", "")); err != nil {
			t.Fatal(err)
		}
		refused := createRun(t, svc, wf, "manual")
		if err := svc.RefuseRun(ctx, refused.ID, "the workflow engine did not accept the run: down"); err != nil {
			t.Fatal(err)
		}
		succeeded := createRun(t, svc, wf, "manual")
		if err := svc.ApplyProgress(ctx, runEnd(succeeded, automation.RunSucceeded, "all actions finished", "")); err != nil {
			t.Fatal(err)
		}

		got := queuedEnds(t, svc)
		want := []struct {
			run              *automation.Run
			typ, key, errTxt string
		}{
			{failed, automation.EventRunFailed, "fetch", "action fetch failed: the CRM answered 500"},
			{cancelled, automation.EventRunCancelled, "", "the run was cancelled"},
			{refused, automation.EventRunFailed, "", "the workflow engine did not accept the run: down"},
		}
		if len(got) != len(want) {
			t.Fatalf("queued %+v, want one per failed or cancelled run (%d)", got, len(want))
		}
		byRun := map[string]automation.RunEndEvent{}
		for _, ev := range got {
			byRun[ev.RunID.String()] = ev
		}
		for _, w := range want {
			ev := byRun[w.run.ID.String()]
			if ev.EventType != w.typ || ev.FailedActionKey != w.key || ev.Error != w.errTxt || ev.WorkflowID != wf.ID ||
				ev.ProjectID != wf.ProjectID || ev.CompanyID != wf.CompanyID {
				t.Errorf("run %s queued %+v, want %s at %q with %q", w.run.ID, ev, w.typ, w.key, w.errTxt)
			}
		}

		scope, err := svc.RunEndEventScope(ctx, byRun[failed.ID.String()])
		if err != nil {
			t.Fatal(err)
		}
		if scope["workflow_name"] != "Orders" || scope["run_id"] != failed.ID.String() || scope["failed_action_key"] != "fetch" ||
			scope["event_type"] != "run.failed" || scope["error"] != "action fetch failed: the CRM answered 500" {
			t.Fatalf("scope %v", scope)
		}
		for _, ev := range got {
			if err := svc.MarkRunEndEventDispatched(ctx, ev, nil); err != nil {
				t.Fatal(err)
			}
		}
		if left := queuedEnds(t, svc); len(left) != 0 {
			t.Fatalf("dispatched events still queued: %+v", left)
		}

		// retry-action runs the failed run again; failing again, it ends again.
		if err := svc.ReopenRun(ctx, failed, "fetch"); err != nil {
			t.Fatal(err)
		}
		if err := svc.ApplyProgress(ctx, end); err != nil {
			t.Fatal(err)
		}
		if again := queuedEnds(t, svc); len(again) != 1 || again[0].RunID != failed.ID || again[0].ID == byRun[failed.ID.String()].ID {
			t.Fatalf("after the retry failed queued %+v, want a new end of the run", again)
		}
	})
}

func TestRunsOfWatchersAndTestRunsQueueNoEnd(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		svc, wf := ordersWorkflow(t, db)
		watcherGraph := `{"actions":[{"action_key":"failed","action_type_key":"run.event_trigger","config":{}},` +
			`{"action_key":"tell","action_type_key":"http.request","config":{}}],"connections":[{"from":"failed","to":"tell","branch":""}]}`
		runs := map[string]*automation.Run{
			"a run the trigger started": {TriggerType: automation.TriggerRunEvent, TriggerActionKey: "failed", Graph: watcherGraph},
			"a replay of one":           {TriggerType: "replay", TriggerActionKey: "failed", Graph: watcherGraph},
			"a test run":                {TriggerType: "test", IsTest: true, Graph: "{}"},
		}
		for name, r := range runs {
			r.ID, r.CompanyID, r.ProjectID, r.WorkflowID = models.NewID(), wf.CompanyID, wf.ProjectID, wf.ID
			r.Status, r.Input, r.Namespaces = automation.RunPending, "{}", "{}"
			if err := svc.CreateRun(ctx, r, nil); err != nil {
				t.Fatal(err)
			}
			if err := svc.ApplyProgress(ctx, runEnd(r, automation.RunFailed, "action tell failed: refused", "tell")); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got, _ := svc.Run(ctx, r.ID); got.Status != automation.RunFailed {
				t.Fatalf("%s: the run is %s, want failed", name, got.Status)
			}
		}
		if got := queuedEnds(t, svc); len(got) != 0 {
			t.Fatalf("queued %+v, want nothing", got)
		}
	})
}

func TestARunsEndAndItsQueuedEventAreWrittenTogether(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		svc, wf := ordersWorkflow(t, db)
		run := createRun(t, svc, wf, "manual")
		// The batch's last write fails (the database goes away mid-transaction).
		const hook = "test:fail_run_events"
		if err := db.DB.Callback().Create().Before("gorm:create").Register(hook, func(tx *gorm.DB) {
			if tx.Statement.Table == "workflow_run_events" {
				_ = tx.AddError(errors.New("the database went away"))
			}
		}); err != nil {
			t.Fatal(err)
		}
		err := svc.ApplyProgress(ctx, runEnd(run, automation.RunFailed, "action fetch failed: 500", "fetch"))
		if err == nil {
			t.Fatal("the batch was written although its last write failed")
		}
		if got, _ := svc.Run(ctx, run.ID); got.Status != automation.RunPending {
			t.Fatalf("the run is %s after the failed batch, want it as it was", got.Status)
		}
		if got := queuedEnds(t, svc); len(got) != 0 {
			t.Fatalf("the failed batch queued %+v", got)
		}
		if err := db.DB.Callback().Create().Remove(hook); err != nil {
			t.Fatal(err)
		}
		// Temporal retries the write: the end and its event come together, once.
		if err := svc.ApplyProgress(ctx, runEnd(run, automation.RunFailed, "action fetch failed: 500", "fetch")); err != nil {
			t.Fatal(err)
		}
		if got := queuedEnds(t, svc); len(got) != 1 || got[0].RunID != run.ID {
			t.Fatalf("queued %+v, want the run's end once", got)
		}
	})
}
