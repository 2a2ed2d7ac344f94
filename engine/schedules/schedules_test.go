package schedules

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"agencyhub/engine"
	"agencyhub/engine/enginetest"
	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// TestMain gives the SDK a binary checksum of this test binary. Without one, the first
// activity a test environment schedules has the SDK read the whole binary (it links the
// embedded Temporal server) to compute it, inside the workflow's task: on a loaded machine
// that passes the environment's one-second deadlock detector, and the tick test fails on a
// deadlock that is none.
func TestMain(m *testing.M) {
	worker.SetBinaryChecksum("engine-schedules-test")
	os.Exit(m.Run())
}

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
			}, activity.RegisterOptions{Name: ScheduleFireActivity})
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

// scheduleFixture is a workflow in a project of its own, with its schedules and publisher
// on a task queue of its own.
type scheduleFixture struct {
	ctx       context.Context
	workflows *automation.Service
	schedules *Schedules
	publisher *Publisher
	w         *automation.Workflow
	userID    uuid.UUID
}

func newScheduleFixture(t *testing.T, db *dbtest.DB) *scheduleFixture {
	t.Helper()
	tenant, workflows, w := enginetest.Workflow(t, db, "Scheduled")
	f := &scheduleFixture{ctx: context.Background(), workflows: workflows, w: w, userID: tenant.UserID}
	c, queue := enginetest.Temporal(t), "schedule-test-"+models.NewID().String()
	f.schedules = &Schedules{Client: c, Workflows: f.workflows, Catalog: tenant.Catalog, TaskQueue: queue}
	drafts := &engine.Drafts{Catalog: tenant.Catalog, Workflows: f.workflows}
	f.publisher = &Publisher{Workflows: f.workflows, Schedules: f.schedules, Drafts: drafts}
	t.Cleanup(func() {
		for _, key := range []string{"tick", "nightly"} {
			_ = f.schedules.deleteSchedule(context.Background(), ScheduleID(f.w.ID, key))
		}
	})
	return f
}

func scheduleTriggerAction(key string, config map[string]any) automation.Action {
	return automation.Action{ActionKey: key, Label: key, ActionTypeKey: automation.TypeSchedule, Config: config}
}

// publish saves the actions, each connected to a final stop, as the draft and publishes it.
func (f *scheduleFixture) publish(t *testing.T, actions ...automation.Action) (*automation.Version, error) {
	t.Helper()
	w, err := f.workflows.PutDraft(f.ctx, f.w, automation.Draft{Graph: enginetest.EndingInStop(actions...)})
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
			f.mustPublish(t, automation.Action{ActionKey: "start", Label: "start", ActionTypeKey: automation.TypeManual, Config: map[string]any{}})
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
