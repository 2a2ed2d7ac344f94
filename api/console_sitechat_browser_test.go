package api_test

// The site chat desk in a browser: a site's page with the real widget, and the operator's
// console, in two tabs of one chromium.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"agencyhub/api"
	"agencyhub/api/wshub"
)

// siteChatDesk is the two-page setup of the desk's browser tests, for the desk's own and
// for co-browsing's and calls'. newSiteChatDesk starts the console server (the embedded
// build and the widget script, with links and download URLs pointing at it), a site served
// apart on its own origin whose every page embeds the widget by its one <script> tag, and
// chromium with two tabs:
//
//   - visitor: the site's /pricing page ("Pricing"), the widget connected, its panel
//     closed; visitPage moves it to another page of the site, inWidget and waitWidget run
//     scripts with `w` the widget's shadow root;
//   - operator: the console signed in as the project's owner, on /site-chat/visitors (the
//     tab in front).
//
// The project has one widget (widgetID, publicKey) whose settings hold one invitation
// template, "promo" ("Free shipping today"); visitSessionID is the visitor tab's visit.
// Visitors count as left 100 ms after their last socket closed (wshub LeaveGrace), so a
// test sees visitor.left at once; the server's clock is the real one, as the browser's.
// configure changes the server before it starts.
type siteChatDesk struct {
	*consoleSite
	operator, visitor *tab
	owner             user
	projectID         string
	widgetID          string
	publicKey         string
	visitSessionID    string
	// siteURL is the site's origin: any path is a page titled by the path's last part
	// (/pricing is "Pricing"), with a heading, a paragraph and a form (a password field
	// and an e-mail field), unless pages has one of its own for the path.
	siteURL string
	// pages are a test's own pages of the site by path: each an HTML page whose one %s is
	// the widget's tag (co-browsing's, with the site's scripts and markers).
	pages sync.Map
}

func newSiteChatDesk(t testing.TB, configure ...func(*api.Server)) *siteChatDesk {
	t.Helper()
	site := newConsoleSite(t, append([]func(*api.Server){func(s *api.Server) {
		s.SiteChatSockets = wshub.DefaultConfig()
		s.SiteChatSockets.LeaveGrace = 100 * time.Millisecond
	}}, configure...)...)
	t.Cleanup(site.server.CloseSockets)
	// The pages count time by the browser's clock: the server's keeps to it.
	site.now = time.Now().UTC()
	site.server.PublicURL = site.url
	site.server.SiteChat.Settings.EndpointBase = site.url
	site.server.SiteChat.Settings.AppURL = site.url
	d := &siteChatDesk{consoleSite: site}
	d.owner, d.projectID = site.member("Ada")
	w := site.do(req{method: "POST", path: "/api/v1/projects/" + d.projectID + "/site-chat-widgets", token: d.owner.token, body: map[string]any{
		"name": "Shop", "title": "Ask the shop", "subtitle": "We answer in minutes",
		"settings_json": map[string]any{"invite_templates": map[string]any{"promo": "Free shipping today"}},
	}}).expect(t, http.StatusCreated)
	d.widgetID, d.publicKey = w.str("chat_widget_id"), w.str("public_key")
	embed := w.str("embed_script")
	pages := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if own, ok := d.pages.Load(r.URL.Path); ok {
			rw.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(rw, own.(string), embed)
			return
		}
		title := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
		if title != "" {
			title = strings.ToUpper(title[:1]) + title[1:]
		}
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(rw, `<!doctype html><html lang="en"><head><title>%s</title></head><body>
<h1>%s</h1><p>Blue shoes, two pairs in stock.</p>
<form><input type="password" name="password" value="hunter2-secret"><input name="email" value="ann@example.com"></form>
%s
</body></html>`, title, title, embed)
	}))
	t.Cleanup(pages.Close)
	d.siteURL = pages.URL

	d.visitor = site.tab(t)
	d.visitPage("/pricing")
	d.visitor.eval(`sessionStorage.getItem("sitechat:visit:" + `+jsString(d.publicKey)+`)`, &d.visitSessionID)
	if d.visitSessionID == "" {
		t.Fatal("the widget keeps no visit session")
	}
	d.operator = site.tab(t)
	d.operator.open("/sign-in")
	d.operator.signIn(d.owner)
	d.operator.at("/workflows")
	d.operator.open("/site-chat/visitors")
	return d
}

