package api_test

// Co-browsing in a browser: a visitor's page with the widget in one tab, the operator's
// console in another, the real server between them.

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// cobrowsePage is a site's page: text, a form, the site's own scripts (an inline one and
// an image's error handler, each leaving a mark on window.top where they run), text the
// site marks to be masked, and the widget's one <script> tag.
const cobrowsePage = `<!doctype html><html><head><title>Blue shoes</title>
<style>body { font-family: sans-serif; } h1 { color: rgb(10, 120, 60); }</style></head><body>
<h1>Blue shoes</h1><p id="stock">In stock: two pairs.</p>
<form><label>Password <input type="password" name="password"></label>
<label>Order number <input name="order" data-chat-unmask></label></form>
<p data-chat-mask>Card ending 4242</p>
<script>window.top.__siteScript = (window.top.__siteScript || 0) + 1;</script>
<img src="/missing.png" alt="" onerror="window.top.__siteHandler = 1">
%s
</body></html>`

// newCobrowseDesk is the desk's two pages (newSiteChatDesk) with the visitor's tab on
// the site's page /shop, which is sitePage (its %s the widget's tag), and the operator's on
// the visitor panel.
func newCobrowseDesk(t testing.TB, sitePage string) *siteChatDesk {
	t.Helper()
	d := newSiteChatDesk(t)
	d.pages.Store("/shop", sitePage)
	d.visitPage("/shop")
	d.operator.open("/site-chat/visits/" + d.visitSessionID)
	return d
}

// inView runs js in the operator's view of the visitor's page: doc is the document rrweb
// drew it into, inside the co-browse frame (null while none is drawn).
func inView(js string) string {
	return `(() => { const view = document.querySelector("iframe.cobrowse-frame")?.contentDocument;
		const doc = view?.querySelector(".replayer-wrapper iframe")?.contentDocument;
		if (!doc || !doc.body) return false; return ` + js + `; })()`
}

// quietly runs js in a tab without bringing it to the front, as what a visitor does in
// their own window while the operator watches theirs.
func quietly(t testing.TB, tb *tab, js string, out ...any) {
	t.Helper()
	var res any
	if len(out) > 0 {
		res = out[0]
	}
	ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.Evaluate(js, res)); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
}

// sandboxed drops the faults the browser reports when the view's sandbox refuses to run a
// script of the page, which is the view working, and answers how many there were.
var sandboxRefusal = regexp.MustCompile(`Blocked script execution in '[^']*' because the document's frame is sandboxed`)

func (tb *tab) sandboxed() int {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	kept, n := tb.faults[:0], 0
	for _, f := range tb.faults {
		if sandboxRefusal.MatchString(f) {
			n++
			continue
		}
		kept = append(kept, f)
	}
	tb.faults = kept
	return n
}

// seeRefused waits until js is true in the tab and the browser has refused to run a
// script of the page in the view: the faults the sandbox's refusals raise, which are the
// view working, are dropped.
func (tb *tab) seeRefused(what, js string) {
	tb.t.Helper()
	tb.bringToFront()
	refused, ok := 0, false
	for deadline := time.Now().Add(pageWait); !ok || refused == 0; time.Sleep(pollEvery) {
		if time.Now().After(deadline) {
			tb.fail("%s: shown %v, scripts refused %d", what, ok, refused)
		}
		refused += tb.sandboxed()
		ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
		err := chromedp.Run(ctx, chromedp.Evaluate(js, &ok))
		cancel()
		if err != nil {
			tb.fail("%s: %v", what, err)
		}
	}
}

