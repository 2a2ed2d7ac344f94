package api_test

import (
	"net/http"
	"sync"
	"testing"

	"agencyhub/migrations/dbtest"
)

// billingFixture is a company with a project, a client and a monthly service of that client
// due on 31 January 2027.
type billingFixture struct {
	owner                                     user
	companyID, projectID, clientID, serviceID string
}

func (e *env) billingFixture(name string) billingFixture {
	e.t.Helper()
	f := billingFixture{owner: e.signUp(name)}
	f.companyID = e.companyOf(f.owner, name+" Agency")
	f.projectID = e.projectIn(f.owner, f.companyID, name+" Site")
	f.clientID = e.do(req{method: "POST", path: "/api/v1/companies/" + f.companyID + "/clients", token: f.owner.token,
		body: map[string]any{"client_type": "legal_entity", "name": "Acme", "inn": "7707083893"}}).expect(e.t, http.StatusCreated).str("client_id")
	f.serviceID = e.addService(f, map[string]any{"name": "Support", "amount": 25000, "next_due_date": "2027-01-31"})
	return f
}

// addService adds a service to the fixture's client in its project.
func (e *env) addService(f billingFixture, body map[string]any) string {
	e.t.Helper()
	body["project_id"] = f.projectID
	return e.do(req{method: "POST", path: "/api/v1/clients/" + f.clientID + "/services", token: f.owner.token, body: body}).
		expect(e.t, http.StatusCreated).str("client_service_id")
}

func (e *env) service(f billingFixture, id string) *response {
	e.t.Helper()
	return e.do(req{method: "GET", path: "/api/v1/client-services/" + id, token: f.owner.token}).expect(e.t, http.StatusOK)
}

// manualPayment is a payment of the fixture's service for the period starting on periodStart.
func manualPayment(f billingFixture, key, periodStart string, amount float64) map[string]any {
	return map[string]any{"client_service_id": f.serviceID, "amount": amount, "period_start": periodStart,
		"paid_at": "2027-02-01T10:00:00Z", "payment_method": "bank_transfer", "idempotency_key": key}
}

func (e *env) pay(f billingFixture, body map[string]any) *response {
	e.t.Helper()
	return e.do(req{method: "POST", path: "/api/v1/clients/" + f.clientID + "/payments/manual", token: f.owner.token, body: body})
}

func (e *env) paymentAction(f billingFixture, id string) *response {
	e.t.Helper()
	return e.do(req{method: "GET", path: "/api/v1/payment-actions/" + id, token: f.owner.token}).expect(e.t, http.StatusOK)
}

func facts(r *response) []any {
	fs, _ := r.json["facts"].([]any)
	return fs
}

