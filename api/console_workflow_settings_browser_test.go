package api_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestConsoleWorkflowRenameArchiveAndSignOut: a person renames a workflow and describes it
// from its page, archives it after reading what that does (its Run button says to restore
// it, it leaves the list, shows under the archived filter, and is restored from there); the
// endpoint's deliveries keep Replay inside their card at 1400 and 1000 px in both
// languages, a long delivery id cut with its whole text on hover; and after signing out no
// request to the API answers 401.
func TestConsoleWorkflowRenameArchiveAndSignOut(t *testing.T) {
	s := newConsoleSite(t)
	u, projectID := s.member("Ada")
	j := &journey{env: s.env, u: u, projectID: projectID, target: startTarget(t)}
	wfID := j.hookWorkflow("orders", nil)
	ep := j.endpoint(wfID, map[string]any{"endpoint_key": "orders"})
	longID := "msg_" + strings.Repeat("0123456789abcdef", 5)
	body := `{"order_id":"A-1","customer":{"email":"ada@example.com"}}`
	j.post(ep.path, body, signed(t, ep.secret, longID, s.now, body)).expect(t, http.StatusAccepted)

	tb := s.tab(t)
	tb.open("/sign-in")
	tb.signIn(u)
	tb.at("/workflows")
	tb.see("Hook orders")

	tb.open("/workflows/" + wfID + "/versions")
	tb.click("Rename")
	tb.fill("Name", "Shop orders")
	tb.fill("Description", "Tells the shop about each order")
	tb.click("Save")
	tb.seeHeading("Shop orders")
	if got := s.do(req{method: "GET", path: "/api/v1/workflows/" + wfID, token: u.token}).expect(t, http.StatusOK); got.str("name") != "Shop orders" ||
		got.str("description") != "Tells the shop about each order" {
		t.Fatalf("after the rename the API answers %s", got.Body)
	}

	tb.click("Archive")
	tb.see("its webhook endpoints stop taking deliveries and its schedules pause")
	tb.click("Archive")
	tb.see("Archived")
	tb.see("Restore the workflow to run it.")
	tb.click("Workflows")
	tb.at("/workflows")
	tb.see("No workflows in this project yet")
	tb.click("Show archived workflows")
	tb.at("/workflows?archived=true")
	tb.see("Shop orders")
	tb.clickLinkTo("/workflows/" + wfID)
	tb.click("Restore from the archive")
	tb.waitJS("the Archive button to be back", `[...document.querySelectorAll("button")].some((b) => b.textContent === "Archive")`)
	if got := s.do(req{method: "GET", path: "/api/v1/workflows/" + wfID, token: u.token}).expect(t, http.StatusOK); got.json["archived_at"] != nil {
		t.Fatalf("after restoring the API answers %s", got.Body)
	}
	tb.click("Workflows")
	tb.at("/workflows")
	tb.see("Shop orders")

	// Replay stays inside its cell and its card at 1400 and 1000 px, in English and Russian.
	for _, c := range []struct {
		lang, replay string
		width        int64
	}{{"en", "Replay", 1000}, {"ru", "Повторить", 1000}, {"ru", "Повторить", 1400}} {
		tb.eval(`localStorage.setItem("lang", ` + jsString(c.lang) + `)`)
		if err := chromedp.Run(tb.ctx, chromedp.EmulateViewport(c.width, 900)); err != nil {
			t.Fatal(err)
		}
		tb.open("/workflows/" + wfID + "/webhooks")
		tb.see(c.replay)
		var fit struct {
			ButtonRight, CellRight, CardRight, PageWidth, WindowWidth float64
			Title                                                     string
		}
		tb.eval(`(() => {
			const replay = [...document.querySelectorAll("table.deliveries button")].find((b) => b.textContent === `+jsString(c.replay)+`);
			const id = [...document.querySelectorAll("table.deliveries td")].find((td) => td.textContent === `+jsString(longID)+`);
			return {ButtonRight: replay.getBoundingClientRect().right, CellRight: replay.closest("td").getBoundingClientRect().right,
				CardRight: replay.closest(".endpoint").getBoundingClientRect().right,
				PageWidth: document.documentElement.scrollWidth, WindowWidth: window.innerWidth, Title: id.title};
		})()`, &fit)
		if fit.ButtonRight > fit.CellRight || fit.CellRight > fit.CardRight || fit.PageWidth > fit.WindowWidth || fit.Title != longID {
			t.Errorf("%s at %d px: %s ends at %v in a cell ending at %v, a card ending at %v; the page is %v wide in a %v window; the id's hover text %q",
				c.lang, c.width, c.replay, fit.ButtonRight, fit.CellRight, fit.CardRight, fit.PageWidth, fit.WindowWidth, fit.Title)
		}
	}
	tb.eval(`localStorage.setItem("lang", "en")`)
	if err := chromedp.Run(tb.ctx, chromedp.EmulateViewport(1400, 900)); err != nil {
		t.Fatal(err)
	}

	// After signing out nothing asks the API without a session.
	var mu sync.Mutex
	counting := false
	var refused []string
	chromedp.ListenTarget(tb.ctx, func(ev any) {
		r, ok := ev.(*network.EventResponseReceived)
		if !ok {
			return
		}
		if u, err := url.Parse(r.Response.URL); err == nil && strings.HasPrefix(u.Path, "/api/v1") && r.Response.Status == http.StatusUnauthorized {
			mu.Lock()
			if counting {
				refused = append(refused, u.Path)
			}
			mu.Unlock()
		}
	})
	// The pages that hold streams and polls: the inbox bell on every page, a run's live view.
	tb.open("/workflows/" + wfID + "/runs")
	tb.see("Shop orders")
	// Signed in, the header's pieces have asked what they show.
	for _, path := range []string{"/api/v1/work/timer/active", "/api/v1/desktop/messages"} {
		tb.waitFor("the page to have read "+path, pageWait, func(context.Context) (bool, error) { return tb.answer(path).status == http.StatusOK, nil })
	}
	mu.Lock()
	counting = true
	mu.Unlock()
	tb.click("Sign out")
	tb.at("/sign-in")
	tb.see("Sign in")
	// Long enough for a poll or a stream's reconnection to have asked again.
	time.Sleep(3 * time.Second)
	mu.Lock()
	defer mu.Unlock()
	if len(refused) > 0 {
		t.Fatalf("after signing out the API answered 401 to %v", refused)
	}
}

// TestConsolePublishingClearsWhatChanged: once the draft is published, "What changed" is
// blank for the next version instead of offering the one just published again.
func TestConsolePublishingClearsWhatChanged(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	id := site.workflowWithDraft(ada, projectID, "Orders", map[string]any{
		"actions":     []any{act("start", "manual.trigger", map[string]any{}), act("done", "stop", map[string]any{})},
		"connections": []any{map[string]any{"from": "start", "to": "done"}},
	})
	tb := site.tab(t)
	tb.open("/sign-in")
	tb.signIn(ada)
	tb.at("/workflows")
	tb.open("/workflows/" + id + "/versions")
	tb.fill("What changed", "The first version")
	tb.click("Publish")
	tb.see("Version 1 is published.")
	tb.see("The first version") // in the list of versions
	tb.waitJS(`"What changed" to be blank`, `document.querySelector("textarea[name=description]").value === ""`)
}
