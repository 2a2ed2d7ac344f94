package api_test

import (
	"bytes"
	"io"
	"net/http"
	netmail "net/mail"
	"slices"
	"strings"
	"testing"

	"agencyhub/activities/mailer/smtptest"
	"agencyhub/migrations/dbtest"
)

// publishPaymentFlow publishes, in the fixture's project, a workflow that starts on a
// recorded payment or a due action and checks what {{ payment.* }} says.
func (e *env) publishPaymentFlow(f billingFixture) {
	e.t.Helper()
	e.publishGraph(f.owner, f.projectID, "Payments", map[string]any{
		"actions": []any{
			map[string]any{"action_key": "paid", "action_type_key": "payment.event_trigger", "config": map[string]any{
				"event_types": []any{"payment.recorded", "payment_action.due"}}},
			map[string]any{"action_key": "check", "action_type_key": "condition.branch", "config": map[string]any{
				"text": `payment.client.name == "Acme" && (payment.event_type == "payment_action.due" || payment.payment.amount == "25000.00")`}},
			map[string]any{"action_key": "done", "action_type_key": "stop", "config": map[string]any{}},
		},
		"connections": []any{
			map[string]any{"from": "paid", "to": "check"},
			map[string]any{"from": "check", "to": "done", "branch": "true"},
		},
	})
}

// paymentRun waits until a payment action has the run a payment event started, waits for
// that run to end, and answers it and its condition's result.
func (e *env) paymentRun(f billingFixture, actionID string) (run *response, checked any) {
	e.t.Helper()
	runID := waitFor(e.t.(*testing.T), func() (string, bool) {
		id, _ := e.paymentAction(f, actionID).json["workflow_run_id"].(string)
		return id, id != ""
	})
	run = e.waitRun(f.owner, runID)
	for _, a := range e.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/actions", token: f.owner.token}).expect(e.t, http.StatusOK).items() {
		if a["action_key"] == "check" {
			output, _ := a["output_json"].(map[string]any)
			checked = output["result"]
		}
	}
	return run, checked
}

func TestPaymentEventsStartWorkflows(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db) // the server's clock says 21 November 2026
		f := e.billingFixture("Ada")
		e.publishPaymentFlow(f)

		t.Run("a recorded payment starts a run that reads it, and the action names the run", func(t *testing.T) {
			paid := e.pay(f, manualPayment(f, "jan", "2027-01-31", 25000)).expect(t, http.StatusCreated)
			run, checked := e.paymentRun(f, paid.str("payment_action_id"))
			if run.str("status") != "succeeded" || run.str("trigger_type") != "payment" || checked != true {
				t.Fatalf("run %s, condition %v", run.Body, checked)
			}
		})
		t.Run("an action due today starts a run as soon as its service is created", func(t *testing.T) {
			e.addService(f, map[string]any{"name": "Hosting", "amount": 1500, "next_due_date": "2026-11-21"})
			var due string
			for _, a := range e.do(req{method: "GET", path: "/api/v1/projects/" + f.projectID + "/payment-actions", token: f.owner.token}).
				expect(t, http.StatusOK).items() {
				if a["due_date"] == "2026-11-21" {
					due = a["payment_action_id"].(string)
				}
			}
			run, checked := e.paymentRun(f, due)
			if run.str("status") != "succeeded" || checked != true {
				t.Fatalf("run %s, condition %v", run.Body, checked)
			}
			if res := e.billingCycle(); res.Created != 0 || res.Due != 0 {
				t.Fatalf("the cycle billed it or queued its due event again: %+v", res)
			}
		})
	})
}

// The reminder of the payment-events integration doc, imported as the doc shows it: a due
// action sends the account manager an e-mail.
func TestThePaymentReminderOfTheDocsRemindsOfADuePayment(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t)) // the server's clock says 21 November 2026
	f := e.billingFixture("Ada")
	smtp := smtptest.Start(t)
	mailID := e.do(req{method: "POST", path: "/api/v1/projects/" + f.projectID + "/action-dependencies", token: f.owner.token, body: map[string]any{
		"dependency_type_key": "smtp.server", "name": "Mail",
		"metadata": map[string]any{"host": smtp.Host, "port": smtp.Port, "from": "noreply@agency.example"},
	}}).expect(t, http.StatusCreated).str("action_dependency_id")

	doc := e.do(req{method: "GET", path: "/api/v1/docs/integrations/payment-events.md"}).expect(t, http.StatusOK).Body.String()
	_, rest, _ := strings.Cut(doc, "```json\n")
	example, _, found := strings.Cut(rest, "```")
	if !found {
		t.Fatalf("the doc has no JSON example:\n%s", doc)
	}
	wf := e.do(req{method: "POST", path: "/api/v1/projects/" + f.projectID + "/workflows", token: f.owner.token,
		body: map[string]any{"name": "Payment reminder"}}).expect(t, http.StatusCreated).str("workflow_id")
	e.do(req{method: "POST", path: "/api/v1/workflows/" + wf + "/ai-import", token: f.owner.token,
		body: strings.ReplaceAll(example, "<smtp integration id>", mailID)}).expect(t, http.StatusOK)
	e.do(req{method: "POST", path: "/api/v1/workflows/" + wf + "/publish", token: f.owner.token}).expect(t, http.StatusCreated)

	e.addService(f, map[string]any{"name": "Hosting", "amount": 1500, "next_due_date": "2026-11-21"}) // due today: due at once
	msgs := waitFor(t, func() ([]smtptest.Message, bool) { return smtp.Messages(), len(smtp.Messages()) > 0 })
	m, err := netmail.ReadMessage(bytes.NewReader(msgs[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(m.Body)
	if m.Header.Get("Subject") != "Payment due from Acme" || !strings.Contains(string(body), "Acme owes 1500.00 RUB, due 2026-11-21.") ||
		!slices.Equal(msgs[0].To, []string{"billing@agency.example"}) {
		t.Fatalf("mail to %v, subject %q, body %q", msgs[0].To, m.Header.Get("Subject"), body)
	}
}
