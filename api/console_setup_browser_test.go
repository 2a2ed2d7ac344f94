package api_test

import "testing"

// TestConsoleRegisterAndSetUp: a new person registers, each mistake said on its field in
// plain words once, creates a company and a project on the setup page and lands on the
// workflows page.
func TestConsoleRegisterAndSetUp(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	taken := site.signUp("Ada")
	tb := site.tab(t)

	tb.open("/register")
	tb.fill("Your name", "Grace")
	tb.fill("E-mail", "grace-at-example")
	tb.fill("Password", "short")
	tb.click("Create an account")
	tb.fieldShows("E-mail", "Enter an e-mail address, like name@example.com.")
	tb.fill("E-mail", "grace@example.com")
	tb.click("Create an account")
	tb.fieldShows("Password", "The password needs at least 12 characters.")
	tb.fill("E-mail", taken.email)
	tb.fill("Password", password)
	tb.click("Create an account")
	tb.fieldShows("E-mail", "An account with this e-mail already exists.")
	tb.seeOnce("An account with this e-mail already exists.")

	tb.signUpAndSetUp("Grace", "grace@example.com")
	tb.at("/workflows")
	tb.seeHeading("Workflows")
}
