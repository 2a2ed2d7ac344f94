package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"agencyhub/migrations/dbtest"
)

// TestQueryParametersOutsideTheContractAreRefused: the limits the contract gives query
// parameters (maxLength, maximum, minimum, pattern, enum, format) are enforced as body
// fields' are, with a Problem naming the parameter.
func TestQueryParametersOutsideTheContractAreRefused(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	f := e.workFixture("Ada")
	get := func(path string) *response { return e.do(req{method: "GET", path: path, token: f.owner.token}) }
	for _, c := range []struct{ name, path, param string }{
		{"a client search of 201 characters", "/api/v1/companies/" + f.companyID + "/clients?q=" + strings.Repeat("x", 201), "q"},
		{"a task search of 201 characters", "/api/v1/work/tasks?q=" + strings.Repeat("x", 201), "q"},
		{"a service type status the contract does not list", "/api/v1/client-service-types?status=w", "status"},
		{"a client status the contract does not list", "/api/v1/companies/" + f.companyID + "/clients?status=active,w", "status"},
		{"a page size that is not a number", "/api/v1/companies/" + f.companyID + "/clients?limit=abc", "limit"},
		{"a page size over 200", "/api/v1/companies/" + f.companyID + "/clients?limit=201", "limit"},
		{"a project id that is not a UUID", "/api/v1/work/boards?project_id=x", "project_id"},
		{"a due date that is not a date", "/api/v1/work/tasks?due_to=tomorrow", "due_to"},
		{"a report grouping the contract does not list", "/api/v1/work/reports?group_by=week", "group_by"},
	} {
		t.Run("refuses "+c.name, func(t *testing.T) {
			get(c.path).expect(t, http.StatusBadRequest, c.param)
		})
	}
	t.Run("accepts a client search of 200 characters", func(t *testing.T) {
		get("/api/v1/companies/"+f.companyID+"/clients?q="+strings.Repeat("x", 200)).expect(t, http.StatusOK)
	})
	t.Run("accepts listed statuses", func(t *testing.T) {
		get("/api/v1/client-service-types?status=active,archived").expect(t, http.StatusOK)
	})
}

// TestEmptyQueryValuesMeanAbsent: a query parameter sent with an empty value is the same
// as one not sent, for every parameter of every list.
func TestEmptyQueryValuesMeanAbsent(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	f := e.workFixture("Ada")
	get := func(path string) *response {
		return e.do(req{method: "GET", path: path, token: f.owner.token}).expect(t, http.StatusOK)
	}
	for _, path := range []string{
		"/api/v1/work/tasks?limit=&cursor=&project_id=&due_to=&due_from=&q=&status=",
		"/api/v1/work/boards?project_id=",
		"/api/v1/companies/" + f.companyID + "/clients?limit=&q=&status=",
		"/api/v1/client-service-types?status=",
	} {
		t.Run(path+" lists what the same path without the empty values lists", func(t *testing.T) {
			bare, _, _ := strings.Cut(path, "?")
			if got, want := len(get(path).items()), len(get(bare).items()); got != want {
				t.Fatalf("%d items with the empty values, %d without", got, want)
			}
		})
	}
	t.Run("a required parameter sent empty is missing", func(t *testing.T) {
		e.do(req{method: "GET", path: "/api/v1/public/site-chat/ws?public_key=&visit_session_id=&visitor_token="}).
			expect(t, http.StatusBadRequest, "public_key", "visit_session_id", "visitor_token")
	})
}

// TestRequestShapeIsCheckedBeforeState: a request the contract refuses is answered 400
// whatever the state it would meet; only a well-formed one learns about the state.
func TestRequestShapeIsCheckedBeforeState(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	u := e.signUp("Ada") // no company, so no active company
	t.Run("a malformed board with no active company is a 400", func(t *testing.T) {
		e.do(req{method: "POST", path: "/api/v1/work/boards", token: u.token, body: []any{nil, nil}}).expect(t, http.StatusBadRequest, "body")
	})
	t.Run("a malformed task query with no active company is a 400", func(t *testing.T) {
		e.do(req{method: "GET", path: "/api/v1/work/tasks?limit=0", token: u.token}).expect(t, http.StatusBadRequest, "limit")
	})
	t.Run("a well-formed board with no active company is a 409", func(t *testing.T) {
		e.do(req{method: "POST", path: "/api/v1/work/boards", token: u.token, body: map[string]any{"name": "Site"}}).expect(t, http.StatusConflict, "active_company_id")
	})
}

