package api_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// draftOf is the workflow's draft as the API holds it: its action keys, and its
// connections as "from -branch-> to".
func (s *consoleSite) draftOf(u user, workflowID string) (actions, connections []string) {
	s.t.Helper()
	draft := s.savedDraft(u, workflowID)
	for _, a := range draft["actions"].([]any) {
		actions = append(actions, a.(map[string]any)["action_key"].(string))
	}
	for _, c := range draft["connections"].([]any) {
		c := c.(map[string]any)
		branch, _ := c["branch"].(string)
		connections = append(connections, c["from"].(string)+" -"+branch+"-> "+c["to"].(string))
	}
	slices.Sort(actions)
	return actions, connections
}

// savedDraft is the workflow's draft as the API answers it.
func (s *consoleSite) savedDraft(u user, workflowID string) map[string]any {
	s.t.Helper()
	draft, _ := s.do(req{method: "GET", path: "/api/v1/workflows/" + workflowID, token: u.token}).
		expect(s.t, http.StatusOK).json["draft"].(map[string]any)
	return draft
}

// newWorkflow creates an empty workflow in the project through the API.
func (s *consoleSite) newWorkflow(u user, projectID, name string) string {
	s.t.Helper()
	return s.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/workflows", token: u.token,
		body: map[string]any{"name": name}}).expect(s.t, http.StatusCreated).str("workflow_id")
}

// workflowWithDraft creates a workflow in the project whose draft is graph, through the API.
func (s *consoleSite) workflowWithDraft(u user, projectID, name string, graph map[string]any) string {
	s.t.Helper()
	id := s.newWorkflow(u, projectID, name)
	s.do(req{method: "PUT", path: "/api/v1/workflows/" + id + "/draft", token: u.token, body: graph}).expect(s.t, http.StatusOK)
	return id
}

// editorOf signs the user in, in a new tab, and opens the workflow's editor there.
func (s *consoleSite) editorOf(u user, workflowID string) *tab {
	s.t.Helper()
	tb := s.tab(s.t)
	tb.open("/sign-in")
	tb.signIn(u)
	tb.at("/workflows")
	tb.open("/workflows/" + workflowID)
	tb.seeHeading("Actions")
	return tb
}

// TestConsoleSecondTabsSaveIsDetected: two tabs edit the same draft; the first saves, and
// the second's save shows the conflict banner instead of overwriting it.
func TestConsoleSecondTabsSaveIsDetected(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	id := site.newWorkflow(ada, projectID, "Orders")
	first := site.tab(t)
	first.open("/sign-in")
	first.signIn(ada)
	first.at("/workflows")
	first.open("/workflows/" + id)
	second := site.tab(t)
	second.open("/workflows/" + id)
	second.seeHeading("Actions")

	first.click("Manual start")
	first.click("Save")
	first.see("Saved")
	if actions, _ := site.draftOf(ada, id); !slices.Equal(actions, []string{"manual_trigger"}) {
		first.fail("the first tab saved %v", actions)
	}

	second.click("Stop")
	second.click("Save")
	second.see("The draft was changed in another tab or by someone else.")
	if a := second.answer("/api/v1/workflows/" + id + "/draft"); a.status != http.StatusConflict {
		second.fail("the second tab's save was answered %d, want 409", a.status)
	}
	if actions, _ := site.draftOf(ada, id); !slices.Equal(actions, []string{"manual_trigger"}) {
		second.fail("the second tab overwrote the draft: %v", actions)
	}
	second.click("Load theirs")
	second.waitJS("the first tab's action in the second", `!!document.querySelector('[data-action-key="manual_trigger"]') && !document.querySelector('[data-action-key="stop"]')`)
}

// TestConsoleWorkflowBuiltWithTheKeyboard: a person without a mouse adds a manual start
// and a stop from the palette (the second follows the selected first, connected) and
// saves with Ctrl+S; the saved draft has the two actions connected.
func TestConsoleWorkflowBuiltWithTheKeyboard(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	id := site.newWorkflow(ada, projectID, "Orders")
	tb := site.editorOf(ada, id)

	tb.tabTo("Search actions", false)
	tb.press("manual")
	tb.tabTo("Manual start", false)
	tb.press(kb.Enter)
	tb.see("Selected: Manual start")
	tb.tabTo("Search actions", true)
	tb.press("stop")
	tb.tabTo("Stop", false)
	tb.press(kb.Enter)
	tb.see("Selected: Stop")
	tb.press("s", input.ModifierCtrl)
	tb.see("Saved")

	actions, connections := site.draftOf(ada, id)
	if !slices.Equal(actions, []string{"manual_trigger", "stop"}) || !slices.Equal(connections, []string{"manual_trigger --> stop"}) {
		tb.fail("the saved draft has actions %v and connections %v", actions, connections)
	}
}

