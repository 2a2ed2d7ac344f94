package api_test

import (
	"net/http"
	"strings"
	"testing"

	"agencyhub/migrations/dbtest"
)

func TestTemplateAPI(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		base := newEnv(t, db)
		ada := base.signUp("Ada")
		companyID := base.companyOf(ada, "Northwind")
		projectID := base.projectIn(ada, companyID, "Site")
		siblingID := base.projectIn(ada, companyID, "Shop")
		viewer := base.signUp("Vera")
		base.addToCompany(ada, companyID, viewer, "viewer")
		member := base.signUp("Max")
		base.addToCompany(ada, companyID, member, "member")
		mails := "/api/v1/projects/" + projectID + "/email-templates"
		texts := "/api/v1/projects/" + projectID + "/message-templates"
		var mailID, textID string

		t.Run("a member creates an e-mail template whose {{ path }} templates are kept as written", func(t *testing.T) {
			e := base.asSubtest(t)
			r := e.do(req{method: "POST", path: mails, token: member.token, body: map[string]any{
				"name": "Invoice", "subject": "Invoice {{ invoice_due.number }}", "body": "Hello {{ invoice_due.name }},\nplease pay.",
			}}).expect(t, http.StatusCreated)
			if r.str("subject") != "Invoice {{ invoice_due.number }}" || r.str("body") != "Hello {{ invoice_due.name }},\nplease pay." || r.str("project_id") != projectID {
				t.Fatalf("create answered %s", r.Body)
			}
			mailID = r.str("email_template_id")
		})

		t.Run("an e-mail template needs a one-line subject and a body, naming each bad field", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "POST", path: mails, token: ada.token, body: map[string]any{}}).expect(t, http.StatusBadRequest, "body", "name", "subject")
			e.do(req{method: "POST", path: mails, token: ada.token, body: map[string]any{"name": " ", "subject": "a\nb", "body": "x"}}).
				expect(t, http.StatusBadRequest, "subject")
			e.do(req{method: "POST", path: mails, token: ada.token, body: map[string]any{"name": " ", "subject": "s", "body": "   "}}).
				expect(t, http.StatusBadRequest, "name", "body")
			e.do(req{method: "POST", path: mails, token: ada.token, body: map[string]any{"name": "Invoice", "subject": "s", "body": "b"}}).
				expect(t, http.StatusConflict, "name")
		})

		t.Run("a placeholder without its closing braces is refused, saying so, and nothing is saved", func(t *testing.T) {
			e := base.asSubtest(t)
			r := e.do(req{method: "POST", path: mails, token: ada.token, body: map[string]any{"name": "Broken", "subject": "s", "body": "Dear {{ order.name },"}}).
				expect(t, http.StatusBadRequest, "body")
			if r.str("detail") != "A {{ placeholder }} is not closed, so it would be sent as it is." {
				t.Fatalf("refusal answered %s", r.Body)
			}
			e.do(req{method: "PATCH", path: mails + "/" + mailID, token: ada.token, body: map[string]any{"subject": "Invoice {{ invoice_due.number"}}).
				expect(t, http.StatusBadRequest, "subject")
			if g := e.do(req{method: "GET", path: mails + "/" + mailID, token: ada.token}).expect(t, http.StatusOK); g.str("subject") != "Invoice {{ invoice_due.number }}" {
				t.Fatalf("a refused patch changed the template: %s", g.Body)
			}
		})

		t.Run("viewers read templates but may not create them", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "POST", path: mails, token: viewer.token, body: map[string]any{"name": "V", "subject": "s", "body": "b"}}).expect(t, http.StatusForbidden)
			e.do(req{method: "POST", path: texts, token: viewer.token, body: map[string]any{"name": "V", "text": "t"}}).expect(t, http.StatusForbidden)
			items := e.do(req{method: "GET", path: mails, token: viewer.token}).expect(t, http.StatusOK).items()
			if got := idsOf(items, "email_template_id"); len(got) != 1 || got[0] != mailID {
				t.Fatalf("list = %v", got)
			}
		})

		t.Run("patch changes only the fields given", func(t *testing.T) {
			e := base.asSubtest(t)
			r := e.do(req{method: "PATCH", path: mails + "/" + mailID, token: member.token, body: map[string]any{"subject": "Reminder"}}).expect(t, http.StatusOK)
			if r.str("subject") != "Reminder" || r.str("name") != "Invoice" || !strings.HasPrefix(r.str("body"), "Hello") {
				t.Fatalf("patch answered %s", r.Body)
			}
			got := e.do(req{method: "GET", path: mails + "/" + mailID, token: viewer.token}).expect(t, http.StatusOK)
			if got.str("subject") != "Reminder" {
				t.Fatalf("get after patch %s", got.Body)
			}
		})

		t.Run("a message template defaults to plain text; text and parse_mode are checked", func(t *testing.T) {
			e := base.asSubtest(t)
			r := e.do(req{method: "POST", path: texts, token: member.token, body: map[string]any{"name": "Welcome", "text": "Hi {{ messenger_a_relay.message.text }}"}}).
				expect(t, http.StatusCreated)
			if r.str("parse_mode") != "" || r.str("text") != "Hi {{ messenger_a_relay.message.text }}" {
				t.Fatalf("create answered %s", r.Body)
			}
			textID = r.str("message_template_id")
			e.do(req{method: "PATCH", path: texts + "/" + textID, token: member.token, body: map[string]any{"parse_mode": "BBCode", "text": strings.Repeat("x", 4097)}}).
				expect(t, http.StatusBadRequest, "parse_mode", "text")
			p := e.do(req{method: "PATCH", path: texts + "/" + textID, token: member.token, body: map[string]any{"parse_mode": "MarkdownV2"}}).expect(t, http.StatusOK)
			if p.str("parse_mode") != "MarkdownV2" || p.str("name") != "Welcome" {
				t.Fatalf("patch answered %s", p.Body)
			}
		})

		t.Run("another project's templates are not found", func(t *testing.T) {
			e := base.asSubtest(t)
			other := "/api/v1/projects/" + siblingID
			e.do(req{method: "GET", path: other + "/email-templates/" + mailID, token: ada.token}).expect(t, http.StatusNotFound)
			e.do(req{method: "PATCH", path: other + "/message-templates/" + textID, token: ada.token, body: map[string]any{"name": "x"}}).expect(t, http.StatusNotFound)
			if items := e.do(req{method: "GET", path: other + "/email-templates", token: ada.token}).expect(t, http.StatusOK).items(); len(items) != 0 {
				t.Fatalf("sibling's list %v", items)
			}
		})

		t.Run("delete answers 204 and the template is gone", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "DELETE", path: mails + "/" + mailID, token: viewer.token}).expect(t, http.StatusForbidden)
			e.do(req{method: "DELETE", path: mails + "/" + mailID, token: member.token}).expect(t, http.StatusNoContent)
			e.do(req{method: "GET", path: mails + "/" + mailID, token: ada.token}).expect(t, http.StatusNotFound)
			e.do(req{method: "DELETE", path: texts + "/" + textID, token: member.token}).expect(t, http.StatusNoContent)
			e.do(req{method: "GET", path: texts + "/" + textID, token: ada.token}).expect(t, http.StatusNotFound)
		})
	})
}
