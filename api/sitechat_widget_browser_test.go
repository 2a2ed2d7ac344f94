package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"agencyhub/api"
	"agencyhub/migrations/dbtest"
	"agencyhub/web"
)

// shadow is the widget's shadow root, for scripts the test runs in the page.
const shadow = `document.querySelector("[data-site-chat]").shadowRoot`

// TestSiteChatWidgetInABrowser loads a plain page with the embed snippet in chromium: its
// icons are named SVG, not emoji; the visitor's message reaches an operator socket and shows
// as sent, with no 404 on the way; a message the server refuses shows as failed and goes
// with Retry; the operator's answer shows on the page as text even when it looks like HTML;
// and monitoring loads the rrweb recorder, which sends the page's text with the password
// masked and without its scripts.
func TestSiteChatWidgetInABrowser(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	e := newChatEnv(t, dbtest.SQLite(t), func(s *api.Server) { s.Console = web.Console })
	e.server.SiteChat.Settings.EndpointBase = e.url
	site := e.chatSite("Ada")
	embed := e.do(req{method: "GET", path: "/api/v1/projects/" + site.projectID + "/site-chat-widgets", token: site.owner.token}).
		expect(t, http.StatusOK).items()[0]["embed_script"].(string)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>Blue shoes</title></head><body>
<h1>Blue shoes</h1><p>In stock: two pairs.</p>
<form><input type="password" name="password" value="hunter2-secret"><input name="email" value="ada@example.com"></form>
%s
</body></html>`, embed)
	}))
	t.Cleanup(page.Close)
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	var mu sync.Mutex
	var missing []string
	chromedp.ListenTarget(ctx, func(ev any) {
		if r, ok := ev.(*network.EventResponseReceived); ok && r.Response.Status == http.StatusNotFound {
			mu.Lock()
			missing = append(missing, r.Response.URL)
			mu.Unlock()
		}
	})
	operator := e.operatorSocket(t, site.owner, "")
	if err := chromedp.Run(ctx, network.Enable(), chromedp.Navigate(page.URL)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `document.querySelector("[data-site-chat]")?.getAttribute("data-connected") === "true"`)

	// Its buttons are named icons drawn as SVG: no emoji, which shows as a box without a font.
	var icons struct {
		Named bool
		Text  string
	}
	run(t, ctx, `(() => { const r = `+shadow+`; return { text: [...r.children].filter(c => c.localName !== "style").map(c => c.textContent).join(),
		named: ["button.l", "button.a", "button[type=submit]"].every(s => r.querySelector(s + " > svg") && r.querySelector(s).getAttribute("aria-label")) }; })()`, &icons)
	if !icons.Named || regexp.MustCompile(`[\x{2190}-\x{2BFF}\x{1F000}-\x{1FAFF}]`).MatchString(icons.Text) {
		t.Fatalf("the widget's buttons: named SVG %v, text %q", icons.Named, icons.Text)
	}

	// The visitor writes in the panel: the message shows as sent once the server has it.
	run(t, ctx, `(() => { const r = `+shadow+`; r.querySelector("button.l").click();
		r.querySelector("textarea").value = "Do you ship to Lisbon?"; r.querySelector("form").requestSubmit(); })()`)
	got := operator.next("chat.message")
	if body(got) != "Do you ship to Lisbon?" {
		t.Fatalf("operator got %s", got.Payload)
	}
	conversation := got.ConversationID.String()
	waitJS(t, ctx, `(() => { const g = [...`+shadow+`.querySelectorAll(".g.visitor")]; return g.length === 1 &&
		g[0].getAttribute("data-state") === "sent" && g[0].textContent === "Do you ship to Lisbon?Sent"; })()`)
	mu.Lock()
	if len(missing) > 0 {
		t.Fatalf("the first message's page got 404 from %v", missing)
	}
	mu.Unlock()

	// A message the server refuses (the widget is paused) shows as failed; Retry sends it.
	e.do(req{method: "PATCH", path: "/api/v1/site-chat-widgets/" + site.widget, token: site.owner.token, body: map[string]any{"status": "paused"}}).expect(t, http.StatusOK)
	run(t, ctx, `(() => { const r = `+shadow+`; r.querySelector("textarea").value = "Still there?"; r.querySelector("form").requestSubmit(); })()`)
	waitJS(t, ctx, `[...`+shadow+`.querySelectorAll(".g.visitor")].some(g => g.getAttribute("data-state") === "failed" && g.querySelector("button")?.textContent === "Retry")`)
	e.do(req{method: "PATCH", path: "/api/v1/site-chat-widgets/" + site.widget, token: site.owner.token, body: map[string]any{"status": "active"}}).expect(t, http.StatusOK)
	waitJS(t, ctx, `document.querySelector("[data-site-chat]")?.getAttribute("data-connected") === "true"`)
	run(t, ctx, shadow+`.querySelector(".g.visitor[data-state=failed] button").click()`)
	if again := operator.next("chat.message"); body(again) != "Still there?" {
		t.Fatalf("operator got %s after Retry", again.Payload)
	}
	waitJS(t, ctx, `[...`+shadow+`.querySelectorAll(".g.visitor")].map(g => g.getAttribute("data-state")).join() === "sent,sent"`)

	// The answer shows as text: markup in it stays characters.
	attack := `<img src=x onerror="window.__xss=1">Yes, in 3 days.`
	operator.acked("chat.message", map[string]any{"body": attack}, map[string]string{"conversation_id": conversation})
	waitJS(t, ctx, `[...`+shadow+`.querySelectorAll(".g.operator")].some(g => g.textContent === `+jsString(attack)+`)`)
	var injected bool
	run(t, ctx, `!!(`+shadow+`.querySelector(".m img") || window.__xss)`, &injected)
	if injected {
		t.Fatal("the operator's message was rendered as HTML")
	}

	// Monitoring waits for the visitor's consent, then loads the recorder, which streams the
	// page as rrweb events: its Meta event, then the whole page with the password masked.
	operator.acked("monitoring.start", nil, map[string]string{"visit_session_id": got.VisitSessionID.String()})
	waitJS(t, ctx, `!!`+shadow+`.querySelector(".q button")`)
	run(t, ctx, shadow+`.querySelector(".q button").click()`)
	if _, err := fs.Stat(web.Console, "site-chat/cobrowse.js"); err != nil {
		t.Skip("monitoring not checked: the co-browse recorder is built with the console (make build)")
	}
	var snap rrwebNode
	for snap.ID == 0 {
		frame := operator.next("monitoring.snapshot")
		if strings.Contains(string(frame.Payload), "hunter2-secret") || strings.Contains(string(frame.Payload), "ada@example.com") {
			t.Fatal("a snapshot carries an input's value")
		}
		var f struct {
			PayloadJSON struct {
				Type int `json:"type"`
				Data struct {
					Href string    `json:"href"`
					Node rrwebNode `json:"node"`
				} `json:"data"`
			} `json:"payload_json"`
		}
		if err := json.Unmarshal(frame.Payload, &f); err != nil {
			t.Fatal(err)
		}
		switch f.PayloadJSON.Type {
		case 4: // Meta
			if f.PayloadJSON.Data.Href != page.URL+"/" {
				t.Fatalf("Meta event names %q", f.PayloadJSON.Data.Href)
			}
		case 2: // FullSnapshot
			snap = f.PayloadJSON.Data.Node
		}
	}
	var pageText string
	run(t, ctx, `document.body.innerText`, &pageText)
	body := snap.find("body")
	if body == nil || words(body.text()) != words(pageText) {
		t.Fatalf("snapshot text %q, page text %q", words(body.text()), words(pageText))
	}
	password := body.find("input")
	if password == nil || password.Attributes["type"] != "password" || password.Attributes["value"] != strings.Repeat("*", len("hunter2-secret")) {
		t.Fatalf("password input in the snapshot: %+v", password)
	}
	if body.find("script") != nil {
		t.Fatal("the snapshot carries the page's scripts")
	}
}

// rrwebNode is a node of an rrweb full snapshot (rrweb-snapshot's serialized node): an
// element (type 2) with its tag, attributes and children, or a text (type 3).
type rrwebNode struct {
	Type        int            `json:"type"`
	ID          int            `json:"id"`
	TagName     string         `json:"tagName"`
	Attributes  map[string]any `json:"attributes"`
	ChildNodes  []rrwebNode    `json:"childNodes"`
	TextContent string         `json:"textContent"`
}

func (n *rrwebNode) find(tag string) *rrwebNode {
	if n.TagName == tag {
		return n
	}
	for i := range n.ChildNodes {
		if f := n.ChildNodes[i].find(tag); f != nil {
			return f
		}
	}
	return nil
}

func (n *rrwebNode) text() string {
	if n.Type == 3 {
		return n.TextContent
	}
	var b strings.Builder
	for i := range n.ChildNodes {
		b.WriteString(" " + n.ChildNodes[i].text())
	}
	return b.String()
}

func words(s string) string { return strings.Join(strings.Fields(html.UnescapeString(s)), " ") }

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func run(t *testing.T, ctx context.Context, js string, out ...any) {
	t.Helper()
	var res any
	if len(out) > 0 {
		res = out[0]
	}
	if err := chromedp.Run(ctx, chromedp.Evaluate(js, res)); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
}

// waitJS polls the page until js is true.
func waitJS(t *testing.T, ctx context.Context, js string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var ok bool
		if err := chromedp.Run(ctx, chromedp.Evaluate(js, &ok)); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("page never satisfied %s", js)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
