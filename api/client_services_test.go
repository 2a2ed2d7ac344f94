package api_test

import (
	"net/http"
	"strings"
	"testing"

	"agencyhub/migrations/dbtest"
	"agencyhub/schemas"
)

// keysOf maps the service types of a list by key to their scope_kind.
func keysOf(items []map[string]any) map[string]string {
	out := map[string]string{}
	for _, it := range items {
		out[it["service_type_key"].(string)] = it["scope_kind"].(string)
	}
	return out
}

func TestClientServiceTypes(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		ada := e.signUp("Ada")
		companyID := e.companyOf(ada, "Northwind")
		site, shop := e.projectIn(ada, companyID, "Site"), e.projectIn(ada, companyID, "Shop")
		companyTypes := "/api/v1/companies/" + companyID + "/client-service-types"
		siteTypes, shopTypes := "/api/v1/projects/"+site+"/client-service-types", "/api/v1/projects/"+shop+"/client-service-types"
		list := func(path string) map[string]string {
			return keysOf(e.do(req{method: "GET", path: path, token: ada.token}).expect(t, http.StatusOK).items())
		}
		create := func(path string, body map[string]any) *response {
			return e.do(req{method: "POST", path: path, token: ada.token, body: body})
		}

		retainer := create(companyTypes, map[string]any{"display_name": "Retainer", "sort_order": 1}).expect(t, http.StatusCreated)
		audit := create(siteTypes, map[string]any{"display_name": "Site audit!", "description": "One-off"}).expect(t, http.StatusCreated)
		if retainer.str("scope_kind") != "company" || retainer.str("service_type_key") != "retainer" || retainer.json["project_id"] != nil {
			t.Fatalf("company type: %s", retainer.Body)
		}
		if audit.str("scope_kind") != "project" || audit.str("service_type_key") != "site_audit" || audit.str("project_id") != site {
			t.Fatalf("project type: %s", audit.Body)
		}

		t.Run("the project list merges global, company and project types", func(t *testing.T) {
			got := list(siteTypes)
			if len(got) != len(schemas.GlobalServiceTypes)+2 || got["seo"] != "global" || got["retainer"] != "company" || got["site_audit"] != "project" {
				t.Fatalf("site types: %v", got)
			}
			if _, ok := list(shopTypes)["site_audit"]; ok {
				t.Fatal("another project sees the site's type")
			}
		})
		t.Run("the caller's list has the global types and the active company's", func(t *testing.T) {
			got := list("/api/v1/client-service-types")
			if len(got) != len(schemas.GlobalServiceTypes)+1 || got["retainer"] != "company" {
				t.Fatalf("caller's types: %v", got)
			}
			bob := e.signUp("Bob")
			if got := keysOf(e.do(req{method: "GET", path: "/api/v1/client-service-types", token: bob.token}).expect(t, http.StatusOK).items()); len(got) != len(schemas.GlobalServiceTypes) {
				t.Fatalf("types of a caller with no company: %v", got)
			}
		})
		t.Run("a key is unique in the company and never a global one", func(t *testing.T) {
			create(shopTypes, map[string]any{"display_name": "Audit", "service_type_key": "site_audit"}).expect(t, http.StatusConflict, "service_type_key")
			create(companyTypes, map[string]any{"display_name": "SEO", "service_type_key": "seo"}).expect(t, http.StatusConflict, "service_type_key")
			create(shopTypes, map[string]any{"display_name": "Сопровождение"}).expect(t, http.StatusCreated)
		})
		t.Run("global types are read-only and types change where they belong", func(t *testing.T) {
			seo := globalTypeID(t, "seo")
			e.do(req{method: "PATCH", path: siteTypes + "/" + seo, token: ada.token, body: map[string]any{"display_name": "Mine"}}).expect(t, http.StatusConflict, "client_service_type_id")
			e.do(req{method: "DELETE", path: companyTypes + "/" + seo, token: ada.token}).expect(t, http.StatusConflict, "client_service_type_id")
			e.do(req{method: "PATCH", path: siteTypes + "/" + retainer.str("client_service_type_id"), token: ada.token, body: map[string]any{"display_name": "X"}}).expect(t, http.StatusConflict, "client_service_type_id")
			e.do(req{method: "PATCH", path: companyTypes + "/" + audit.str("client_service_type_id"), token: ada.token, body: map[string]any{"display_name": "X"}}).expect(t, http.StatusConflict, "client_service_type_id")
			e.do(req{method: "PATCH", path: shopTypes + "/" + audit.str("client_service_type_id"), token: ada.token, body: map[string]any{"display_name": "X"}}).expect(t, http.StatusNotFound)
			got := e.do(req{method: "PATCH", path: siteTypes + "/" + audit.str("client_service_type_id"), token: ada.token, body: map[string]any{"display_name": "Audit", "sort_order": 5}}).expect(t, http.StatusOK)
			if got.str("display_name") != "Audit" || got.json["sort_order"] != 5.0 || got.str("service_type_key") != "site_audit" {
				t.Fatalf("patched type: %s", got.Body)
			}
		})
		t.Run("archive hides a type from lists unless status asks", func(t *testing.T) {
			e.do(req{method: "DELETE", path: companyTypes + "/" + retainer.str("client_service_type_id"), token: ada.token}).expect(t, http.StatusNoContent)
			if _, ok := list(siteTypes)["retainer"]; ok {
				t.Fatal("an archived type is listed")
			}
			if list(siteTypes + "?status=archived")["retainer"] != "company" {
				t.Fatal("status=archived does not list the archived type")
			}
		})
		t.Run("a member may add project types, not company ones", func(t *testing.T) {
			mia := e.signUp("Mia")
			e.addToCompany(ada, companyID, mia, "member")
			e.do(req{method: "POST", path: shopTypes, token: mia.token, body: map[string]any{"display_name": "Mia's"}}).expect(t, http.StatusCreated)
			e.do(req{method: "POST", path: companyTypes, token: mia.token, body: map[string]any{"display_name": "Mia's own"}}).expect(t, http.StatusForbidden)
		})
	})
}

