package api_test

import (
	"net/http"
	"testing"

	"agencyhub/migrations/dbtest"
)

// TestAWorkflowCallsAnother: a run calls another workflow of the project with its input,
// waits for it and reads its outputs; the called run is a run of its own (trigger call),
// started once; a call back to the caller is refused at publish.
func TestAWorkflowCallsAnother(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		calleeID := j.create("Score", draft([]any{
			act("order", "manual.trigger", map[string]any{}),
			act("vip", "condition.branch", map[string]any{"text": "order.amount > 100"}),
		}, edge("order", "vip", "")))
		j.publish(calleeID, 1)
		callerID := j.create("Order", draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("score", "workflow.call", map[string]any{"workflow_id": calleeID, "input_json": map[string]any{"amount": "{{ start.amount }}"}}),
			act("big", "condition.branch", map[string]any{"text": "steps.score.output.vip.result == true"}),
		}, edge("start", "score", ""), edge("score", "big", "")))
		j.publish(callerID, 1)

		runID := j.runManual(callerID, map[string]any{"amount": float64(250)}).str("workflow_run_id")
		j.finish(runID, "succeeded")
		actions := j.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/actions", token: j.u.token}).expect(t, http.StatusOK).items()
		call, big := actions[1]["output_json"].(map[string]any), actions[2]["output_json"].(map[string]any)
		if call["status"] != "succeeded" || big["result"] != true {
			t.Fatalf("the call answered %v, the condition on it %v", call, big)
		}
		called := j.do(req{method: "GET", path: "/api/v1/workflows/" + calleeID + "/runs", token: j.u.token}).expect(t, http.StatusOK).items()
		if len(called) != 1 || called[0]["workflow_run_id"] != call["workflow_run_id"] || called[0]["trigger_type"] != "call" || called[0]["status"] != "succeeded" {
			t.Fatalf("the called workflow's runs: %v", called)
		}

		j.putDraft(calleeID, draft([]any{
			act("order", "manual.trigger", map[string]any{}),
			act("back", "workflow.call", map[string]any{"workflow_id": callerID}),
		}, edge("order", "back", "")))
		j.do(req{method: "POST", path: "/api/v1/workflows/" + calleeID + "/publish", token: j.u.token, body: map[string]any{}}).
			expect(t, http.StatusBadRequest, "actions.back.config.workflow_id")
	})
}
