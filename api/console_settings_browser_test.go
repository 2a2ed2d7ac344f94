package api_test

import (
	"net/http"
	"strings"
	"testing"

	"agencyhub/models/integration/integrationtest"
)

// consoleBotToken is the credential of the local bot API the integration test calls.
const consoleBotToken = "555000:AAF-console_bot_secret"

// notSee waits until the page's visible text no longer includes text.
func (tb *tab) notSee(text string) {
	tb.t.Helper()
	tb.waitJS("the page to stop showing "+text, `!document.body.innerText.includes(`+jsString(text)+`)`)
}

// pageText is what the page shows and holds in its fields, for checks that a secret is gone.
func (tb *tab) pageText() string {
	tb.t.Helper()
	var text string
	tb.eval(`document.body.innerText + " " + [...document.querySelectorAll("input, textarea")].map((i) => i.value).join(" ")`, &text)
	return text
}

// TestConsoleSettingsIntegration: a new person creates a messenger bot integration from its
// type's schemas (the form refuses a malformed token before anything is sent), which saved
// tests the connection against a local bot API at once, shows the stored result, also after
// a reload, and
// makes the relay's webhook secret, shown once. The credential never shows again.
func TestConsoleSettingsIntegration(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	bot := integrationtest.StartMessengerA(t, consoleBotToken, "orders_bot")
	tb := site.tab(t)
	tb.signUpAndSetUp("Ada", "ada@example.com")

	tb.click("Settings")
	tb.at("/settings/profile")
	tb.click("Integrations")
	tb.seeHeading("Integrations")
	tb.see("No integration yet.")
	tb.accessible("the integrations page")

	tb.click("New integration")
	tb.choose("Type", "Messenger A bot")
	tb.fill("Name", "Orders bot")
	tb.fill("API base URL", bot.URL)
	tb.fill("Bot token", "not-a-token")
	tb.click("Create")
	tb.fieldShows("Bot token", "Not in the expected form.")
	tb.accessible("the new integration page")
	tb.fill("Bot token", consoleBotToken)
	tb.click("Create")

	tb.seeHeading("Orders bot")
	tb.seeIn("Credential", "5550****")
	// Saved, the integration is tested at once.
	tb.seeIn("Connection test", "Works")
	tb.accessible("an integration's page")
	// The test recorded the bot's user name in the settings.
	tb.seeIn("Settings", "orders_bot")
	if n := bot.Calls(); n != 1 {
		tb.fail("the bot API was called %d times, want once (getMe)", n)
	}
	var here string
	tb.eval(`location.pathname`, &here)
	tb.open(here)
	tb.seeIn("Connection test", "Works")

	tb.click("Use webhook delivery")
	tb.click("Make the secret")
	secret := tb.valueOf("Webhook secret")
	tb.accessible("the relay's new secret")
	tb.click("I have copied it")
	tb.seeIn("Messenger relay", secret[:4]+"****")
	if text := tb.pageText(); strings.Contains(text, secret) || strings.Contains(text, "console_bot_secret") {
		tb.fail("a secret shows after it was handed out")
	}
	tb.open("/settings/integrations")
	tb.see("Orders bot")
	tb.see("Works")
}

