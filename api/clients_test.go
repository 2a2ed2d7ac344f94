package api_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"agencyhub/migrations/dbtest"
)

// addClientIDs adds a client with a contact, a responsible, a service, a project service
// type and a payment action with a document in the fixture's project, and party lookup
// settings to the company and the project, so every client operation has ids to use.
func (e *env) addClientIDs(u user, ids map[string]string) {
	e.t.Helper()
	client := e.do(req{method: "POST", path: "/api/v1/companies/" + ids["company_id"] + "/clients", token: u.token,
		body: map[string]any{"client_type": "legal_entity", "name": "Fixture client", "inn": "7707083893"}}).expect(e.t, http.StatusCreated)
	ids["client_id"] = client.str("client_id")
	base := "/api/v1/clients/" + ids["client_id"]
	post := func(path, idField string, body map[string]any) {
		ids[idField] = e.do(req{method: "POST", path: path, token: u.token, body: body}).expect(e.t, http.StatusCreated).str(idField)
	}
	post(base+"/contacts", "client_contact_id", map[string]any{"name": "Fixture contact"})
	post(base+"/responsibles", "client_responsible_id", map[string]any{"user_id": u.id, "role": "account_manager"})
	post("/api/v1/projects/"+ids["project_id"]+"/client-service-types", "client_service_type_id", map[string]any{"display_name": "Fixture type"})
	post(base+"/services", "client_service_id", map[string]any{"project_id": ids["project_id"], "name": "Fixture service", "client_service_type_id": ids["client_service_type_id"]})
	post("/api/v1/projects/"+ids["project_id"]+"/payment-actions/manual", "payment_action_id",
		map[string]any{"client_id": ids["client_id"], "client_service_id": ids["client_service_id"], "due_date": "2027-01-31"})
	ids["payment_action_document_id"] = e.upload(u, ids["payment_action_id"], "invoice.txt", []byte("Invoice 1"), nil).
		expect(e.t, http.StatusCreated).str("payment_action_document_id")
	for _, path := range []string{"/api/v1/companies/" + ids["company_id"], "/api/v1/projects/" + ids["project_id"]} {
		e.do(req{method: "PUT", path: path + "/integrations/party-lookup", token: u.token,
			body: map[string]any{"provider": "party_lookup", "api_base_url": "https://registry.example", "token": "fixture-token-0123456789"}}).expect(e.t, http.StatusOK)
	}
}

