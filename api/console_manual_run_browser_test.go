package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// focusIsOn waits until the keyboard focus is on the control named name.
func (tb *tab) focusIsOn(name string) {
	tb.t.Helper()
	tb.waitFor("the focus on "+name, pageWait, func(ctx context.Context) (bool, error) {
		return tb.onNamed(ctx, append(clickable, typable...), name, `function () { return document.activeElement === this ? true : null; }`, nil)
	})
}

// onWorkflows opens a tab signed in as u on the workflows page.
func (s *consoleSite) onWorkflows(t *testing.T, u user) *tab {
	t.Helper()
	tb := s.tab(t)
	tb.open("/sign-in")
	tb.signIn(u)
	tb.at("/workflows")
	return tb
}

// TestConsoleNewWorkflowOpensOnThePalette: after creating a workflow the editor opens
// with the focus in the palette's search, so the first action is a few keys away, and Enter
// in the search adds the only match.
func TestConsoleNewWorkflowOpensOnThePalette(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, _ := site.member("Ada")
	tb := site.onWorkflows(t, ada)
	tb.click("New workflow")
	tb.fill("Name", "Orders")
	tb.press(kb.Enter)
	tb.seeHeading("Actions")
	tb.focusIsOn("Search actions")
	tb.press("manual")
	tb.tabTo("Manual start", false)
	tb.press(kb.Enter)
	tb.see("Selected: Manual start")
	// Enter in the search adds the only action type it leaves.
	tb.fill("Search actions", "switch")
	tb.press(kb.Enter)
	tb.see("Selected: Switch")
}

// TestConsoleTestRunStartsFromTheTriggersSample: a draft whose condition reads the webhook
// trigger's sample (orders.total > 200) passes its first test run without any test input
// typed, and the test input shows the sample's fields.
func TestConsoleTestRunStartsFromTheTriggersSample(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	id := site.newWorkflow(ada, projectID, "Orders")
	site.do(req{method: "PUT", path: "/api/v1/workflows/" + id + "/draft", token: ada.token,
		body: ordersFlow("webhook.trigger", map[string]any{"endpoint_key": "orders", "sample_payload_json": map[string]any{"total": 250}})}).
		expect(t, http.StatusOK)
	tb := site.onWorkflows(t, ada)
	tb.open("/workflows/" + id)
	tb.seeHeading("Actions")

	tb.click("Test input")
	if got := tb.valueOf("total"); got != "250" {
		tb.fail("the test input's total is %q, want the sample's 250", got)
	}
	tb.click("Cancel")
	tb.click("Test run")
	tb.see("Test run: succeeded")
	tb.statuses(map[string]string{"orders": "succeeded", "big": "succeeded", "vip": "succeeded", "usual": "skipped"})
}

// TestConsoleManualRun: a published workflow with a manual start is run from the list:
// the dialog starts from the trigger's sample, the person changes a field and lands on
// the run's inspector, the run succeeded with that input. A Problem of the API shows on
// the field it names; the dialog is reached and left by keyboard from the workflow's
// page, the focus going into it and back; a workflow that cannot be run says why.
func TestConsoleManualRun(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	sample := map[string]any{"customer": "Ada", "total": 250}
	id := site.publishGraph(ada, projectID, "Orders", ordersFlow("manual.trigger", map[string]any{"sample_payload_json": sample,
		"input_schema_json": map[string]any{"type": "object", "properties": map[string]any{"customer": map[string]any{"type": "string", "minLength": 2}}}}))
	site.newWorkflow(ada, projectID, "Unpublished")
	tb := site.onWorkflows(t, ada)
	tb.see("Publish the workflow to run it.")

	tb.click("Run Orders")
	tb.seeHeading("Run the published version")
	if customer, total := tb.valueOf("customer"), tb.valueOf("total"); customer != "Ada" || total != "250" {
		tb.fail("the form starts from customer %q, total %q; want the sample's", customer, total)
	}
	tb.fill("customer", "G")
	tb.click("Start the run")
	tb.fieldShows("customer", "do not satisfy the manual trigger's input schema")
	tb.fill("customer", "Grace")
	tb.click("Start the run")
	tb.waitJS("the run's inspector", `location.pathname.startsWith("/runs/")`)
	var path string
	tb.eval(`location.pathname`, &path)
	run := site.waitRun(ada, strings.TrimPrefix(path, "/runs/"))
	if input := run.json["input_json"].(map[string]any); run.str("status") != "succeeded" || input["customer"] != "Grace" || input["total"] != float64(250) {
		tb.fail("the run: %s", run.Body)
	}
	tb.statuses(map[string]string{"orders": "succeeded", "big": "succeeded", "vip": "succeeded", "usual": "skipped"})

	tb.open("/workflows/" + id + "/versions")
	tb.tabTo("Run…", false)
	tb.press(kb.Enter)
	tb.seeHeading("Run the published version")
	tb.focusIsOn("customer")
	tb.press(kb.Escape)
	tb.focusIsOn("Run…")
	tb.accessible("the workflow's page")
}
