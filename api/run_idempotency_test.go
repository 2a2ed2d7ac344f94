package api_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/dbtest"
)

// TestAStartWithAKnownRunIDAnswersThatRun: a webhook delivery taken over after a crash
// starts its run under the id chosen before the crash, so it finds the run that did start
// instead of starting a second one.
func TestAStartWithAKnownRunIDAnswersThatRun(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		ada := e.signUp("Ada")
		projectID := e.projectIn(ada, e.companyOf(ada, "Northwind"), "Site")
		id := e.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/workflows", token: ada.token, body: map[string]any{"name": "Orders"}}).
			expect(t, http.StatusCreated).str("workflow_id")
		e.do(req{method: "PUT", path: "/api/v1/workflows/" + id + "/draft", token: ada.token, body: map[string]any{
			"actions": []any{
				map[string]any{"action_key": "order", "action_type_key": "webhook.trigger", "config": map[string]any{"endpoint_key": "orders"}},
				map[string]any{"action_key": "done", "action_type_key": "stop", "config": map[string]any{}},
			},
			"connections": []any{map[string]any{"from": "order", "to": "done"}},
		}}).expect(t, http.StatusOK)
		e.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/publish", token: ada.token}).expect(t, http.StatusCreated)

		ctx := context.Background()
		w, _, err := e.server.Workflows.WorkflowAccess(ctx, mustParse(t, ada.id), mustParse(t, id))
		if err != nil {
			t.Fatal(err)
		}
		runID := models.NewID()
		first, err := e.server.Runs.StartWebhook(ctx, w, "orders", map[string]any{"n": 1}, runID, nil)
		if err != nil {
			t.Fatal(err)
		}
		e.waitRun(ada, runID.String())
		again, err := e.server.Runs.StartWebhook(ctx, w, "orders", map[string]any{"n": 1}, runID, nil)
		if err != nil || again.ID != first.ID || again.Status != "succeeded" {
			t.Fatalf("second start with the same id: run %+v, err %v", again, err)
		}
		runs := e.do(req{method: "GET", path: "/api/v1/workflows/" + id + "/runs", token: ada.token}).expect(t, http.StatusOK).items()
		if len(runs) != 1 {
			t.Fatalf("%d runs, want the one", len(runs))
		}
	})
}

func mustParse(t *testing.T, s string) uuid.UUID {
	t.Helper()
	id, err := uuid.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