// clientOps are the operations of clients and their services, with the ids they take.
var clientOps = []struct{ method, path string }{
	{"GET", "/api/v1/companies/{company_id}/clients"},
	{"POST", "/api/v1/companies/{company_id}/clients"},
	{"GET", "/api/v1/clients/{client_id}"},
	{"PATCH", "/api/v1/clients/{client_id}"},
	{"DELETE", "/api/v1/clients/{client_id}"},
	{"GET", "/api/v1/clients/{client_id}/contacts"},
	{"POST", "/api/v1/clients/{client_id}/contacts"},
	{"PATCH", "/api/v1/clients/{client_id}/contacts/{client_contact_id}"},
	{"DELETE", "/api/v1/clients/{client_id}/contacts/{client_contact_id}"},
	{"GET", "/api/v1/clients/{client_id}/responsibles"},
	{"POST", "/api/v1/clients/{client_id}/responsibles"},
	{"PATCH", "/api/v1/clients/{client_id}/responsibles/{client_responsible_id}"},
	{"DELETE", "/api/v1/clients/{client_id}/responsibles/{client_responsible_id}"},
	{"GET", "/api/v1/clients/{client_id}/projects"},
	{"POST", "/api/v1/clients/{client_id}/projects/{project_id}"},
	{"DELETE", "/api/v1/clients/{client_id}/projects/{project_id}"},
	{"GET", "/api/v1/clients/{client_id}/services"},
	{"POST", "/api/v1/clients/{client_id}/services"},
	{"GET", "/api/v1/client-services/{client_service_id}"},
	{"PATCH", "/api/v1/client-services/{client_service_id}"},
	{"DELETE", "/api/v1/client-services/{client_service_id}"},
	{"POST", "/api/v1/companies/{company_id}/client-service-types"},
	{"PATCH", "/api/v1/companies/{company_id}/client-service-types/{client_service_type_id}"},
	{"DELETE", "/api/v1/companies/{company_id}/client-service-types/{client_service_type_id}"},
	{"GET", "/api/v1/projects/{project_id}/client-service-types"},
	{"POST", "/api/v1/projects/{project_id}/client-service-types"},
	{"PATCH", "/api/v1/projects/{project_id}/client-service-types/{client_service_type_id}"},
	{"DELETE", "/api/v1/projects/{project_id}/client-service-types/{client_service_type_id}"},
	{"GET", "/api/v1/clients/{client_id}/payment-actions"},
	{"POST", "/api/v1/clients/{client_id}/payments/manual"},
	{"GET", "/api/v1/projects/{project_id}/payment-actions"},
	{"POST", "/api/v1/projects/{project_id}/payment-actions/manual"},
	{"GET", "/api/v1/projects/{project_id}/payment-schedule"},
	{"GET", "/api/v1/payment-actions/{payment_action_id}"},
	{"POST", "/api/v1/payment-actions/{payment_action_id}/confirm"},
	{"POST", "/api/v1/payment-actions/{payment_action_id}/snooze"},
	{"GET", "/api/v1/payment-actions/{payment_action_id}/documents"},
	{"POST", "/api/v1/payment-actions/{payment_action_id}/documents"},
	{"GET", "/api/v1/payment-action-documents/{payment_action_document_id}"},
	{"POST", "/api/v1/companies/{company_id}/clients/party-lookup/find-party"},
	{"GET", "/api/v1/companies/{company_id}/integrations/party-lookup"},
	{"PUT", "/api/v1/companies/{company_id}/integrations/party-lookup"},
	{"GET", "/api/v1/projects/{project_id}/integrations/party-lookup"},
	{"PUT", "/api/v1/projects/{project_id}/integrations/party-lookup"},
}

func fill(path string, ids map[string]string) string {
	for name, id := range ids {
		path = strings.ReplaceAll(path, "{"+name+"}", id)
	}
	return path
}

