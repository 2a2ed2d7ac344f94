package api_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// TestConsoleClientsAndBilling is issue 25's billing in the browser: a new person finds a
// client in the registry (a local party lookup server) by its INN and creates it from what
// the registry knows, is stopped from creating it twice, adds monthly services, and once
// the billing cycle has made them due: records a payment with a double click whose answer
// is lost, sends it again and finds one payment; snoozes another action; confirms one item
// of a two-item action. Every page passes axe-core.
func TestConsoleClientsAndBilling(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	const token = "registry-token-0123456789abcdef"
	registry := newRegistry(t, token)
	tb := site.tab(t)

	tb.signUpAndSetUp("Grace", "grace@example.com")
	grace := site.apiLogin("grace@example.com")
	workspace := site.do(req{method: "GET", path: "/api/v1/auth/workspace-context", token: grace.token}).expect(t, http.StatusOK)
	companyID, projectID := workspace.str("active_company_id"), workspace.str("active_project_id")
	// The party lookup settings are the settings pages'; here they are made through the API.
	site.do(req{method: "PUT", path: "/api/v1/companies/" + companyID + "/integrations/party-lookup", token: grace.token,
		body: map[string]any{"provider": "party_lookup", "api_base_url": registry.URL + "/suggestions", "token": token}}).expect(t, http.StatusOK)

	tb.click("Clients")
	tb.at("/companies/" + companyID + "/clients")
	tb.seeHeading("Clients")
	tb.see("No clients yet")
	tb.accessible("the clients list")

	tb.click("New client")
	tb.fill("INN, OGRN or OGRNIP", "7707083894")
	tb.click("Find")
	tb.see("Not an INN, OGRN or OGRNIP: check the digits")
	if n := registry.callCount(); n != 0 {
		tb.fail("a mistyped number was looked up %d times", n)
	}
	tb.fill("INN, OGRN or OGRNIP", "7707083893")
	tb.click("Find")
	tb.see("The registry's details fill the form")
	if got := tb.valueOf("Name"); got != "ПАО СБЕРБАНК" {
		tb.fail("the name field holds %q, want the registry's short name", got)
	}
	if got := tb.valueOf("KPP"); got != "773601001" {
		tb.fail("the KPP field holds %q, want the registry's", got)
	}
	tb.fill("INN", "7707083894")
	tb.fieldShows("INN", "The check digit does not match")
	tb.fill("INN", "77070838")
	tb.see("8 of 10")
	tb.fill("INN", "7707083893")
	tb.see("The check digit matches")
	tb.accessible("the new client page")
	tb.click("Create client")
	tb.seeHeading("ПАО СБЕРБАНК")
	var clientID string
	tb.eval(`location.pathname.split("/")[2]`, &clientID)
	tb.see("г Москва, ул Вавилова, д 19")

	tb.open("/companies/" + companyID + "/clients/new")
	tb.fill("INN, OGRN or OGRNIP", "7707083893")
	tb.click("Find")
	tb.see("A client with INN 7707083893 exists already.")
	tb.click("Open ПАО СБЕРБАНК")
	tb.at("/clients/" + clientID)

	// Support and Hosting fall due together (one action of two items), Ads and SEO later,
	// all within the project's week of billing ahead (the server's clock says 21 November).
	for _, s := range []struct{ name, amount, due string }{
		{"Support", "25 000", "2026-11-25"},
		{"Hosting", "1500", "2026-11-25"},
		{"Ads", "10000,50", "2026-11-26"},
		{"SEO", "30000", "2026-11-27"},
	} {
		tb.click("Add service")
		tb.fill("Service name", s.name)
		tb.fill("Amount", s.amount)
		tb.shows("Billed", "Monthly")
		tb.setDate("Next due date", s.due)
		tb.click("Add service")
		tb.seeIn("Services", s.name)
	}
	tb.seeIn("Services", "RUB\u00a010,000.50")
	tb.accessible("the client's card")

	site.billingCycle()
	tb.click("Billing")
	tb.at("/projects/" + projectID + "/billing")
	tb.see("RUB\u00a066,500.50")
	tb.see("3 payments")
	tb.accessible("the payment queue")

	// A double click sends the payment once; its answer is lost on the way back; sent again,
	// it carries the form's idempotency key, and the API records it once.
	lost := tb.loseNextAnswer("/api/v1/clients/" + clientID + "/payments/manual")
	tb.click("Ads")
	tb.seeHeading("ПАО СБЕРБАНК, due Nov 26, 2026")
	tb.accessible("a payment action")
	tb.doubleClick("Record this payment")
	tb.see("Request Timeout")
	if n := lost(); n != 1 {
		tb.fail("the double click sent the payment %d times, want 1", n)
	}
	tb.click("Record this payment")
	tb.see("✓ Paid")
	tb.seeIn("Payments", "RUB\u00a010,000.50")
	// The payment's amount stands in its heading's column.
	var aligned bool
	tb.eval(`(() => {
		const table = document.querySelector('section[aria-labelledby="facts-title"] table');
		const head = table.tHead.rows[0].cells[1].getBoundingClientRect(), cell = table.tBodies[0].rows[0].cells[1].getBoundingClientRect();
		return head.left === cell.left && head.right === cell.right;
	})()`, &aligned)
	if !aligned {
		tb.fail("the payments' amount is not under its heading")
	}
	// Its receipt, uploaded on the action's page, is listed under Documents with its kind.
	tb.seeIn("Documents", "No documents yet.")
	attach(tb, `document.querySelector('form[aria-label="Upload a document"] input[type="file"]')`, "receipt.txt", "Paid: RUB 10,000.50\n")
	tb.choose("Kind", "Receipt")
	tb.click("Upload")
	tb.seeIn("Documents", "receipt.txt")
	tb.seeIn("Documents", "Receipt · ")
	ads := site.actionDue(grace, projectID, "2026-11-26")
	if facts := facts(ads); len(facts) != 1 || ads.str("status") != "paid" {
		tb.fail("the Ads action is %s with %d facts, want paid with 1: %s", ads.str("status"), len(facts), ads.Body)
	}

	tb.click("Billing: Orders")
	tb.at("/projects/" + projectID + "/billing")
	tb.see("2 payments")
	tb.click("SEO")
	tb.seeHeading("ПАО СБЕРБАНК, due Nov 27, 2026")
	tb.setDate("Snooze until", "2026-12-15")
	tb.click("Snooze")
	tb.see("Snoozed until Dec 15, 2026.")
	if seo := site.actionDue(grace, projectID, "2026-11-27"); seo.str("status") != "snoozed" {
		tb.fail("the SEO action is %s, want snoozed", seo.str("status"))
	}

	tb.click("Billing: Orders")
	tb.at("/projects/" + projectID + "/billing")
	tb.see("Support, Hosting")
	tb.click("Support, Hosting")
	tb.click("Hosting")
	tb.click("Mark the ticked items paid")
	tb.see("Needs a decision")
	tb.seeIn("Payments", "RUB\u00a025,000.00")
	two := site.actionDue(grace, projectID, "2026-11-25")
	if fs := facts(two); len(fs) != 1 || fs[0].(map[string]any)["amount"] != 25000.0 || two.str("status") != "needs_decision" {
		tb.fail("the two-item action is %s with facts %v, want needs_decision with one of 25000", two.str("status"), fs)
	}

	tb.click("Billing: Orders")
	tb.see("RUB\u00a031,500.00")
	tb.see("2 payments")
	tb.click("Schedule")
	tb.seeHeading("Coming dues, next 90 days")
	tb.accessible("the payment schedule")
}

