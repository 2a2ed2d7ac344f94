package api_test

import (
	"net/http"
	"slices"
	"testing"
)

// sourceHandles are the titles of an action node's output handles, top to bottom.
func (tb *tab) sourceHandles(actionKey string) []string {
	tb.t.Helper()
	var got []string
	tb.eval(`[...(`+node(actionKey)+`?.querySelectorAll(".react-flow__handle.source") ?? [])].map((h) => h.title)`, &got)
	return got
}

// TestConsoleWorkflowLanguage: in the editor a switch draws a handle per case, its default
// and its error path, and every other action an error handle; the author connects the CRM
// call's error path to the manager's notice by keyboard ("Connect to…", output "on error"),
// which the draft keeps; a run of the published version shows in the inspector the CRM call
// failed, its error path taken and said so, the manager told, and the other cases skipped;
// and a case added in the form is an output an edge is drawn from at once.
func TestConsoleWorkflowLanguage(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	u, projectID := site.member("Ada")
	j := &journey{env: site.env, u: u, projectID: projectID, target: startTarget(t)}
	j.target.breakPath("/crm", http.StatusUnprocessableEntity)
	flow := regionFlow(j.target.URL)
	connections := flow["connections"].([]any)
	id := j.create("Orders by region", flow)
	flow["connections"] = connections[:len(connections)-1] // the error path, which the author draws
	j.putDraft(id, flow)

	tb := site.onWorkflows(t, u)
	tb.open("/workflows/" + id)
	tb.seeHeading("Actions")
	tb.waitJS("the switch's handles", `document.querySelectorAll(`+"`"+`[data-action-key="route"] .react-flow__handle.source`+"`"+`).length === 4`)
	if got, want := tb.sourceHandles("route"), []string{"north", "south", "otherwise", "on error"}; !slices.Equal(got, want) {
		tb.fail("the switch's outputs are %v, want %v", got, want)
	}
	if got, want := tb.sourceHandles("start"), []string{"next"}; !slices.Equal(got, want) {
		tb.fail("the trigger's outputs are %v, want %v (a trigger has no error path)", got, want)
	}

	tb.clickNode("crm")
	tb.choose("Connect to", "tell_manager")
	tb.choose("From output", "on error")
	tb.click("Connect")
	j.draftKeeps(tb, id, "crm", "tell_manager", "error")

	j.publish(id, 1)
	runID := j.runManual(id, map[string]any{"region": "north", "lines": []any{map[string]any{"sku": "A-1"}}}).str("workflow_run_id")
	j.finish(runID, "succeeded")
	tb.open("/runs/" + runID)
	tb.statuses(map[string]string{
		"start": "succeeded", "shape": "succeeded", "route": "succeeded", "crm": "failed",
		"tell_manager": "succeeded", "south": "skipped", "elsewhere": "skipped",
	})
	tb.waitJS("the error path drawn as taken", `document.querySelector('.react-flow__edge.taken[data-id="crm->tell_manager:error"]') !== null`)
	tb.clickNode("crm")
	tb.see("The run went on along this action's error path, which reads this failure as steps.crm.error.")
	tb.accessible("the inspector of a run that took an error path")

	// A case added in the form is an output at once: an action added after it is joined to
	// the switch by an edge drawn on the canvas, not only kept in the draft.
	tb.open("/workflows/" + id)
	tb.seeHeading("Actions")
	tb.clickNode("route")
	tb.click("Add case")
	tb.eval(`(() => {
		const names = [...document.querySelectorAll("label")].filter((l) => l.textContent.trim().startsWith("Branch name"));
		document.getElementById(names[names.length - 1].htmlFor).focus();
	})()`)
	tb.press("west")
	tb.see("Adds after “route”, output “west”.") // the first output nothing leaves yet
	tb.click("Stop")
	tb.waitJS("an edge from the new case on the canvas", `document.querySelector('.react-flow__edge[data-id^="route->"][data-id$=":west"]') !== null`)
}

// draftConnections are the connections of a workflow's saved draft.
func (j *journey) draftConnections(workflowID string) []map[string]any {
	j.t.Helper()
	var out []map[string]any
	draft, _ := j.do(req{method: "GET", path: "/api/v1/workflows/" + workflowID, token: j.u.token}).expect(j.t, http.StatusOK).json["draft"].(map[string]any)
	connections, _ := draft["connections"].([]any)
	for _, c := range connections {
		out = append(out, c.(map[string]any))
	}
	return out
}
