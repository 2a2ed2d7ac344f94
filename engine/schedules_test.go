package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/platform/realtime"
)

func TestScheduleCronExpressions(t *testing.T) {
	for _, tc := range []struct {
		name, expr string
		ok         bool
	}{
		{"weekdays at nine are accepted", "0 9 * * 1-5", true},
		{"day names are accepted", "30 8 * * MON-FRI", true},
		{"steps and lists are accepted", "*/15 0,12 * * *", true},
		{"a day of month is accepted", "0 0 1 * *", true},
		{"a descriptor is accepted", "@daily", true},
		{"four fields are refused", "0 9 * *", false},
		{"six fields are refused", "0 0 9 * * *", false},
		{"a minute out of range is refused", "60 * * * *", false},
		{"an unknown descriptor is refused", "@fortnightly", false},
		{"an interval descriptor is refused", "@every 5m", false},
		{"a time zone inside the expression is refused", "CRON_TZ=Europe/Moscow 0 9 * * *", false},
		{"a question mark is refused", "0 9 ? * 1", false},
		{"day of month together with day of week is refused", "0 9 1 * 1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := CheckCron(tc.expr); (err == nil) != tc.ok {
				t.Fatalf("CheckCron(%q) = %v, want ok %v", tc.expr, err, tc.ok)
			}
		})
	}
}

func TestScheduleTickHandsThePlannedTimeToScheduleFire(t *testing.T) {
	planned := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	tick := ScheduleTick{WorkflowID: models.NewID(), ActionKey: "nightly"}
	for _, tc := range []struct {
		name      string
		attribute bool
		want      time.Time
	}{
		{"a schedule's start hands its planned time", true, planned},
		{"any other start hands the start time", false, planned.Add(time.Hour)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var suite testsuite.WorkflowTestSuite
			env := suite.NewTestWorkflowEnvironment()
			env.RegisterWorkflowWithOptions(Tick, workflow.RegisterOptions{Name: ScheduleWorkflowName})
			var got []ScheduleFiring
			env.RegisterActivityWithOptions(func(_ context.Context, f ScheduleFiring) error {
				got = append(got, f)
				return nil
			}, activity.RegisterOptions{Name: scheduleFireActivity})
			env.SetStartTime(planned.Add(time.Hour))
			if tc.attribute {
				if err := env.SetTypedSearchAttributesOnStart(temporal.NewSearchAttributes(scheduledStartTime.ValueSet(planned))); err != nil {
					t.Fatal(err)
				}
			}
			env.ExecuteWorkflow(ScheduleWorkflowName, tick)
			if err := env.GetWorkflowError(); err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].WorkflowID != tick.WorkflowID || got[0].ActionKey != tick.ActionKey || !got[0].ScheduledAt.Equal(tc.want) {
				t.Fatalf("schedule.fire got %+v, want one firing of %v at %v", got, tick, tc.want)
			}
		})
	}
}

// scheduleFixture is a workflow in a project of its own, with its schedules, publisher and
// intake on a task queue of its own.
type scheduleFixture struct {
	ctx       context.Context
	workflows *automation.Service
	schedules *Schedules
	publisher *Publisher
	intake    *Intake
	w         *automation.Workflow
	userID    uuid.UUID
}

func newScheduleFixture(t *testing.T, db *dbtest.DB) *scheduleFixture {
	t.Helper()
	tenant := dbtest.NewTenant(t, db.DB, "s"+strings.ReplaceAll(models.NewID().String(), "-", ""))
	f := &scheduleFixture{ctx: context.Background(), userID: tenant.UserID}
	f.workflows = automation.NewService(db.DB, tenant.Companies, tenant.Catalog, realtime.NewLocal())
	c, queue := testTemporal(t), "schedule-test-"+models.NewID().String()
	f.schedules = &Schedules{Client: c, Workflows: f.workflows, Catalog: tenant.Catalog, TaskQueue: queue}
	drafts := &Drafts{Catalog: tenant.Catalog, Workflows: f.workflows}
	f.publisher = &Publisher{Workflows: f.workflows, Schedules: f.schedules, Drafts: drafts}
	runs := &Runs{Client: c, Workflows: f.workflows, Catalog: tenant.Catalog, Drafts: drafts, TaskQueue: queue, WebURL: "https://hub.test"}
	f.intake = &Intake{Runs: runs, Workflows: f.workflows, Catalog: tenant.Catalog}
	var err error
	if f.w, err = f.workflows.Create(f.ctx, tenant.Project, f.userID, "Scheduled", ""); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, key := range []string{"tick", "nightly"} {
			_ = f.schedules.deleteSchedule(context.Background(), ScheduleID(f.w.ID, key))
		}
	})
	return f
}

