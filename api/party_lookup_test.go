package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"agencyhub/migrations/dbtest"
)

// registry is a local server speaking the party lookup provider's protocol (DaData's
// findById/party): it knows one organisation and one sole proprietor, accepts the tokens it
// is given, and records the token and query of every call. fail, when set, is the status it
// answers instead.
type registry struct {
	*httptest.Server
	mu     sync.Mutex
	tokens map[string]bool
	fail   int
	calls  []string // "token query"
}

func newRegistry(t *testing.T, tokens ...string) *registry {
	r := &registry{tokens: map[string]bool{}}
	for _, tok := range tokens {
		r.tokens[tok] = true
	}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	return r
}

var registryParties = map[string]map[string]any{
	"7707083893": {"type": "LEGAL", "inn": "7707083893", "kpp": "773601001", "ogrn": "1027700132195", "okved": "64.19",
		"name":       map[string]any{"full_with_opf": `ПУБЛИЧНОЕ АКЦИОНЕРНОЕ ОБЩЕСТВО "СБЕРБАНК РОССИИ"`, "short_with_opf": "ПАО СБЕРБАНК"},
		"address":    map[string]any{"value": "г Москва, ул Вавилова, д 19"},
		"state":      map[string]any{"status": "ACTIVE"},
		"management": map[string]any{"name": "Греф Герман Оскарович"}},
	"304500116000157": {"type": "INDIVIDUAL", "inn": "500100732259", "kpp": nil, "ogrn": "304500116000157", "okved": "62.01",
		"name":       map[string]any{"full_with_opf": "Индивидуальный предприниматель Иванов Иван Иванович", "short_with_opf": "ИП Иванов Иван Иванович"},
		"address":    map[string]any{"value": "Московская обл, г Балашиха"},
		"state":      map[string]any{"status": "LIQUIDATED"},
		"management": nil},
}

func (r *registry) serve(w http.ResponseWriter, req *http.Request) {
	var body struct{ Query string }
	if req.Method != http.MethodPost || req.URL.Path != "/suggestions/findById/party" || json.NewDecoder(req.Body).Decode(&body) != nil {
		http.Error(w, "not the protocol", http.StatusNotFound)
		return
	}
	token := strings.TrimPrefix(req.Header.Get("Authorization"), "Token ")
	r.mu.Lock()
	r.calls = append(r.calls, token+" "+body.Query)
	fail, known := r.fail, r.tokens[token]
	r.mu.Unlock()
	switch {
	case fail != 0:
		w.WriteHeader(fail)
		return
	case !known:
		w.WriteHeader(http.StatusForbidden)
		return
	}
	suggestions := []any{}
	if p, ok := registryParties[body.Query]; ok {
		suggestions = append(suggestions, map[string]any{"value": p["name"].(map[string]any)["short_with_opf"], "data": p})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"suggestions": suggestions})
}

func (r *registry) lastCall() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.calls) == 0 {
		return ""
	}
	return r.calls[len(r.calls)-1]
}

func (r *registry) callCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

