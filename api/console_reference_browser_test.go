package api_test

import "testing"

// TestConsoleAPIReference: the API keys page leads to the reference; a search narrows it to
// the operations a person looks for, whose link leads to the operation with the keyboard's
// focus on it; a link to an operation opens at it; /docs leads there; the page passes
// axe-core, speaks Russian around the contract's English, and nothing on it is blocked by
// the Content-Security-Policy (the tab fails the test on any violation).
func TestConsoleAPIReference(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	tb := site.tab(t)
	tb.signUpAndSetUp("Ada", "ada@example.com")

	tb.open("/settings/api-keys")
	tb.seeHeading("API keys")
	tb.click("API reference")
	tb.at("/reference")
	tb.seeHeading("API reference")
	tb.see("Headers on every response")

	tb.fill("Find an operation", "post api-keys")
	tb.see("1 operation of")
	tb.waitJS("only the operation found to be on the page", `document.querySelectorAll("article.operation").length === 1 && !!document.getElementById("authApiKeyCreate")`)
	tb.click("POST /api/v1/auth/api-keys")
	tb.waitJS("the operation to be the address and have the focus", `location.hash === "#authApiKeyCreate" && document.activeElement.id === "authApiKeyCreate"`)
	tb.see("Create an API key")
	tb.see("Credentials: Bearer token, X-API-Key, app_access cookie")
	tb.see("expires_at")
	tb.accessible("the API reference, searched")

	tb.fill("Find an operation", "no-such-operation-anywhere")
	tb.see("No operation matches")
	tb.click("Show all")
	tb.waitJS("every operation to be back", `document.querySelectorAll("article.operation").length > 200`)

	tb.open("/reference#authLogin")
	tb.waitJS("a link to an operation to open at it", `document.activeElement.id === "authLogin" && document.getElementById("authLogin").getBoundingClientRect().top < 100`)

	tb.open("/docs")
	tb.at("/reference")
	tb.choose("Language", "Русский")
	tb.seeHeading("Справочник API")
	tb.see("Заголовки каждого ответа")
	tb.open("/reference#authLogin")
	tb.see("Sign in with e-mail and password")
	tb.see("Открытая: без учётных данных")
}