func scheduleTriggerAction(key string, config map[string]any) automation.Action {
	return action(key, automation.TypeSchedule, config)
}

// publish saves the actions, each connected to a final stop, as the draft and publishes it.
func (f *scheduleFixture) publish(t *testing.T, actions ...automation.Action) (*automation.Version, error) {
	t.Helper()
	g := graph(append(actions, action("done", automation.TypeStop, nil)))
	for _, a := range actions {
		g.Connections = append(g.Connections, edge(a.ActionKey, "done"))
	}
	w, err := f.workflows.PutDraft(f.ctx, f.w, automation.Draft{Graph: g})
	if err != nil {
		t.Fatalf("save draft: %v", err)
	}
	f.w = w
	v, err := f.publisher.Publish(f.ctx, f.w, f.userID, nil)
	if err == nil {
		f.w.CurrentVersionID = &v.ID
	}
	return v, err
}

func (f *scheduleFixture) mustPublish(t *testing.T, actions ...automation.Action) *automation.Version {
	t.Helper()
	v, err := f.publish(t, actions...)
	if err != nil {
		t.Fatalf("publish: %v", err)
	}
	return v
}

// describe answers the trigger's schedule, or nil when there is none.
func (f *scheduleFixture) describe(t *testing.T, key string) *client.ScheduleDescription {
	t.Helper()
	d, err := f.schedules.Client.ScheduleClient().GetHandle(f.ctx, ScheduleID(f.w.ID, key)).Describe(f.ctx)
	if isNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatalf("describe schedule %s: %v", key, err)
	}
	return d
}

func (f *scheduleFixture) mustDescribe(t *testing.T, key string) *client.ScheduleDescription {
	t.Helper()
	d := f.describe(t, key)
	if d == nil {
		t.Fatalf("schedule %s does not exist", key)
	}
	return d
}