// TestConsoleCobrowse: the operator asks, the visitor consents in the widget, and the
// operator's view shows the page with its password masked (the secret never reaches the
// server), follows a change of the page within a second, and never runs the page's
// scripts; after Stop the operator goes back through the recording with the keyboard;
// asked again, the visitor declines.
func TestConsoleCobrowse(t *testing.T) {
	t.Parallel()
	d := newCobrowseDesk(t, cobrowsePage)
	visitor, visitID, op := d.visitor, d.visitSessionID, d.operator
	op.seeHeading("Co-browse")
	op.click("Ask to see the page")
	op.seeIn("Co-browse", "Waiting for the visitor's consent")

	// The visitor allows it in the widget, which then shows that the page is seen.
	visitor.waitJS("the widget to ask", `!!`+shadow+`.querySelector(".q button")`)
	quietly(t, visitor, shadow+`.querySelector(".q button").click()`)
	op.seeIn("Co-browse", "Watching")
	op.waitJS("the visitor's page in the view", inView(`doc.body.innerText.includes("In stock: two pairs.")`))
	visitor.waitJS("the widget's bar", shadow+`.querySelector(".b")?.textContent.includes("An operator sees this page")`)

	// What the visitor types in the password field shows masked, and only masked.
	const secret = "hunter2-secret"
	quietly(t, visitor, `(() => { const p = document.querySelector("input[type=password]"); p.focus(); p.value = `+jsString(secret)+`;
		p.dispatchEvent(new Event("input", {bubbles: true})); const o = document.querySelector("input[name=order]");
		o.value = "A-1001"; o.dispatchEvent(new Event("input", {bubbles: true})); })()`)
	op.waitJS("the password masked in the view", inView(`doc.querySelector("input[type=password]").value === `+jsString(strings.Repeat("*", len(secret)))))
	op.waitJS("the unmasked field as typed", inView(`doc.querySelector("input[name=order]").value === "A-1001"`))
	var shown string
	op.eval(inView(`doc.body.innerText`), &shown)
	if strings.Contains(shown, "4242") || !strings.Contains(shown, "**** ****") {
		t.Errorf("the text the site marks data-chat-mask shows as %q", shown)
	}
	var color string
	op.eval(inView(`getComputedStyle(doc.querySelector("h1")).color`), &color)
	if color != "rgb(10, 120, 60)" {
		t.Errorf("the page's own styles do not apply in the view: h1 is %s", color)
	}

	// A change of the page shows in the view within a second.
	quietly(t, visitor, `document.getElementById("stock").textContent = "In stock: one pair."`)
	op.waitFor("the change in the view", time.Second, func(ctx context.Context) (bool, error) {
		var ok bool
		err := chromedp.Run(ctx, chromedp.Evaluate(inView(`doc.body.innerText.includes("In stock: one pair.")`), &ok))
		return ok, err
	})

	// The page's scripts ran on the site, and never in the console.
	var onSite, inConsole bool
	quietly(t, visitor, `window.__siteScript === 1 && window.__siteHandler === 1`, &onSite)
	op.eval(`window.__siteScript !== undefined || window.__siteHandler !== undefined`, &inConsole)
	if !onSite || inConsole {
		t.Fatalf("the site's scripts: ran on the site %v, ran in the console %v", onSite, inConsole)
	}
	op.accessible("the co-browse panel, watching")

	// What the server stored carries neither the secret nor the page's scripts.
	stored := d.do(req{method: "GET", path: "/api/v1/site-visit-sessions/" + visitID + "/events?limit=200", token: d.owner.token}).
		expect(t, http.StatusOK)
	for _, leak := range []string{secret, "4242", "onerror", "__siteScript"} {
		if strings.Contains(stored.Body.String(), leak) {
			t.Errorf("a stored frame carries %q", leak)
		}
	}
	if !strings.Contains(stored.Body.String(), `"kind":"snapshot"`) || !strings.Contains(stored.Body.String(), `"kind":"mutation"`) {
		t.Errorf("the stored frames lack the page's snapshot or its changes: %.500s", stored.Body)
	}

	// A forged frame, as a visitor who writes their own could send, is drawn without its
	// scripts: rrweb's frame is sandboxed and the view's page runs none.
	// The browser says it refused the image's error handler. Frames the Replayer cannot
	// apply come first: the view passes them over and goes on drawing.
	forged := forgedPage(t, d)
	op.seeRefused("the forged page in the view", inView(`doc.body.innerText.includes("Forged page")`))
	op.eval(`window.__forged !== undefined`, &inConsole)
	if inConsole {
		t.Fatalf("a forged frame's script ran in the console (%s)", forged)
	}

	// Stopped, the operator goes back through the recording with the keyboard.
	op.click("Stop")
	op.seeIn("Co-browse", "Stopped")
	visitor.waitJS("the widget's bar to go", `!`+shadow+`.querySelector(".b")`)
	op.click("Show the recording")
	op.seeRefused("the recording at its last moment", inView(`doc.body.innerText.includes("Forged page")`))
	for range 100 {
		var there bool
		op.eval(`document.activeElement?.labels?.[0]?.textContent === "Moment of the recording"`, &there)
		if there {
			break
		}
		op.press(kb.Tab)
	}
	op.press(kb.Home)
	op.waitJS("the first moment in the view", inView(`doc.body.innerText.includes("In stock: two pairs.")`))
	op.press(kb.End)
	op.seeRefused("the last moment in the view", inView(`doc.body.innerText.includes("Forged page")`))
	op.accessible("the co-browse panel, recording")

	// Asked again, the visitor declines.
	op.click("Ask again")
	visitor.waitJS("the widget to ask again", `!!`+shadow+`.querySelector(".q button + button")`)
	quietly(t, visitor, shadow+`.querySelector(".q button + button").click()`)
	op.seeIn("Co-browse", "The visitor declined")
}

