package api_test

import (
	"net/http"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
)

// TestABulkRetryActsOncePerRun: five runs failed at a POST to a target that deduplicates by
// Idempotency-Key, while it was down, and one succeeded. The batch preview of a retry of the
// runs that failed at that POST says five act and the POST acts again in each; selected by
// id with the succeeded one, that one is refused. The bulk retry, sent twice with one
// Idempotency-Key, starts one operation (the key with another selection is a conflict), and
// once it has finished every run succeeded and the target saw exactly one more POST per
// run. Bad selections answer 400 naming the field, and another company's operation is not
// found.
func TestABulkRetryActsOncePerRun(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		wfID := j.create("Place the order", draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("lookup", "http.request", map[string]any{"url": j.target.URL + "/customers/1"}),
			act("submit", "http.request", map[string]any{"method": "POST", "url": j.target.URL + "/orders", "target_deduplicates": true, "retry_policy": map[string]any{"max_attempts": 1}}),
		}, edge("start", "lookup", ""), edge("lookup", "submit", "")))
		j.publish(wfID, 1)
		ok := j.runManual(wfID, map[string]any{}).str("workflow_run_id")
		j.finish(ok, "succeeded")
		j.target.breakPath("/orders", http.StatusInternalServerError)
		var failed []string
		for range 5 {
			id := j.runManual(wfID, map[string]any{}).str("workflow_run_id")
			j.finish(id, "failed")
			failed = append(failed, id)
		}
		j.target.breakPath("/orders", 0)
		before := j.target.hitsOf("/orders")

		base := "/api/v1/projects/" + j.projectID + "/runs/"
		body := map[string]any{"operation": "retry", "filter": map[string]any{"status": "failed", "failed_action_key": "submit"}}
		preview := j.do(req{method: "POST", path: base + "bulk-preview", token: j.u.token, body: body}).expect(t, http.StatusOK)
		if preview.json["total"] != 5.0 || preview.json["acting"] != 5.0 || len(preview.json["refused"].([]any)) != 0 {
			t.Fatalf("preview %v, want 5 runs acting and none refused", preview.json)
		}
		again := preview.json["acts_again"].([]any)
		if len(again) != 1 || again[0].(map[string]any)["count"] != 5.0 {
			t.Fatalf("acts again %v, want the POST of 5 runs", again)
		}
		all := map[string]any{"operation": "retry", "workflow_run_ids": append([]string{ok}, failed...)}
		mixed := j.do(req{method: "POST", path: base + "bulk-preview", token: j.u.token, body: all}).expect(t, http.StatusOK)
		if refused := mixed.json["refused"].([]any); len(refused) != 1 || refused[0].(map[string]any)["workflow_run_id"] != ok {
			t.Fatalf("refused %v, want the succeeded run", refused)
		}

		key := map[string]string{"Idempotency-Key": "partner-down-1"}
		op := j.do(req{method: "POST", path: base + "bulk", token: j.u.token, header: key, body: body}).expect(t, http.StatusAccepted)
		id := op.str("bulk_operation_id")
		if second := j.do(req{method: "POST", path: base + "bulk", token: j.u.token, header: key, body: body}).expect(t, http.StatusAccepted); second.str("bulk_operation_id") != id {
			t.Fatalf("the same key started a second operation")
		}
		j.do(req{method: "POST", path: base + "bulk", token: j.u.token, header: key, body: all}).expect(t, http.StatusConflict, "Idempotency-Key")
		deadline := time.Now().Add(60 * time.Second)
		for op.json["status"] == "running" && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
			op = j.do(req{method: "GET", path: "/api/v1/bulk-operations/" + id, token: j.u.token}).expect(t, http.StatusOK)
		}
		if op.json["status"] != "succeeded" || op.json["done"] != 5.0 || op.json["total"] != 5.0 {
			t.Fatalf("operation %v, want 5 runs done", op.json)
		}
		for _, run := range failed {
			j.finish(run, "succeeded")
		}
		if got := j.target.hitsOf("/orders") - before; got != 5 {
			t.Fatalf("the target saw %d more POSTs, want one per run (5)", got)
		}
		j.do(req{method: "POST", path: "/api/v1/bulk-operations/" + id + "/cancel", token: j.u.token}).expect(t, http.StatusConflict)

		j.do(req{method: "POST", path: base + "bulk-preview", token: j.u.token,
			body: map[string]any{"operation": "retry", "workflow_run_ids": []string{}}}).expect(t, http.StatusBadRequest, "workflow_run_ids")
		j.do(req{method: "POST", path: base + "bulk-preview", token: j.u.token,
			body: map[string]any{"operation": "rewind", "workflow_run_ids": failed}}).expect(t, http.StatusBadRequest, "operation")
		j.do(req{method: "POST", path: base + "bulk", token: j.u.token, body: body}).expect(t, http.StatusBadRequest, "Idempotency-Key")

		eve := j.signUp("Eve")
		j.companyOf(eve, "Rival")
		j.do(req{method: "GET", path: "/api/v1/bulk-operations/" + id, token: eve.token}).expect(t, http.StatusNotFound)
	})
}