// TestClientsOfAnotherCompanyAreNotFound sends every client operation another company's ids,
// alone and mixed with the caller's own, and expects 404 in the path and 400 in a body; the
// victim's client, contact, service and type are as they were.
func TestClientsOfAnotherCompanyAreNotFound(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		victim, intruder := e.signUp("Victim"), e.signUp("Intruder")
		theirs := map[string]string{"company_id": e.companyOf(victim, "Victim Agency")}
		theirs["project_id"] = e.projectIn(victim, theirs["company_id"], "Victim Site")
		e.addClientIDs(victim, theirs)
		ours := map[string]string{"company_id": e.companyOf(intruder, "Intruder Agency")}
		ours["project_id"] = e.projectIn(intruder, ours["company_id"], "Intruder Site")
		e.addClientIDs(intruder, ours)
		before := e.clientState(victim, theirs)

		for _, op := range clientOps {
			body := e.contract.ExampleBody(e.contract.Operation(op.method, op.path))
			t.Run(op.method+" "+op.path+" answers 404 with the other company's ids", func(t *testing.T) {
				e.do(req{method: op.method, path: fill(op.path, theirs), token: intruder.token, body: body}).expect(t, http.StatusNotFound)
			})
		}
		for name, tc := range map[string]struct {
			method, path string
			body         map[string]any
			status       int
			validate     string
		}{
			"linking their project to our client is 404":     {"POST", "/api/v1/clients/" + ours["client_id"] + "/projects/" + theirs["project_id"], nil, http.StatusNotFound, ""},
			"unlinking their project from our client is 404": {"DELETE", "/api/v1/clients/" + ours["client_id"] + "/projects/" + theirs["project_id"], nil, http.StatusNotFound, ""},
			"a service of ours in their project is 400": {"POST", "/api/v1/clients/" + ours["client_id"] + "/services",
				map[string]any{"project_id": theirs["project_id"], "name": "Stolen"}, http.StatusBadRequest, "project_id"},
			"moving our service to their project is 400": {"PATCH", "/api/v1/client-services/" + ours["client_service_id"],
				map[string]any{"project_id": theirs["project_id"]}, http.StatusBadRequest, "project_id"},
			"a service of ours with their type is 400": {"POST", "/api/v1/clients/" + ours["client_id"] + "/services",
				map[string]any{"project_id": ours["project_id"], "name": "Typed", "client_service_type_id": theirs["client_service_type_id"]}, http.StatusBadRequest, "client_service_type_id"},
			"their member as our responsible is 400": {"POST", "/api/v1/clients/" + ours["client_id"] + "/responsibles",
				map[string]any{"user_id": victim.id, "role": "accountant"}, http.StatusBadRequest, "user_id"},
			"their type through our project is 404": {"PATCH", "/api/v1/projects/" + ours["project_id"] + "/client-service-types/" + theirs["client_service_type_id"],
				map[string]any{"display_name": "Mine"}, http.StatusNotFound, ""},
			"their type through our company is 404": {"DELETE", "/api/v1/companies/" + ours["company_id"] + "/client-service-types/" + theirs["client_service_type_id"],
				nil, http.StatusNotFound, ""},
		} {
			t.Run(name, func(t *testing.T) {
				var body any
				if tc.body != nil {
					body = tc.body
				}
				resp := e.do(req{method: tc.method, path: tc.path, token: intruder.token, body: body})
				if tc.validate != "" {
					resp.expect(t, tc.status, tc.validate)
				} else {
					resp.expect(t, tc.status)
				}
			})
		}
		if after := e.clientState(victim, theirs); after != before {
			t.Fatalf("the victim's client changed:\nbefore %s\nafter  %s", before, after)
		}
	})
}

// clientState is what the owner reads of a fixture client, its contacts, responsibles,
// projects, services and project types, and of the party lookup settings, for comparing
// before and after.
func (e *env) clientState(u user, ids map[string]string) string {
	e.t.Helper()
	var b strings.Builder
	for _, path := range []string{
		"/api/v1/clients/{client_id}", "/api/v1/clients/{client_id}/contacts", "/api/v1/clients/{client_id}/responsibles",
		"/api/v1/clients/{client_id}/projects", "/api/v1/clients/{client_id}/services?status=active,paused,completed,archived,deleted",
		"/api/v1/projects/{project_id}/client-service-types?status=active,archived,deleted",
		"/api/v1/clients/{client_id}/payment-actions",
		"/api/v1/companies/{company_id}/integrations/party-lookup", "/api/v1/projects/{project_id}/integrations/party-lookup",
	} {
		b.WriteString(e.do(req{method: "GET", path: fill(path, ids), token: u.token}).expect(e.t, http.StatusOK).Body.String())
	}
	return b.String()
}

