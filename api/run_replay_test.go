package api_test

import (
	"net/http"
	"slices"
	"testing"

	"agencyhub/migrations/dbtest"
)

// TestAReplayMayChangeItsInputAndVersion: a run is replayed with an edited input, held to
// the trigger's input schema, and on the workflow's latest version, whose preview lists
// that version's actions; without a body it runs again as it was. A version latest that
// lacks the run's trigger is a 409 and starts nothing.
func TestAReplayMayChangeItsInputAndVersion(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		start := act("start", "manual.trigger", map[string]any{"input_schema_json": map[string]any{
			"type": "object", "required": []any{"order_id"},
			"properties": map[string]any{"order_id": map[string]any{"type": "string", "minLength": 2}}}})
		wfID := j.create("Orders", draft([]any{start,
			act("lookup", "http.request", map[string]any{"url": j.target.URL + "/v1/orders/{{ start.order_id }}"}),
		}, edge("start", "lookup", "")))
		j.publish(wfID, 1)
		runID := j.runManual(wfID, map[string]any{"order_id": "A-1001"}).str("workflow_run_id")
		j.finish(runID, "succeeded")
		j.putDraft(wfID, draft([]any{start,
			act("lookup", "http.request", map[string]any{"url": j.target.URL + "/v2/orders/{{ start.order_id }}"}),
			act("notify", "http.request", map[string]any{"url": j.target.URL + "/v2/notify"}),
		}, edge("start", "lookup", ""), edge("lookup", "notify", "")))
		v2 := j.publish(wfID, 2)

		replay := "/api/v1/runs/" + runID + "/replay"
		latest := j.do(req{method: "GET", path: replay + "-preview?version=latest", token: j.u.token}).expect(t, http.StatusOK)
		if got, want := effects(latest, "acts_again"), []string{"lookup succeeded true", "notify <nil> true"}; !slices.Equal(got, want) {
			t.Errorf("the preview on the latest version acts again with %v, want %v", got, want)
		}
		again := j.do(req{method: "POST", path: replay, token: j.u.token, body: map[string]any{
			"input_json": map[string]any{"order_id": "A-2002"}, "version": "latest"}}).expect(t, http.StatusAccepted)
		j.finish(again.str("workflow_run_id"), "succeeded")
		if again.str("workflow_version_id") != v2 || again.str("replay_of_run_id") != runID || j.target.hitsOf("/v2/orders/A-2002") != 1 {
			t.Errorf("the replay with changes is %s; the target saw /v2/orders/A-2002 %d times", again.Body, j.target.hitsOf("/v2/orders/A-2002"))
		}
		same := j.do(req{method: "POST", path: replay, token: j.u.token}).expect(t, http.StatusAccepted)
		j.finish(same.str("workflow_run_id"), "succeeded")
		if j.target.hitsOf("/v1/orders/A-1001") != 2 {
			t.Errorf("a replay without a body did not run the original version with the original input")
		}

		j.do(req{method: "POST", path: replay, token: j.u.token, body: map[string]any{"input_json": map[string]any{"order_id": "A"}}}).
			expect(t, http.StatusBadRequest, "input_json.order_id")
		j.do(req{method: "POST", path: replay, token: j.u.token, body: map[string]any{"version": "newest"}}).expect(t, http.StatusBadRequest, "version")
		j.putDraft(wfID, draft([]any{act("begin", "manual.trigger", map[string]any{}), act("done", "stop", map[string]any{})}, edge("begin", "done", "")))
		j.publish(wfID, 3)
		j.do(req{method: "POST", path: replay, token: j.u.token, body: map[string]any{"version": "latest"}}).expect(t, http.StatusConflict, "version")
		j.do(req{method: "GET", path: replay + "-preview?version=latest", token: j.u.token}).expect(t, http.StatusConflict, "version")
		if n := len(j.runsOf(wfID)); n != 3 {
			t.Errorf("the workflow has %d runs, want 3: a refused replay started one", n)
		}
	})
}
