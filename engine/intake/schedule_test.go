package intake

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/engine"
	"agencyhub/engine/enginetest"
	"agencyhub/engine/schedules"
	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// scheduleFixture is a workflow in a project of its own, with the intake and its runs on a
// task queue of its own.
type scheduleFixture struct {
	ctx       context.Context
	workflows *automation.Service
	intake    *Intake
	w         *automation.Workflow
	userID    uuid.UUID
}

func newScheduleFixture(t *testing.T, db *dbtest.DB) *scheduleFixture {
	t.Helper()
	tenant, workflows, w := enginetest.Workflow(t, db, "Scheduled")
	f := &scheduleFixture{ctx: context.Background(), workflows: workflows, w: w, userID: tenant.UserID}
	runs := &engine.Runs{
		Client:    enginetest.Temporal(t),
		Workflows: f.workflows,
		Catalog:   tenant.Catalog,
		TaskQueue: "schedule-test-" + models.NewID().String(),
		WebURL:    "https://hub.test",
	}
	f.intake = &Intake{Runs: runs, Workflows: f.workflows, Catalog: tenant.Catalog}
	return f
}

// mustPublish saves the actions, each connected to a final stop, as the draft and publishes
// it: the trigger index then holds the version's triggers.
func (f *scheduleFixture) mustPublish(t *testing.T, actions ...automation.Action) {
	t.Helper()
	w, err := f.workflows.PutDraft(f.ctx, f.w, automation.Draft{Graph: enginetest.EndingInStop(actions...)})
	if err != nil {
		t.Fatalf("save draft: %v", err)
	}
	v, err := f.workflows.Publish(f.ctx, w, f.userID, nil)
	if err != nil {
		t.Fatalf("publish: %v", err)
	}
	f.w = w
	f.w.CurrentVersionID = &v.ID
}

func TestScheduleStartScheduled(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		f := newScheduleFixture(t, db)
		trigger := func(config map[string]any) automation.Action {
			config["schedule_key"] = "tick"
			config["interval_seconds"] = 3600
			return automation.Action{ActionKey: "tick", Label: "tick", ActionTypeKey: automation.TypeSchedule, Config: config}
		}
		f.mustPublish(t, trigger(map[string]any{}))
		planned := time.Date(2026, 3, 1, 9, 0, 0, 0, time.FixedZone("MSK", 3*3600))
		fire := func(t *testing.T, at time.Time) (*automation.Run, string) {
			t.Helper()
			run, skipped, err := f.intake.StartScheduled(f.ctx, schedules.ScheduleFiring{WorkflowID: f.w.ID, ActionKey: "tick", ScheduledAt: at})
			if err != nil {
				t.Fatal(err)
			}
			if (run == nil) == (skipped == "") {
				t.Fatalf("StartScheduled answered run %v and skip reason %q: want exactly one", run, skipped)
			}
			return run, skipped
		}
		finish := func(t *testing.T, run *automation.Run) {
			t.Helper()
			if err := db.Model(&automation.Run{}).Where("id = ?", run.ID).Update("status", automation.RunSucceeded).Error; err != nil {
				t.Fatal(err)
			}
		}

		first, _ := fire(t, planned)
		t.Run("a firing starts a schedule run with the planned time in UTC", func(t *testing.T) {
			if first == nil {
				t.Fatal("no run started")
			}
			if first.TriggerType != engine.TriggerSchedule || first.TriggerActionKey != "tick" || first.WorkflowVersionID == nil || first.IsTest {
				t.Errorf("run %+v, want a schedule run of the current version from tick", first)
			}
			want := "2026-03-01T06:00:00Z"
			if got := first.InputJSON()["scheduled_at"]; got != want {
				t.Errorf("input scheduled_at %v, want %s", got, want)
			}
			ns := first.NamespacesJSON()
			for _, name := range []string{"tick", "schedule"} {
				if m, _ := ns[name].(map[string]any); m["scheduled_at"] != want {
					t.Errorf("namespace %s = %v, want scheduled_at %s", name, ns[name], want)
				}
			}
		})

		t.Run("the same planned time again answers the run it started", func(t *testing.T) {
			again, _ := fire(t, planned)
			if again == nil || again.ID != first.ID {
				t.Fatalf("answered %v, want run %s", again, first.ID)
			}
		})

		t.Run("a firing while the previous scheduled run is unfinished is skipped", func(t *testing.T) {
			run, skipped := fire(t, planned.Add(time.Hour))
			if run != nil || !strings.Contains(skipped, first.ID.String()) {
				t.Fatalf("answered run %v, reason %q: want a skip naming %s", run, skipped, first.ID)
			}
		})

		t.Run("a firing after the previous run finished starts the next run", func(t *testing.T) {
			finish(t, first)
			next, _ := fire(t, planned.Add(2*time.Hour))
			if next == nil {
				t.Fatal("no run started")
			}
			finish(t, next)
		})

		t.Run("a firing of a disabled trigger is skipped", func(t *testing.T) {
			f.mustPublish(t, trigger(map[string]any{"enabled": false}))
			if run, skipped := fire(t, planned.Add(3*time.Hour)); run != nil || !strings.Contains(skipped, "disabled") {
				t.Fatalf("answered run %v, reason %q: want a skip", run, skipped)
			}
		})

		t.Run("a firing of a trigger the current version lacks is skipped", func(t *testing.T) {
			f.mustPublish(t, automation.Action{ActionKey: "start", Label: "start", ActionTypeKey: automation.TypeManual, Config: map[string]any{}})
			if run, skipped := fire(t, planned.Add(4*time.Hour)); run != nil || !strings.Contains(skipped, "no schedule trigger") {
				t.Fatalf("answered run %v, reason %q: want a skip", run, skipped)
			}
		})

		t.Run("a firing of an unknown workflow is skipped", func(t *testing.T) {
			run, skipped, err := f.intake.StartScheduled(f.ctx, schedules.ScheduleFiring{WorkflowID: models.NewID(), ActionKey: "tick", ScheduledAt: planned})
			if err != nil || run != nil || skipped == "" {
				t.Fatalf("answered %v, %q, %v: want a skip", run, skipped, err)
			}
		})
	})
}