// TestTheContractSaysWhatTheServerRefuses: the rules the server enforces on a body are the
// contract's, so the answer names what the contract names.
func TestTheContractSaysWhatTheServerRefuses(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	f := e.workFixture("Ada")
	post := func(path string, body any) *response {
		return e.do(req{method: "POST", path: path, token: f.owner.token, body: body})
	}
	t.Run("a task workflow with neither a preset nor a name", func(t *testing.T) {
		post("/api/v1/work/task-workflows", map[string]any{}).expect(t, http.StatusBadRequest, "name", "stages")
	})
	t.Run("a task workflow with an empty name", func(t *testing.T) {
		post("/api/v1/work/task-workflows", map[string]any{"name": "", "stages": []any{map[string]any{"name": "To do"}}}).expect(t, http.StatusBadRequest, "name")
	})
	t.Run("a widget colour that is not hex", func(t *testing.T) {
		post("/api/v1/projects/"+f.projectID+"/site-chat-widgets", map[string]any{"accent_color": "blue"}).expect(t, http.StatusBadRequest, "accent_color")
	})
	t.Run("a presence anonymous_id of 15 characters", func(t *testing.T) {
		e.do(req{method: "POST", path: "/api/v1/public/site-chat/presence", body: map[string]any{"public_key": "pk_unknown", "anonymous_id": "abcdefghijklmno"}}).
			expect(t, http.StatusBadRequest, "anonymous_id")
	})
}

// TestADraftActionWithoutConfigHasAnEmptyConfig: an action may omit config; it is stored
// and answered as {}, the object the response schema promises, in the draft and the list.
func TestADraftActionWithoutConfigHasAnEmptyConfig(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	u := e.signUp("Ada")
	projectID := e.projectIn(u, e.companyOf(u, "Ada Agency"), "Site")
	id := e.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/workflows", token: u.token, body: map[string]any{"name": "Flow"}}).
		expect(t, http.StatusCreated).str("workflow_id")
	configOf := func(draft any) any {
		return draft.(map[string]any)["actions"].([]any)[0].(map[string]any)["config"]
	}
	saved := e.do(req{method: "PUT", path: "/api/v1/workflows/" + id + "/draft", token: u.token, body: map[string]any{
		"actions": []any{map[string]any{"action_key": "a", "label": "A", "action_type_key": "stop"}}, "connections": []any{},
	}}).expect(t, http.StatusOK)
	if c, ok := configOf(saved.json["draft"]).(map[string]any); !ok || len(c) != 0 {
		t.Fatalf("saved draft's config = %#v, want {}", configOf(saved.json["draft"]))
	}
	list := e.do(req{method: "GET", path: "/api/v1/projects/" + projectID + "/workflows", token: u.token}).expect(t, http.StatusOK)
	if c, ok := configOf(list.items()[0]["draft"]).(map[string]any); !ok || len(c) != 0 {
		t.Fatalf("listed draft's config = %#v, want {}", configOf(list.items()[0]["draft"]))
	}
}

// TestAManualPaymentsCurrencyDefaultsToRUB: currency defaults to RUB, as the
// specification says; a payment of a service billed in another currency names it.
func TestAManualPaymentsCurrencyDefaultsToRUB(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	f := e.billingFixture("Ada")
	t.Run("omitted, it is RUB, the service's", func(t *testing.T) {
		e.pay(f, manualPayment(f, "rub-1", "2027-01-31", 25000)).expect(t, http.StatusCreated)
	})
	t.Run("a retry that names RUB is the same payment", func(t *testing.T) {
		body := manualPayment(f, "rub-1", "2027-01-31", 25000)
		body["currency"] = "RUB"
		if !e.pay(f, body).expect(t, http.StatusOK).json["duplicate"].(bool) {
			t.Fatal("not answered as a duplicate")
		}
	})
	usd := e.addService(f, map[string]any{"name": "Hosting", "amount": 100, "currency": "USD", "next_due_date": "2027-01-31"})
	t.Run("omitted for a service billed in USD, it is RUB and refused", func(t *testing.T) {
		body := manualPayment(f, "usd-1", "2027-01-31", 100)
		body["client_service_id"] = usd
		e.pay(f, body).expect(t, http.StatusBadRequest, "currency")
	})
	t.Run("named for a service billed in USD, it is accepted", func(t *testing.T) {
		body := manualPayment(f, "usd-1", "2027-01-31", 100)
		body["client_service_id"], body["currency"] = usd, "USD"
		e.pay(f, body).expect(t, http.StatusCreated)
	})
}

