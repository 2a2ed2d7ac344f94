package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/engine/schedules"
	"agencyhub/migrations/dbtest"
)

// patchWorkflow sends PATCH /workflows/{id} as the journey's person.
func (j *journey) patchWorkflow(workflowID string, body map[string]any) *response {
	j.t.Helper()
	return j.do(req{method: "PATCH", path: "/api/v1/workflows/" + workflowID, token: j.u.token, body: body})
}

// listedIDs are the ids of the project's workflows listed with the query.
func (j *journey) listedIDs(query string) []string {
	j.t.Helper()
	var ids []string
	for _, it := range j.do(req{method: "GET", path: "/api/v1/projects/" + j.projectID + "/workflows?limit=200" + query, token: j.u.token}).
		expect(j.t, http.StatusOK).items() {
		ids = append(ids, it["workflow_id"].(string))
	}
	return ids
}

// TestWorkflowPatchRenamesAndDescribes: a workflow's name and description change, each
// alone; bad input is refused naming its field with nothing changed; another company's
// workflow is not found.
func TestWorkflowPatchRenamesAndDescribes(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		wfID := j.create("Lead follow-up", draft([]any{act("start", "manual.trigger", map[string]any{}), act("done", "stop", map[string]any{})}, edge("start", "done", "")))

		renamed := j.patchWorkflow(wfID, map[string]any{"name": "  Заявки с сайта  "}).expect(t, http.StatusOK)
		if renamed.str("name") != "Заявки с сайта" || renamed.str("description") != "" || renamed.json["archived_at"] != nil {
			t.Fatalf("rename answered %s", renamed.Body)
		}
		described := j.patchWorkflow(wfID, map[string]any{"description": "Answers new leads"}).expect(t, http.StatusOK)
		if described.str("name") != "Заявки с сайта" || described.str("description") != "Answers new leads" {
			t.Fatalf("describe answered %s", described.Body)
		}
		t.Run("the list finds the new name in any case", func(t *testing.T) {
			if got := j.sub(t).listedIDs("&q=" + "%D0%97%D0%90%D0%AF%D0%92%D0%9A%D0%98"); len(got) != 1 || got[0] != wfID {
				t.Fatalf("q ЗАЯВКИ listed %v", got)
			}
		})

		for _, c := range []struct {
			name  string
			body  map[string]any
			field string
		}{
			{"an empty name is refused", map[string]any{"name": ""}, "name"},
			{"a name of spaces is refused", map[string]any{"name": "   "}, "name"},
			{"a name over 200 characters is refused", map[string]any{"name": strings.Repeat("я", 201)}, "name"},
			{"a description over 2000 characters is refused with a good name", map[string]any{"name": "Other", "description": strings.Repeat("d", 2001)}, "description"},
			{"archived must be a boolean", map[string]any{"archived": "yes"}, "archived"},
			{"an unknown field is refused", map[string]any{"concurrency": 2}, "concurrency"},
		} {
			t.Run(c.name, func(t *testing.T) {
				j := j.sub(t)
				j.patchWorkflow(wfID, c.body).expect(t, http.StatusBadRequest, c.field)
				got := j.do(req{method: "GET", path: "/api/v1/workflows/" + wfID, token: j.u.token}).expect(t, http.StatusOK)
				if got.str("name") != "Заявки с сайта" || got.str("description") != "Answers new leads" || got.json["archived_at"] != nil {
					t.Fatalf("after a refused patch the workflow is %s", got.Body)
				}
			})
		}

		t.Run("another company's workflow is not found", func(t *testing.T) {
			j := j.sub(t)
			other := j.signUp("Eve")
			j.projectIn(other, j.companyOf(other, "Rival"), "Theirs")
			j.do(req{method: "PATCH", path: "/api/v1/workflows/" + wfID, token: other.token, body: map[string]any{"name": "Mine"}}).
				expect(t, http.StatusNotFound)
			j.do(req{method: "PATCH", path: "/api/v1/workflows/" + uuid.NewString(), token: j.u.token, body: map[string]any{"name": "Mine"}}).
				expect(t, http.StatusNotFound)
			if got := j.do(req{method: "GET", path: "/api/v1/workflows/" + wfID, token: j.u.token}).expect(t, http.StatusOK); got.str("name") != "Заявки с сайта" {
				t.Fatalf("another company renamed the workflow: %s", got.Body)
			}
		})
	})
}

