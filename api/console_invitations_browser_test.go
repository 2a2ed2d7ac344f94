package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// signedOut waits for the sign-out to have ended the session: the new sign-in document
// logs out after it loads, so a page opened at once could still be signed in.
func (tb *tab) signedOut() {
	tb.t.Helper()
	tb.waitFor("the session cookie to be gone", pageWait, func(context.Context) (bool, error) { return !tb.hasCookie("app_access", "/"), nil })
}

// TestConsoleInvitation: an owner invites an e-mail that has no account on a server that
// sends no mail, so the page hands her the link (opened in her own session it says it is
// for another address and signs her out); the invited person opens it signed out,
// sees who invites them where, registers with the e-mail filled in and lands in the
// company as a member, with no failed request on the way; the owner's pending list no
// longer shows the invitation.
func TestConsoleInvitation(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	tb := site.tab(t)
	tb.signUpAndSetUp("Ada", "ada@example.com")

	tb.open("/settings/members")
	tb.seeHeading("Members")
	tb.fill("E-mail to invite", "grace@example.com")
	tb.choose("Role to invite as", "Member")
	tb.click("Invite")
	tb.see("This server sends no e-mail, so nothing was mailed to grace@example.com.")
	link := tb.valueOf("Invitation link")
	if !strings.HasPrefix(link, "http") || !strings.Contains(link, "/invitations/accept?token=") {
		tb.fail("the invitation link reads %q", link)
	}
	// A second click on the emptied field is refused on the field; the link, given once, stays.
	tb.click("Invite")
	tb.fieldShows("E-mail to invite", "Enter an e-mail address")
	if again := tb.valueOf("Invitation link"); again != link {
		tb.fail("after a refused second invite the link reads %q, want %q", again, link)
	}
	tb.see("Pending invitations")
	tb.see("grace@example.com")
	tb.notSee("Expired")
	tb.accessible("the members page with an invitation")

	// Signed in with another address, the link says so and offers to sign out for it.
	tb.open(link[strings.Index(link, "/invitations/"):])
	tb.see("This invitation was sent to another e-mail address than the one you are signed in with.")
	tb.accessible("the invitation page signed in with another address")
	tb.click("Sign out, to use another account")
	tb.signedOut()
	tb.seeHeading("Invitation")
	tb.see("Ada invites you to join Analytical Engines as a member.")
	tb.accessible("the invitation page")
	tb.click("Create an account")
	tb.at("/register")
	if got := tb.valueOf("E-mail"); got != "grace@example.com" {
		tb.fail("the register form has the e-mail %q, want the invited one", got)
	}
	tb.fill("Your name", "Grace")
	tb.fill("Password", password)
	tb.click("Create an account")
	tb.at("/workflows")
	tb.shows("Company", "Analytical Engines")
	// Accepting used the token up: the page did not look it up again (to a 400) on the way.
	if a := tb.answer("/api/v1/invitations/lookup"); a.status != http.StatusOK {
		tb.fail("the invitation's last lookup was answered %d, want 200", a.status)
	}
	tb.open("/settings/members")
	tb.seeHeading("Members")
	tb.see("grace@example.com")
	tb.notSee("Invite by e-mail")

	tb.click("Sign out")
	tb.at("/sign-in")
	tb.signedOut()
	tb.fill("E-mail", "ada@example.com")
	tb.fill("Password", password)
	tb.click("Sign in")
	tb.open("/settings/members")
	tb.see("Grace")
	tb.notSee("Pending invitations")

	// A used link says so in plain words.
	tb.open(link[strings.Index(link, "/invitations/"):])
	tb.see("This invitation link has already been used.")
}
