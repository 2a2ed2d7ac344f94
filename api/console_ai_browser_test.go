package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestConsoleAIEmployee: the AI employee's panel against the local model server. The
// capability says what is missing to be ready and the owner allows changes there; opened
// from a run, the message carries the run; the reply streams in as it is written; a
// proposed patch waits in an approval card, drawn as a diff on the canvas, and approving
// applies it; in a new conversation rejecting applies nothing; markup in a message is
// text; a reply is stopped; the person comes back to the conversations.
func TestConsoleAIEmployee(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	w := newAIWorld(t, site.env, "Ada")
	w.connectModel(t)
	w.model.setPace(150 * time.Millisecond)
	companyID := site.do(req{method: "GET", path: "/api/v1/companies", token: w.owner.token}).expect(t, http.StatusOK).
		json["items"].([]any)[0].(map[string]any)["company_id"].(string)
	site.do(req{method: "PUT", path: "/api/v1/auth/workspace-context", token: w.owner.token,
		body: map[string]any{"active_company_id": companyID, "active_project_id": w.projectID}}).expect(t, http.StatusOK)
	panel := "/projects/" + w.projectID + "/ai"
	tb := site.tab(t)
	tb.open("/sign-in")
	tb.signIn(w.owner)
	tb.at("/workflows")

	tb.click("AI employee")
	tb.at(panel)
	tb.seeIn("What the employee can do", "State: Proposes changes")
	tb.seeIn("What the employee can do", "The employee may change the project (each change waits for your approval).")
	tb.accessible("the AI employee's panel")
	tb.click("Allow changes with approval")
	tb.seeIn("What the employee can do", "State: Ready")
	tb.seeIn("What the employee can do", "Nothing is missing")

	tb.open("/runs/" + w.runID)
	tb.click("Ask the AI employee")
	tb.at(panel + "?run_id=" + w.runID)
	tb.see("About: a run of Orders (")

	// Every text the reply's bubble shows while it is written, to tell that it grew.
	tb.eval(`window.streamed = new Set();
		new MutationObserver(() => {
			const el = document.querySelector("[data-streaming]");
			if (el) window.streamed.add(el.innerText);
		}).observe(document.body, {subtree: true, childList: true, characterData: true});`)
	tb.fill("Message", "Why did run "+w.runID+" end like that? Improve the workflow.")
	tb.click("Send")
	tb.seeIn("Conversation", "Read a run")
	tb.seeIn("Conversation", "Propose a workflow change")
	tb.seeIn("Conversation", "Your approval is needed")
	tb.seeIn("Conversation", "Apply the proposed change")
	tb.waitJS("the proposed action drawn as added on the canvas",
		`!!document.querySelector('.ai-proposed-change .react-flow__node [data-action-key^="finish_"]')`)
	tb.seeIn("The proposed change", "Add a final stop")
	tb.accessible("the approval card with the proposed change")
	if n := draftActions(t, w); n != 2 {
		tb.fail("the draft changed before the approval: %d actions", n)
	}
	first := tb.sessionInAddress()
	s := site.do(req{method: "GET", path: w.path("/ai/employee/sessions/" + first), token: w.owner.token}).expect(t, http.StatusOK).json
	if c := s["page_context_json"].(map[string]any); c["pageKind"] != "run" || c["workflowRunId"] != w.runID || c["workflowId"] != w.workflowID {
		tb.fail("the message's page context is %v", c)
	}
	if m := s["working_memory_json"].(map[string]any); m["workflow_run"] == nil {
		tb.fail("the session was not opened on the run: %v", m)
	}

	// The reply after the approval comes slowly enough to be seen growing, however long
	// the page takes to follow the turn again.
	w.model.setPace(time.Second)
	tb.click("Approve")
	tb.seeIn("Conversation", "Applied to the draft of the workflow (not published).")
	tb.seeReply("Finished:")
	w.model.setPace(150 * time.Millisecond)
	if n := draftActions(t, w); n != 3 {
		tb.fail("after the approval the draft has %d actions, want 3", n)
	}
	var grew int
	tb.eval(`window.streamed.size`, &grew)
	if grew < 2 {
		tb.fail("the reply did not stream: its bubble showed %d texts", grew)
	}

	tb.click("New conversation")
	tb.fill("Message", "Look at run "+w.runID+" again. <img src=x onerror=alert(1)>")
	tb.click("Send")
	tb.seeIn("Conversation", "<img src=x onerror=alert(1)>")
	tb.seeIn("Conversation", "Your approval is needed")
	tb.click("Reject")
	tb.seeIn("Conversation", "rejected")
	tb.seeReply("Finished:")
	var images int
	tb.eval(`document.querySelectorAll(".ai-transcript img").length`, &images)
	if n := draftActions(t, w); n != 3 || images != 0 {
		tb.fail("after the rejection the draft has %d actions (want 3) and the transcript %d images", n, images)
	}
	second := tb.sessionInAddress()

	// A slow model: the person stops the reply while it is written.
	w.model.setPace(time.Second)
	tb.click("New conversation")
	tb.fill("Message", "Check run "+w.runID)
	tb.click("Send")
	tb.see("The employee is writing…")
	tb.click("Stop the reply")
	tb.seeIn("Conversation", "The reply was stopped.")
	w.model.setPace(150 * time.Millisecond)

	// Coming back: the address keeps the conversation, the list keeps all three.
	tb.open(panel + "?session=" + second)
	tb.seeIn("Conversation", "<img src=x onerror=alert(1)>")
	tb.see("Why did run " + w.runID)
	tb.see("Check run " + w.runID)
	tb.click("Why did run " + w.runID + " end like that? Improve the workflow.")
	tb.at(panel + "?session=" + first)
	tb.seeIn("Conversation", "Applied to the draft of the workflow (not published).")

	tb.choose("Language", "Русский")
	tb.seeIn("Что умеет сотрудник", "Состояние: Готов")
	tb.seeIn("Что умеет сотрудник", "Каждое изменение ждёт вашего одобрения.") // the API's words, asked again
	tb.seeIn("Разговор", "Применено к черновику сценария (не опубликовано).")
	tb.accessible("the AI employee's panel in Russian")
}

// seeReply waits for a stored reply of the employee that includes text (not the one being
// written).
func (tb *tab) seeReply(text string) {
	tb.t.Helper()
	tb.waitJS("a reply with "+text, `[...document.querySelectorAll(".ai-message.assistant:not([data-streaming])")].some((m) => m.innerText.includes(`+jsString(text)+`))`)
}

// sessionInAddress is the conversation the panel's address names.
func (tb *tab) sessionInAddress() string {
	tb.t.Helper()
	var id string
	tb.waitFor("a conversation in the address", pageWait, func(ctx context.Context) (bool, error) {
		err := chromedp.Run(ctx, chromedp.Evaluate(`new URLSearchParams(location.search).get("session") ?? ""`, &id))
		return id != "", err
	})
	return id
}
