package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"agencyhub/migrations/dbtest"
)

// orderLinesFlow: for each line of the order, post it to the CRM; after the loop, tell the
// manager how many made it.
func orderLinesFlow(target string, onItemError string) map[string]any {
	return draft([]any{
		act("start", "manual.trigger", map[string]any{}),
		act("lines", "loop.for_each", map[string]any{"items": "start.lines", "concurrency": 2, "on_item_error": onItemError}),
		act("crm", "http.request", map[string]any{"method": "POST", "url": target + "/crm/{{ item.sku }}", "body": "{{ start.order_id }}#{{ loop.index }}"}),
		act("tell_manager", "http.request", map[string]any{"method": "POST", "url": target + "/manager",
			"body": "{{ steps.lines.succeeded }} of {{ steps.lines.count }}"}),
	},
		edge("start", "lines", ""),
		edge("lines", "crm", "each"),
		edge("lines", "tell_manager", "done"),
	)
}

// TestALoopRunsOnTheEngineAndEachItemIsInspectable: a published loop.for_each runs its body
// once per order line on the embedded Temporal server with real HTTP; the loop's items list
// and filter by status, each item shows its body's action runs; an item of another company's
// run is 404; a body that leaks out of its loop is refused at publish, naming the connection.
func TestALoopRunsOnTheEngineAndEachItemIsInspectable(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		j.target.breakPath("/crm/B-2", http.StatusUnprocessableEntity)
		id := j.create("Order lines", orderLinesFlow(j.target.URL, "continue"))
		j.publish(id, 1)
		lines := []any{map[string]any{"sku": "A-1"}, map[string]any{"sku": "B-2"}, map[string]any{"sku": "C-3"}}
		runID := j.runManual(id, map[string]any{"order_id": "A-1001", "lines": lines}).str("workflow_run_id")
		j.finish(runID, "succeeded")

		t.Run("the body ran once per line and the run went on along done", func(t *testing.T) {
			if got := j.target.bodiesOf("/crm/C-3"); len(got) != 1 || got[0] != "A-1001#2" {
				t.Errorf("the CRM got %q for C-3", got)
			}
			if got := j.target.bodiesOf("/manager"); len(got) != 1 || got[0] != "2 of 3" {
				t.Errorf("the manager got %q", got)
			}
			actions, keys := j.actions(runID)
			if actions["lines"]["status"] != "succeeded" || strings.Contains(strings.Join(keys, " "), "crm") {
				t.Errorf("the run's actions are %v (lines %v); item actions belong to their items", keys, actions["lines"]["status"])
			}
		})
		items := "/api/v1/runs/" + runID + "/loops/lines/items"
		t.Run("the items list in order and filter by status", func(t *testing.T) {
			all := j.do(req{method: "GET", path: items + "?limit=2", token: j.u.token}).expect(t, http.StatusOK)
			page := all.items()
			if len(page) != 2 || page[0]["item_index"] != 0.0 || page[1]["status"] != "failed" || all.str("next_cursor") != "2" {
				t.Fatalf("first page %v, next %q", page, all.str("next_cursor"))
			}
			rest := j.do(req{method: "GET", path: items + "?limit=2&cursor=2", token: j.u.token}).expect(t, http.StatusOK).items()
			if len(rest) != 1 || rest[0]["item_json"].(map[string]any)["sku"] != "C-3" {
				t.Errorf("second page %v", rest)
			}
			failed := j.do(req{method: "GET", path: items + "?status=failed", token: j.u.token}).expect(t, http.StatusOK).items()
			if len(failed) != 1 || failed[0]["item_index"] != 1.0 || failed[0]["failed_action_key"] != "crm" || failed[0]["error"] == "" {
				t.Errorf("failed items %v", failed)
			}
			j.do(req{method: "GET", path: items + "?status=lost", token: j.u.token}).expect(t, http.StatusBadRequest, "status")
		})
		t.Run("an item shows its body's action runs", func(t *testing.T) {
			it := j.do(req{method: "GET", path: items + "/1", token: j.u.token}).expect(t, http.StatusOK)
			actions, _ := it.json["actions"].([]any)
			if len(actions) != 1 {
				t.Fatalf("item 1 has actions %v", actions)
			}
			crm, _ := actions[0].(map[string]any)
			if crm["action_key"] != "crm" || crm["status"] != "failed" {
				t.Errorf("item 1's crm is %v", crm)
			}
			j.do(req{method: "GET", path: items + "/7", token: j.u.token}).expect(t, http.StatusNotFound)
			j.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/loops/crm/items", token: j.u.token}).expect(t, http.StatusNotFound)
		})
		t.Run("another company's run has no items to show", func(t *testing.T) {
			eve := j.signUp("Eve")
			j.companyOf(eve, "Elsewhere")
			j.do(req{method: "GET", path: items, token: eve.token}).expect(t, http.StatusNotFound)
			j.do(req{method: "GET", path: items + "/0", token: eve.token}).expect(t, http.StatusNotFound)
		})
		t.Run("a failed item is retried alone and the run goes on past the loop", func(t *testing.T) {
			failing := j.create("Order lines, all or nothing", orderLinesFlow(j.target.URL, "fail"))
			j.publish(failing, 1)
			j.target.breakPath("/crm/X-2", http.StatusUnprocessableEntity)
			lines := []any{map[string]any{"sku": "X-1"}, map[string]any{"sku": "X-2"}, map[string]any{"sku": "X-3"}}
			runID := j.runManual(failing, map[string]any{"order_id": "B-7", "lines": lines}).str("workflow_run_id")
			j.finish(runID, "failed")
			preview := j.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/retry-preview?action_key=lines%5B1%5D.crm", token: j.u.token}).
				expect(t, http.StatusOK)
			if got, want := effects(preview, "acts_again"), []string{"lines[1].crm failed false", "lines failed true", "tell_manager skipped false"}; !slices.Equal(got, want) {
				t.Errorf("the item's retry acts again with %v, want %v", got, want)
			}
			j.target.breakPath("/crm/X-2", 0)
			j.do(req{method: "POST", path: "/api/v1/runs/" + runID + "/retry-action", token: j.u.token,
				body: map[string]any{"action_key": "lines[1].crm"}}).expect(t, http.StatusAccepted)
			j.finish(runID, "succeeded")
			for sku, want := range map[string]int{"X-1": 1, "X-2": 2, "X-3": 1} {
				if got := j.target.hitsOf("/crm/" + sku); got != want {
					t.Errorf("the CRM got %s %d times, want %d", sku, got, want)
				}
			}
			if got := j.target.bodiesOf("/manager"); got[len(got)-1] != "3 of 3" {
				t.Errorf("the manager got %q", got)
			}
			j.do(req{method: "POST", path: "/api/v1/runs/" + runID + "/retry-action", token: j.u.token,
				body: map[string]any{"action_key": "lines[1].crm"}}).expect(t, http.StatusConflict, "workflow_run_id")
		})
		t.Run("a body that leaks out of its loop is refused at publish", func(t *testing.T) {
			flow := orderLinesFlow(j.target.URL, "fail")
			flow["connections"] = append(flow["connections"].([]any), edge("crm", "tell_manager", ""))
			j.putDraft(id, flow)
			j.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/publish", token: j.u.token}).
				expect(t, http.StatusBadRequest, "connections.2")
		})
	})
}
