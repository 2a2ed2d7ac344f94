package api_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestConsoleLoopEditorAndItems: in the editor a For each draws its "each item" and "done"
// outputs and marks its body; the author connects done to the manager's notice by keyboard.
// A run of the published version over three order lines, one of which the CRM refuses
// (on_item_error continue), shows in the inspector the loop's counts and its three items,
// one failed; filtered to the failed ones and opened, the item shows the CRM call's error
// and its status on the body's node, which otherwise reads "per item". Screenshots at 1400
// and 1000 px, in English and Russian, are left in the temp dir.
func TestConsoleLoopEditorAndItems(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	u, projectID := site.member("Ada")
	j := &journey{env: site.env, u: u, projectID: projectID, target: startTarget(t)}
	j.target.breakPath("/crm/B-2", http.StatusUnprocessableEntity)
	flow := orderLinesFlow(j.target.URL, "continue")
	connections := flow["connections"].([]any)
	id := j.create("Order lines", flow)
	flow["connections"] = connections[:len(connections)-1] // lines -> tell_manager on done, which the author draws
	j.putDraft(id, flow)

	tb := site.onWorkflows(t, u)
	tb.resize(1400, 900)
	tb.open("/workflows/" + id)
	tb.seeHeading("Actions")
	tb.waitJS("the loop's handles", `document.querySelectorAll(`+"`"+`[data-action-key="lines"] .react-flow__handle.source`+"`"+`).length === 3`)
	if got, want := tb.sourceHandles("lines"), []string{"each item", "done", "on error"}; !slices.Equal(got, want) {
		tb.fail("the loop's outputs are %v, want %v", got, want)
	}
	tb.waitJS("the body marked", `document.querySelector('[data-action-key="crm"]').classList.contains("in-loop") && !document.querySelector('[data-action-key="tell_manager"]').classList.contains("in-loop")`)
	tb.see("in the loop")

	tb.clickNode("lines")
	tb.choose("Connect to", "tell_manager (tell_manager)")
	tb.choose("From output", "done")
	tb.click("Connect")
	j.draftKeeps(tb, id, "lines", "tell_manager", "done")
	tb.fitView()
	tb.screenshot("editor-1400-en")

	j.publish(id, 1)
	lines := []any{map[string]any{"sku": "A-1"}, map[string]any{"sku": "B-2"}, map[string]any{"sku": "C-3"}}
	runID := j.runManual(id, map[string]any{"order_id": "A-1001", "lines": lines}).str("workflow_run_id")
	j.finish(runID, "succeeded")

	tb.open("/runs/" + runID)
	tb.statuses(map[string]string{"start": "succeeded", "lines": "succeeded", "crm": "", "tell_manager": "succeeded"})
	tb.seeIn("Workflow graph", "per item")
	tb.clickNode("lines")
	tb.seeIn("Details", "Succeeded")
	tb.waitJS("three items, one failed", `document.querySelectorAll(".loop-items tbody tr").length === 3 &&
		document.querySelectorAll(".loop-items tbody .status-failed").length === 1`)
	tb.seeIn("Details", `{"sku":"B-2"}`)
	tb.screenshot("inspector-1400-en")

	tb.choose("Show", "Failed")
	tb.waitJS("the failed item only", `document.querySelectorAll(".loop-items tbody tr").length === 1 && document.querySelector(".loop-items tbody tr").dataset.itemIndex === "1"`)
	// By keyboard: the item's button takes the focus and Enter opens it.
	tb.eval(`document.querySelector(".loop-items button.item-choose").focus()`)
	tb.press("\r")
	tb.seeHeading("Item 1 of lines")
	tb.seeIn("Details", "422")
	tb.statuses(map[string]string{"start": "succeeded", "lines": "succeeded", "crm": "failed", "tell_manager": "succeeded"})
	tb.click("crm")
	tb.seeHeading("crm")
	tb.seeIn("Details", "422")
	tb.accessible("the inspector of a loop's failed item")
	tb.screenshot("item-1400-en")

	tb.resize(1000, 800)
	tb.screenshot("item-1000-en")
	tb.choose("Language", "Русский")
	tb.see("Элемент 1 цикла «lines»")
	tb.screenshot("item-1000-ru")
	tb.resize(1400, 900)
	tb.click("← Элемент 1 цикла «lines»")
	tb.see("Всего элементов")
	tb.screenshot("inspector-1400-ru")
	tb.open("/workflows/" + id)
	tb.see("в цикле")
	tb.resize(1000, 800)
	tb.fitView()
	tb.screenshot("editor-1000-ru")
}

// draftKeeps waits until the workflow's saved draft has the connection from -> to on branch.
func (j *journey) draftKeeps(tb *tab, workflowID, from, to, branch string) {
	tb.t.Helper()
	deadline := time.Now().Add(pageWait)
	for !slices.ContainsFunc(j.draftConnections(workflowID), func(c map[string]any) bool {
		return c["from"] == from && c["to"] == to && c["branch"] == branch
	}) {
		if time.Now().After(deadline) {
			tb.fail("the draft never kept %s -> %s on %q: %v", from, to, branch, j.draftConnections(workflowID))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// fitView presses the canvas's "fit view" control, so a screenshot shows every node.
func (tb *tab) fitView() {
	tb.t.Helper()
	tb.eval(`document.querySelector(".react-flow__controls-fitview").click()`)
}

// screenshot leaves the page as it looks in the temp dir, named by the test and what, to
// look at by eye.
func (tb *tab) screenshot(what string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
	defer cancel()
	var shot []byte
	time.Sleep(300 * time.Millisecond) // the canvas's fit and the last read settle
	if err := chromedp.Run(ctx, chromedp.CaptureScreenshot(&shot)); err != nil {
		tb.fail("screenshot %s: %v", what, err)
	}
	name := filepath.Join(os.TempDir(), tb.t.Name()+"-"+what+".png")
	if err := os.WriteFile(name, shot, 0o644); err != nil {
		tb.t.Errorf("write %s: %v", name, err)
	}
}