// TestPartyLookup covers the company and project settings and find-party against a local
// registry: nothing configured is 409, a bad number is 400 without a call, the project's
// settings override the company's while enabled, a failing provider is 502 saying what to
// check, a found party creates a client as it is, and no answer ever shows a token.
func TestPartyLookup(t *testing.T) {
	const companyToken, projectToken = "company-token-0123456789abcdef", "project-token-0123456789abcdef"
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		reg := newRegistry(t, companyToken, projectToken)
		ada := e.signUp("Ada")
		companyID := e.companyOf(ada, "Northwind")
		projectID := e.projectIn(ada, companyID, "Site")
		companyPath := "/api/v1/companies/" + companyID + "/integrations/party-lookup"
		projectPath := "/api/v1/projects/" + projectID + "/integrations/party-lookup"
		findPath := "/api/v1/companies/" + companyID + "/clients/party-lookup/find-party"
		do := func(r req) *response {
			t.Helper()
			r.token = ada.token
			resp := e.do(r)
			for _, secret := range []string{companyToken, projectToken} {
				if strings.Contains(resp.Body.String(), secret) || strings.Contains(strings.Join(resp.Header().Values("X-App-Action"), " "), secret) {
					t.Fatalf("%s %s answered the token: %s", r.method, r.path, resp.Body)
				}
			}
			return resp
		}
		find := func(body map[string]any) *response {
			t.Helper()
			return do(req{method: "POST", path: findPath, body: body})
		}
		settings := func(apiBaseURL, token string) map[string]any {
			return map[string]any{"provider": "party_lookup", "api_base_url": apiBaseURL, "token": token}
		}

		t.Run("with nothing configured a lookup is 409 saying in plain words where it is set up", func(t *testing.T) {
			resp := find(map[string]any{"inn": "7707083893"}).expect(t, http.StatusConflict)
			if !strings.Contains(resp.str("action"), "settings, under Party lookup") || strings.Contains(resp.str("action"), "/api/v1") {
				t.Fatalf("action = %q, want the settings that set it up, in words", resp.str("action"))
			}
			got := do(req{method: "GET", path: companyPath}).expect(t, http.StatusOK)
			if got.json["configured"] != false || got.str("effective_scope") != "none" || got.str("scope_kind") != "company" || got.json["project_id"] != nil {
				t.Fatalf("company settings = %s", got.Body)
			}
		})

		t.Run("settings without a token are 400 until one is stored", func(t *testing.T) {
			do(req{method: "PUT", path: companyPath, body: map[string]any{"provider": "party_lookup", "api_base_url": reg.URL}}).
				expect(t, http.StatusBadRequest, "token")
			if got := do(req{method: "GET", path: companyPath}).expect(t, http.StatusOK); got.json["configured"] != false {
				t.Fatalf("a refused save stored settings: %s", got.Body)
			}
		})

		t.Run("saved settings answer the token masked", func(t *testing.T) {
			saved := do(req{method: "PUT", path: companyPath, body: settings(reg.URL+"/suggestions/", companyToken)}).expect(t, http.StatusOK)
			if saved.str("token_masked") != "comp****" || saved.str("api_base_url") != reg.URL+"/suggestions" ||
				saved.json["configured"] != true || saved.json["enabled"] != true || saved.str("effective_scope") != "company" {
				t.Fatalf("saved = %s", saved.Body)
			}
			if got := do(req{method: "GET", path: companyPath}).expect(t, http.StatusOK); got.Body.String() != saved.Body.String() {
				t.Fatalf("read %s after saving %s", got.Body, saved.Body)
			}
		})

		t.Run("bad settings are 400 naming the fields and change nothing", func(t *testing.T) {
			before := do(req{method: "GET", path: companyPath}).expect(t, http.StatusOK).Body.String()
			do(req{method: "PUT", path: companyPath, body: map[string]any{"provider": "registry_x", "api_base_url": reg.URL, "token": projectToken}}).
				expect(t, http.StatusBadRequest, "provider")
			do(req{method: "PUT", path: companyPath, body: map[string]any{"provider": "party_lookup", "api_base_url": "ftp://example.com", "token": " padded "}}).
				expect(t, http.StatusBadRequest, "api_base_url", "token")
			do(req{method: "PUT", path: companyPath, body: map[string]any{"provider": "party_lookup", "api_base_url": "https://user:pw@registry.example/?q=1"}}).
				expect(t, http.StatusBadRequest, "api_base_url")
			if after := do(req{method: "GET", path: companyPath}).expect(t, http.StatusOK).Body.String(); after != before {
				t.Fatalf("settings changed:\nbefore %s\nafter  %s", before, after)
			}
		})

		t.Run("a bad number is 400 naming the field and calls nobody", func(t *testing.T) {
			before := reg.callCount()
			find(map[string]any{"inn": "7707083894"}).expect(t, http.StatusBadRequest, "inn")
			find(map[string]any{"ogrn": "1027700132196"}).expect(t, http.StatusBadRequest, "ogrn")
			find(map[string]any{}).expect(t, http.StatusBadRequest, "inn", "ogrn")
			find(map[string]any{"inn": "7707083893", "ogrn": "1027700132195"}).expect(t, http.StatusBadRequest, "inn", "ogrn")
			find(map[string]any{"inn": "7707083893", "project_id": "6f1c1e52-7d2f-4c55-9a35-0c1f1b1c0a11"}).expect(t, http.StatusBadRequest, "project_id")
			if n := reg.callCount(); n != before {
				t.Fatalf("the registry was called %d times", n-before)
			}
		})

		t.Run("an organisation found by INN prefills a client that can be created as it is", func(t *testing.T) {
			resp := find(map[string]any{"inn": "7707083893"}).expect(t, http.StatusOK)
			if reg.lastCall() != companyToken+" 7707083893" {
				t.Fatalf("registry call = %q", reg.lastCall())
			}
			items := resp.items()
			if len(items) != 1 || items[0]["registry_status"] != "active" || items[0]["management_name"] != "Греф Герман Оскарович" {
				t.Fatalf("found = %s", resp.Body)
			}
			client := items[0]["client"].(map[string]any)
			want := map[string]any{"client_type": "legal_entity", "name": "ПАО СБЕРБАНК", "short_name": "ПАО СБЕРБАНК", "inn": "7707083893",
				"kpp": "773601001", "ogrn": "1027700132195", "ogrnip": "", "okved": "64.19", "legal_address": "г Москва, ул Вавилова, д 19"}
			for k, v := range want {
				if client[k] != v {
					t.Errorf("client.%s = %v, want %v", k, client[k], v)
				}
			}
			created := do(req{method: "POST", path: "/api/v1/companies/" + companyID + "/clients", body: client}).expect(t, http.StatusCreated)
			if created.str("full_name") != client["full_name"] {
				t.Fatalf("created = %s", created.Body)
			}
		})

		t.Run("a sole proprietor found by OGRNIP is an individual entrepreneur", func(t *testing.T) {
			resp := find(map[string]any{"ogrn": "304500116000157"}).expect(t, http.StatusOK)
			client := resp.items()[0]["client"].(map[string]any)
			if client["client_type"] != "individual_entrepreneur" || client["ogrnip"] != "304500116000157" || client["ogrn"] != "" || client["kpp"] != "" ||
				client["inn"] != "500100732259" || resp.items()[0]["registry_status"] != "liquidated" {
				t.Fatalf("found = %s", resp.Body)
			}
		})

		t.Run("an unknown number finds nothing", func(t *testing.T) {
			if items := find(map[string]any{"inn": "500100732259"}).expect(t, http.StatusOK).items(); len(items) != 0 {
				t.Fatalf("found %v", items)
			}
		})

		t.Run("the project's settings override the company's while enabled", func(t *testing.T) {
			saved := do(req{method: "PUT", path: projectPath, body: settings(reg.URL+"/suggestions", projectToken)}).expect(t, http.StatusOK)
			if saved.str("scope_kind") != "project" || saved.str("project_id") != projectID || saved.str("effective_scope") != "project" {
				t.Fatalf("project settings = %s", saved.Body)
			}
			find(map[string]any{"inn": "7707083893", "project_id": projectID}).expect(t, http.StatusOK)
			if !strings.HasPrefix(reg.lastCall(), projectToken) {
				t.Fatalf("the project's lookup used %q", reg.lastCall())
			}
			find(map[string]any{"inn": "7707083893"}).expect(t, http.StatusOK)
			if !strings.HasPrefix(reg.lastCall(), companyToken) {
				t.Fatalf("the company's lookup used %q", reg.lastCall())
			}
			off := do(req{method: "PUT", path: projectPath, body: map[string]any{"provider": "party_lookup", "api_base_url": reg.URL + "/suggestions", "enabled": false}}).
				expect(t, http.StatusOK)
			if off.json["enabled"] != false || off.str("token_masked") != "proj****" || off.str("effective_scope") != "company" {
				t.Fatalf("disabled project settings = %s", off.Body)
			}
			find(map[string]any{"inn": "7707083893", "project_id": projectID}).expect(t, http.StatusOK)
			if !strings.HasPrefix(reg.lastCall(), companyToken) {
				t.Fatalf("a project with disabled settings used %q", reg.lastCall())
			}
		})

		t.Run("a failing provider is 502 saying what to check", func(t *testing.T) {
			down := httptest.NewServer(http.NotFoundHandler())
			down.Close()
			for name, tc := range map[string]struct {
				apiBaseURL, token string
				fail              int
				check             string
			}{
				"a refused token":        {reg.URL + "/suggestions", "wrong-token-0123456789", 0, "token"},
				"a provider error":       {reg.URL + "/suggestions", companyToken, http.StatusInternalServerError, "try again later"},
				"a rate limit":           {reg.URL + "/suggestions", companyToken, http.StatusTooManyRequests, "try again later"},
				"another API":            {reg.URL + "/elsewhere", companyToken, 0, "api_base_url"},
				"a server that is down":  {down.URL, companyToken, 0, "api_base_url"},
				"an address not allowed": {"http://10.255.255.1", companyToken, 0, "APP_EGRESS_ALLOW"},
			} {
				t.Run(name, func(t *testing.T) {
					do(req{method: "PUT", path: companyPath, body: settings(tc.apiBaseURL, tc.token)}).expect(t, http.StatusOK)
					reg.mu.Lock()
					reg.fail = tc.fail
					reg.mu.Unlock()
					t.Cleanup(func() { reg.mu.Lock(); reg.fail = 0; reg.mu.Unlock() })
					resp := find(map[string]any{"inn": "7707083893"}).expect(t, http.StatusBadGateway)
					if resp.str("status") != "error" || !strings.Contains(resp.str("action"), tc.check) {
						t.Fatalf("problem = %s, want an action naming %q", resp.Body, tc.check)
					}
				})
			}
		})
	})
}

// TestPartyLookupSettingsNeedAnAdmin: a member reads the settings but may not change them.
func TestPartyLookupSettingsNeedAnAdmin(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		owner, member := e.signUp("Owner"), e.signUp("Member")
		companyID := e.companyOf(owner, "Northwind")
		projectID := e.projectIn(owner, companyID, "Site")
		e.do(req{method: "POST", path: "/api/v1/companies/" + companyID + "/members", token: owner.token,
			body: map[string]any{"email": member.email, "role": "member"}}).expect(t, http.StatusCreated)
		body := map[string]any{"provider": "party_lookup", "api_base_url": "https://registry.example", "token": "member-token-0123456789"}
		for _, path := range []string{"/api/v1/companies/" + companyID + "/integrations/party-lookup", "/api/v1/projects/" + projectID + "/integrations/party-lookup"} {
			e.do(req{method: "GET", path: path, token: member.token}).expect(t, http.StatusOK)
			e.do(req{method: "PUT", path: path, token: member.token, body: body}).expect(t, http.StatusForbidden)
			if got := e.do(req{method: "GET", path: path, token: owner.token}).expect(t, http.StatusOK); got.json["configured"] != false {
				t.Fatalf("a refused save stored settings: %s", got.Body)
			}
		}
	})
}