// TestAnArchivedWorkflowStartsNothingUntilRestored: archiving takes a workflow out of the
// default list (the archived filter shows it), its webhook endpoint answers a delivery as a
// disabled one does and stores nothing, and manual runs, replays and publishing are
// refused; its runs stay readable. Restoring brings all of it back.
func TestAnArchivedWorkflowStartsNothingUntilRestored(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		wfID := j.hookWorkflow("orders", nil)
		ep := j.endpoint(wfID, map[string]any{"endpoint_key": "orders"})
		body := `{"order_id":"A-1","customer":{"email":"ada@example.com"}}`
		first := j.post(ep.path, body, signed(t, ep.secret, "msg_1", j.now, body)).expect(t, http.StatusAccepted).str("workflow_run_id")
		j.finish(first, "succeeded")

		archived := j.patchWorkflow(wfID, map[string]any{"archived": true}).expect(t, http.StatusOK)
		at, err := time.Parse(time.RFC3339Nano, archived.str("archived_at"))
		if err != nil || archived.str("status") != "published" {
			t.Fatalf("archive answered %s", archived.Body)
		}
		if again := j.patchWorkflow(wfID, map[string]any{"archived": true}).expect(t, http.StatusOK); again.str("archived_at") != archived.str("archived_at") {
			t.Errorf("archiving again moved archived_at from %v to %s", at, again.str("archived_at"))
		}

		t.Run("the default list leaves it out and the archived filter shows it", func(t *testing.T) {
			j := j.sub(t)
			if got := j.listedIDs(""); len(got) != 0 {
				t.Fatalf("default list %v, want none", got)
			}
			if got := j.listedIDs("&archived=true"); len(got) != 1 || got[0] != wfID {
				t.Fatalf("archived list %v, want %s", got, wfID)
			}
		})
		t.Run("a delivery to its endpoint is not found and stores nothing", func(t *testing.T) {
			j := j.sub(t)
			j.post(ep.path, body, signed(t, ep.secret, "msg_2", j.now, body)).expect(t, http.StatusNotFound)
			if events := j.hookEvents(ep.endpointID); len(events) != 1 {
				t.Fatalf("%d events stored, want the one before archiving", len(events))
			}
			if n := j.runCount(wfID); n != 1 {
				t.Fatalf("%d runs, want 1", n)
			}
		})
		t.Run("manual runs, replays and publishing are refused", func(t *testing.T) {
			j := j.sub(t)
			j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/runs/manual", token: j.u.token, body: map[string]any{"input": map[string]any{}}}).
				expect(t, http.StatusConflict, "workflow_id")
			j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/test-runs", token: j.u.token, body: map[string]any{}}).
				expect(t, http.StatusConflict, "workflow_id")
			j.do(req{method: "POST", path: "/api/v1/runs/" + first + "/replay", token: j.u.token}).expect(t, http.StatusConflict, "workflow_id")
			j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/publish", token: j.u.token, body: map[string]any{}}).
				expect(t, http.StatusConflict, "workflow_id")
		})
		t.Run("its runs stay readable", func(t *testing.T) {
			j := j.sub(t)
			if got := j.do(req{method: "GET", path: "/api/v1/runs/" + first, token: j.u.token}).expect(t, http.StatusOK); got.str("status") != "succeeded" {
				t.Fatalf("run %s", got.Body)
			}
		})

		restored := j.patchWorkflow(wfID, map[string]any{"archived": false}).expect(t, http.StatusOK)
		if restored.json["archived_at"] != nil {
			t.Fatalf("restore answered %s", restored.Body)
		}
		if got := j.listedIDs(""); len(got) != 1 || got[0] != wfID {
			t.Fatalf("after restoring the list is %v", got)
		}
		next := j.post(ep.path, body, signed(t, ep.secret, "msg_3", j.now, body)).expect(t, http.StatusAccepted).str("workflow_run_id")
		j.finish(next, "succeeded")
	})
}

// TestArchivingAWorkflowPausesItsSchedules: the Temporal Schedule of an archived workflow's
// schedule trigger is paused, and restoring resumes it.
func TestArchivingAWorkflowPausesItsSchedules(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newScheduleJourney(t, db)
		wfID := j.create("Heartbeat", draft([]any{
			act("tick", "schedule.trigger", map[string]any{"schedule_key": "tick", "interval_seconds": 3600, "enabled": true}),
			act("done", "stop", map[string]any{}),
		}, edge("tick", "done", "")))
		t.Cleanup(func() {
			_ = sharedTemporal(t).ScheduleClient().GetHandle(context.Background(), schedules.ScheduleID(uuid.MustParse(wfID), "tick")).Delete(context.Background())
		})
		j.publish(wfID, 1)

		j.patchWorkflow(wfID, map[string]any{"archived": true}).expect(t, http.StatusOK)
		if d := describeSchedule(t, wfID, "tick"); d == nil || !d.Schedule.State.Paused {
			t.Fatalf("schedule %+v, want paused", d)
		}
		j.patchWorkflow(wfID, map[string]any{"archived": false}).expect(t, http.StatusOK)
		if d := describeSchedule(t, wfID, "tick"); d == nil || d.Schedule.State.Paused {
			t.Fatalf("schedule %+v, want running", d)
		}
	})
}