// TestClients covers the client record: registry identifiers by client type, the INN unique
// within a company, lists with status, search and pages, counts and soft deletion.
func TestClients(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		ada := e.signUp("Ada")
		companyID := e.companyOf(ada, "Northwind")
		clients := "/api/v1/companies/" + companyID + "/clients"
		create := func(body map[string]any) *response {
			return e.do(req{method: "POST", path: clients, token: ada.token, body: body})
		}

		t.Run("registry ids are checked by client type, every bad field named", func(t *testing.T) {
			for name, tc := range map[string]struct {
				body     map[string]any
				validate string
			}{
				"a legal entity without an inn":       {map[string]any{"client_type": "legal_entity", "name": "A"}, "inn"},
				"a legal entity with a 12-digit inn":  {map[string]any{"client_type": "legal_entity", "name": "A", "inn": "500100732259"}, "inn"},
				"an inn whose check digit is wrong":   {map[string]any{"client_type": "legal_entity", "name": "A", "inn": "7707083894"}, "inn"},
				"a bad kpp and ogrn":                  {map[string]any{"client_type": "legal_entity", "name": "A", "inn": "7707083893", "kpp": "77360100", "ogrn": "1027700132194"}, "kpp,ogrn"},
				"an ogrnip on a legal entity":         {map[string]any{"client_type": "legal_entity", "name": "A", "inn": "7707083893", "ogrnip": "304500116000157"}, "ogrnip"},
				"an entrepreneur with a 10-digit inn": {map[string]any{"client_type": "individual_entrepreneur", "name": "A", "inn": "7707083893"}, "inn"},
				"an entrepreneur with a bad ogrnip":   {map[string]any{"client_type": "individual_entrepreneur", "name": "A", "inn": "500100732259", "ogrnip": "304500116000158"}, "ogrnip"},
				"an individual with a kpp":            {map[string]any{"client_type": "individual", "name": "A", "kpp": "773601001"}, "kpp"},
				"an individual with a 10-digit inn":   {map[string]any{"client_type": "individual", "name": "A", "inn": "7707083893"}, "inn"},
				"a malformed okved and a blank name":  {map[string]any{"client_type": "individual", "name": "  ", "okved": "6201"}, "name,okved"},
				"an unknown client type":              {map[string]any{"client_type": "trust", "name": "A"}, "client_type"},
			} {
				t.Run(name, func(t *testing.T) { create(tc.body).expect(t, http.StatusBadRequest, tc.validate) })
			}
			if items := e.do(req{method: "GET", path: clients + "?status=active,archived,deleted", token: ada.token}).expect(t, http.StatusOK).items(); len(items) != 0 {
				t.Fatalf("refused creates stored clients: %v", items)
			}
		})

		var llcID string
		t.Run("each client type is created with what it takes", func(t *testing.T) {
			llc := create(map[string]any{"client_type": "legal_entity", "name": "Romashka", "full_name": "ООО «Ромашка»",
				"inn": "7707083893", "kpp": "773601001", "ogrn": "1027700132195", "okved": "62.01"}).expect(t, http.StatusCreated)
			llcID = llc.str("client_id")
			if llc.str("status") != "active" || llc.json["projects_count"] != 0.0 || llc.json["services_count"] != 0.0 || llc.str("company_id") != companyID {
				t.Fatalf("created client: %s", llc.Body)
			}
			create(map[string]any{"client_type": "individual_entrepreneur", "name": "Ivanov", "inn": "500100732259", "ogrnip": "304500116000157"}).expect(t, http.StatusCreated)
			create(map[string]any{"client_type": "individual", "name": "Petrov"}).expect(t, http.StatusCreated)
		})

		t.Run("the same inn twice in a company is 409, in another company fine", func(t *testing.T) {
			create(map[string]any{"client_type": "legal_entity", "name": "Copy", "inn": "7707083893"}).expect(t, http.StatusConflict, "inn")
			other := e.companyOf(ada, "Southwind")
			e.do(req{method: "POST", path: "/api/v1/companies/" + other + "/clients", token: ada.token,
				body: map[string]any{"client_type": "legal_entity", "name": "Copy", "inn": "7707083893"}}).expect(t, http.StatusCreated)
		})

		t.Run("concurrent creates with one inn store one client", func(t *testing.T) {
			statuses := make(chan int, 8)
			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					statuses <- create(map[string]any{"client_type": "legal_entity", "name": "Race", "inn": "7736050003"}).Code
				}()
			}
			wg.Wait()
			close(statuses)
			created := 0
			for code := range statuses {
				switch code {
				case http.StatusCreated:
					created++
				case http.StatusConflict:
				default:
					t.Errorf("a concurrent create answered %d", code)
				}
			}
			if created != 1 {
				t.Fatalf("%d concurrent creates with one inn succeeded, want 1", created)
			}
		})

		t.Run("q finds names and inn in any case, Cyrillic included", func(t *testing.T) {
			for q, want := range map[string]int{"ромашка": 1, "ROMA": 1, "770708": 1, "5001007": 1, "nobody": 0, "%": 0, "_": 0} {
				items := e.do(req{method: "GET", path: clients + "?q=" + url.QueryEscape(q), token: ada.token}).expect(t, http.StatusOK).items()
				if len(items) != want {
					t.Errorf("q=%s found %d clients, want %d", q, len(items), want)
				}
			}
		})

		t.Run("client_type keeps the clients of those types", func(t *testing.T) {
			names := func(query string) []string {
				var out []string
				for _, c := range e.do(req{method: "GET", path: clients + query, token: ada.token}).expect(t, http.StatusOK).items() {
					out = append(out, c["name"].(string))
				}
				slices.Sort(out)
				return out
			}
			if got := names("?client_type=legal_entity"); !slices.Equal(got, []string{"Race", "Romashka"}) {
				t.Errorf("legal entities: %v", got)
			}
			if got := names("?client_type=individual,individual_entrepreneur"); !slices.Equal(got, []string{"Ivanov", "Petrov"}) {
				t.Errorf("people: %v", got)
			}
			if got := names("?client_type=individual&q=iv"); len(got) != 0 {
				t.Errorf("individuals named iv: %v", got)
			}
			e.do(req{method: "GET", path: clients + "?client_type=trust", token: ada.token}).expect(t, http.StatusBadRequest, "client_type")
		})

		t.Run("lists hide archived and deleted clients unless status asks", func(t *testing.T) {
			e.do(req{method: "PATCH", path: "/api/v1/clients/" + llcID, token: ada.token, body: map[string]any{"status": "archived"}}).expect(t, http.StatusOK)
			listed := func(status string) int {
				return len(e.do(req{method: "GET", path: clients + status, token: ada.token}).expect(t, http.StatusOK).items())
			}
			if listed("") != 3 || listed("?status=archived") != 1 || listed("?status=active,archived") != 4 {
				t.Fatalf("lists: default %d, archived %d, active+archived %d", listed(""), listed("?status=archived"), listed("?status=active,archived"))
			}
			e.do(req{method: "GET", path: clients + "?status=gone", token: ada.token}).expect(t, http.StatusBadRequest, "status")
		})

		t.Run("pages cover every client once", func(t *testing.T) {
			pages := e.pagesOf(t, ada.token, clients, "2")
			seen := map[string]bool{}
			for _, page := range pages {
				for _, it := range page {
					seen[it["client_id"].(string)] = true
				}
			}
			if len(pages) != 2 || len(seen) != 3 {
				t.Fatalf("%d pages with %d clients, want 2 with 3", len(pages), len(seen))
			}
		})

		t.Run("delete keeps the client as deleted and frees its inn", func(t *testing.T) {
			e.do(req{method: "DELETE", path: "/api/v1/clients/" + llcID, token: ada.token}).expect(t, http.StatusNoContent)
			got := e.do(req{method: "GET", path: "/api/v1/clients/" + llcID, token: ada.token}).expect(t, http.StatusOK)
			if got.str("status") != "deleted" || got.str("inn") != "7707083893" {
				t.Fatalf("deleted client: %s", got.Body)
			}
			if listed := e.do(req{method: "GET", path: clients + "?status=deleted", token: ada.token}).expect(t, http.StatusOK).items(); len(listed) != 1 {
				t.Fatalf("deleted clients listed: %d", len(listed))
			}
			create(map[string]any{"client_type": "legal_entity", "name": "Romashka again", "inn": "7707083893"}).expect(t, http.StatusCreated)
			e.do(req{method: "PATCH", path: "/api/v1/clients/" + llcID, token: ada.token, body: map[string]any{"status": "active"}}).expect(t, http.StatusConflict, "inn")
		})

		t.Run("a patch is validated as a whole and a bad one changes nothing", func(t *testing.T) {
			ip := create(map[string]any{"client_type": "individual", "name": "Sidorov"}).expect(t, http.StatusCreated)
			path := "/api/v1/clients/" + ip.str("client_id")
			e.do(req{method: "PATCH", path: path, token: ada.token, body: map[string]any{"client_type": "legal_entity"}}).expect(t, http.StatusBadRequest, "inn")
			e.do(req{method: "PATCH", path: path, token: ada.token, body: map[string]any{"status": "deleted"}}).expect(t, http.StatusBadRequest, "status")
			got := e.do(req{method: "PATCH", path: path, token: ada.token, body: map[string]any{"client_type": "legal_entity", "inn": "7702070139", "comment": "now a company"}}).expect(t, http.StatusOK)
			if got.str("client_type") != "legal_entity" || got.str("name") != "Sidorov" || got.str("comment") != "now a company" {
				t.Fatalf("patched client: %s", got.Body)
			}
		})

		t.Run("a viewer reads clients and changes none", func(t *testing.T) {
			vic := e.signUp("Vic")
			e.addToCompany(ada, companyID, vic, "viewer")
			e.do(req{method: "GET", path: clients, token: vic.token}).expect(t, http.StatusOK)
			e.do(req{method: "POST", path: clients, token: vic.token, body: map[string]any{"client_type": "individual", "name": "X"}}).expect(t, http.StatusForbidden)
		})
	})
}