// visitPage opens a page of the site in the visitor tab and waits until its widget is
// connected.
func (d *siteChatDesk) visitPage(path string) {
	d.t.Helper()
	d.visitor.bringToFront()
	ctx, cancel := context.WithTimeout(d.visitor.ctx, pageWait)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.Navigate(d.siteURL+path)); err != nil {
		d.visitor.fail("open %s: %v", path, err)
	}
	d.visitor.waitJS("the widget to connect", `document.querySelector("[data-site-chat]")?.getAttribute("data-connected") === "true"`)
}

// leave closes the visitor's tab, and with it the widget's socket. (A page the tab moves
// away from may stay in the back-forward cache with its socket open.)
func (d *siteChatDesk) leave() {
	d.t.Helper()
	ctx, cancel := context.WithTimeout(d.visitor.ctx, pageWait)
	defer cancel()
	if err := chromedp.Run(ctx, page.Close()); err != nil {
		d.t.Fatalf("close the visitor's tab: %v", err)
	}
}

// inWidget runs a script in the visitor's page with w the widget's shadow root.
func (d *siteChatDesk) inWidget(js string, out ...any) {
	d.t.Helper()
	d.visitor.eval(`(() => { const w = `+shadow+`; return `+js+`; })()`, out...)
}

// waitWidget waits until the script, with w the widget's shadow root, is true.
func (d *siteChatDesk) waitWidget(what, js string) {
	d.t.Helper()
	d.visitor.waitJS(what, `(() => { const w = `+shadow+`; return !!(`+js+`); })()`)
}

