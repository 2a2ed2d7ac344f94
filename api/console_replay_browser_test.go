package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// TestConsoleReplaysARunWithChanges: from a run's inspector an operator replays it on the
// workflow's latest version with an edited input, reading in the preview the action that
// version adds; an input that is not JSON is said on the field and sends nothing, one the
// trigger's schema refuses is said on the field once; the new run opens, and the target saw
// the edited input through the new version.
func TestConsoleReplaysARunWithChanges(t *testing.T) {
	site := newConsoleSite(t)
	var mu sync.Mutex
	var seen []string
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, r.URL.Path)
	}))
	t.Cleanup(target.Close)
	ada, projectID := site.member("Ada")
	start := act("start", "manual.trigger", map[string]any{"input_schema_json": map[string]any{
		"type": "object", "properties": map[string]any{"order_id": map[string]any{"type": "string", "minLength": 2}}}})
	workflowID := site.publishGraph(ada, projectID, "Orders", draft([]any{
		start,
		act("lookup", "http.request", map[string]any{"url": target.URL + "/v1/{{ start.order_id }}"}),
	}, edge("start", "lookup", "")))
	runID := site.do(req{method: "POST", path: "/api/v1/workflows/" + workflowID + "/runs/manual", token: ada.token,
		body: map[string]any{"input": map[string]any{"order_id": "A-1001"}}}).expect(t, http.StatusAccepted).str("workflow_run_id")
	site.waitRun(ada, runID)
	site.do(req{method: "PUT", path: "/api/v1/workflows/" + workflowID + "/draft", token: ada.token, body: draft([]any{
		start,
		act("lookup", "http.request", map[string]any{"url": target.URL + "/v2/{{ start.order_id }}"}),
		act("notify", "http.request", map[string]any{"url": target.URL + "/v2/notify"}),
	}, edge("start", "lookup", ""), edge("lookup", "notify", ""))}).expect(t, http.StatusOK)
	site.do(req{method: "POST", path: "/api/v1/workflows/" + workflowID + "/publish", token: ada.token}).expect(t, http.StatusCreated)

	tb := site.tab(t)
	tb.open("/sign-in")
	tb.signIn(ada)
	tb.open("/runs/" + runID)
	tb.tabTo("Replay…", false)
	tb.press(kb.Enter)
	tb.tabTo("this run's version", false) // a radio group is one stop; arrows choose in it
	tb.press(kb.ArrowDown)
	tb.seeIn("Replay this run?", "new in the latest version")
	tb.tabTo("Change the input", false)
	tb.press(" ")
	tb.fill("Input (JSON)", `{"order_id": "A-2002"`)
	tb.click("Replay")
	tb.fieldMarked("Input (JSON)")
	tb.see("The input is not a JSON object")
	tb.fill("Input (JSON)", `{"order_id": "A"}`) // the trigger's schema wants two letters at least
	tb.click("Replay")
	tb.fieldShows("Input (JSON)", "do not satisfy the manual trigger's input schema")
	tb.seeOnce("do not satisfy the manual trigger's input schema")
	tb.fill("Input (JSON)", `{"order_id": "A-2002"}`)
	tb.waitJS("the refusal of the input before to go once it is edited",
		`!document.body.innerText.includes("do not satisfy the manual trigger's input schema")`)
	tb.screenshot("dialog-1400")
	tb.resize(390, 800)
	tb.fitsWidth("the replay dialog at 390 px")
	tb.screenshot("dialog-390")
	tb.click("Replay")
	tb.waitJS("the new run to open", `location.pathname.startsWith("/runs/") && location.pathname !== "/runs/`+runID+`"`)
	var newRun string
	tb.eval(`location.pathname.slice("/runs/".length)`, &newRun)
	if r := site.waitRun(ada, newRun); r.str("replay_of_run_id") != runID || r.str("status") != "succeeded" {
		t.Fatalf("the replay is %s", r.Body)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(seen, " "); got != "/v1/A-1001 /v2/A-2002 /v2/notify" {
		t.Fatalf("the target saw %s", got)
	}
}