// newClient creates a legal entity client in a company and answers its path.
func (e *env) newClient(u user, companyID, name, inn string) string {
	e.t.Helper()
	return "/api/v1/clients/" + e.do(req{method: "POST", path: "/api/v1/companies/" + companyID + "/clients", token: u.token,
		body: map[string]any{"client_type": "legal_entity", "name": name, "inn": inn}}).expect(e.t, http.StatusCreated).str("client_id")
}

// primaries lists the names of a client's primary contacts.
func (e *env) primaries(t *testing.T, u user, clientPath string) []string {
	t.Helper()
	var names []string
	for _, c := range e.do(req{method: "GET", path: clientPath + "/contacts", token: u.token}).expect(t, http.StatusOK).items() {
		if c["is_primary"] == true {
			names = append(names, c["name"].(string))
		}
	}
	return names
}

func TestClientContacts(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		ada := e.signUp("Ada")
		client := e.newClient(ada, e.companyOf(ada, "Northwind"), "Romashka", "7707083893")
		contacts := client + "/contacts"
		add := func(body map[string]any) *response {
			return e.do(req{method: "POST", path: contacts, token: ada.token, body: body}).expect(t, http.StatusCreated)
		}
		wantPrimary := func(t *testing.T, name string) {
			t.Helper()
			if got := e.primaries(t, ada, client); len(got) != 1 || got[0] != name {
				t.Fatalf("primary contacts %v, want [%s]", got, name)
			}
		}

		anna := add(map[string]any{"name": "Anna", "email": "anna@romashka.example", "phone": "+7 (495) 123-45-67", "position": "Director", "is_primary": false})
		t.Run("the first contact is primary whatever it says", func(t *testing.T) { wantPrimary(t, "Anna") })
		boris := add(map[string]any{"name": "Boris"})
		t.Run("a later contact is not primary unless it asks", func(t *testing.T) { wantPrimary(t, "Anna") })
		add(map[string]any{"name": "Vera", "is_primary": true})
		t.Run("a new primary contact demotes the old one", func(t *testing.T) { wantPrimary(t, "Vera") })

		t.Run("a patch making a contact primary demotes the other", func(t *testing.T) {
			got := e.do(req{method: "PATCH", path: contacts + "/" + boris.str("client_contact_id"), token: ada.token, body: map[string]any{"is_primary": true, "comment": "Pays"}}).expect(t, http.StatusOK)
			if got.json["is_primary"] != true || got.str("comment") != "Pays" || got.str("name") != "Boris" {
				t.Fatalf("patched contact: %s", got.Body)
			}
			wantPrimary(t, "Boris")
		})
		t.Run("the primary contact cannot stop being primary on its own", func(t *testing.T) {
			e.do(req{method: "PATCH", path: contacts + "/" + boris.str("client_contact_id"), token: ada.token, body: map[string]any{"is_primary": false}}).expect(t, http.StatusConflict, "is_primary")
			wantPrimary(t, "Boris")
		})
		t.Run("bad fields are named and change nothing", func(t *testing.T) {
			e.do(req{method: "PATCH", path: contacts + "/" + anna.str("client_contact_id"), token: ada.token,
				body: map[string]any{"email": "not an address", "phone": "call me", "name": "Anya"}}).expect(t, http.StatusBadRequest, "email,phone")
			e.do(req{method: "POST", path: contacts, token: ada.token, body: map[string]any{"name": ""}}).expect(t, http.StatusBadRequest, "name")
			if items := e.do(req{method: "GET", path: contacts, token: ada.token}).expect(t, http.StatusOK).items(); len(items) != 3 || items[0]["name"] != "Anna" {
				t.Fatalf("contacts after refused changes: %v", items)
			}
		})
		t.Run("deleting the primary contact promotes the oldest left", func(t *testing.T) {
			e.do(req{method: "DELETE", path: contacts + "/" + boris.str("client_contact_id"), token: ada.token}).expect(t, http.StatusNoContent)
			wantPrimary(t, "Anna")
			e.do(req{method: "DELETE", path: contacts + "/" + boris.str("client_contact_id"), token: ada.token}).expect(t, http.StatusNotFound)
		})
		t.Run("a contact of another client is not found through this one", func(t *testing.T) {
			other := e.newClient(ada, e.companyOf(ada, "Southwind"), "Other", "7736050003")
			e.do(req{method: "PATCH", path: other + "/contacts/" + anna.str("client_contact_id"), token: ada.token, body: map[string]any{"name": "X"}}).expect(t, http.StatusNotFound)
		})
		t.Run("concurrent contacts that each ask to be primary leave one primary", func(t *testing.T) {
			fresh := e.newClient(ada, e.companyOf(ada, "Eastwind"), "Race", "7702070139")
			var wg sync.WaitGroup
			for i := range 10 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					e.do(req{method: "POST", path: fresh + "/contacts", token: ada.token, body: map[string]any{"name": "Racer " + string(rune('A'+i)), "is_primary": true}}).expect(t, http.StatusCreated)
				}()
			}
			wg.Wait()
			if got := e.primaries(t, ada, fresh); len(got) != 1 {
				t.Fatalf("primary contacts after concurrent creates: %v", got)
			}
		})
	})
}