func globalTypeID(t *testing.T, key string) string {
	t.Helper()
	for _, g := range schemas.GlobalServiceTypes {
		if g.Key == key {
			return g.ID.String()
		}
	}
	t.Fatalf("no global service type %s", key)
	return ""
}

func TestClientServices(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		ada := e.signUp("Ada")
		companyID := e.companyOf(ada, "Northwind")
		site := e.projectIn(ada, companyID, "Site")
		client := e.newClient(ada, companyID, "Romashka", "7707083893")
		services := client + "/services"
		create := func(body map[string]any) *response {
			return e.do(req{method: "POST", path: services, token: ada.token, body: body})
		}

		t.Run("a service without options gets the defaults", func(t *testing.T) {
			got := create(map[string]any{"project_id": site, "name": "Support"}).expect(t, http.StatusCreated)
			if got.str("currency") != "RUB" || got.str("billing_period") != "monthly" || got.str("status") != "active" ||
				got.str("service_type_key") != "other" || got.str("service_type_name") != "Other" || got.str("client_service_type_id") != globalTypeID(t, "other") {
				t.Fatalf("defaults: %s", got.Body)
			}
			if _, ok := got.json["next_due_date"]; ok {
				t.Fatalf("a service without a due date answers one: %s", got.Body)
			}
			if amount := got.Body.String(); !strings.Contains(amount, `"amount":0.00`) {
				t.Fatalf("amount is not 0.00: %s", amount)
			}
		})

		var svcID string
		t.Run("amounts are exact with two decimals, dates kept", func(t *testing.T) {
			got := create(map[string]any{"project_id": site, "name": "Hosting", "service_type_key": "hosting", "amount": 27500.5, "currency": "USD",
				"billing_period": "quarterly", "next_due_date": "2027-01-31", "raw_price_text": "27 500,50 $ a quarter", "metadata_json": map[string]any{"contract": "A-1"}}).expect(t, http.StatusCreated)
			svcID = got.str("client_service_id")
			body := got.Body.String()
			if !strings.Contains(body, `"amount":27500.50`) || got.str("next_due_date") != "2027-01-31" || got.str("service_type_name") != "Hosting" || got.str("currency") != "USD" {
				t.Fatalf("service: %s", body)
			}
			again := e.do(req{method: "GET", path: "/api/v1/client-services/" + svcID, token: ada.token}).expect(t, http.StatusOK)
			if again.Body.String() != body {
				t.Fatalf("read back %s, created %s", again.Body, body)
			}
			patched := e.do(req{method: "PATCH", path: "/api/v1/client-services/" + svcID, token: ada.token, body: map[string]any{"amount": 0.29}}).expect(t, http.StatusOK)
			if !strings.Contains(patched.Body.String(), `"amount":0.29`) {
				t.Fatalf("0.29 came back as %s", patched.Body)
			}
		})

		t.Run("bad input is refused naming the field and changes nothing", func(t *testing.T) {
			foreign := e.projectIn(ada, e.companyOf(ada, "Southwind"), "Foreign")
			for name, tc := range map[string]struct {
				body     map[string]any
				validate string
			}{
				"three decimals":       {map[string]any{"amount": 10.001}, "amount"},
				"a negative amount":    {map[string]any{"amount": -1}, "amount"},
				"an amount too large":  {map[string]any{"amount": 1e16}, "amount"},
				"an amount as text":    {map[string]any{"amount": "10.00"}, "amount"},
				"an unknown currency":  {map[string]any{"currency": "XYZ"}, "currency"},
				"a lower-case code":    {map[string]any{"currency": "rub"}, "currency"},
				"an unknown period":    {map[string]any{"billing_period": "daily"}, "billing_period"},
				"a bad date":           {map[string]any{"next_due_date": "2027-02-30"}, "next_due_date"},
				"status deleted":       {map[string]any{"status": "deleted"}, "status"},
				"another company":      {map[string]any{"project_id": foreign}, "project_id"},
				"an unknown type key":  {map[string]any{"service_type_key": "nothing"}, "service_type_key"},
				"an unknown type id":   {map[string]any{"client_service_type_id": "0192f6a4-2c5e-7d3a-9b1f-3e4d5c6b7a80"}, "client_service_type_id"},
				"a type and key apart": {map[string]any{"client_service_type_id": globalTypeID(t, "seo"), "service_type_key": "hosting"}, "client_service_type_id,service_type_key"},
				"a blank name":         {map[string]any{"name": " "}, "name"},
			} {
				t.Run(name, func(t *testing.T) {
					e.do(req{method: "PATCH", path: "/api/v1/client-services/" + svcID, token: ada.token, body: tc.body}).expect(t, http.StatusBadRequest, tc.validate)
				})
			}
			got := e.do(req{method: "GET", path: "/api/v1/client-services/" + svcID, token: ada.token}).expect(t, http.StatusOK)
			if got.str("project_id") != site || got.str("currency") != "USD" || got.str("name") != "Hosting" || !strings.Contains(got.Body.String(), `"amount":0.29`) {
				t.Fatalf("refused patches changed the service: %s", got.Body)
			}
		})

		t.Run("an archived type is kept by its services and refused to new ones", func(t *testing.T) {
			siteTypes := "/api/v1/projects/" + site + "/client-service-types"
			audit := e.do(req{method: "POST", path: siteTypes, token: ada.token, body: map[string]any{"display_name": "Audit"}}).expect(t, http.StatusCreated)
			svc := create(map[string]any{"project_id": site, "name": "Audit 2027", "client_service_type_id": audit.str("client_service_type_id")}).expect(t, http.StatusCreated)
			e.do(req{method: "DELETE", path: siteTypes + "/" + audit.str("client_service_type_id"), token: ada.token}).expect(t, http.StatusNoContent)
			create(map[string]any{"project_id": site, "name": "Audit 2028", "service_type_key": "audit"}).expect(t, http.StatusBadRequest, "service_type_key")
			kept := e.do(req{method: "PATCH", path: "/api/v1/client-services/" + svc.str("client_service_id"), token: ada.token, body: map[string]any{"name": "Audit of 2027"}}).expect(t, http.StatusOK)
			if kept.str("service_type_key") != "audit" || kept.str("service_type_name") != "Audit" {
				t.Fatalf("service of an archived type: %s", kept.Body)
			}
		})

		t.Run("delete keeps the service as deleted, out of lists and counts", func(t *testing.T) {
			before := len(e.do(req{method: "GET", path: services, token: ada.token}).expect(t, http.StatusOK).items())
			e.do(req{method: "DELETE", path: "/api/v1/client-services/" + svcID, token: ada.token}).expect(t, http.StatusNoContent)
			if got := e.do(req{method: "GET", path: "/api/v1/client-services/" + svcID, token: ada.token}).expect(t, http.StatusOK); got.str("status") != "deleted" {
				t.Fatalf("deleted service: %s", got.Body)
			}
			if after := len(e.do(req{method: "GET", path: services, token: ada.token}).expect(t, http.StatusOK).items()); after != before-1 {
				t.Fatalf("listed %d services after a delete, %d before", after, before)
			}
			if deleted := e.do(req{method: "GET", path: services + "?status=deleted", token: ada.token}).expect(t, http.StatusOK).items(); len(deleted) != 1 {
				t.Fatalf("deleted services listed: %v", deleted)
			}
			if got := e.do(req{method: "GET", path: client, token: ada.token}).expect(t, http.StatusOK); got.json["services_count"] != float64(before-1) {
				t.Fatalf("services_count after a delete: %s", got.Body)
			}
		})

		t.Run("deleting the client archives its billed services and refuses new ones", func(t *testing.T) {
			e.do(req{method: "DELETE", path: client, token: ada.token}).expect(t, http.StatusNoContent)
			for _, s := range e.do(req{method: "GET", path: services + "?status=active,paused", token: ada.token}).expect(t, http.StatusOK).items() {
				t.Errorf("service still billed after its client was deleted: %v", s)
			}
			create(map[string]any{"project_id": site, "name": "Late"}).expect(t, http.StatusConflict)
		})
	})
}