// TestConsoleSiteChatDesk is an operator's day at the desk: the visitor shows up in the
// live list and moves between pages, is invited with a template, writes (markup stays
// text), the unread counts move and clear when the thread is read, both sides see the
// other typing, files cross both ways, and the visitor leaving takes them off the list.
func TestConsoleSiteChatDesk(t *testing.T) {
	t.Parallel()
	d := newSiteChatDesk(t)
	op := d.operator
	row := `document.querySelector('tr[data-visit-session-id="` + d.visitSessionID + `"]')`

	// Who is on the site, live.
	op.seeHeading("On the site now")
	op.waitJS("the visitor's row", row+`?.innerText.includes("Pricing")`)
	op.see("first visit")
	op.see("chat closed")
	op.accessible("the live visitors")
	d.visitPage("/shipping")
	op.waitJS("the row to follow the visitor to Shipping, without a reload",
		row+`?.innerText.includes("Shipping") && document.querySelectorAll("tr[data-visit-session-id]").length === 1`)

	// An invitation with a template.
	op.click("Invite to chat: Shipping")
	op.choose("Template", "promo")
	op.see("Free shipping today")
	op.accessible("the invitation")
	op.click("Invite to chat")
	d.waitWidget("the invitation in the widget", `[...w.querySelectorAll(".q div")].some((q) => q.textContent === "Free shipping today")`)
	op.waitJS("the visitor to have seen it", row+`?.innerText.includes("saw the invitation")`)
	d.inWidget(`w.querySelector(".q button").click()`)
	op.waitJS("the visitor to accept, the chat open", row+`?.innerText.includes("accepted the invitation") && `+row+`.innerText.includes("chat open")`)

	// The visitor writes; markup in it stays text, and it counts as unread.
	op.click("Conversations")
	op.at("/site-chat/conversations")
	op.see("No conversation yet")
	attack := `<img src=x onerror="window.__xss=1"><b>Hello</b>, do you ship to Riga?`
	d.inWidget(`(w.querySelector("textarea").value = ` + jsString(attack) + `, w.querySelector("form").requestSubmit(), true)`)
	op.see(attack)
	op.waitJS("the unread count in the list and the header",
		`document.querySelector("tr.unread")?.innerText.includes("1 unread") && [...document.querySelectorAll(".topbar nav a")].some((a) => a.innerText.includes("1 conversation with unread messages"))`)
	op.accessible("the conversations")
	op.click("Shipping")
	conversation := ""
	op.waitFor("the thread's address", pageWait, func(ctx context.Context) (bool, error) {
		var path string
		err := chromedp.Run(ctx, chromedp.Evaluate(`location.pathname`, &path))
		conversation = strings.TrimPrefix(path, "/site-chat/conversations/")
		return err == nil && conversation != path && conversation != "", err
	})
	op.waitJS("the thread", `!!document.querySelector(".thread")`)
	op.seeIn("Messages", attack)
	var injected bool
	op.eval(`!!(document.querySelector(".thread img, .thread b") || window.__xss)`, &injected)
	if injected {
		t.Fatal("the visitor's message was rendered as HTML in the console")
	}
	op.waitJS("the unread counts to clear once read", `!document.querySelector(".unread-count")`)
	unread := d.do(req{method: "GET", path: "/api/v1/site-chat-conversations/" + conversation, token: d.owner.token}).expect(t, http.StatusOK)
	if unread.json["unread_count"] != 0.0 {
		t.Fatalf("after reading: %s", unread.Body)
	}
	op.accessible("the thread")

	// Typing, both ways.
	d.inWidget(`(w.querySelector("textarea").value = "Also", w.querySelector("textarea").dispatchEvent(new Event("input")), true)`)
	op.see("The visitor is typing…")
	answer := `<b>Yes</b>, <img src=x onerror="window.__xss=2">in 3 days.`
	op.fill("Your reply", answer)
	d.waitWidget("the operator typing in the widget", `w.querySelector(".t").textContent === "\u2026"`)
	op.bringToFront()
	op.press("\r")
	d.waitWidget("the answer in the widget, as text", `[...w.querySelectorAll(".g.operator")].some((g) => g.textContent === `+jsString(answer)+`)`)
	d.inWidget(`!!(w.querySelector(".m img, .m b") || window.__xss)`, &injected)
	if injected {
		t.Fatal("the operator's message was rendered as HTML in the widget")
	}
	op.seeIn("Messages", answer)
	op.seeIn("Messages", "You")

	// Files, both ways.
	attach(op, `document.querySelector('.composer input[type="file"]')`, "price-list.txt", "Shoes: 40 EUR\n")
	op.seeIn("Messages", "price-list.txt")
	var href string
	d.waitWidget("the operator's file in the widget", `[...w.querySelectorAll(".g.operator a")].some((a) => a.textContent === "price-list.txt")`)
	d.inWidget(`[...w.querySelectorAll(".g.operator a")].find((a) => a.textContent === "price-list.txt").href`, &href)
	if got := download(t, href); got != "Shoes: 40 EUR\n" {
		t.Fatalf("the visitor downloads %q", got)
	}
	attach(d.visitor, shadow+`.querySelector('input[type="file"]')`, "sizes.txt", "Size 42, please.\n")
	op.seeIn("Messages", "sizes.txt")
	op.eval(`document.querySelector('a[download="sizes.txt"]').href`, &href)
	if got := download(t, href); got != "Size 42, please.\n" {
		t.Fatalf("the operator downloads %q", got)
	}

	// The visitor's panel: their state, their conversation, an invitation.
	op.click("The visitor's visit")
	op.at("/site-chat/visits/" + d.visitSessionID)
	op.seeHeading("Shipping")
	op.see("chat open")
	op.see("accepted the invitation")
	op.accessible("the visitor panel")
	op.click("Open the conversation")
	op.at("/site-chat/conversations/" + conversation)

	// Closing the conversation; the visitor leaving takes them off the list.
	op.click("Close the conversation")
	op.see("This conversation is closed.")
	op.click("Visitors")
	op.waitJS("the visitor's row", row+` !== null`)
	d.leave()
	op.see("Nobody is on the site right now.")
}

