package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
)

// invitationLink is the token of an accept link, in an answer or a mail.
var invitationLink = regexp.MustCompile(`/invitations/accept\?token=([A-Za-z0-9_-]+)`)

func invitationToken(t *testing.T, text string) string {
	t.Helper()
	m := invitationLink.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no accept link in %q", text)
	}
	return m[1]
}

func TestInvitations(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		base := newEnv(t, db)
		olga, mia, rex := base.signUp("Olga"), base.signUp("Mia"), base.signUp("Rex")
		companyID := base.companyOf(olga, "Invite Agency")
		otherID := base.companyOf(rex, "Other Agency")
		base.addToCompany(olga, companyID, mia, "member")
		invitations := "/api/v1/companies/" + companyID + "/invitations"
		invite := func(e *env, who user, email, role string) *response {
			return e.do(req{method: "POST", path: invitations, token: who.token, body: map[string]any{"email": email, "role": role}})
		}
		var token, invitationID string

		t.Run("an owner invites an e-mail with no account and, without mail, gets the link once", func(t *testing.T) {
			e := base.asSubtest(t)
			r := invite(e, olga, "Nina@Example.com", "admin").expect(t, http.StatusCreated)
			if r.json["mail_configured"] != false || r.json["expired"] != false || r.str("email") != "nina@example.com" || r.str("role") != "admin" || r.str("invited_by_name") != "Olga" {
				t.Fatalf("invite answered %s", r.Body)
			}
			invitationID, token = r.str("invitation_id"), invitationToken(t, r.str("accept_url"))
			list := e.do(req{method: "GET", path: invitations, token: mia.token}).expect(t, http.StatusOK)
			if ids := idsOf(list.items(), "invitation_id"); len(ids) != 1 || ids[0] != invitationID {
				t.Fatalf("the pending list is %s", list.Body)
			}
			if strings.Contains(list.Body.String(), token) {
				t.Fatal("the list shows the link's token")
			}
		})

		t.Run("inviting the same e-mail again refreshes the invitation and replaces its link", func(t *testing.T) {
			e := base.asSubtest(t)
			e.advance(time.Hour)
			r := invite(e, olga, "nina@example.com", "member").expect(t, http.StatusOK)
			if r.str("invitation_id") != invitationID || r.str("role") != "member" {
				t.Fatalf("invite again answered %s", r.Body)
			}
			old := token
			token = invitationToken(t, r.str("accept_url"))
			e.do(req{method: "POST", path: "/api/v1/invitations/lookup", body: map[string]any{"token": old}}).expect(t, http.StatusBadRequest, "token")
			if n := len(e.do(req{method: "GET", path: invitations, token: olga.token}).expect(t, http.StatusOK).items()); n != 1 {
				t.Fatalf("%d invitations pending, want 1", n)
			}
		})

		t.Run("inviting a member is a conflict naming email", func(t *testing.T) {
			r := invite(base.asSubtest(t), olga, mia.email, "viewer").expect(t, http.StatusConflict, "email")
			if !strings.Contains(r.Body.String(), "already a member") {
				t.Fatalf("answered %s", r.Body)
			}
		})

		t.Run("a member cannot invite and an admin cannot invite an owner", func(t *testing.T) {
			e := base.asSubtest(t)
			invite(e, mia, "x@example.com", "member").expect(t, http.StatusForbidden)
		})

		t.Run("another tenant's company and invitation are not found", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "GET", path: invitations, token: rex.token}).expect(t, http.StatusNotFound)
			e.do(req{method: "DELETE", path: invitations + "/" + invitationID, token: rex.token}).expect(t, http.StatusNotFound)
			e.do(req{method: "DELETE", path: "/api/v1/companies/" + otherID + "/invitations/" + invitationID, token: rex.token}).expect(t, http.StatusNotFound)
		})

		t.Run("the link's holder sees who invites them to which company without signing in", func(t *testing.T) {
			r := base.asSubtest(t).do(req{method: "POST", path: "/api/v1/invitations/lookup", body: map[string]any{"token": token}}).expect(t, http.StatusOK)
			if r.str("company_name") != "Invite Agency" || r.str("invited_by_name") != "Olga" || r.str("email") != "nina@example.com" || r.str("role") != "member" {
				t.Fatalf("lookup answered %s", r.Body)
			}
		})

		t.Run("an account of another e-mail cannot accept it", func(t *testing.T) {
			e := base.asSubtest(t)
			r := e.do(req{method: "POST", path: "/api/v1/invitations/accept", token: rex.token, body: map[string]any{"token": token}}).expect(t, http.StatusForbidden)
			if !strings.Contains(r.Body.String(), "another e-mail address") {
				t.Fatalf("answered %s", r.Body)
			}
			e.do(req{method: "POST", path: "/api/v1/invitations/lookup", body: map[string]any{"token": token}}).expect(t, http.StatusOK)
		})

		t.Run("the invited person registers, accepts, and lands in the company as a member", func(t *testing.T) {
			e := base.asSubtest(t)
			nina := e.signUp("Nina")
			r := e.do(req{method: "POST", path: "/api/v1/invitations/accept", token: nina.token, body: map[string]any{"token": token}}).expect(t, http.StatusOK)
			if r.str("company_id") != companyID || r.str("role") != "member" {
				t.Fatalf("accept answered %s", r.Body)
			}
			if got := e.do(req{method: "GET", path: "/api/v1/auth/workspace-context", token: nina.token}).expect(t, http.StatusOK).str("active_company_id"); got != companyID {
				t.Fatalf("active company %q after accepting", got)
			}
			members := e.do(req{method: "GET", path: "/api/v1/companies/" + companyID + "/members", token: olga.token}).expect(t, http.StatusOK)
			if !strings.Contains(members.Body.String(), nina.email) {
				t.Fatalf("members are %s", members.Body)
			}
			if n := len(e.do(req{method: "GET", path: invitations, token: olga.token}).expect(t, http.StatusOK).items()); n != 0 {
				t.Fatalf("%d invitations still pending after acceptance", n)
			}
		})

		t.Run("a used link is refused, saying it was used", func(t *testing.T) {
			e := base.asSubtest(t)
			r := e.do(req{method: "POST", path: "/api/v1/invitations/lookup", body: map[string]any{"token": token}}).expect(t, http.StatusBadRequest, "token")
			if !strings.Contains(r.Body.String(), "already been used") {
				t.Fatalf("answered %s", r.Body)
			}
			e.do(req{method: "DELETE", path: invitations + "/" + invitationID, token: olga.token}).expect(t, http.StatusNotFound)
		})

		t.Run("a revoked invitation's link is refused, saying it was withdrawn", func(t *testing.T) {
			e := base.asSubtest(t)
			r := invite(e, olga, "paul@example.com", "viewer").expect(t, http.StatusCreated)
			link := invitationToken(t, r.str("accept_url"))
			e.do(req{method: "DELETE", path: invitations + "/" + r.str("invitation_id"), token: olga.token}).expect(t, http.StatusNoContent)
			paul := e.signUp("Paul")
			refused := e.do(req{method: "POST", path: "/api/v1/invitations/accept", token: paul.token, body: map[string]any{"token": link}}).expect(t, http.StatusBadRequest, "token")
			if !strings.Contains(refused.Body.String(), "withdrawn") {
				t.Fatalf("answered %s", refused.Body)
			}
			e.do(req{method: "GET", path: "/api/v1/companies/" + companyID, token: paul.token}).expect(t, http.StatusNotFound)
		})

		t.Run("an invitation expires after seven days", func(t *testing.T) {
			e := base.asSubtest(t)
			r := invite(e, olga, "quinn@example.com", "member").expect(t, http.StatusCreated)
			link := invitationToken(t, r.str("accept_url"))
			base.advance(7*24*time.Hour + time.Second)
			olga.token = e.signInAgain(olga)
			quinn := e.signUp("Quinn")
			refused := e.do(req{method: "POST", path: "/api/v1/invitations/accept", token: quinn.token, body: map[string]any{"token": link}}).expect(t, http.StatusBadRequest, "token")
			if !strings.Contains(refused.Body.String(), "expired") {
				t.Fatalf("answered %s", refused.Body)
			}
			// Still listed as expired, so it can be sent again; sending it again makes it work.
			listed := e.do(req{method: "GET", path: invitations, token: olga.token}).expect(t, http.StatusOK).items()
			if len(listed) != 1 || listed[0]["expired"] != true {
				t.Fatalf("the pending list after expiry is %v", listed)
			}
			again := invite(e, olga, "quinn@example.com", "member").expect(t, http.StatusOK)
			e.do(req{method: "POST", path: "/api/v1/invitations/accept", token: quinn.token, body: map[string]any{"token": invitationToken(t, again.str("accept_url"))}}).
				expect(t, http.StatusOK)
		})

		t.Run("with mail delivery the link is mailed and not in the answer", func(t *testing.T) {
			e := base.asSubtest(t)
			e.server.Auth.Settings.RequireActivation = true
			defer func() { e.server.Auth.Settings.RequireActivation = false }()
			r := invite(e, olga, "rita@example.com", "member").expect(t, http.StatusCreated)
			if r.json["mail_configured"] != true || r.json["accept_url"] != nil {
				t.Fatalf("invite with mail answered %s", r.Body)
			}
			var body string
			if err := db.Raw("SELECT text_body FROM mail_outbox WHERE to_address = ?", "rita@example.com").Scan(&body).Error; err != nil {
				t.Fatal(err)
			}
			e.do(req{method: "POST", path: "/api/v1/invitations/lookup", body: map[string]any{"token": invitationToken(t, body)}}).expect(t, http.StatusOK)
			if !strings.Contains(body, "Olga invites you to the company Invite Agency") {
				t.Fatalf("the mail reads %q", body)
			}
		})

		t.Run("a request without a token names token", func(t *testing.T) {
			base.asSubtest(t).do(req{method: "POST", path: "/api/v1/invitations/accept", token: olga.token, body: map[string]any{}}).expect(t, http.StatusBadRequest, "token")
		})
	})
}
