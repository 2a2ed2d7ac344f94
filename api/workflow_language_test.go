package api_test

import (
	"net/http"
	"strings"
	"testing"

	"agencyhub/migrations/dbtest"
)

// regionFlow shapes an order with data.set, routes it with condition.switch, posts the
// northern ones to the CRM and tells the manager, on the CRM call's error path, what the CRM
// answered; southern ones go to their own endpoint.
func regionFlow(target string) map[string]any {
	at := func(x, y int) map[string]any { return map[string]any{"position": map[string]any{"x": x, "y": y}} }
	post := func(key, path, body string, x, y int) map[string]any {
		return map[string]any{"action_key": key, "action_type_key": "http.request", "ui": at(x, y),
			"config": map[string]any{"method": "POST", "url": target + path, "body": body}}
	}
	return draft([]any{
		map[string]any{"action_key": "start", "action_type_key": "manual.trigger", "config": map[string]any{}, "ui": at(0, 0)},
		map[string]any{"action_key": "shape", "action_type_key": "data.set", "ui": at(280, 0), "config": map[string]any{
			"fields": map[string]any{"region": "lower(start.region)", "skus": "map(start.lines, .sku)"}}},
		map[string]any{"action_key": "route", "action_type_key": "condition.switch", "ui": at(560, 0), "config": map[string]any{
			"cases": []any{
				map[string]any{"name": "north", "text": `steps.shape.region == "north"`},
				map[string]any{"name": "south", "text": `steps.shape.region == "south"`},
			}}},
		post("crm", "/crm", "{{ steps.shape.skus }}", 840, -140),
		post("tell_manager", "/manager", "CRM said {{ steps.crm.error.status_code }}: {{ steps.crm.error.message }}", 1120, -70),
		post("south", "/south", "{{ steps.shape.region }}", 840, 60),
		map[string]any{"action_key": "elsewhere", "action_type_key": "stop", "config": map[string]any{}, "ui": at(840, 220)},
	},
		map[string]any{"from": "start", "to": "shape"},
		map[string]any{"from": "shape", "to": "route"},
		map[string]any{"from": "route", "to": "crm", "branch": "north"},
		map[string]any{"from": "route", "to": "south", "branch": "south"},
		map[string]any{"from": "route", "to": "elsewhere", "branch": "default"},
		map[string]any{"from": "crm", "to": "tell_manager", "branch": "error"},
	)
}

// TestTheWorkflowLanguageRunsOnTheEngine: a published workflow with a data step, a switch
// and an error path runs on the embedded Temporal server with real HTTP: the switch takes
// the case the shaped data matches, the CRM's refusal goes on along the error path with
// what the CRM answered, and the run succeeds; a switch whose cases share a name is refused
// at publish, naming the field and the connection whose case is gone.
func TestTheWorkflowLanguageRunsOnTheEngine(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		j.target.breakPath("/crm", http.StatusUnprocessableEntity)
		id := j.create("Orders by region", regionFlow(j.target.URL))
		j.publish(id, 1)

		t.Run("a northern order's CRM refusal reaches the manager and the run succeeds", func(t *testing.T) {
			runID := j.runManual(id, map[string]any{"region": "North", "lines": []any{map[string]any{"sku": "A-1"}, map[string]any{"sku": "B-2"}}}).str("workflow_run_id")
			j.finish(runID, "succeeded")
			actions, _ := j.actions(runID)
			for key, want := range map[string]string{"shape": "succeeded", "route": "succeeded", "crm": "failed", "tell_manager": "succeeded", "south": "skipped", "elsewhere": "skipped"} {
				if got := actions[key]["status"]; got != want {
					t.Errorf("%s is %v, want %s", key, got, want)
				}
			}
			if got := j.target.bodiesOf("/crm"); len(got) != 1 || !strings.Contains(got[0], `"A-1"`) || !strings.Contains(got[0], `"B-2"`) {
				t.Errorf("the CRM got %q, want the list of SKUs", got)
			}
			if got := j.target.bodiesOf("/manager"); len(got) != 1 || !strings.HasPrefix(got[0], "CRM said 422: ") {
				t.Errorf("the manager got %q", got)
			}
		})
		t.Run("a southern order takes its own case", func(t *testing.T) {
			runID := j.runManual(id, map[string]any{"region": "South", "lines": []any{}}).str("workflow_run_id")
			j.finish(runID, "succeeded")
			if got := j.target.bodiesOf("/south"); len(got) != 1 || got[0] != "south" {
				t.Errorf("the southern endpoint got %q", got)
			}
		})
		t.Run("cases sharing a name are refused at publish, naming the field", func(t *testing.T) {
			flow := regionFlow(j.target.URL)
			route := flow["actions"].([]any)[2].(map[string]any)
			route["config"].(map[string]any)["cases"].([]any)[1].(map[string]any)["name"] = "north"
			j.putDraft(id, flow)
			j.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/publish", token: j.u.token}).
				expect(t, http.StatusBadRequest, "actions.route.config.cases.1.name", "connections.3") // route -> south: no such case now
		})
	})
}