// TestConsoleSiteChatWidgets: a widget made and changed in the console beside its live
// preview (its icons SVG, as the widget draws them), with the invitation templates the desk's invitations offer, its script to
// paste, and paused, resumed and archived; a Problem lands on the field it names.
func TestConsoleSiteChatWidgets(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	op := site.tab(t)
	op.open("/sign-in")
	op.signIn(ada)
	op.at("/workflows")
	op.open("/site-chat/widgets")
	op.see("No widget yet.")
	op.click("New widget")
	op.at("/site-chat/widgets/new")
	preview := func(js string) string {
		return `(() => { const p = document.querySelector(".preview-site"); return ` + js + `; })()`
	}

	op.fill("Name", "Main site")
	op.fill("Title", "Ask <b>Ada</b>")
	op.fill("Subtitle", "Replies within the hour")
	op.fill("Accent colour", "red")
	op.choose("Position", "Bottom left")
	op.click("Add a template")
	op.fill("Name of template 1", "promo")
	op.fill("Text of template 1", "10% off today")
	op.waitJS("the preview to follow the form", preview(`p.querySelector(".widget-head b").textContent === "Ask <b>Ada</b>" &&
		!p.querySelector(".widget-head b b") && p.innerText.includes("Replies within the hour") &&
		p.querySelector(".widget-launcher").style.left === "20px" && p.querySelector(".widget-launcher").style.right === "" &&
		p.querySelectorAll(".widget-launcher svg, .widget-attach svg, .widget-send svg").length === 3 && !/[\u2190-\u2BFF\u{1F000}-\u{1FAFF}]/u.test(p.textContent)`))
	op.accessible("a new widget")
	op.click("Create the widget")
	op.fieldShows("Accent colour", "This is not in the form the field takes, like #2563eb.")
	op.fill("Accent colour", "#dc2626")
	op.waitJS("the preview in the colour", preview(`getComputedStyle(p.querySelector(".widget-launcher")).backgroundColor === "rgb(220, 38, 38)"`))
	op.click("Add a template")
	op.fill("Name of template 2", "promo")
	op.fill("Text of template 2", "Another")
	op.click("Create the widget")
	op.see("Each template needs a name of its own.")
	op.click("Remove template 2")
	op.click("Create the widget")
	op.waitJS("the new widget's page", `/^\/site-chat\/widgets\/[0-9a-f-]{36}$/.test(location.pathname)`)
	op.seeHeading("Main site")
	script := op.valueOf("Embed script")
	widgets := site.do(req{method: "GET", path: "/api/v1/projects/" + projectID + "/site-chat-widgets", token: ada.token}).expect(t, http.StatusOK).items()
	if len(widgets) != 1 {
		t.Fatalf("widgets: %v", widgets)
	}
	w := widgets[0]
	templates, _ := w["settings_json"].(map[string]any)["invite_templates"].(map[string]any)
	if w["accent_color"] != "#dc2626" || w["position"] != "left" || w["title"] != "Ask <b>Ada</b>" || templates["promo"] != "10% off today" ||
		script != w["embed_script"] || !strings.Contains(script, `data-public-key="`+w["public_key"].(string)+`"`) {
		t.Fatalf("the widget: %v, the script shown %q", w, script)
	}
	op.accessible("the widget")

	config := "/api/v1/public/site-chat/widgets/" + w["public_key"].(string) + "/config"
	op.click("Pause")
	op.see("Paused")
	site.do(req{method: "GET", path: config}).expect(t, http.StatusNotFound)
	op.click("Resume")
	op.see("Active")
	site.do(req{method: "GET", path: config}).expect(t, http.StatusOK)
	op.click("Archive")
	op.see("An archived widget disappears from the site")
	op.click("Archive")
	op.see("Archived")
	op.click("Widgets")
	op.at("/site-chat/widgets")
	op.see("Archived")
}
