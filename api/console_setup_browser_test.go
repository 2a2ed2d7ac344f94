package api_test

import "testing"

// TestConsoleRegisterAndSetUp: a new person registers, creates a company and a project
// on the setup page and lands on the workflows page.
func TestConsoleRegisterAndSetUp(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	tb := site.tab(t)

	tb.signUpAndSetUp("Grace", "grace@example.com")
	tb.at("/workflows")
	tb.seeHeading("Workflows")
}
