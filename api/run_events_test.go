package api_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"agencyhub/migrations/dbtest"
	"agencyhub/models/automation"
)

// runsOf are a workflow's runs, oldest first.
func (j *journey) runsOf(workflowID string) []map[string]any {
	j.t.Helper()
	return j.do(req{method: "GET", path: "/api/v1/workflows/" + workflowID + "/runs?limit=200", token: j.u.token}).expect(j.t, http.StatusOK).items()
}

// drainedRunEnds waits until the dispatcher has dispatched every queued run end, and
// answers them all.
func (j *journey) drainedRunEnds(t *testing.T) []automation.RunEndEvent {
	t.Helper()
	return waitFor(t, func() ([]automation.RunEndEvent, bool) {
		var all []automation.RunEndEvent
		if err := j.db.DB.Order("occurred_at, id").Find(&all).Error; err != nil {
			t.Fatal(err)
		}
		return all, !slices.ContainsFunc(all, func(ev automation.RunEndEvent) bool { return ev.DispatchedAt == nil })
	})
}

// TestRunEventTriggersStartOncePerFailedRun: a run that fails starts, once, each published
// workflow whose run.event_trigger takes its end (by event and by workflow), with the run
// under run_event; the watcher's own failure starts nothing; a dispatch repeated after a
// crash before the event was marked starts nothing twice; a cancelled run starts the
// watchers of cancellations.
func TestRunEventTriggersStartOncePerFailedRun(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		j.target.breakPath("/crm", http.StatusUnprocessableEntity)
		j.target.breakPath("/alert", http.StatusUnprocessableEntity)
		orders := j.create("Orders", draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("crm", "http.request", map[string]any{"method": "POST", "url": j.target.URL + "/crm", "body": "order"}),
		}, edge("start", "crm", "")))
		j.publish(orders, 1)
		slow := j.create("Follow up", draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("wait", "delay.wait", map[string]any{"seconds": 3600}),
		}, edge("start", "wait", "")))
		j.publish(slow, 1)
		watcher := func(name string, config map[string]any, next map[string]any) string {
			id := j.create(name, draft([]any{act("ended", "run.event_trigger", config), next}, edge("ended", next["action_key"].(string), "")))
			j.publish(id, 1)
			return id
		}
		note := act("note", "data.set", map[string]any{"fields": map[string]any{"run": "run_event.run_id"}})
		// The manager's alert fails too: a run of a watcher never starts a watcher.
		manager := watcher("Tell the manager", map[string]any{"events": []any{"run.failed"}, "workflow_ids": []any{orders}},
			act("tell", "http.request", map[string]any{"method": "POST", "url": j.target.URL + "/alert",
				"body": "{{ run_event.workflow_name }} failed at {{ run_event.failed_action_key }}: {{ run_event.error }} {{ run_event.run_url }}"}))
		everything := watcher("Every end", map[string]any{"events": []any{"run.failed", "run.cancelled"}}, note)
		slowOnly := watcher("Follow-up failures", map[string]any{"events": []any{"run.failed"}, "workflow_ids": []any{slow}}, note)
		cancellations := watcher("Cancellations", map[string]any{"events": []any{"run.cancelled"}}, note)

		failed := j.runManual(orders, map[string]any{}).str("workflow_run_id")
		j.finish(failed, "failed")
		alerted := waitFor(t, func() ([]map[string]any, bool) { r := j.runsOf(manager); return r, len(r) > 0 })
		alert := j.finish(alerted[0]["workflow_run_id"].(string), "failed")
		input := alert.json["input_json"].(map[string]any)
		if alert.str("trigger_type") != "run_event" || alert.str("trigger_action_key") != "ended" || input["run_id"] != failed ||
			input["workflow_id"] != orders || input["workflow_name"] != "Orders" || input["failed_action_key"] != "crm" ||
			input["event_type"] != "run.failed" || !strings.HasPrefix(input["error"].(string), "action crm failed: ") ||
			!strings.HasSuffix(input["run_url"].(string), "/runs/"+failed) {
			t.Fatalf("the manager's run %s", alert.Body)
		}
		if got := j.target.bodiesOf("/alert"); len(got) != 1 || !strings.HasPrefix(got[0], "Orders failed at crm: action crm failed: ") ||
			!strings.HasSuffix(got[0], "/runs/"+failed) {
			t.Fatalf("the alert said %q", got)
		}
		every := waitFor(t, func() ([]map[string]any, bool) { r := j.runsOf(everything); return r, len(r) > 0 })
		j.finish(every[0]["workflow_run_id"].(string), "succeeded")

		ends := j.drainedRunEnds(t)
		if len(ends) != 1 || ends[0].RunID.String() != failed {
			t.Fatalf("run ends queued %+v, want the order run's alone (not the failed alert's)", ends)
		}
		counts := func() []int {
			return []int{len(j.runsOf(manager)), len(j.runsOf(everything)), len(j.runsOf(slowOnly)), len(j.runsOf(cancellations))}
		}
		if got := counts(); !slices.Equal(got, []int{1, 1, 0, 0}) {
			t.Fatalf("runs of the watchers %v, want [1 1 0 0]", got)
		}

		t.Run("a dispatch repeated after a crash starts nothing twice", func(t *testing.T) {
			started, err := j.server.Intake.StartRunEndEvent(context.Background(), ends[0])
			if err != nil {
				t.Fatal(err)
			}
			want := []string{alerted[0]["workflow_run_id"].(string), every[0]["workflow_run_id"].(string)}
			var got []string
			for _, id := range started {
				got = append(got, id.String())
			}
			if slices.Sort(got); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
				t.Fatalf("the repeated start answered %v, want the runs it started before %v", got, want)
			}
			// The dispatcher died before it marked the event: it drains it again.
			if err := j.db.DB.Model(&automation.RunEndEvent{}).Where("id = ?", ends[0].ID).Update("dispatched_at", nil).Error; err != nil {
				t.Fatal(err)
			}
			j.drainedRunEnds(t)
			if got := counts(); !slices.Equal(got, []int{1, 1, 0, 0}) {
				t.Fatalf("runs of the watchers after the second dispatch %v, want [1 1 0 0]", got)
			}
		})

		t.Run("a cancelled run starts the watchers of cancellations", func(t *testing.T) {
			runID := j.runManual(slow, map[string]any{}).str("workflow_run_id")
			j.waitStatus(runID, "waiting")
			j.do(req{method: "POST", path: "/api/v1/runs/" + runID + "/cancel", token: j.u.token}).expect(t, http.StatusAccepted)
			j.finish(runID, "cancelled")
			runs := waitFor(t, func() ([]map[string]any, bool) { r := j.runsOf(cancellations); return r, len(r) > 0 })
			run := j.finish(runs[0]["workflow_run_id"].(string), "succeeded")
			input := run.json["input_json"].(map[string]any)
			if input["event_type"] != "run.cancelled" || input["run_id"] != runID || input["workflow_name"] != "Follow up" ||
				input["failed_action_key"] != "" || input["error"] != "the run was cancelled" {
				t.Fatalf("the cancellation watcher's run %s", run.Body)
			}
			j.drainedRunEnds(t)
			if got := counts(); !slices.Equal(got, []int{1, 2, 0, 1}) {
				t.Fatalf("runs of the watchers %v, want [1 2 0 1]", got)
			}
		})
	})
}