// TestConsoleSettingsAccount: a new person creates an API key and sees it once (after a
// reload it is masked), revokes it (it stays listed as revoked), revokes a session of
// theirs elsewhere, adds a member, changes her role and removes her, rotates a project's
// hook secret (shown once), writes a message template against its preview, and switches
// the console and the account to Russian in the profile. axe-core checks each settings page on the way.
// It starts at /settings, which opens the profile.
func TestConsoleSettingsAccount(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	tb := site.tab(t)
	tb.signUpAndSetUp("Ada", "ada@example.com")

	// /settings, typed, opens the first page of its menu (the header's link does too:
	// TestConsoleSettingsIntegration).
	tb.open("/settings")
	tb.at("/settings/profile")
	tb.seeHeading("Profile")

	tb.open("/settings/api-keys")
	tb.seeHeading("API keys")
	tb.see("No API key yet.")
	tb.fill("Key name", "CI deploys")
	tb.click("Create")
	key := tb.valueOf("Key")
	tb.accessible("the new API key")
	site.do(req{method: "GET", path: "/api/v1/auth/me", apiKey: key}).expect(t, http.StatusOK)
	tb.click("I have copied it")
	tb.see("CI deploys")
	tb.open("/settings/api-keys")
	tb.see("CI deploys")
	tb.see(key[:4])
	if strings.Contains(tb.pageText(), key) {
		tb.fail("the API key shows after a reload")
	}
	tb.accessible("the API keys page")
	tb.click("Revoke the key CI deploys")
	tb.click("Revoke")
	tb.see("Revoked ")
	tb.see("CI deploys")
	site.do(req{method: "GET", path: "/api/v1/auth/me", apiKey: key}).expect(t, http.StatusUnauthorized)

	elsewhere := site.do(req{method: "POST", path: "/api/v1/auth/login", body: map[string]any{
		"email": "ada@example.com", "password": password, "client_type": "api", "device_label": "Build server",
	}}).expect(t, http.StatusOK).str("access_token")
	tb.click("Sessions")
	tb.seeHeading("Sessions")
	tb.see("Build server")
	tb.see("This browser")
	tb.waitJS("this browser's session to read as a browser on a system, its User-Agent on hover",
		`[...document.querySelectorAll("td span[title]")].some((s) => s.title.startsWith("Mozilla/") && / on Linux$/.test(s.textContent))`)
	tb.accessible("the sessions page")
	tb.click("Revoke the session of Build server")
	tb.click("Revoke")
	tb.notSee("Build server")
	site.do(req{method: "GET", path: "/api/v1/auth/me", token: elsewhere}).expect(t, http.StatusUnauthorized)

	grace := site.signUp("Grace")
	tb.click("Members")
	tb.seeHeading("Members")
	tb.fill("E-mail", grace.email)
	tb.choose("Role", "Admin")
	tb.click("Add")
	tb.shows("Role of Grace", "Admin")
	tb.accessible("the members page")
	// A role changes when Save says so, not as the drop-down is turned.
	tb.choose("Role of Grace", "Viewer")
	tb.see("Cancel")
	if role := tb.roleOf(grace.email); role != "admin" {
		tb.fail("choosing a role saved it as %q before Save", role)
	}
	tb.click("Save the role of Grace")
	tb.notSee("Cancel")
	if role := tb.roleOf(grace.email); role != "viewer" {
		tb.fail("Grace's role is %q after Save, want viewer", role)
	}
	tb.open("/settings/members")
	tb.shows("Role of Grace", "Viewer")
	// The last owner's own demotion is refused on her drop-down, and changes nothing.
	tb.choose("Role of Ada", "Admin")
	tb.click("Save the role of Ada")
	tb.fieldShows("Role of Ada", "A company must keep at least one owner.")
	tb.seeOnce("A company must keep at least one owner.")
	if role := tb.roleOf("ada@example.com"); role != "owner" {
		tb.fail("Ada's refused demotion left her %q", role)
	}
	tb.click("Cancel")
	tb.shows("Role of Ada", "Owner")
	tb.click("Remove Grace")
	tb.click("Remove")
	tb.notSee(grace.email)

	tb.click("Projects")
	tb.seeHeading("Projects")
	tb.click("Rotate the hook secret of Orders")
	tb.click("Rotate")
	hookSecret := tb.valueOf("Hook secret")
	tb.click("I have copied it")
	tb.see(hookSecret[:4] + "****")
	if strings.Contains(tb.pageText(), hookSecret) {
		tb.fail("the hook secret shows after it was handed out")
	}
	tb.accessible("the projects page")

	tb.click("Party lookup")
	tb.seeHeading("Party lookup")
	tb.see("Not set up: lookups without a project cannot run.")
	tb.accessible("the party lookup page")

	tb.click("Templates")
	tb.seeHeading("Templates")
	tb.click("New message template")
	tb.fill("Name", "Order received")
	tb.fill("Text", "Thank you, {{ order.name }}! <b>Order {{ order.number }}</b> is in.")
	tb.fill("{{ order.name }}", "Grace")
	tb.seeIn("Preview", "Thank you, Grace! <b>Order </b> is in.")
	tb.accessible("the templates page")
	tb.click("Save")
	tb.see("Order received")

	tb.click("Profile")
	tb.seeHeading("Profile")
	tb.fill("Your name", "Ada Lovelace")
	tb.click("Save")
	tb.see("Saved.")
	tb.accessible("the profile page")
	tb.choose("Your language", "Русский")
	tb.seeHeading("Профиль")
	tb.see("Ваше имя")
	tb.see("Сохранено.")
	tb.open("/settings/profile")
	tb.seeHeading("Профиль")
	tb.see("Ada Lovelace")
	if got := tb.answer("/api/v1/auth/me").language; got != "ru" {
		tb.fail("the API answered in %q after the switch, want ru", got)
	}
	// The account keeps the language too: the product writes to her in it.
	var account string
	tb.eval(`fetch("/api/v1/auth/me").then((r) => r.json()).then((me) => me.language)`, &account)
	if account != "ru" {
		tb.fail("the account's language is %q after the switch, want ru", account)
	}
	tb.accessible("the profile page in Russian")
}

// roleOf is the role the API holds for the member of that e-mail in the tab's active company.
func (tb *tab) roleOf(email string) string {
	tb.t.Helper()
	var role string
	tb.eval(`(async () => {
		const { active_company_id } = await (await fetch("/api/v1/auth/workspace-context")).json();
		const { items } = await (await fetch("/api/v1/companies/" + active_company_id + "/members")).json();
		return items.find((m) => m.email === `+jsString(email)+`)?.role ?? "";
	})()`, &role)
	return role
}