// TestConsoleBillingNeedsNoWaiting is issue 33's billing in the browser: without party
// lookup settings the lookup says so, links to them and keeps the INN typed in the form; a
// service due today is in the payment queue at once, with no billing cycle, and one due
// later is billed by hand with "Bill now", once however often it is pressed; a partial
// payment says what was paid, what is left and what can be decided; a paid action says
// nothing is owed.
func TestConsoleBillingNeedsNoWaiting(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	tb := site.tab(t)
	tb.signUpAndSetUp("Hedy", "hedy@example.com")

	tb.click("Clients")
	tb.click("New client")
	tb.fill("INN, OGRN or OGRNIP", "7707083893")
	tb.click("Find")
	tb.see("Party lookup is not set up")
	tb.notSee("PUT /api/v1")
	if got := tb.valueOf("INN"); got != "7707083893" {
		tb.fail("the INN field holds %q, want the number typed into the lookup", got)
	}
	tb.accessible("the new client page, lookup not set up")
	tb.fill("Name", "Acme")
	tb.click("Create client")
	tb.seeHeading("Acme")

	for _, name := range []string{"Hosting", "Support"} {
		tb.click("Add service")
		tb.fill("Service name", name)
		tb.fill("Amount", "15000")
		tb.setDate("Next due date", "2026-11-21") // today, by the server's clock
		tb.click("Add service")
		tb.seeIn("Services", name)
	}
	tb.seeIn("Due from the client", "RUB\u00a030,000.00")

	// A service due later is billed now by hand, on the service's row, once.
	tb.click("Add service")
	// No type is the global "other" type, which the list offers once.
	tb.waitJS(`"Other" once among the service types`, `(() => {
		const types = [...document.querySelectorAll("select")].find((s) => s.labels?.[0]?.textContent.trim().startsWith("Service type"));
		return types !== undefined && types.options.length > 1 && [...types.options].filter((o) => o.text.trim() === "Other").length === 1;
	})()`)
	tb.fill("Service name", "Audit")
	tb.fill("Amount", "4000")
	tb.setDate("Next due date", "2026-12-10")
	tb.click("Add service")
	tb.seeIn("Services", "Audit")
	tb.click("Bill now: Audit")
	tb.seeHeading("Acme, due Dec 10, 2026")
	tb.eval(`history.back()`, nil)
	tb.seeHeading("Acme")
	tb.click("Bill now: Audit")
	tb.seeHeading("Acme, due Dec 10, 2026")
	tb.click("Billing: Orders")
	tb.see("RUB\u00a034,000.00")
	tb.see("3 payments")

	tb.click("Support")
	tb.fill("Amount paid for Support", "5000")
	tb.click("Mark the ticked items paid")
	tb.see("RUB\u00a05,000.00 of RUB\u00a015,000.00 was paid; RUB\u00a010,000.00 is left.")
	tb.see("confirm it below when the client pays it, or snooze the payment")
	tb.accessible("a partly paid payment")

	tb.click("Billing: Orders")
	tb.see("left of RUB\u00a015,000.00")
	tb.click("Hosting")
	tb.click("Paid in full: RUB\u00a015,000.00")
	tb.see("✓ Paid")
	tb.notSee("Owed")
	tb.click("Billing: Orders")
	tb.click("Paid")
	tb.see("Hosting")
	tb.notSee("Owed")
}

