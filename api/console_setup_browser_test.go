package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

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

// TestConsoleLongNamesSayTheirLimitAndWrap: a name pasted past its field's limit says the
// limit as it is reached, and a long unbroken name widens neither the header nor a page, at
// 1400 and 1000 px, in English and Russian.
func TestConsoleLongNamesSayTheirLimitAndWrap(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	long := strings.Repeat("Ж", 10_000)
	u := site.signUp("Zed")
	site.do(req{method: "PATCH", path: "/api/v1/auth/profile", token: u.token, body: map[string]any{"name": long[:400]}}).expect(t, http.StatusOK)
	tb := site.tab(t)
	tb.open("/sign-in")
	tb.signIn(u)
	tb.seeHeading("Set up your workspace")
	tb.fill("Company name", long)
	tb.see("200 characters are the most this field takes; anything beyond is cut.")
	tb.click("Create")
	tb.fill("Project name", long)
	tb.click("Create")
	tb.at("/workflows")
	tb.click("New workflow")
	tb.fill("Name", long)
	tb.see("200 characters are the most this field takes; anything beyond is cut.")
	tb.click("Create")
	tb.seeHeading("Actions")
	var workflowID string
	tb.eval(`location.pathname.split("/")[2]`, &workflowID)

	for _, c := range []struct {
		lang  string
		width int64
	}{{"en", 1400}, {"en", 1000}, {"ru", 1400}, {"ru", 1000}} {
		tb.eval(`localStorage.setItem("lang", ` + jsString(c.lang) + `)`)
		if err := chromedp.Run(tb.ctx, chromedp.EmulateViewport(c.width, 900)); err != nil {
			t.Fatal(err)
		}
		for _, page := range []string{"/workflows", "/workflows/" + workflowID + "/versions", "/settings/projects"} {
			tb.open(page)
			tb.waitJS("the page to show the long name", `document.body.innerText.includes("ЖЖЖЖЖЖЖЖЖЖ")`)
			var fit struct{ PageWidth, WindowWidth, HeaderHeight float64 }
			tb.eval(`({PageWidth: document.documentElement.scrollWidth, WindowWidth: window.innerWidth,
				HeaderHeight: document.querySelector(".topbar").getBoundingClientRect().height})`, &fit)
			if fit.PageWidth > fit.WindowWidth || fit.HeaderHeight > 160 {
				t.Errorf("%s at %d px, %s: the page is %v wide in a %v window, the header %v high", c.lang, c.width, page, fit.PageWidth, fit.WindowWidth, fit.HeaderHeight)
			}
		}
	}
}
