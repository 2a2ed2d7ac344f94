package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A phone's screen, in CSS pixels.
const phoneWidth, phoneHeight = 390, 844

// narrowWorld is a person whose active project has something on every page: the contract's
// fixture (workflows and a run, a webhook endpoint with a delivery, a client with a service
// and a payment action, a board with a task, a site chat visit with a conversation,
// integrations and templates, an inbox message, an AI conversation waiting for an
// approval), and a timer running in the header.
type narrowWorld struct {
	owner user
	ids   map[string]string
}

func newNarrowWorld(site *consoleSite) narrowWorld {
	site.t.Helper()
	f := site.fixture("Ada")
	site.do(req{method: "PUT", path: "/api/v1/auth/workspace-context", token: f.owner.token,
		body: map[string]any{"active_company_id": f.ids["company_id"], "active_project_id": f.ids["project_id"]}}).expect(site.t, http.StatusOK)
	site.do(req{method: "POST", path: "/api/v1/work/tasks/" + f.ids["task_id"] + "/timer/start", token: f.owner.token}).expect(site.t, http.StatusCreated)
	f.ids["webhook_workflow_id"] = site.do(req{method: "GET", path: "/api/v1/webhook-endpoints/" + f.ids["webhook_endpoint_id"], token: f.owner.token}).
		expect(site.t, http.StatusOK).str("workflow_id")
	return narrowWorld{owner: f.owner, ids: f.ids}
}

// narrowPage is a page of the console and a text it shows once its data has loaded.
type narrowPage struct{ path, shows string }

// pages are the console's signed-in pages, one of each route of app/router.tsx.
func (w narrowWorld) pages() []narrowPage {
	ids := w.ids
	company, project := "/companies/"+ids["company_id"], "/projects/"+ids["project_id"]
	return []narrowPage{
		{"/workflows", "Fixture flow"},
		{"/workflows/" + ids["workflow_id"], "Actions"},
		{"/workflows/" + ids["workflow_id"] + "/versions", "Version 1"},
		{"/workflows/" + ids["workflow_id"] + "/runs", "succeeded"},
		{"/workflows/" + ids["workflow_id"] + "/import", "Fixture flow"},
		{"/workflows/" + ids["webhook_workflow_id"] + "/webhooks", "fixture_hook"},
		{"/runs", "Fixture flow"},
		{"/runs/" + ids["workflow_run_id"], "succeeded"},
		{company + "/clients", "Fixture client"},
		{company + "/clients/new", "INN, OGRN or OGRNIP"},
		{"/clients/" + ids["client_id"], "Fixture service"},
		{company + "/legal-entities", "Ada LLC"},
		{project + "/billing", "Fixture client"},
		{project + "/billing/schedule", "Schedule"},
		{project + "/billing/service-types", "Fixture type"},
		{"/payment-actions/" + ids["payment_action_id"], "invoice.txt"},
		{project + "/ai?session=" + ids["ai_session_id"], "Your approval is needed"},
		{"/site-chat/visitors", "Visitors"},
		{"/site-chat/visits/" + ids["visit_session_id"], "Pricing"},
		{"/site-chat/widgets", "Widgets"},
		{"/site-chat/widgets/" + ids["chat_widget_id"], "Widget"},
		{"/site-chat/conversations", "Conversations"},
		{"/site-chat/conversations/" + ids["conversation_id"], "Hello"},
		{"/work", "Fixture task"},
		{"/work/boards", "Fixture board"},
		{"/work/boards/" + ids["task_board_id"], "Fixture task"},
		{"/work/tasks/" + ids["task_id"], "Fixture item"},
		{"/work/reports", "Reports"},
		{"/work/task-workflows", "Website support"},
		{"/work/task-workflows/" + ids["task_workflow_id"], "Website support"},
		{"/settings/profile", "Profile"},
		{"/settings/sessions", "Sessions"},
		{"/settings/api-keys", "k"},
		{"/settings/members", "Ada"},
		{"/settings/projects", "Ada Site"},
		{"/settings/party-lookup", "Party lookup"},
		{"/settings/integrations", "Fixture API"},
		{"/settings/integrations/new", "Integration"},
		{"/settings/integrations/" + ids["action_dependency_id"], "Fixture API"},
		{"/settings/templates", "Fixture mail"},
		{"/setup", "Project name"},
		{"/device", "Sign in to the desktop app"},
	}
}

