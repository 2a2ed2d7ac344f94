package api_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestConsoleShowsACancelledRunAsCancelledEverywhere: a run cancelled during its delay reads
// cancelled in the runs list and in the inspector's header, and its delay, and the action
// after it, read cancelled on the graph and in the details, never failed.
func TestConsoleShowsACancelledRunAsCancelledEverywhere(t *testing.T) {
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	workflowID := site.publishGraph(ada, projectID, "Follow up", draft([]any{
		act("start", "manual.trigger", map[string]any{}),
		act("wait", "delay.wait", map[string]any{"seconds": 3600}),
		act("stop", "stop", map[string]any{}),
	}, edge("start", "wait", ""), edge("wait", "stop", "")))
	runID := site.do(req{method: "POST", path: "/api/v1/workflows/" + workflowID + "/runs/manual", token: ada.token,
		body: map[string]any{"input": map[string]any{}}}).expect(t, http.StatusAccepted).str("workflow_run_id")
	site.awaitRun(ada, runID, pageWait, "waiting", func(r *response) bool { return r.str("status") == "waiting" })
	site.do(req{method: "POST", path: "/api/v1/runs/" + runID + "/cancel", token: ada.token}).expect(t, http.StatusAccepted)
	site.waitRun(ada, runID)

	tb := site.tab(t)
	tb.open("/sign-in")
	tb.signIn(ada)
	tb.open("/runs")
	tb.waitJS("the runs list to say the run is cancelled", `[...document.querySelectorAll(".runs-table tbody tr")]
		.some((row) => row.querySelector('a[href$="/runs/`+runID+`"]') && row.innerText.includes("cancelled"))`)
	tb.clickLinkTo("/runs/" + runID)
	tb.statuses(map[string]string{"start": "succeeded", "wait": "cancelled", "stop": "cancelled"})
	tb.waitJS("the inspector's header to say cancelled", `document.querySelector(".run-header .status-word")?.innerText.includes("cancelled")`)
	tb.clickNode("wait")
	tb.waitJS("the delay's details to say cancelled, not failed", `(() => {
		const word = document.querySelector(".action-details .status-word");
		return word?.classList.contains("status-cancelled") && word.innerText.includes("cancelled") && !document.querySelector(".action-details").innerText.includes("failed");
	})()`)
	tb.accessible("a cancelled run")
}

// TestConsoleSaysWhyRetryingAPermanentFailureCannotHelp: an action the provider refused for
// good (404) is not offered "Retry this action…" as if a retry could help: the details say
// why and what to do instead.
func TestConsoleSaysWhyRetryingAPermanentFailureCannotHelp(t *testing.T) {
	site := newConsoleSite(t)
	target := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(target.Close)
	ada, projectID := site.member("Ada")
	workflowID := site.publishGraph(ada, projectID, "Lookup", draft([]any{
		act("start", "manual.trigger", map[string]any{}),
		act("lookup", "http.request", map[string]any{"url": target.URL + "/customers/1"}),
	}, edge("start", "lookup", "")))
	runID := site.do(req{method: "POST", path: "/api/v1/workflows/" + workflowID + "/runs/manual", token: ada.token,
		body: map[string]any{"input": map[string]any{}}}).expect(t, http.StatusAccepted).str("workflow_run_id")
	if run := site.waitRun(ada, runID); run.str("status") != "failed" {
		t.Fatalf("the run is %s", run.Body)
	}

	tb := site.tab(t)
	tb.open("/sign-in")
	tb.signIn(ada)
	tb.open("/runs/" + runID)
	tb.statuses(map[string]string{"start": "succeeded", "lookup": "failed"})
	tb.clickNode("lookup")
	tb.see("so a retry would fail the same way")
	tb.waitJS("no retry to be offered", `![...document.querySelectorAll("button")].some((b) => b.innerText.includes("Retry this action"))`)
}

// TestConsoleRunGraphMiniMapCoversNoNode: a run of two branches draws its last action in
// the graph's bottom-right corner, where the mini-map sits; the first view leaves it free.
func TestConsoleRunGraphMiniMapCoversNoNode(t *testing.T) {
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	workflowID := site.publishGraph(ada, projectID, "Branches", draft([]any{
		act("start", "manual.trigger", map[string]any{}),
		act("check", "condition.branch", map[string]any{"text": "1 > 2"}),
		act("yes", "stop", map[string]any{}),
		act("no", "delay.wait", map[string]any{"seconds": 1}),
		act("after", "stop", map[string]any{}),
	}, edge("start", "check", ""), edge("check", "yes", "true"), edge("check", "no", "false"), edge("no", "after", "")))
	runID := site.do(req{method: "POST", path: "/api/v1/workflows/" + workflowID + "/runs/manual", token: ada.token,
		body: map[string]any{"input": map[string]any{}}}).expect(t, http.StatusAccepted).str("workflow_run_id")
	site.waitRun(ada, runID)

	tb := site.tab(t)
	tb.open("/sign-in")
	tb.signIn(ada)
	tb.open("/runs/" + runID)
	tb.statuses(map[string]string{"start": "succeeded", "check": "succeeded", "yes": "skipped", "no": "succeeded", "after": "succeeded"})
	tb.waitJS("the mini-map to cover no node", `(() => {
		const map = document.querySelector(".react-flow__minimap")?.getBoundingClientRect();
		const nodes = [...document.querySelectorAll(".react-flow__node")].map((n) => n.getBoundingClientRect());
		return map && nodes.length === 5 && nodes.every((n) => n.bottom <= map.top || n.right <= map.left || n.top >= map.bottom || n.left >= map.right);
	})()`)
}