func TestScheduleSync(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		f := newScheduleFixture(t, db)
		hourly := scheduleTriggerAction("tick", map[string]any{"schedule_key": "tick", "interval_seconds": 3600})

		t.Run("publishing a schedule trigger creates its schedule", func(t *testing.T) {
			f.mustPublish(t, hourly)
			d := f.mustDescribe(t, "tick")
			if got := d.Schedule.Spec.Intervals; len(got) != 1 || got[0].Every != time.Hour {
				t.Errorf("intervals %+v, want every hour", got)
			}
			if d.Schedule.State.Paused {
				t.Error("the schedule is paused")
			}
			if d.Schedule.Policy.Overlap != enumspb.SCHEDULE_OVERLAP_POLICY_SKIP {
				t.Errorf("overlap policy %v, want skip", d.Schedule.Policy.Overlap)
			}
			a, ok := d.Schedule.Action.(*client.ScheduleWorkflowAction)
			if !ok || a.Workflow != ScheduleWorkflowName || a.TaskQueue != f.schedules.TaskQueue {
				t.Errorf("action %+v, want the tick workflow on the runs' task queue", d.Schedule.Action)
			}
		})

		t.Run("syncing again changes nothing", func(t *testing.T) {
			before := f.mustDescribe(t, "tick").Info.LastUpdateAt
			if err := f.schedules.Sync(f.ctx, f.w); err != nil {
				t.Fatal(err)
			}
			if after := f.mustDescribe(t, "tick").Info.LastUpdateAt; !after.Equal(before) {
				t.Errorf("the schedule was updated at %v (before: %v)", after, before)
			}
		})

		t.Run("a cron in a time zone replaces the interval", func(t *testing.T) {
			f.mustPublish(t, scheduleTriggerAction("tick", map[string]any{"schedule_key": "tick", "cron": "0 9 * * 1-5", "timezone": "Europe/Moscow"}))
			d := f.mustDescribe(t, "tick")
			if d.Info.LastUpdateAt.IsZero() {
				t.Error("the schedule was not updated")
			}
			spec := d.Schedule.Spec
			if len(spec.Intervals) != 0 || len(spec.Calendars)+len(spec.CronExpressions) == 0 || spec.TimeZoneName != "Europe/Moscow" {
				t.Errorf("spec %+v, want the cron's calendar in Europe/Moscow", spec)
			}
		})

		t.Run("a disabled trigger pauses its schedule and enabling it resumes it", func(t *testing.T) {
			f.mustPublish(t, scheduleTriggerAction("tick", map[string]any{"schedule_key": "tick", "interval_seconds": 3600, "enabled": false}))
			if s := f.mustDescribe(t, "tick").Schedule.State; !s.Paused || s.Note == "" {
				t.Errorf("state %+v, want paused with a note", s)
			}
			f.mustPublish(t, hourly)
			if s := f.mustDescribe(t, "tick").Schedule.State; s.Paused {
				t.Errorf("state %+v, want running", s)
			}
		})

		var withBoth *automation.Version
		t.Run("each schedule trigger has a schedule of its own", func(t *testing.T) {
			withBoth = f.mustPublish(t, hourly, scheduleTriggerAction("nightly", map[string]any{"schedule_key": "nightly", "cron": "@daily"}))
			f.mustDescribe(t, "tick")
			f.mustDescribe(t, "nightly")
		})

		t.Run("a version without the triggers deletes their schedules", func(t *testing.T) {
			f.mustPublish(t, manualTrigger("start"))
			for _, key := range []string{"tick", "nightly"} {
				if d := f.describe(t, key); d != nil {
					t.Errorf("schedule %s still exists", key)
				}
			}
		})

		t.Run("restoring a version brings its schedules back", func(t *testing.T) {
			restored, err := f.publisher.Restore(f.ctx, f.w, withBoth.ID)
			if err != nil {
				t.Fatal(err)
			}
			f.w = restored
			f.mustDescribe(t, "tick")
			f.mustDescribe(t, "nightly")
		})

		t.Run("a cron the schedule cannot run is refused before publishing", func(t *testing.T) {
			current := *f.w.CurrentVersionID
			_, err := f.publish(t, scheduleTriggerAction("tick", map[string]any{"schedule_key": "tick", "cron": "0 9 1 * 1"}))
			if e := models.AsError(err); err == nil || e.Kind != models.KindInvalid || e.Key != "invalid_cron" ||
				len(e.Fields) != 1 || e.Fields[0] != "actions.tick.config.cron" {
				t.Fatalf("publish answered %v, want invalid_cron naming actions.tick.config.cron", err)
			}
			var w automation.Workflow
			if err := db.Take(&w, "id = ?", f.w.ID).Error; err != nil || *w.CurrentVersionID != current {
				t.Errorf("the current version changed to %v (%v)", w.CurrentVersionID, err)
			}
		})
	})
}

func TestScheduleStartScheduled(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		f := newScheduleFixture(t, db)
		trigger := func(config map[string]any) automation.Action {
			config["schedule_key"] = "tick"
			config["interval_seconds"] = 3600
			return scheduleTriggerAction("tick", config)
		}
		f.mustPublish(t, trigger(map[string]any{}))
		planned := time.Date(2026, 3, 1, 9, 0, 0, 0, time.FixedZone("MSK", 3*3600))
		fire := func(t *testing.T, at time.Time) (*automation.Run, string) {
			t.Helper()
			run, skipped, err := f.intake.StartScheduled(f.ctx, ScheduleFiring{WorkflowID: f.w.ID, ActionKey: "tick", ScheduledAt: at})
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
			if first.TriggerType != TriggerSchedule || first.TriggerActionKey != "tick" || first.WorkflowVersionID == nil || first.IsTest {
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
			f.mustPublish(t, manualTrigger("start"))
			if run, skipped := fire(t, planned.Add(4*time.Hour)); run != nil || !strings.Contains(skipped, "no schedule trigger") {
				t.Fatalf("answered run %v, reason %q: want a skip", run, skipped)
			}
		})

		t.Run("a firing of an unknown workflow is skipped", func(t *testing.T) {
			run, skipped, err := f.intake.StartScheduled(f.ctx, ScheduleFiring{WorkflowID: models.NewID(), ActionKey: "tick", ScheduledAt: planned})
			if err != nil || run != nil || skipped == "" {
				t.Fatalf("answered %v, %q, %v: want a skip", run, skipped, err)
			}
		})
	})
}