// goTo moves the console to path as its links do, within the page: no new document loads.
func (tb *tab) goTo(path string) {
	tb.t.Helper()
	tb.eval(`history.pushState(null, "", ` + jsString(path) + `); dispatchEvent(new PopStateEvent("popstate"))`)
	tb.at(strings.SplitN(path, "?", 2)[0])
}

// onPhone makes the tab's window a phone's.
func (tb *tab) onPhone() { tb.resize(phoneWidth, phoneHeight) }

func (tb *tab) resize(width, height int64) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(width, height)); err != nil {
		tb.fail("resize the window: %v", err)
	}
}

// fitsWidth fails the test when the page is wider than the window, so that it scrolls
// sideways, naming what sticks out.
func (tb *tab) fitsWidth(what string) {
	tb.t.Helper()
	var wide struct {
		Page, Window int
		Out          []string
	}
	tb.eval(`(() => {
		const page = document.documentElement.scrollWidth, win = document.documentElement.clientWidth;
		const out = page <= win ? [] : [...document.querySelectorAll("body *")]
			.filter((el) => el.getBoundingClientRect().right > win + 0.5 && ![...el.children].some((c) => c.getBoundingClientRect().right > win + 0.5))
			.slice(0, 8).map((el) => el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.trim().replaceAll(/\s+/g, ".") : "") +
				" (right " + Math.round(el.getBoundingClientRect().right) + ")");
		return {page, window: win, out};
	})()`, &wide)
	if wide.Page > wide.Window {
		tb.fail("%s is %d px wide in a window of %d: it scrolls sideways; sticking out: %v", what, wide.Page, wide.Window, wide.Out)
	}
}

// TestConsoleFitsAPhone is item 15 of "The first hour": at a phone's 390×844 no page of the
// console scrolls sideways, the header's areas, workspace and Sign out are behind a menu
// button that opens and closes by keyboard, and the AI employee's message box is on the
// first screen.
func TestConsoleFitsAPhone(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	w := newNarrowWorld(site)
	tb := site.tab(t)
	tb.onPhone()

	tb.open("/register")
	tb.seeHeading("Create an account")
	tb.fitsWidth("the registration page")
	tb.open("/sign-in")
	tb.seeHeading("Sign in")
	tb.fitsWidth("the sign-in page")
	tb.signIn(w.owner)
	tb.at("/workflows")

	for _, p := range w.pages() {
		tb.goTo(p.path)
		tb.see(p.shows)
		tb.fitsWidth(p.path)
	}

	// The AI employee's message box is on the first screen, without scrolling.
	tb.open("/projects/" + w.ids["project_id"] + "/ai?session=" + w.ids["ai_session_id"])
	tb.see("Your approval is needed")
	tb.onScreen("Message")

	// The menu: by keyboard it opens, Escape closes it and leaves the focus on its button.
	tb.open("/workflows")
	tb.see("Fixture flow")
	tb.notOnScreen("Sign out")
	tb.tabTo("Menu", false)
	tb.press(kb.Enter)
	tb.expanded("Menu", true)
	tb.onScreen("Sign out")
	tb.onScreen("Company")
	tb.onScreen("Project")
	tb.fitsWidth("the open menu")
	tb.accessible("the open menu")
	tb.press(kb.Escape)
	tb.expanded("Menu", false)
	tb.focusIsOn("Menu")
	tb.notOnScreen("Sign out")

	// A link in the menu leads to its page and closes the menu.
	tb.click("Menu")
	tb.click("Work")
	tb.at("/work")
	tb.expanded("Menu", false)

	tb.click("Menu")
	tb.click("Sign out")
	tb.at("/sign-in")
}