// TestConsoleLegalEntities: the company's legal entities page checks registry numbers and
// bank accounts as they are typed and saves an entity the API takes.
func TestConsoleLegalEntities(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, _ := site.member("Ada")
	tb := site.tab(t)

	tb.open("/sign-in")
	tb.signIn(ada)
	tb.click("Clients")
	tb.click("Our legal entities")
	tb.seeHeading("Our legal entities")
	tb.click("New legal entity")
	tb.fill("Name", "Northwind LLC")
	tb.fill("INN", "7707083894")
	tb.fieldShows("INN", "The check digit does not match")
	tb.fill("INN", "7707083893")
	tb.fill("KPP", "77A601001")
	tb.fieldShows("KPP", "9 characters")
	tb.fill("KPP", "773601001")
	tb.fill("Settlement account", "40702810938000000001")
	tb.fieldShows("Settlement account", "fill in the BIK")
	tb.fill("BIK", "044525593")
	tb.fieldShows("Settlement account", "The check digit does not match")
	tb.fill("BIK", "044525225")
	tb.see("The check digit matches")
	tb.accessible("the legal entity form")
	tb.click("Add legal entity")
	tb.seeHeading("Northwind LLC")
	tb.see("40702810938000000001")
	tb.accessible("the legal entities page")
}