func TestClientResponsibles(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		ada, bob, eve := e.signUp("Ada"), e.signUp("Bob"), e.signUp("Eve")
		companyID := e.companyOf(ada, "Northwind")
		e.addToCompany(ada, companyID, bob, "member")
		responsibles := e.newClient(ada, companyID, "Romashka", "7707083893") + "/responsibles"
		add := func(u user, role string) *response {
			return e.do(req{method: "POST", path: responsibles, token: ada.token, body: map[string]any{"user_id": u.id, "role": role}})
		}

		r := add(bob, "account_manager").expect(t, http.StatusCreated)
		if r.str("email") != bob.email || r.str("name") != "Bob" || r.str("role") != "account_manager" {
			t.Fatalf("responsible: %s", r.Body)
		}
		t.Run("a member holds a role once, and may hold another", func(t *testing.T) {
			add(bob, "account_manager").expect(t, http.StatusConflict, "user_id,role")
			add(bob, "accountant").expect(t, http.StatusCreated)
		})
		t.Run("a user who is not a member is 400", func(t *testing.T) {
			add(eve, "account_manager").expect(t, http.StatusBadRequest, "user_id")
			e.do(req{method: "PATCH", path: responsibles + "/" + r.str("client_responsible_id"), token: ada.token, body: map[string]any{"user_id": eve.id}}).expect(t, http.StatusBadRequest, "user_id")
		})
		t.Run("an unknown role is 400", func(t *testing.T) { add(bob, "ceo").expect(t, http.StatusBadRequest, "role") })
		t.Run("patch changes the member or role", func(t *testing.T) {
			got := e.do(req{method: "PATCH", path: responsibles + "/" + r.str("client_responsible_id"), token: ada.token, body: map[string]any{"user_id": ada.id, "role": "project_manager"}}).expect(t, http.StatusOK)
			if got.str("user_id") != ada.id || got.str("role") != "project_manager" {
				t.Fatalf("patched responsible: %s", got.Body)
			}
		})
		t.Run("delete removes it", func(t *testing.T) {
			e.do(req{method: "DELETE", path: responsibles + "/" + r.str("client_responsible_id"), token: ada.token}).expect(t, http.StatusNoContent)
			if items := e.do(req{method: "GET", path: responsibles, token: ada.token}).expect(t, http.StatusOK).items(); len(items) != 1 || items[0]["role"] != "accountant" {
				t.Fatalf("responsibles after delete: %v", items)
			}
		})
	})
}

