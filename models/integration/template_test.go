package integration_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/integration"
)

func ptr(s string) *string { return &s }

func TestTemplates(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		w := newWorld(t, db)
		ctx := context.Background()

		t.Run("an e-mail template keeps its {{ path }} templates as written", func(t *testing.T) {
			tpl, err := w.svc.CreateEmailTemplate(ctx, w.companyID, w.projectID, integration.EmailTemplateFields{
				Name: ptr(" Invoice "), Subject: ptr("Invoice {{ order_created.number }}"), Body: ptr("Hello {{ order_created.name }},\n\nsee attached."),
			})
			if err != nil {
				t.Fatal(err)
			}
			got, err := w.svc.EmailTemplateOf(ctx, w.companyID, w.projectID, tpl.ID)
			if err != nil || got.Name != "Invoice" || got.Subject != "Invoice {{ order_created.number }}" || got.Body != "Hello {{ order_created.name }},\n\nsee attached." {
				t.Fatalf("stored %+v, %v", got, err)
			}
			if _, err := w.svc.EmailTemplateOf(ctx, w.companyID, w.siblingID, tpl.ID); !models.IsKind(err, models.KindNotFound) {
				t.Fatalf("read from the sibling project: %v", err)
			}
			patched, err := w.svc.PatchEmailTemplate(ctx, got, integration.EmailTemplateFields{Subject: ptr("Your invoice")})
			if err != nil || patched.Subject != "Your invoice" || patched.Body != got.Body {
				t.Fatalf("patched %+v, %v", patched, err)
			}
			_, err = w.svc.CreateEmailTemplate(ctx, w.companyID, w.projectID, integration.EmailTemplateFields{Name: ptr("Invoice"), Subject: ptr("s"), Body: ptr("b")})
			if !models.IsKind(err, models.KindConflict) {
				t.Fatalf("a second template named Invoice: %v", err)
			}
			if err := w.svc.DeleteEmailTemplate(ctx, patched); err != nil {
				t.Fatal(err)
			}
			if rows, _, err := w.svc.EmailTemplates(ctx, w.companyID, w.projectID, models.PageRequest{Limit: 50}); err != nil || len(rows) != 0 {
				t.Fatalf("list after delete %v, %v", rows, err)
			}
		})

		t.Run("an e-mail template names every bad field at once", func(t *testing.T) {
			_, err := w.svc.CreateEmailTemplate(ctx, w.companyID, w.projectID, integration.EmailTemplateFields{
				Name: ptr(""), Subject: ptr("two\nlines"), Body: ptr(" "),
			})
			if got := invalidFields(t, err); !slices.Equal(got, []string{"name", "subject", "body"}) {
				t.Fatalf("fields = %v", got)
			}
		})

		t.Run("a message template defaults to plain text and checks text and parse_mode", func(t *testing.T) {
			tpl, err := w.svc.CreateMessageTemplate(ctx, w.companyID, w.projectID, integration.MessageTemplateFields{Name: ptr("Welcome"), Text: ptr("Hi {{ messenger_a_relay.message.text }}")})
			if err != nil || tpl.ParseMode != "" {
				t.Fatalf("created %+v, %v", tpl, err)
			}
			_, err = w.svc.PatchMessageTemplate(ctx, tpl, integration.MessageTemplateFields{Text: ptr(strings.Repeat("x", 4097)), ParseMode: ptr("BBCode")})
			if got := invalidFields(t, err); !slices.Equal(got, []string{"text", "parse_mode"}) {
				t.Fatalf("fields = %v", got)
			}
			patched, err := w.svc.PatchMessageTemplate(ctx, tpl, integration.MessageTemplateFields{ParseMode: ptr("HTML")})
			if err != nil || patched.ParseMode != "HTML" || patched.Text != tpl.Text {
				t.Fatalf("patched %+v, %v", patched, err)
			}
			rows, _, err := w.svc.MessageTemplates(ctx, w.companyID, w.projectID, models.PageRequest{Limit: 50})
			if err != nil || len(rows) != 1 || rows[0].ParseMode != "HTML" {
				t.Fatalf("list %+v, %v", rows, err)
			}
			if _, err := w.svc.MessageTemplateOf(ctx, w.otherCoID, w.otherProjectID, tpl.ID); !models.IsKind(err, models.KindNotFound) {
				t.Fatalf("read from another company: %v", err)
			}
		})
	})
}