// actionDue is the project's payment action due on the day, read through the API.
func (s *consoleSite) actionDue(u user, projectID, day string) *response {
	s.t.Helper()
	actions := s.do(req{method: "GET", path: "/api/v1/projects/" + projectID + "/payment-actions?due_from=" + day + "&due_to=" + day, token: u.token}).
		expect(s.t, http.StatusOK).items()
	if len(actions) != 1 {
		s.t.Fatalf("%d payment actions due on %s, want 1", len(actions), day)
	}
	return s.do(req{method: "GET", path: "/api/v1/payment-actions/" + actions[0]["payment_action_id"].(string), token: u.token}).expect(s.t, http.StatusOK)
}

// setDate sets the date field labelled label to a YYYY-MM-DD day, as picking it in the
// browser's calendar does. A date field is a group of spin buttons to the accessibility
// tree, so it is found by its label's text.
func (tb *tab) setDate(label, day string) {
	tb.t.Helper()
	find := `[...document.querySelectorAll("label")].find((l) => l.textContent.trim() === ` + jsString(label) + `)?.control`
	tb.waitFor(fmt.Sprintf("a date field labelled %q to set to %s", label, day), pageWait, func(ctx context.Context) (bool, error) {
		return tb.onSelected(ctx, find, `function (day) {
			if (this.type !== "date" || this.disabled) return null;
			Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(this, day);
			this.dispatchEvent(new Event("input", {bubbles: true}));
			return this.value === day ? true : null;
		}`, nil, day)
	})
}

// doubleClick clicks the control of that name twice in quick succession, as an impatient
// person does.
func (tb *tab) doubleClick(name string) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("a control named %q to double-click", name), pageWait, func(ctx context.Context) (bool, error) {
		var at [2]float64
		ok, err := tb.onNamed(ctx, clickable, name, pointAt, &at)
		if !ok || err != nil {
			return false, err
		}
		return true, chromedp.Run(ctx, chromedp.MouseClickXY(at[0], at[1]), chromedp.MouseClickXY(at[0], at[1], chromedp.ClickCount(2)))
	})
}

// loseNextAnswer makes the browser lose the server's first answer to a POST to the path, as
// a dropped connection does after the server has acted: the page gets a 408 instead. The
// answer counts the requests to the path the page sent meanwhile.
func (tb *tab) loseNextAnswer(path string) (sent func() int) {
	tb.t.Helper()
	var mu sync.Mutex
	n := 0
	ctx := tb.ctx
	chromedp.ListenTarget(ctx, func(ev any) {
		paused, ok := ev.(*fetch.EventRequestPaused)
		if !ok {
			return
		}
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		go func() {
			c := chromedp.FromContext(ctx)
			do := cdp.WithExecutor(ctx, c.Target)
			if !first {
				_ = fetch.ContinueRequest(paused.RequestID).Do(do)
				return
			}
			_ = fetch.FulfillRequest(paused.RequestID, http.StatusRequestTimeout).WithResponsePhrase("Request Timeout").
				WithResponseHeaders([]*fetch.HeaderEntry{{Name: "Content-Type", Value: "text/plain"}}).
				WithBody(base64.StdEncoding.EncodeToString([]byte("timed out"))).Do(do)
		}()
	})
	pattern := "*" + path
	if err := chromedp.Run(ctx, fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: pattern, RequestStage: fetch.RequestStageResponse}})); err != nil {
		tb.fail("intercept %s: %v", path, err)
	}
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}
