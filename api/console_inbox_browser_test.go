package api_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestConsoleInboxBell is issue 24's desktop inbox: a visitor's new conversation reaches
// the bell of a signed-in person without a reload; the message opens its conversation and
// counts as read; "Mark all read" clears the rest, in the API too. axe-core checks the
// open panel.
func TestConsoleInboxBell(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	tb := site.tab(t)
	tb.signUpAndSetUp("Grace", "grace@example.com")
	grace := site.apiLogin("grace@example.com")
	projectID := site.do(req{method: "GET", path: "/api/v1/auth/workspace-context", token: grace.token}).
		expect(t, http.StatusOK).str("active_project_id")
	widget := site.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/site-chat-widgets", token: grace.token,
		body: map[string]any{"name": "Shop"}}).expect(t, http.StatusCreated)
	tb.click("Inbox")
	tb.see("Nothing new.")
	tb.press(kb.Escape)
	tb.waitJS("the inbox to close on Escape", `!document.body.innerText.includes("Nothing new.")`)

	// Two visitors write: two conversations, two messages, counted live.
	var conversations []string
	for _, anon := range []string{"visitor-aaaaaaaaaaaaaaaa", "visitor-bbbbbbbbbbbbbbbb"} {
		v := site.visitor(widget.str("public_key"), anon)
		site.do(v.as(req{method: "POST", path: "/api/v1/public/site-chat/messages", body: map[string]any{"body": "<b>Hi</b>"}})).
			expect(t, http.StatusCreated)
		conversations = append(conversations, v.conversationID)
	}
	tb.click("Inbox, 2 unread")
	tb.see("A visitor started a conversation on Shop")
	tb.accessible("the open inbox")

	// The newest is first among the unread; opening it reads it and goes to its thread.
	tb.click("A visitor started a conversation on Shop")
	tb.at("/site-chat/conversations/" + conversations[1])
	tb.click("Inbox, 1 unread")
	tb.click("Mark all read")
	tb.click("Inbox")
	if n := site.do(req{method: "GET", path: "/api/v1/desktop/messages", token: grace.token}).expect(t, http.StatusOK).
		json["unread_count"]; n != float64(0) {
		t.Fatalf("unread_count %v after Mark all read", n)
	}
}

// trackEventSources keeps every EventSource the page opens in window.__sources, for a test
// to read their states. Injected before the page's own scripts.
const trackEventSources = `(() => {
	const Native = window.EventSource;
	window.__sources = [];
	window.EventSource = class extends Native {
		constructor(...args) { super(...args); window.__sources.push(this); }
	};
})();`

// TestConsoleStreamsCloseWhenThePageIsHidden: the inbox's live stream (open on every page
// of a signed-in person) is closed when the page is hidden, so that a back/forward
// navigation can keep the page and show it live again, and opened anew when the page is
// shown from that cache.
func TestConsoleStreamsCloseWhenThePageIsHidden(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	tb := site.tab(t)
	if err := chromedp.Run(tb.ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(trackEventSources).Do(ctx)
		return err
	})); err != nil {
		t.Fatal(err)
	}
	tb.signUpAndSetUp("Grace", "grace@example.com")
	tb.open("/workflows")
	const open = `window.__sources.filter((s) => s.readyState !== EventSource.CLOSED).length`
	tb.waitJS("the inbox stream to be open", `window.__sources.some((s) => s.readyState === EventSource.OPEN)`)
	tb.eval(`window.dispatchEvent(new PageTransitionEvent("pagehide", {persisted: true}))`)
	tb.waitJS("every stream to be closed once the page is hidden", open+` === 0`)
	tb.eval(`window.dispatchEvent(new PageTransitionEvent("pageshow", {persisted: true}))`)
	tb.waitJS("a stream to be open again once the page is shown", `window.__sources.some((s) => s.readyState === EventSource.OPEN)`)
	tb.waitJS("one stream, not two", open+` === 1`)
}