// onScreen waits until the control named name is within the window as it stands, without
// scrolling to it.
func (tb *tab) onScreen(name string) {
	tb.t.Helper()
	tb.waitFor("“"+name+"” on the screen", pageWait, func(ctx context.Context) (bool, error) {
		return tb.onNamed(ctx, append(append([]string{}, clickable...), typable...), name, seenInWindow, nil)
	})
}

// notOnScreen checks that no control named name shows in the window.
func (tb *tab) notOnScreen(name string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
	defer cancel()
	seen, err := tb.onNamed(ctx, append(append([]string{}, clickable...), typable...), name, seenInWindow, nil)
	if err != nil {
		tb.fail("find %q: %v", name, err)
	}
	if seen {
		tb.fail("%q shows", name)
	}
}

// seenInWindow answers true when the element is drawn within the window and nothing covers
// its centre.
const seenInWindow = `function () {
	const r = this.getBoundingClientRect();
	if (r.width === 0 || r.height === 0 || r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return null;
	const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
	return top && this.contains(top) ? true : null;
}`

// expanded waits until the button named name says it is expanded, or not.
func (tb *tab) expanded(name string, want bool) {
	tb.t.Helper()
	value := "false"
	if want {
		value = "true"
	}
	tb.waitFor("“"+name+"” aria-expanded="+value, pageWait, func(ctx context.Context) (bool, error) {
		return tb.onNamed(ctx, []string{"button"}, name, `function (v) { return this.getAttribute("aria-expanded") === v ? true : null; }`, nil, value)
	})
}

// rowsOf counts the rows the elements a selector finds take: their distinct tops, a few
// pixels apart counting as one.
func rowsOf(selector string) string {
	return `(() => {
	const tops = [...document.querySelectorAll(` + "`" + selector + "`" + `)]
		.filter((e) => e.getClientRects().length > 0)
		.map((e) => e.getBoundingClientRect().top).sort((a, b) => a - b);
	let rows = 0, last = -100;
	for (const top of tops) { if (top - last > 8) rows++; last = top; }
	return rows;
})()`
}

// TestConsoleHeaderKeepsToOneRow: at 1000 and 1400 px, in English and in Russian, the
// header's areas stand on one row, every one of them shown, and so do the person's
// controls; the page does not scroll sideways.
func TestConsoleHeaderKeepsToOneRow(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	tb := site.tab(t)
	tb.signUpAndSetUp("Ada Lovelace", "ada@example.com")
	tb.open("/workflows")
	for _, lang := range []string{"en", "ru"} {
		if lang == "ru" {
			tb.choose("Language", "Русский")
			tb.see("Сценарии")
		}
		for _, width := range []int64{1400, 1000} {
			tb.resize(width, 900)
			tb.waitJS("the header to be laid out", `document.querySelectorAll(".topbar nav a").length >= 6`)
			tb.screenshot(fmt.Sprintf("header-%d-%s", width, lang))
			var areas, controls int
			tb.eval(rowsOf(".topbar nav a"), &areas)
			tb.eval(rowsOf(".topbar-end > *"), &controls)
			if areas != 1 || controls != 1 {
				tb.fail("at %d px in %s the header's areas take %d rows, the person's controls %d", width, lang, areas, controls)
			}
			var hidden []string
			tb.eval(`(() => { const nav = document.querySelector(".topbar nav").getBoundingClientRect();
				return [...document.querySelectorAll(".topbar nav a")].filter((a) => { const r = a.getBoundingClientRect();
					return r.width === 0 || r.left < nav.left - 1 || r.right > nav.right + 1; }).map((a) => a.textContent); })()`, &hidden)
			if len(hidden) > 0 {
				tb.fail("at %d px in %s these areas are not in sight: %v", width, lang, hidden)
			}
			tb.fitsWidth(fmt.Sprintf("the page at %d px in %s", width, lang))
		}
	}
}
