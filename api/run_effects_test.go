package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"agencyhub/migrations/dbtest"
)

// TestRetryAndReplayPreviewsSayWhatActsAgain: on a run that failed at a POST, the retry
// preview of that action lists it and what follows it as acting again and the succeeded
// steps as reused; the replay preview lists every action after the trigger; a preview is
// refused where retry-action is, and another company's run is not found.
func TestRetryAndReplayPreviewsSayWhatActsAgain(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		wfID := j.create("Place the order", draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("lookup", "http.request", map[string]any{"url": j.target.URL + "/customers/{{ start.customer_id }}"}),
			act("submit", "http.request", map[string]any{"method": "POST", "url": j.target.URL + "/orders", "body": map[string]any{"sku": "A-7"}}),
			act("confirm", "http.request", map[string]any{"url": j.target.URL + "/confirmations"}),
			act("audit", "stop", map[string]any{}),
		}, edge("start", "lookup", ""), edge("lookup", "submit", ""), edge("submit", "confirm", ""), edge("submit", "audit", "")))
		j.publish(wfID, 1)
		j.target.breakPath("/orders", http.StatusInternalServerError)
		runID := j.runManual(wfID, map[string]any{"customer_id": "1"}).str("workflow_run_id")
		j.finish(runID, "failed")

		retry := j.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/retry-preview?action_key=submit", token: j.u.token}).expect(t, http.StatusOK)
		if got, want := effects(retry, "acts_again"), []string{"submit failed false", "confirm skipped true", "audit skipped true"}; !slices.Equal(got, want) {
			t.Fatalf("retry acts again with %v, want %v", got, want)
		}
		if got, want := effects(retry, "reused"), []string{"start succeeded true", "lookup succeeded true"}; !slices.Equal(got, want) {
			t.Fatalf("retry reuses %v, want %v", got, want)
		}
		replay := j.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/replay-preview", token: j.u.token}).expect(t, http.StatusOK)
		if got, want := effects(replay, "acts_again"), []string{"lookup succeeded true", "submit failed false", "confirm skipped true", "audit skipped true"}; !slices.Equal(got, want) {
			t.Fatalf("replay acts again with %v, want %v", got, want)
		}
		if got := effects(replay, "reused"); len(got) != 0 {
			t.Fatalf("replay reuses %v", got)
		}

		preview := "/api/v1/runs/" + runID + "/retry-preview"
		j.do(req{method: "GET", path: preview + "?action_key=lookup", token: j.u.token}).expect(t, http.StatusConflict, "action_key")
		j.do(req{method: "GET", path: preview + "?action_key=nope", token: j.u.token}).expect(t, http.StatusBadRequest, "action_key")
		j.do(req{method: "GET", path: preview, token: j.u.token}).expect(t, http.StatusBadRequest, "action_key")
		// The real call refuses the same.
		j.do(req{method: "POST", path: "/api/v1/runs/" + runID + "/retry-action", token: j.u.token, body: map[string]any{"action_key": "lookup"}}).expect(t, http.StatusConflict, "action_key")

		j.target.breakPath("/orders", 0)
		done := j.runManual(wfID, map[string]any{"customer_id": "1"}).str("workflow_run_id")
		j.finish(done, "succeeded")
		j.do(req{method: "GET", path: "/api/v1/runs/" + done + "/retry-preview?action_key=submit", token: j.u.token}).expect(t, http.StatusConflict, "workflow_run_id")

		eve := j.signUp("Eve")
		j.companyOf(eve, "Rival")
		j.do(req{method: "GET", path: preview + "?action_key=submit", token: eve.token}).expect(t, http.StatusNotFound)
		j.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/replay-preview", token: eve.token}).expect(t, http.StatusNotFound)
	})
}

// effects spells a preview's list as "action_key status idempotent".
func effects(r *response, list string) []string {
	var out []string
	for _, e := range r.json[list].([]any) {
		e := e.(map[string]any)
		out = append(out, fmt.Sprint(e["action_key"], " ", e["status"], " ", e["idempotent"]))
	}
	return out
}
