package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/migrations/dbtest"
	"agencyhub/models/webhook"
)

// TestADeliveryTakenOverAfterACrashFindsTheRunThatStarted: a process that started a
// delivery's run and died before recording the answer leaves the event claimed and
// unanswered. A retry of the delivery after the claim ran out takes the event over and
// starts its run under the id chosen before the crash, so it finds the run that did start
// instead of starting a second one.
func TestADeliveryTakenOverAfterACrashFindsTheRunThatStarted(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		ada := e.signUp("Ada")
		projectID := e.projectIn(ada, e.companyOf(ada, "Northwind"), "Site")
		id := e.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/workflows", token: ada.token, body: map[string]any{"name": "Orders"}}).
			expect(t, http.StatusCreated).str("workflow_id")
		e.do(req{method: "PUT", path: "/api/v1/workflows/" + id + "/draft", token: ada.token, body: draft([]any{
			act("order", "webhook.trigger", map[string]any{"endpoint_key": "orders", "auth_type": "none"}),
			act("done", "stop", map[string]any{}),
		}, edge("order", "done", ""))}).expect(t, http.StatusOK)
		e.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/publish", token: ada.token}).expect(t, http.StatusCreated)
		e.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/webhook-endpoints", token: ada.token,
			body: map[string]any{"endpoint_key": "orders"}}).expect(t, http.StatusCreated)
		hookKey := e.do(req{method: "GET", path: "/api/v1/projects/" + projectID, token: ada.token}).expect(t, http.StatusOK).str("hook_key")
		delivery := req{method: "POST", path: "/hooks/" + hookKey + "/orders", body: `{"n":1}`, header: map[string]string{"Idempotency-Key": "order-1"}}

		first := e.do(delivery).expect(t, http.StatusAccepted)
		runID := first.str("workflow_run_id")
		e.waitRun(ada, runID)
		// The crash: the answer was never recorded, and the claim is older than its timeout.
		if err := db.Model(&webhook.Event{}).Where("id = ?", uuid.MustParse(first.str("webhook_event_id"))).Updates(map[string]any{
			"status": webhook.EventReceived, "response_status": 0, "response_body": "", "workflow_run_id": nil,
			"claimed_at": e.now.Add(-3 * time.Minute),
		}).Error; err != nil {
			t.Fatal(err)
		}
		if err := db.Exec("DELETE FROM webhook_event_runs WHERE workflow_run_id = ?", uuid.MustParse(runID)).Error; err != nil {
			t.Fatal(err)
		}

		again := e.do(delivery).expect(t, http.StatusAccepted)
		if again.str("workflow_run_id") != runID || again.Header().Get("Idempotent-Replayed") != "" {
			t.Fatalf("the retry answered run %s (replayed %q), want the run %s that started before the crash",
				again.str("workflow_run_id"), again.Header().Get("Idempotent-Replayed"), runID)
		}
		runs := e.do(req{method: "GET", path: "/api/v1/workflows/" + id + "/runs", token: ada.token}).expect(t, http.StatusOK).items()
		if len(runs) != 1 {
			t.Fatalf("%d runs, want the one", len(runs))
		}
		e.do(req{method: "GET", path: receiptPath(again)}).expect(t, http.StatusOK)
	})
}