func TestManualPayments(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		f := e.billingFixture("Ada")

		first := e.pay(f, manualPayment(f, "jan", "2027-01-31", 25000)).expect(t, http.StatusCreated)
		t.Run("a payment answers its event and creates the period's paid action", func(t *testing.T) {
			if first.str("event_type") != "payment.recorded" || first.str("event_source") != "manual" || first.json["duplicate"] != false ||
				first.str("event_subject") != "client/"+f.clientID+"/service/"+f.serviceID || first.str("status") != "processed" || first.str("idempotency_key") != "jan" {
				t.Fatalf("answer: %s", first.Body)
			}
			a := e.paymentAction(f, first.str("payment_action_id"))
			if a.str("status") != "paid" || a.json["total_amount"] != 25000.0 || a.str("period_start") != "2027-01-31" || a.str("period_end") != "2027-02-27" ||
				len(facts(a)) != 1 || a.str("client_name") != "Acme" || a.str("payment_method") != "bank_transfer" {
				t.Fatalf("action: %s", a.Body)
			}
		})
		t.Run("the same key with the same payment answers the first answer as a duplicate", func(t *testing.T) {
			again := e.pay(f, manualPayment(f, "jan", "2027-01-31", 25000)).expect(t, http.StatusOK)
			for _, field := range []string{"event_id", "payment_action_id", "payment_fact_id", "event_subject"} {
				if again.str(field) != first.str(field) {
					t.Errorf("%s = %s, first answered %s", field, again.str(field), first.str(field))
				}
			}
			if again.json["duplicate"] != true {
				t.Fatalf("duplicate: %s", again.Body)
			}
			body := manualPayment(f, "", "2027-01-31", 25000)
			delete(body, "idempotency_key")
			header := e.do(req{method: "POST", path: "/api/v1/clients/" + f.clientID + "/payments/manual", token: f.owner.token, body: body,
				header: map[string]string{"Idempotency-Key": "jan"}}).expect(t, http.StatusOK)
			if header.str("payment_fact_id") != first.str("payment_fact_id") {
				t.Fatalf("the key in the header is another key: %s", header.Body)
			}
			if n := len(facts(e.paymentAction(f, first.str("payment_action_id")))); n != 1 {
				t.Fatalf("facts after duplicates = %d, want 1", n)
			}
		})
		t.Run("the same key with another payment is 409 and records nothing", func(t *testing.T) {
			e.pay(f, manualPayment(f, "jan", "2027-01-31", 24000)).expect(t, http.StatusConflict, "idempotency_key")
			if n := len(facts(e.paymentAction(f, first.str("payment_action_id")))); n != 1 {
				t.Fatalf("facts = %d, want 1", n)
			}
		})
		t.Run("a key is required, and a header that differs from the body is 400", func(t *testing.T) {
			body := manualPayment(f, "", "2027-02-28", 25000)
			delete(body, "idempotency_key")
			e.pay(f, body).expect(t, http.StatusBadRequest, "idempotency_key")
			e.do(req{method: "POST", path: "/api/v1/clients/" + f.clientID + "/payments/manual", token: f.owner.token,
				body: manualPayment(f, "feb", "2027-02-28", 25000), header: map[string]string{"Idempotency-Key": "other"}}).expect(t, http.StatusBadRequest, "idempotency_key")
		})
		t.Run("due dates never drift from the anchor day", func(t *testing.T) {
			if got := e.service(f, f.serviceID).str("next_due_date"); got != "2027-02-28" {
				t.Fatalf("after January: next_due_date = %s, want 2027-02-28", got)
			}
			for _, step := range []struct{ key, period, next string }{
				{"feb", "2027-02-28", "2027-03-31"},
				{"mar", "2027-03-31", "2027-04-30"},
				{"apr", "2027-04-30", "2027-05-31"},
			} {
				e.pay(f, manualPayment(f, step.key, step.period, 25000)).expect(t, http.StatusCreated)
				if got := e.service(f, f.serviceID).str("next_due_date"); got != step.next {
					t.Fatalf("after %s: next_due_date = %s, want %s", step.period, got, step.next)
				}
			}
		})
		t.Run("a payment for an old period never moves the due date back", func(t *testing.T) {
			e.pay(f, manualPayment(f, "dec", "2026-12-31", 25000)).expect(t, http.StatusCreated)
			if got := e.service(f, f.serviceID).str("next_due_date"); got != "2027-05-31" {
				t.Fatalf("next_due_date = %s, want 2027-05-31", got)
			}
		})
		t.Run("an explicit next_due_date wins and becomes the anchor", func(t *testing.T) {
			body := manualPayment(f, "may", "2027-05-31", 25000)
			body["next_due_date"] = "2027-07-15"
			e.pay(f, body).expect(t, http.StatusCreated)
			if got := e.service(f, f.serviceID).str("next_due_date"); got != "2027-07-15" {
				t.Fatalf("next_due_date = %s, want 2027-07-15", got)
			}
			e.pay(f, manualPayment(f, "jul", "2027-07-15", 25000)).expect(t, http.StatusCreated)
			if got := e.service(f, f.serviceID).str("next_due_date"); got != "2027-08-15" {
				t.Fatalf("next_due_date = %s, want 2027-08-15", got)
			}
		})
		t.Run("a service billed once becomes completed", func(t *testing.T) {
			audit := e.addService(f, map[string]any{"name": "Audit", "amount": 90000, "billing_period": "once", "next_due_date": "2027-03-01"})
			body := manualPayment(f, "audit", "2027-03-01", 90000)
			body["client_service_id"] = audit
			e.pay(f, body).expect(t, http.StatusCreated)
			if got := e.service(f, audit); got.str("status") != "completed" || got.str("next_due_date") != "2027-03-01" {
				t.Fatalf("service billed once: %s", got.Body)
			}
		})
		t.Run("an API key's payment has the source api_key", func(t *testing.T) {
			key := e.do(req{method: "POST", path: "/api/v1/auth/api-keys", token: f.owner.token, body: map[string]any{"name": "bank"}}).expect(t, http.StatusOK).str("key")
			got := e.do(req{method: "POST", path: "/api/v1/clients/" + f.clientID + "/payments/manual", apiKey: key,
				body: manualPayment(f, "by-key", "2027-08-15", 25000)}).expect(t, http.StatusCreated)
			if got.str("event_source") != "api_key" {
				t.Fatalf("answer: %s", got.Body)
			}
			if a := e.paymentAction(f, got.str("payment_action_id")); a.str("source") != "api_key" {
				t.Fatalf("action: %s", a.Body)
			}
		})
		t.Run("a payment that does not fit the service is 400 and records nothing", func(t *testing.T) {
			other := e.billingFixture("Bob")
			before := e.do(req{method: "GET", path: "/api/v1/clients/" + f.clientID + "/payment-actions", token: f.owner.token}).expect(t, http.StatusOK).Body.String()
			for name, tc := range map[string]struct {
				change   func(map[string]any)
				validate string
			}{
				"another client's service": {func(b map[string]any) { b["client_service_id"] = other.serviceID }, "client_service_id"},
				"another project":          {func(b map[string]any) { b["project_id"] = other.projectID }, "project_id"},
				"another currency":         {func(b map[string]any) { b["currency"] = "USD" }, "currency"},
				"a period ending early":    {func(b map[string]any) { b["period_end"] = "2027-09-01" }, "period_end"},
				"three decimals":           {func(b map[string]any) { b["amount"] = 1.005 }, "amount"},
				"an unknown method":        {func(b map[string]any) { b["payment_method"] = "barter" }, "payment_method"},
			} {
				t.Run(name, func(t *testing.T) {
					body := manualPayment(f, "bad-"+name, "2027-09-15", 25000)
					tc.change(body)
					e.pay(f, body).expect(t, http.StatusBadRequest, tc.validate)
				})
			}
			after := e.do(req{method: "GET", path: "/api/v1/clients/" + f.clientID + "/payment-actions", token: f.owner.token}).expect(t, http.StatusOK).Body.String()
			if after != before {
				t.Fatal("a refused payment changed the client's payment actions")
			}
			// A refused payment does not spend its key.
			e.pay(f, manualPayment(f, "bad-another currency", "2027-09-15", 25000)).expect(t, http.StatusCreated)
		})
	})
}

