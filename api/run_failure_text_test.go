package api_test

import (
	"net/http"
	"testing"

	"agencyhub/migrations/dbtest"
)

// TestADeadLetteredActionSaysNothingRetriesIt: an action whose retryable failures used up
// its attempts no longer advises that it is "retried automatically": its next_action says
// that nothing retries it now, in the reader's language, while its reason stays the last
// failure's.
func TestADeadLetteredActionSaysNothingRetriesIt(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		j.target.breakPath("/flaky", http.StatusServiceUnavailable)
		id := j.create("Flaky", draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("call", "http.request", map[string]any{"url": j.target.URL + "/flaky",
				"retry_policy": map[string]any{"max_attempts": 2, "initial_interval_seconds": 1}}),
		}, edge("start", "call", "")))
		j.publish(id, 1)
		runID := j.runManual(id, map[string]any{}).str("workflow_run_id")
		j.finish(runID, "failed")
		for lang, want := range map[string]string{
			"en": "Nothing retries it now: check the target, then retry the action",
			"ru": "Само оно больше не повторится: проверьте цель, затем повторите действие",
		} {
			rows := j.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/actions", token: j.u.token,
				header: map[string]string{"Accept-Language": lang}}).expect(t, http.StatusOK).items()
			call := rows[1]
			d, _ := call["diagnostics"].(map[string]any)
			if call["status"] != "dead_lettered" || d["next_action"] != want || d["human_reason"] == "" {
				t.Errorf("%s: call is %v with diagnostics %v", lang, call["status"], d)
			}
		}
	})
}
