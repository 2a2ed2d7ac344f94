package api_test

import "testing"

// TestConsoleOpensTheModelProviderFormOnItsType: the AI page's link to add a model provider
// opens the new integration form on that type, whose help gives an example base URL; a
// local model's private address is refused as it is saved, on its field, naming the
// setting an operator allows it with.
func TestConsoleOpensTheModelProviderFormOnItsType(t *testing.T) {
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	tb := site.tab(t)
	tb.open("/sign-in")
	tb.signIn(ada)
	tb.open("/projects/" + projectID + "/ai")
	tb.click("Add a model provider integration")
	tb.at("/settings/integrations/new?type=ai.model_provider")
	tb.shows("Type", "AI model provider")
	tb.see("https://api.openai.com/v1")
	tb.fill("Base URL", "http://192.168.1.20:11434/v1")
	tb.fill("API key", "sk-local-0123456789")
	tb.click("Create")
	tb.fieldShows("Base URL", "APP_EGRESS_ALLOW")
	tb.accessible("a refused model provider")
}