// TestARunEventTriggerNamesWorkflowsOfItsProject: workflow_ids must be workflows of the
// project other than the watcher; anything else is a diagnostic on the item and a 400 on
// publish naming it.
func TestARunEventTriggerNamesWorkflowsOfItsProject(t *testing.T) {
	j := newJourney(t, dbtest.SQLite(t))
	watcherDraft := func(config map[string]any) map[string]any {
		return draft([]any{act("ended", "run.event_trigger", config), act("done", "stop", map[string]any{})}, edge("ended", "done", ""))
	}
	orders := j.create("Orders", draft([]any{act("start", "manual.trigger", map[string]any{}), act("done", "stop", map[string]any{})}, edge("start", "done", "")))
	elsewhere := j.projectIn(j.u, j.companyOf(j.u, "Elsewhere"), "Other shop")
	foreign := j.do(req{method: "POST", path: "/api/v1/projects/" + elsewhere + "/workflows", token: j.u.token,
		body: map[string]any{"name": "Theirs"}}).expect(t, http.StatusCreated).str("workflow_id")
	watcher := j.create("Watcher", watcherDraft(map[string]any{"workflow_ids": []any{orders}}))
	saved := j.putDraft(watcher, watcherDraft(map[string]any{"workflow_ids": []any{orders, watcher, foreign}}))
	want := []string{"ended config.workflow_ids.1 run_event_self", "ended config.workflow_ids.2 workflow_not_found"}
	if got := diagnosticsOf(saved); !slices.Equal(got, want) {
		t.Fatalf("diagnostics %v, want %v", got, want)
	}
	j.do(req{method: "POST", path: "/api/v1/workflows/" + watcher + "/publish", token: j.u.token, body: map[string]any{}}).
		expect(t, http.StatusBadRequest, "actions.ended.config.workflow_ids.1", "actions.ended.config.workflow_ids.2")
	j.putDraft(watcher, watcherDraft(map[string]any{"events": []any{}}))
	j.do(req{method: "POST", path: "/api/v1/workflows/" + watcher + "/publish", token: j.u.token, body: map[string]any{}}).
		expect(t, http.StatusBadRequest, "actions.ended.config.events")
}