// TestConsoleEditorCanvasFillsTheWindow: the canvas takes the window's height below the
// header and the toolbar, at 1400 and at 1000 px, with an action's settings open: nothing
// (the footer, a wrapped keyboard line) sits below it, and the page does not scroll. A
// window too short for a useful canvas scrolls the page instead of squeezing it.
func TestConsoleEditorCanvasFillsTheWindow(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	id := site.newWorkflow(ada, projectID, "Orders")
	tb := site.editorOf(ada, id)
	tb.click("Manual start")
	tb.click("HTTP request")
	tb.see("Selected: HTTP request")
	tb.seeHeading("Action settings")

	type box struct{ Top, Bottom, Height, Window, Page float64 }
	measure := func() (b box) {
		tb.eval(`(() => { const r = document.querySelector(".editor-canvas").getBoundingClientRect();
			return {top: r.top, bottom: r.bottom + document.querySelector(".shortcuts").getBoundingClientRect().height, height: r.height,
				window: innerHeight, page: document.documentElement.scrollHeight}; })()`, &b)
		return b
	}
	for _, c := range []struct {
		width     int64
		minHeight float64
	}{{1400, 500}, {1000, 400}} {
		tb.resize(c.width, 900)
		tb.waitJS("the settings beside the canvas", `document.querySelector(".editor-body.with-settings") !== null`)
		b := measure()
		if b.Bottom < b.Window-2 || b.Page > b.Window || b.Height < c.minHeight {
			tb.fail("at %d×900 the canvas is %.0f px tall from %.0f to %.0f (with the keyboard line) in a window of %.0f, the page %.0f tall; want it to reach the bottom, at least %.0f px tall",
				c.width, b.Height, b.Top, b.Bottom, b.Window, b.Page, c.minHeight)
		}
	}
	tb.resize(1000, 500)
	if b := measure(); b.Height < 200 || b.Page <= b.Window {
		tb.fail("in a 500 px window the canvas is %.0f px tall and the page %.0f: want a usable canvas and the page scrolling", b.Height, b.Page)
	}
}

// TestConsolePaletteAddsInFreeSpace: an action added from the palette with nothing
// selected, or after a selected action that already has one after it, is placed where no
// other action is, and where the canvas shows it.
func TestConsolePaletteAddsInFreeSpace(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	id := site.newWorkflow(ada, projectID, "Orders")
	site.do(req{method: "PUT", path: "/api/v1/workflows/" + id + "/draft", token: ada.token,
		body: map[string]any{"actions": []any{act("start", "manual.trigger", map[string]any{})}, "connections": []any{}}}).expect(t, http.StatusOK)
	tb := site.editorOf(ada, id)

	tb.click("Stop")
	tb.see("Selected: Stop")
	tb.clickNode("start")
	tb.see("Selected: start")
	tb.click("Delay")
	tb.see("Selected: Delay")
	tb.clickNode("start")
	tb.click("Stop")
	tb.waitJS("the second stop", `document.querySelectorAll(".react-flow__node").length === 4`)

	var clash []string
	tb.eval(`(() => {
		const canvas = document.querySelector(".editor-canvas").getBoundingClientRect();
		const nodes = [...document.querySelectorAll(".react-flow__node")].map((n) => ({key: n.querySelector("[data-action-key]").dataset.actionKey, r: n.getBoundingClientRect()}));
		const out = [];
		for (const [i, a] of nodes.entries()) {
			if (a.r.left < canvas.left || a.r.right > canvas.right || a.r.top < canvas.top || a.r.bottom > canvas.bottom) out.push(a.key + " is out of sight");
			for (const b of nodes.slice(i + 1)) {
				if (a.r.left < b.r.right && b.r.left < a.r.right && a.r.top < b.r.bottom && b.r.top < a.r.bottom) out.push(a.key + " overlaps " + b.key);
			}
		}
		return out;
	})()`, &clash)
	if len(clash) > 0 {
		tb.fail("the actions added from the palette: %v", clash)
	}
}