// TestConcurrentDuplicatePaymentsRecordOneFact sends one payment 200 times at once: one
// answer records it, every other one is its duplicate, and the action has one fact.
func TestConcurrentDuplicatePaymentsRecordOneFact(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		f := e.billingFixture("Ada")
		const n = 200
		answers := make([]*response, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { answers[i] = e.pay(f, manualPayment(f, "once", "2027-01-31", 25000)) })
		}
		wg.Wait()
		fresh, duplicates := 0, 0
		for _, a := range answers {
			switch {
			case a.Code == http.StatusCreated && a.json["duplicate"] == false:
				fresh++
			case a.Code == http.StatusOK && a.json["duplicate"] == true && a.str("payment_fact_id") == answers[0].str("payment_fact_id"):
				duplicates++
			default:
				t.Errorf("answer %d: %s", a.Code, a.Body)
			}
		}
		if fresh != 1 || duplicates != n-1 {
			t.Fatalf("%d first answers and %d duplicates, want 1 and %d", fresh, duplicates, n-1)
		}
		if got := len(facts(e.paymentAction(f, answers[0].str("payment_action_id")))); got != 1 {
			t.Fatalf("facts = %d, want 1", got)
		}
	})
}

func TestPaymentActions(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		f := e.billingFixture("Ada")
		hosting := e.addService(f, map[string]any{"name": "Hosting", "amount": 1500.5, "next_due_date": "2027-01-10"})
		create := func(body map[string]any) *response {
			return e.do(req{method: "POST", path: "/api/v1/projects/" + f.projectID + "/payment-actions/manual", token: f.owner.token, body: body})
		}
		both := create(map[string]any{"client_id": f.clientID, "due_date": "2027-01-31", "comment": "January",
			"items": []any{map[string]any{"client_service_id": f.serviceID}, map[string]any{"client_service_id": hosting, "amount": 1000}}}).expect(t, http.StatusCreated)
		one := create(map[string]any{"client_id": f.clientID, "client_service_id": hosting, "due_date": "2027-02-10"}).expect(t, http.StatusCreated)

		t.Run("a manual action is pending with one item per service, its period ending with the first", func(t *testing.T) {
			items, _ := both.json["items"].([]any)
			if both.str("status") != "pending" || both.json["total_amount"] != 26000.0 || len(items) != 2 || both.str("project_name") != "Ada Site" ||
				both.str("period_end") != "2027-02-09" || both.str("comment") != "January" || len(facts(both)) != 0 {
				t.Fatalf("action: %s", both.Body)
			}
			if one.json["total_amount"] != 1500.5 {
				t.Fatalf("a single service's action takes its amount: %s", one.Body)
			}
		})
		t.Run("bad manual actions are refused and create nothing", func(t *testing.T) {
			other := e.billingFixture("Bob")
			for name, tc := range map[string]struct {
				body     map[string]any
				status   int
				validate []string
			}{
				"neither service nor items":   {map[string]any{"client_id": f.clientID, "due_date": "2027-03-01"}, 400, []string{"client_service_id", "items"}},
				"another company's client":    {map[string]any{"client_id": other.clientID, "client_service_id": f.serviceID, "due_date": "2027-03-01"}, 400, []string{"client_id"}},
				"another client's service":    {map[string]any{"client_id": f.clientID, "client_service_id": other.serviceID, "due_date": "2027-03-01"}, 400, []string{"client_service_id"}},
				"a service twice":             {map[string]any{"client_id": f.clientID, "due_date": "2027-03-01", "items": []any{map[string]any{"client_service_id": hosting}, map[string]any{"client_service_id": hosting}}}, 400, []string{"items"}},
				"an amount that is not a sum": {map[string]any{"client_id": f.clientID, "due_date": "2027-03-01", "amount": 1, "items": []any{map[string]any{"client_service_id": hosting}}}, 400, []string{"amount"}},
				"a due date already billed":   {map[string]any{"client_id": f.clientID, "client_service_id": hosting, "due_date": "2027-02-10"}, 409, []string{"client_service_id"}},
			} {
				t.Run(name, func(t *testing.T) { create(tc.body).expect(t, tc.status, tc.validate...) })
			}
			list := e.do(req{method: "GET", path: "/api/v1/projects/" + f.projectID + "/payment-actions", token: f.owner.token}).expect(t, http.StatusOK)
			if len(list.items()) != 2 {
				t.Fatalf("actions after refusals: %s", list.Body)
			}
		})
		t.Run("lists filter by status and due date and page", func(t *testing.T) {
			for path, want := range map[string]int{
				"/api/v1/projects/" + f.projectID + "/payment-actions":                                       2,
				"/api/v1/clients/" + f.clientID + "/payment-actions?status=pending":                          2,
				"/api/v1/clients/" + f.clientID + "/payment-actions?status=paid":                             0,
				"/api/v1/projects/" + f.projectID + "/payment-actions?due_from=2027-02-01":                   1,
				"/api/v1/projects/" + f.projectID + "/payment-actions?due_from=2027-01-31&due_to=2027-01-31": 1,
			} {
				if got := len(e.do(req{method: "GET", path: path, token: f.owner.token}).expect(t, http.StatusOK).items()); got != want {
					t.Errorf("%s: %d actions, want %d", path, got, want)
				}
			}
			page := e.do(req{method: "GET", path: "/api/v1/projects/" + f.projectID + "/payment-actions?limit=1", token: f.owner.token}).expect(t, http.StatusOK)
			next := e.do(req{method: "GET", path: "/api/v1/projects/" + f.projectID + "/payment-actions?limit=1&cursor=" + page.str("next_cursor"), token: f.owner.token}).expect(t, http.StatusOK)
			if page.items()[0]["payment_action_id"] != both.str("payment_action_id") || next.items()[0]["payment_action_id"] != one.str("payment_action_id") || next.str("next_cursor") != "" {
				t.Fatalf("pages: %s then %s", page.Body, next.Body)
			}
			e.do(req{method: "GET", path: "/api/v1/projects/" + f.projectID + "/payment-actions?due_from=31.01.2027", token: f.owner.token}).expect(t, http.StatusBadRequest, "due_from")
			e.do(req{method: "GET", path: "/api/v1/projects/" + f.projectID + "/payment-actions?status=late", token: f.owner.token}).expect(t, http.StatusBadRequest, "status")
		})
		action := "/api/v1/payment-actions/" + both.str("payment_action_id")
		t.Run("snooze hides an action until a later date", func(t *testing.T) {
			e.do(req{method: "POST", path: action + "/snooze", token: f.owner.token, body: map[string]any{"snoozed_until": "2026-11-21"}}).expect(t, http.StatusBadRequest, "snoozed_until")
			got := e.do(req{method: "POST", path: action + "/snooze", token: f.owner.token, body: map[string]any{"snoozed_until": "2026-12-01", "comment": "Asked for a week"}}).expect(t, http.StatusOK)
			if got.str("status") != "snoozed" || got.str("comment") != "Asked for a week" {
				t.Fatalf("snoozed: %s", got.Body)
			}
		})
		t.Run("a short confirmation needs a decision, the rest pays the action", func(t *testing.T) {
			part := e.do(req{method: "POST", path: action + "/confirm", token: f.owner.token, body: map[string]any{"amount": 20000, "payment_method": "card"}}).expect(t, http.StatusOK)
			if part.str("status") != "needs_decision" || len(facts(part)) != 1 || part.str("payment_method") != "card" || part.str("confirmed_at") == "" {
				t.Fatalf("after a part: %s", part.Body)
			}
			rest := e.do(req{method: "POST", path: action + "/confirm", token: f.owner.token}).expect(t, http.StatusOK)
			fs := facts(rest)
			if rest.str("status") != "paid" || len(fs) != 2 || fs[1].(map[string]any)["amount"] != 6000.0 || fs[1].(map[string]any)["payment_method"] != "card" {
				t.Fatalf("after the rest: %s", rest.Body)
			}
			if got := e.service(f, f.serviceID).str("next_due_date"); got != "2027-02-28" {
				t.Fatalf("support's next_due_date = %s, want 2027-02-28", got)
			}
			if got := e.service(f, hosting).str("next_due_date"); got != "2027-02-10" {
				t.Fatalf("hosting's next_due_date = %s, want 2027-02-10 (a month after the item's due date, on its anchor day)", got)
			}
		})
		t.Run("paid actions refuse confirm and snooze", func(t *testing.T) {
			e.do(req{method: "POST", path: action + "/confirm", token: f.owner.token, body: map[string]any{}}).expect(t, http.StatusConflict, "payment_action_id")
			e.do(req{method: "POST", path: action + "/snooze", token: f.owner.token, body: map[string]any{"snoozed_until": "2027-06-01"}}).expect(t, http.StatusConflict, "payment_action_id")
		})
		t.Run("confirming items pays their sum; next_due_date applies to every service", func(t *testing.T) {
			items, _ := one.json["items"].([]any)
			itemID := items[0].(map[string]any)["payment_action_item_id"]
			e.do(req{method: "POST", path: "/api/v1/payment-actions/" + one.str("payment_action_id") + "/confirm", token: f.owner.token,
				body: map[string]any{"items": []any{map[string]any{"payment_action_item_id": both.json["payment_action_id"]}}}}).expect(t, http.StatusBadRequest, "items.0.payment_action_item_id")
			got := e.do(req{method: "POST", path: "/api/v1/payment-actions/" + one.str("payment_action_id") + "/confirm", token: f.owner.token,
				body: map[string]any{"items": []any{map[string]any{"payment_action_item_id": itemID}}, "next_due_date": "2027-04-01", "source": "bank"}}).expect(t, http.StatusOK)
			if got.str("status") != "paid" || got.str("source") != "bank" || facts(got)[0].(map[string]any)["amount"] != 1500.5 {
				t.Fatalf("confirmed by items: %s", got.Body)
			}
			if got := e.service(f, hosting).str("next_due_date"); got != "2027-04-01" {
				t.Fatalf("hosting's next_due_date = %s, want 2027-04-01", got)
			}
		})
	})
}