// TestAConfirmedItemNeedsItsIDOnlyWhenInDoubt: payment_action_item_id is optional, as the
// specification says: an item without it is the action's only item, or the action's item
// of the client_service_id it names; otherwise the answer names the missing id.
func TestAConfirmedItemNeedsItsIDOnlyWhenInDoubt(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	f := e.billingFixture("Ada")
	hosting := e.addService(f, map[string]any{"name": "Hosting", "amount": 1500, "next_due_date": "2027-01-10"})
	day := 0
	create := func(body map[string]any) string {
		day++
		body["client_id"], body["due_date"] = f.clientID, fmt.Sprintf("2027-03-%02d", day)
		return e.do(req{method: "POST", path: "/api/v1/projects/" + f.projectID + "/payment-actions/manual", token: f.owner.token, body: body}).
			expect(t, http.StatusCreated).str("payment_action_id")
	}
	confirm := func(actionID string, items ...map[string]any) *response {
		list := make([]any, len(items))
		for i, it := range items {
			list[i] = it
		}
		return e.do(req{method: "POST", path: "/api/v1/payment-actions/" + actionID + "/confirm", token: f.owner.token, body: map[string]any{"items": list}})
	}
	paid := func(t *testing.T, r *response, amount float64) {
		t.Helper()
		r.expect(t, http.StatusOK)
		if fs := facts(r); len(fs) != 1 || fs[0].(map[string]any)["amount"] != amount {
			t.Fatalf("facts: %s", r.Body)
		}
	}
	t.Run("the only item of an action", func(t *testing.T) {
		paid(t, confirm(create(map[string]any{"client_service_id": hosting}), map[string]any{"amount": 700}), 700)
	})
	both := func() string {
		return create(map[string]any{"items": []any{map[string]any{"client_service_id": f.serviceID}, map[string]any{"client_service_id": hosting}}})
	}
	t.Run("an item named by its service", func(t *testing.T) {
		paid(t, confirm(both(), map[string]any{"client_service_id": hosting}), 1500)
	})
	t.Run("an item of an action of two named by neither", func(t *testing.T) {
		confirm(both(), map[string]any{"client_service_id": hosting}, map[string]any{"amount": 10}).
			expect(t, http.StatusBadRequest, "items.1.payment_action_item_id")
	})
	t.Run("a service the action does not bill", func(t *testing.T) {
		other := e.addService(f, map[string]any{"name": "SEO", "amount": 10, "next_due_date": "2027-01-10"})
		confirm(both(), map[string]any{"client_service_id": other}).expect(t, http.StatusBadRequest, "items.0.client_service_id")
	})
	t.Run("one item twice, by its id and by its service", func(t *testing.T) {
		action := both()
		items := e.paymentAction(f, action).json["items"].([]any)
		var hostingItem any
		for _, it := range items {
			if it.(map[string]any)["client_service_id"] == hosting {
				hostingItem = it.(map[string]any)["payment_action_item_id"]
			}
		}
		confirm(action, map[string]any{"payment_action_item_id": hostingItem}, map[string]any{"client_service_id": hosting}).
			expect(t, http.StatusBadRequest, "items.1.client_service_id")
	})
}

// TestAKeyMadeOfANameStepsAsideForAGlobalOne: a type named like a global one ("Hosting")
// gets a key of its own rather than a 409; a key asked for explicitly is still refused.
func TestAKeyMadeOfANameStepsAsideForAGlobalOne(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	f := e.billingFixture("Ada")
	create := func(body map[string]any) *response {
		return e.do(req{method: "POST", path: "/api/v1/companies/" + f.companyID + "/client-service-types", token: f.owner.token, body: body})
	}
	t.Run("a name that makes a global key", func(t *testing.T) {
		key := create(map[string]any{"display_name": "Hosting"}).expect(t, http.StatusCreated).str("service_type_key")
		if key == "hosting" || !strings.HasPrefix(key, "hosting_") {
			t.Fatalf("service_type_key = %q, want hosting_ and a suffix", key)
		}
	})
	t.Run("a global key asked for", func(t *testing.T) {
		create(map[string]any{"display_name": "Our hosting", "service_type_key": "hosting"}).expect(t, http.StatusConflict, "service_type_key")
	})
}
