package api_test

import (
	"slices"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// draftConfig is the config of one action of the workflow's saved draft.
func (s *consoleSite) draftConfig(u user, workflowID, actionKey string) map[string]any {
	s.t.Helper()
	draft := s.savedDraft(u, workflowID)
	for _, a := range draft["actions"].([]any) {
		if a := a.(map[string]any); a["action_key"] == actionKey {
			config, _ := a["config"].(map[string]any)
			return config
		}
	}
	s.t.Fatalf("the draft has no action %s: %v", actionKey, draft)
	return nil
}

// TestConsoleRunEventTrigger: with the keyboard alone an author adds "Run failed or
// cancelled" from the palette, ticks the cancelled runs too, picks the workflow to watch
// among the project's by name, and adds an HTTP request after it, whose URL offers the failed run's variables under
// run_event; the saved draft holds the trigger's config. Naming the watcher itself is a
// problem shown on that workflow's field.
func TestConsoleRunEventTrigger(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	orders := site.newWorkflow(ada, projectID, "Orders")
	id := site.newWorkflow(ada, projectID, "Watch the orders")
	tb := site.editorOf(ada, id)

	tb.tabTo("Search actions", false)
	tb.press("failed")
	tb.tabTo("Run failed or cancelled", false)
	tb.press(kb.Enter)
	tb.see("Selected: Run failed or cancelled")
	tb.seeHeading("Action settings")
	tb.tabTo("run.cancelled", false)
	tb.press(" ")
	tb.tabTo("Add workflow", false)
	tb.press(kb.Enter)
	tb.tabTo("Workflow 1", false)
	tb.press(kb.ArrowDown) // the project's workflows by name, after "choose a workflow"
	tb.shows("Workflow 1", "Orders")

	tb.tabTo("Search actions", true)
	tb.press("http")
	tb.tabTo("HTTP request", false)
	tb.press(kb.Enter)
	tb.see("Selected: HTTP request")
	tb.shows("Integration", "— none —") // its optional credential, a picker as the workflows are
	tb.tabTo("URL", false)
	tb.press("{{run_event.")
	tb.waitJS("the failed run's variables offered", `(() => {
		const list = document.querySelector(".cm-tooltip-autocomplete");
		const offered = list ? [...list.querySelectorAll("[role=option]")].map((o) => o.textContent) : [];
		return ["workflow_name", "failed_action_key", "error", "run_url", "run_id", "workflow_id"].every((v) => offered.some((o) => o.includes("run_event." + v)));
	})()`)
	tb.press(kb.Escape)
	tb.press("s", input.ModifierCtrl)
	tb.see("Saved")

	config := site.draftConfig(ada, id, "run_event_trigger")
	events, _ := config["events"].([]any)
	ids, _ := config["workflow_ids"].([]any)
	if !slices.Contains(events, any("run.cancelled")) || len(ids) != 1 || ids[0] != orders {
		tb.fail("the trigger's saved config is %v, want run.cancelled among its events and the orders workflow watched", config)
	}
	if actions, connections := site.draftOf(ada, id); !slices.Equal(actions, []string{"http_request", "run_event_trigger"}) ||
		!slices.Equal(connections, []string{"run_event_trigger --> http_request"}) {
		tb.fail("the saved draft has actions %v and connections %v", actions, connections)
	}

	tb.clickNode("run_event_trigger")
	tb.choose("Workflow 1", "Watch the orders")
	tb.fieldShows("Workflow 1", "a workflow does not watch its own runs")
	tb.accessible("the editor with a run.event_trigger's settings")
}