func TestClientProjects(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		ada := e.signUp("Ada")
		companyID := e.companyOf(ada, "Northwind")
		site, shop := e.projectIn(ada, companyID, "Site"), e.projectIn(ada, companyID, "Shop")
		foreign := e.projectIn(ada, e.companyOf(ada, "Southwind"), "Foreign")
		client := e.newClient(ada, companyID, "Romashka", "7707083893")
		link := func(method, projectID string) *response {
			return e.do(req{method: method, path: client + "/projects/" + projectID, token: ada.token})
		}

		t.Run("a link is 201, linking again 200", func(t *testing.T) {
			first := link("POST", site).expect(t, http.StatusCreated)
			if first.str("project_name") != "Site" || first.str("project_id") != site {
				t.Fatalf("link: %s", first.Body)
			}
			link("POST", site).expect(t, http.StatusOK)
		})
		t.Run("a project of another company is 404", func(t *testing.T) {
			link("POST", foreign).expect(t, http.StatusNotFound)
			link("DELETE", foreign).expect(t, http.StatusNotFound)
		})
		t.Run("a service links its project and keeps it linked while it bills", func(t *testing.T) {
			svc := e.do(req{method: "POST", path: client + "/services", token: ada.token, body: map[string]any{"project_id": shop, "name": "Hosting"}}).expect(t, http.StatusCreated)
			got := e.do(req{method: "GET", path: client, token: ada.token}).expect(t, http.StatusOK)
			if got.json["projects_count"] != 2.0 || got.json["services_count"] != 1.0 {
				t.Fatalf("counts: %s", got.Body)
			}
			link("DELETE", shop).expect(t, http.StatusConflict, "project_id")
			e.do(req{method: "PATCH", path: "/api/v1/client-services/" + svc.str("client_service_id"), token: ada.token, body: map[string]any{"status": "completed"}}).expect(t, http.StatusOK)
			link("DELETE", shop).expect(t, http.StatusNoContent)
			link("DELETE", shop).expect(t, http.StatusNotFound)
		})
		t.Run("the list shows the linked projects", func(t *testing.T) {
			items := e.do(req{method: "GET", path: client + "/projects", token: ada.token}).expect(t, http.StatusOK).items()
			if len(items) != 1 || items[0]["project_id"] != site {
				t.Fatalf("linked projects: %v", items)
			}
		})
	})
}
