package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestConsoleDecidesAnApprovalInTheInspectorAndThroughItsLink: a run waiting for an approval
// shows it in the inspector, where its approver comments and approves with the keyboard, and
// the run goes on along approved; another run's signed link, opened without an account,
// shows a page whose Reject moves that run on along rejected.
func TestConsoleDecidesAnApprovalInTheInspectorAndThroughItsLink(t *testing.T) {
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	workflowID := site.publishGraph(ada, projectID, "Refunds", draft([]any{
		act("start", "manual.trigger", map[string]any{}),
		act("approve", "approval.wait", map[string]any{"title": "Refund {{ start.amount }} to {{ start.customer }}",
			"message": "Order {{ start.order }}", "timeout_seconds": 3600}),
		act("refund", "stop", map[string]any{}),
		act("decline", "stop", map[string]any{}),
		act("too_late", "stop", map[string]any{}),
	}, edge("start", "approve", ""), edge("approve", "refund", "approved"), edge("approve", "decline", "rejected"),
		edge("approve", "too_late", "timeout")))
	start := func(amount float64, order string) string {
		runID := site.do(req{method: "POST", path: "/api/v1/workflows/" + workflowID + "/runs/manual", token: ada.token,
			body: map[string]any{"input": map[string]any{"amount": amount, "customer": "<b>Bob</b>", "order": order}}}).expect(t, http.StatusAccepted).str("workflow_run_id")
		site.awaitRun(ada, runID, pageWait, "waiting", func(r *response) bool { return r.str("status") == "waiting" })
		return runID
	}

	first := start(120, "A-1")
	tb := site.tab(t)
	tb.open("/sign-in")
	tb.signIn(ada)
	tb.open("/approvals")
	tb.seeHeading("Refund 120 to <b>Bob</b>") // the title as text, never HTML
	tb.clickLinkTo("/runs/" + first)
	tb.statuses(map[string]string{"start": "succeeded", "approve": "waiting", "refund": "pending", "decline": "pending", "too_late": "pending"})
	tb.seeIn("Approvals", "Order A-1")
	tb.accessible("a run waiting for an approval")
	tb.tabTo("Comment", false)
	tb.press("Looks right")
	tb.tabTo("Approve", false)
	tb.press("\r")
	tb.statuses(map[string]string{"start": "succeeded", "approve": "succeeded", "refund": "succeeded", "decline": "skipped", "too_late": "skipped"})
	tb.seeIn("Approvals", "Approved by "+ada.email)
	if run := site.waitRun(ada, first); run.str("status") != "succeeded" {
		t.Fatalf("the first run ended %s", run.Body)
	}

	second := start(7, "A-2")
	approvals := site.do(req{method: "GET", path: "/api/v1/runs/" + second + "/approvals", token: ada.token}).expect(t, http.StatusOK).items()
	link, _ := approvals[0]["decide_url"].(string)
	_, path, ok := strings.Cut(link, "/api/v1/approval-links/")
	if !ok {
		t.Fatalf("decide_url %q", link)
	}
	stranger := site.tab(t)
	stranger.open("/api/v1/approval-links/" + path) // as a mail's link opens it: sent on to the console's page
	stranger.at("/approve/" + path)
	stranger.seeHeading("Refund 7 to <b>Bob</b>")
	stranger.see("Order A-2")
	stranger.accessible("the page of a decide link")
	stranger.fill("Comment", "Not this time")
	stranger.click("Reject")
	stranger.see("Rejected. Thank you: the workflow goes on.")
	run := site.waitRun(ada, second)
	actions := site.do(req{method: "GET", path: "/api/v1/runs/" + second + "/actions", token: ada.token}).expect(t, http.StatusOK).items()
	statuses := map[string]any{}
	for _, a := range actions {
		statuses[a["action_key"].(string)] = a["status"]
	}
	if run.str("status") != "succeeded" || statuses["decline"] != "succeeded" || statuses["refund"] != "skipped" {
		t.Errorf("the second run ended %s with %v", run.str("status"), statuses)
	}
}