// TestConcurrentConfirmsRecordOneFact confirms one action from many requests at once: one
// pays it, the others find it paid.
func TestConcurrentConfirmsRecordOneFact(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		f := e.billingFixture("Ada")
		a := e.do(req{method: "POST", path: "/api/v1/projects/" + f.projectID + "/payment-actions/manual", token: f.owner.token,
			body: map[string]any{"client_id": f.clientID, "client_service_id": f.serviceID, "due_date": "2027-01-31"}}).expect(t, http.StatusCreated)
		const n = 50
		codes := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				codes[i] = e.do(req{method: "POST", path: "/api/v1/payment-actions/" + a.str("payment_action_id") + "/confirm", token: f.owner.token, body: map[string]any{}}).Code
			})
		}
		wg.Wait()
		count := map[int]int{}
		for _, c := range codes {
			count[c]++
		}
		if count[http.StatusOK] != 1 || count[http.StatusConflict] != n-1 {
			t.Fatalf("answers by status: %v, want one 200 and %d 409", count, n-1)
		}
		got := e.paymentAction(f, a.str("payment_action_id"))
		if len(facts(got)) != 1 || got.str("status") != "paid" {
			t.Fatalf("action: %s", got.Body)
		}
		if next := e.service(f, f.serviceID).str("next_due_date"); next != "2027-02-28" {
			t.Fatalf("next_due_date = %s, want 2027-02-28", next)
		}
	})
}
