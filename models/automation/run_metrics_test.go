package automation_test

import (
	"context"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/platform/metrics"
	"agencyhub/platform/metrics/metricstest"
	"agencyhub/platform/realtime"
)

// TestRunsAreCountedOnceAsTheyStartAndFinish: the projection counts a run started when it
// is created or re-opened, and finished when a write first gives it a terminal status; a
// batch written again (a replayed workflow task) does not count it twice.
func TestRunsAreCountedOnceAsTheyStartAndFinish(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		svc, wf := ordersWorkflow(t, db)
		m := metrics.New()
		svc.Metrics = m
		apply := func(r *automation.Run, status string) {
			t.Helper()
			now := time.Now()
			if err := svc.ApplyProgress(ctx, automation.Progress{RunID: r.ID, Run: &automation.RunUpdate{Status: status, FinishedAt: &now}}); err != nil {
				t.Fatal(err)
			}
		}
		count := func(name string, labels ...string) float64 {
			t.Helper()
			v, _ := metricstest.Gather(t, m.Registry()).Value(name, labels...)
			return v
		}

		manual, hook := createRun(t, svc, wf, "manual"), createRun(t, svc, wf, "webhook")
		apply(manual, automation.RunRunning)
		apply(manual, automation.RunSucceeded)
		apply(manual, automation.RunSucceeded) // the same batch again
		if err := svc.RefuseRun(ctx, hook.ID, "the engine is down"); err != nil {
			t.Fatal(err)
		}
		if err := svc.RefuseRun(ctx, hook.ID, "the engine is down"); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name   string
			labels []string
			want   float64
		}{
			{"workflow_runs_started_total", []string{"trigger", "manual"}, 1},
			{"workflow_runs_started_total", []string{"trigger", "webhook"}, 1},
			{"workflow_runs_finished_total", []string{"trigger", "manual", "status", "succeeded"}, 1},
			{"workflow_runs_finished_total", []string{"trigger", "webhook", "status", "failed"}, 1},
		} {
			if got := count(c.name, c.labels...); got != c.want {
				t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
			}
		}

		t.Run("a re-opened run starts and finishes again", func(t *testing.T) {
			stored, err := svc.Run(ctx, hook.ID)
			if err != nil {
				t.Fatal(err)
			}
			if err := svc.ReopenRun(ctx, stored); err != nil {
				t.Fatal(err)
			}
			apply(stored, automation.RunCancelled)
			if got := count("workflow_runs_started_total", "trigger", "webhook"); got != 2 {
				t.Errorf("webhook runs started = %v, want 2", got)
			}
			if got := count("workflow_runs_finished_total", "trigger", "webhook", "status", "cancelled"); got != 1 {
				t.Errorf("webhook runs cancelled = %v, want 1", got)
			}
		})
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
