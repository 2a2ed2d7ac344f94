package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"agencyhub/engine/schedules"
	"agencyhub/migrations/dbtest"
)

// scheduleInterval is the shortest interval the catalog allows; the test waits on it.
const scheduleInterval = 5 * time.Second

// newScheduleJourney is a journey on a task queue of its own, whose worker runs the
// schedules' ticks too.
func newScheduleJourney(t *testing.T, db *dbtest.DB) *journey {
	t.Helper()
	e := newEnv(t, db)
	u := e.signUp("Ada")
	return &journey{env: e, u: u, projectID: e.projectIn(u, e.companyOf(u, "Northwind"), "Shop"), target: startTarget(t)}
}

// describeSchedule answers the Temporal Schedule of a workflow's trigger, or nil when
// Temporal has none.
func describeSchedule(t *testing.T, workflowID, actionKey string) *client.ScheduleDescription {
	t.Helper()
	d, err := sharedTemporal(t).ScheduleClient().GetHandle(context.Background(), schedules.ScheduleID(uuid.MustParse(workflowID), actionKey)).
		Describe(context.Background())
	if _, missing := err.(*serviceerror.NotFound); missing {
		return nil
	}
	if err != nil {
		t.Fatalf("describe the schedule of %s: %v", actionKey, err)
	}
	return d
}

// scheduleRuns are the workflow's runs with trigger_type schedule, oldest first.
func (j *journey) scheduleRuns(workflowID string) []map[string]any {
	j.t.Helper()
	var out []map[string]any
	for _, r := range j.do(req{method: "GET", path: "/api/v1/workflows/" + workflowID + "/runs?limit=200", token: j.u.token}).expect(j.t, http.StatusOK).items() {
		if r["trigger_type"] == "schedule" {
			out = append(out, r)
		}
	}
	return out
}

func TestScheduleTriggerStartsRunsUntilItIsPausedOrRemoved(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newScheduleJourney(t, db)
		beat := func(enabled bool) map[string]any {
			return draft([]any{
				act("tick", "schedule.trigger", map[string]any{"schedule_key": "tick", "interval_seconds": int(scheduleInterval / time.Second), "enabled": enabled}),
				act("ping", "http.request", map[string]any{"url": j.target.URL + "/beat/{{ tick.scheduled_at }}/{{ schedule.scheduled_at }}"}),
			}, edge("tick", "ping", ""))
		}
		wfID := j.create("Heartbeat", beat(true))
		t.Cleanup(func() {
			_ = sharedTemporal(t).ScheduleClient().GetHandle(context.Background(), schedules.ScheduleID(uuid.MustParse(wfID), "tick")).Delete(context.Background())
		})

		// Publishing creates the trigger's schedule.
		published := time.Now()
		v1 := j.publish(wfID, 1)
		d := describeSchedule(t, wfID, "tick")
		if d == nil {
			t.Fatal("publishing created no schedule")
		}
		if got := d.Schedule.Spec.Intervals; len(got) != 1 || got[0].Every != scheduleInterval || d.Schedule.State.Paused {
			t.Fatalf("intervals %+v, paused %v: want every %v, running", got, d.Schedule.State.Paused, scheduleInterval)
		}

		// The schedule starts a run that sees its planned time.
		deadline := time.Now().Add(3 * scheduleInterval)
		var runs []map[string]any
		for runs = j.scheduleRuns(wfID); len(runs) == 0; runs = j.scheduleRuns(wfID) {
			if time.Now().After(deadline) {
				t.Fatalf("no schedule run within %v of publishing", 3*scheduleInterval)
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("the first schedule run started %v after publishing", time.Since(published).Round(100*time.Millisecond))
		run := j.finish(runs[0]["workflow_run_id"].(string), "succeeded")
		if run.str("trigger_action_key") != "tick" || run.json["workflow_version_id"] != v1 {
			t.Errorf("run %s, want one of version 1 from tick", run.Body)
		}
		input, _ := run.json["input_json"].(map[string]any)
		at, _ := input["scheduled_at"].(string)
		planned, err := time.Parse(time.RFC3339, at)
		if err != nil || !strings.HasSuffix(at, "Z") {
			t.Fatalf("scheduled_at %q is not an RFC 3339 time in UTC (%v)", at, err)
		}
		if planned.Before(published.Add(-time.Second).Truncate(time.Second)) || planned.After(time.Now()) {
			t.Errorf("scheduled_at %v is not between publishing (%v) and now", planned, published)
		}
		if planned.Unix()%int64(scheduleInterval/time.Second) != 0 {
			t.Errorf("scheduled_at %v is not a planned time of the interval (counted from the epoch), but when the run began", planned)
		}
		if hits := j.target.hitsOf("/beat/" + at + "/" + at); hits != 1 {
			t.Errorf("the target saw /beat/%s/%s %d times, want once", at, at, hits)
		}

		// A disabled trigger pauses the schedule.
		j.putDraft(wfID, beat(false))
		j.publish(wfID, 2)
		if d := describeSchedule(t, wfID, "tick"); d == nil || !d.Schedule.State.Paused {
			t.Fatalf("schedule %+v, want paused", d)
		}

		// A version without the trigger deletes the schedule: Temporal starts nothing any more (a
		// tick already under way finds no trigger in the index and starts nothing either).
		j.putDraft(wfID, draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("ping", "http.request", map[string]any{"url": j.target.URL + "/manual"}),
		}, edge("start", "ping", "")))
		j.publish(wfID, 3)
		if d := describeSchedule(t, wfID, "tick"); d != nil {
			t.Fatalf("the schedule still exists: %+v", d.Schedule)
		}

		// Restoring the first version brings the schedule back.
		j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/versions/" + v1 + "/restore", token: j.u.token}).expect(t, http.StatusOK)
		if d := describeSchedule(t, wfID, "tick"); d == nil || d.Schedule.State.Paused {
			t.Fatalf("schedule %+v, want running", d)
		}

		// A cron the schedule cannot run is refused, naming the field.
		body := beat(true)
		body["actions"].([]any)[0].(map[string]any)["config"] = map[string]any{"schedule_key": "tick", "cron": "0 9 1 * MON"}
		j.putDraft(wfID, body)
		j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/publish", token: j.u.token}).
			expect(t, http.StatusBadRequest, "actions.tick.config.cron")
	})
}