// forgedPage sends, as the visitor, a page of its own making over the events operation
// (its Meta event and full snapshot): an inline script and an image's error handler that
// would mark the console's window. Before it go a pointer's move without positions and a
// page without its nodes, which would throw in the Replayer. It answers what it sent.
func forgedPage(t *testing.T, d *siteChatDesk) string {
	t.Helper()
	var anon string
	quietly(t, d.visitor, `localStorage.getItem("sitechat:anon:" + `+jsString(d.publicKey)+`)`, &anon)
	p := d.presence(d.publicKey, anon, map[string]any{"visit_session_id": d.visitSessionID}).expect(t, http.StatusOK)
	token := p.str("visitor_token")
	now := time.Now().UnixMilli()
	el := func(id int, tag string, attrs map[string]any, children ...any) map[string]any {
		return map[string]any{"type": 2, "id": id, "tagName": tag, "attributes": attrs, "childNodes": append([]any{}, children...)}
	}
	text := func(id int, s string) map[string]any { return map[string]any{"type": 3, "id": id, "textContent": s} }
	doc := map[string]any{"type": 0, "id": 9001, "childNodes": []any{
		el(9002, "html", map[string]any{},
			el(9003, "head", map[string]any{}),
			el(9004, "body", map[string]any{},
				el(9005, "p", map[string]any{}, text(9006, "Forged page")),
				el(9007, "script", map[string]any{}, text(9008, "window.top.__forged = 1")),
				el(9009, "img", map[string]any{"src": "/missing.png", "onerror": "window.top.__forged = 2"}),
				el(9010, "a", map[string]any{"href": "javascript:window.top.__forged = 3"}, text(9011, "link")))),
	}}
	events := []any{
		map[string]any{"event_type": "cursor", "payload": map[string]any{"type": 3, "timestamp": now, "data": map[string]any{"source": 1}}},
		map[string]any{"event_type": "snapshot", "payload": map[string]any{"type": 2, "timestamp": now, "data": map[string]any{"node": map[string]any{"type": 0, "id": 1}}}},
		map[string]any{"event_type": "snapshot", "payload": map[string]any{"type": 4, "timestamp": now, "data": map[string]any{"href": "https://forged.example/", "width": 1000, "height": 600}}},
		map[string]any{"event_type": "snapshot", "payload": map[string]any{"type": 2, "timestamp": now + 1, "data": map[string]any{"node": doc, "initialOffset": map[string]any{"top": 0, "left": 0}}}},
	}
	res := d.do(req{method: "POST", path: "/api/v1/public/site-chat/events", header: map[string]string{"X-Visitor-Token": token},
		body: map[string]any{"public_key": d.publicKey, "visitor_id": p.str("visitor_id"), "visit_session_id": d.visitSessionID, "events": events}}).
		expect(t, http.StatusAccepted)
	return res.Body.String()
}
