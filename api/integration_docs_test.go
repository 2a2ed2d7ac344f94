package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"agencyhub/migrations/dbtest"
	"agencyhub/schemas"
)

// docSlugs lists the slugs of a search answer, in order.
func docSlugs(resp *response) []string {
	var out []string
	for _, it := range resp.items() {
		out = append(out, it["public_slug"].(string))
	}
	return out
}

func TestIntegrationDocs(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	docs, err := schemas.LoadIntegrationDocs()
	if err != nil {
		t.Fatal(err)
	}

	t.Run("search ranks the document of the intent first, without credentials", func(t *testing.T) {
		cases := map[string]string{
			"send a message to the manager through our messenger_a bot": "messenger-a",
			"mail the client a confirmation over smtp":                  "email-smtp",
			"start when the site form posts a webhook":                  "webhook-trigger",
			"every weekday morning at 9 by cron":                        "schedule-trigger",
			"call the CRM REST API with a bearer token":                 "http-request",
			"reply to /start commands and remember the dialog state":    "messenger-a-relay",
			"branch when the order total is over 1000":                  "conditions-and-templates",
			"wait a day before the reminder":                            "flow-control",
			"what patch format do I answer in":                          "workflow-ai-patch-contract",
		}
		for q, want := range cases {
			resp := e.do(req{method: "GET", path: "/api/v1/docs/integrations/search?q=" + url.QueryEscape(q)}).expect(t, http.StatusOK)
			slugs := docSlugs(resp)
			if len(slugs) == 0 || slugs[0] != want {
				t.Errorf("%q ranks %v, want %s first", q, slugs, want)
			}
			if resp.str("query") != q || len(slugs) > 5 {
				t.Errorf("%q: query %q, %d items (default limit 5)", q, resp.str("query"), len(slugs))
			}
			first := resp.items()[0]
			if first["url"] != "http://api.test/api/v1/docs/integrations/"+want+".md" || first["score"].(float64) <= 0 || first["snippet"] == "" {
				t.Errorf("%q: first item %v", q, first)
			}
		}
	})
	t.Run("an empty query lists the documents in order, up to limit", func(t *testing.T) {
		resp := e.do(req{method: "GET", path: "/api/v1/docs/integrations/search?limit=20"}).expect(t, http.StatusOK)
		var want []string
		for _, d := range docs.All() {
			want = append(want, d.Slug)
		}
		if got := docSlugs(resp); !slices.Equal(got, want) {
			t.Fatalf("slugs %v, want %v", got, want)
		}
		if got := docSlugs(e.do(req{method: "GET", path: "/api/v1/docs/integrations/search?limit=2"}).expect(t, http.StatusOK)); len(got) != 2 {
			t.Fatalf("limit=2 answered %v", got)
		}
	})
	t.Run("a query matching nothing answers no documents", func(t *testing.T) {
		resp := e.do(req{method: "GET", path: "/api/v1/docs/integrations/search?q=zzqqxx"}).expect(t, http.StatusOK)
		if len(resp.items()) != 0 {
			t.Fatalf("items %v", resp.items())
		}
	})
	t.Run("a bad limit or an overlong query names the parameter", func(t *testing.T) {
		for _, bad := range []string{"0", "21", "x", "-1"} {
			e.do(req{method: "GET", path: "/api/v1/docs/integrations/search?q=mail&limit=" + bad}).expect(t, http.StatusBadRequest, "limit")
		}
		e.do(req{method: "GET", path: "/api/v1/docs/integrations/search?q=" + strings.Repeat("a", 501)}).expect(t, http.StatusBadRequest, "q")
	})
	t.Run("every document is served as markdown by its slug", func(t *testing.T) {
		for _, d := range docs.All() {
			resp := e.do(req{method: "GET", path: "/api/v1/docs/integrations/" + d.Slug + ".md"}).expect(t, http.StatusOK)
			if ct := resp.Header().Get("Content-Type"); ct != "text/markdown; charset=utf-8" {
				t.Errorf("%s: Content-Type %q", d.Slug, ct)
			}
			if !bytes.HasPrefix(resp.Body.Bytes(), []byte("# ")) || !bytes.Equal(resp.Body.Bytes(), d.Markdown) {
				t.Errorf("%s: body does not start with its title: %.80s", d.Slug, resp.Body)
			}
		}
	})
	t.Run("the patch contract document states the format, every operation and the rules", func(t *testing.T) {
		body := e.do(req{method: "GET", path: "/api/v1/docs/integrations/workflow-ai-patch-contract.md"}).expect(t, http.StatusOK).Body.String()
		for _, must := range []string{"service-workflow-patch-v1", "service-workflow-context-v1", "schema_version", "base_workflow_id",
			"update_action", "add_action", "upsert_action", "delete_action", "add_connection", "delete_connection",
			"replace_connections", "set_test_input", "set_change_description", "never invented", "never published", "ai-import"} {
			if !strings.Contains(strings.ToLower(body), strings.ToLower(must)) {
				t.Errorf("the contract document does not mention %q", must)
			}
		}
	})
	t.Run("an unknown slug, or a path without .md, answers 404", func(t *testing.T) {
		for _, path := range []string{"no-such-doc.md", "http-request", "http-request.txt", "search.md", "HTTP-REQUEST.md"} {
			e.do(req{method: "GET", path: "/api/v1/docs/integrations/" + path}).expect(t, http.StatusNotFound)
		}
	})
	t.Run("every importable action type and every dependency type it uses has a document", func(t *testing.T) {
		catalog := loadCatalog(t)
		covered := map[string]bool{}
		for _, d := range docs.All() {
			for _, k := range append(slices.Clone(d.ActionTypeKeys), d.DependencyTypeKeys...) {
				covered[k] = true
			}
		}
		for _, a := range catalog.Actions() {
			if a.Importable && (!covered[a.Key] || (a.DependencyTypeKey != "" && !covered[a.DependencyTypeKey])) {
				t.Errorf("%s (dependency %q) has no integration document", a.Key, a.DependencyTypeKey)
			}
		}
	})
}

func TestIntegrationDocsOfAProject(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		owner := e.signUp("Owner")
		projectID := e.projectIn(owner, e.companyOf(owner, "Northwind"), "Site")
		otherProject := e.projectIn(owner, e.companyOf(owner, "Contoso"), "Shop")
		deps := "/api/v1/projects/" + projectID + "/action-dependencies"
		bot := e.do(req{method: "POST", path: deps, token: owner.token, body: map[string]any{
			"dependency_type_key": "messenger_a.bot", "name": "Sales bot", "auth": map[string]any{"bot_token": botSecret}}}).expect(t, http.StatusCreated)
		crm := e.do(req{method: "POST", path: deps, token: owner.token, body: map[string]any{
			"dependency_type_key": "http.auth", "name": "CRM key", "auth": map[string]any{"scheme": "bearer", "token": "crm-secret-token-0123456789"}}}).expect(t, http.StatusCreated)
		search := func(projectID, q string) *response {
			return e.do(req{method: "GET", path: "/api/v1/projects/" + projectID + "/integration-docs/search?q=" + url.QueryEscape(q), token: owner.token})
		}
		available := func(resp *response) []string {
			var out []string
			for _, raw := range resp.json["available_integrations"].([]any) {
				it := raw.(map[string]any)
				out = append(out, it["name"].(string)+"/"+it["dependency_type_key"].(string)+"/"+it["provider_key"].(string)+"/"+it["status"].(string))
			}
			return out
		}

		t.Run("the project's integrations that fit the query come with the documents", func(t *testing.T) {
			resp := search(projectID, "send a bot message to the manager").expect(t, http.StatusOK)
			if got := docSlugs(resp); len(got) == 0 || got[0] != "messenger-a" {
				t.Fatalf("documents %v", got)
			}
			if got := available(resp); !slices.Equal(got, []string{"Sales bot/messenger_a.bot/messenger_a/active"}) {
				t.Fatalf("available integrations %v", got)
			}
			for _, secret := range []string{"the_bot_secret_token", "crm-secret-token"} {
				if strings.Contains(resp.Body.String(), secret) {
					t.Fatalf("the answer holds a credential: %s", resp.Body)
				}
			}
		})
		t.Run("an integration named by the query fits it", func(t *testing.T) {
			resp := search(projectID, "CRM").expect(t, http.StatusOK)
			if got := available(resp); !slices.Contains(got, "CRM key/http.auth/http/active") {
				t.Fatalf("available integrations %v", got)
			}
		})
		t.Run("an empty query lists every integration of the project", func(t *testing.T) {
			resp := search(projectID, "").expect(t, http.StatusOK)
			if got := available(resp); len(got) != 2 {
				t.Fatalf("available integrations %v", got)
			}
			if resp.json["available_integrations"].([]any)[1].(map[string]any)["action_dependency_id"] != crm.str("action_dependency_id") {
				t.Fatalf("ids: %s (bot %s)", resp.Body, bot.str("action_dependency_id"))
			}
		})
		t.Run("another project's integrations are not offered", func(t *testing.T) {
			resp := search(otherProject, "").expect(t, http.StatusOK)
			if got := available(resp); len(got) != 0 {
				t.Fatalf("available integrations %v", got)
			}
		})
		t.Run("the public search with project_id adds them for a caller who may read the project", func(t *testing.T) {
			public := "/api/v1/docs/integrations/search?q=" + url.QueryEscape("send a bot message") + "&project_id="
			resp := e.do(req{method: "GET", path: public + projectID, token: owner.token}).expect(t, http.StatusOK)
			if got := available(resp); !slices.Equal(got, []string{"Sales bot/messenger_a.bot/messenger_a/active"}) || len(docSlugs(resp)) == 0 {
				t.Fatalf("the public search in the project answered %s", resp.Body)
			}
			if resp := e.do(req{method: "GET", path: public[:strings.Index(public, "&")]}).expect(t, http.StatusOK); resp.json["available_integrations"] != nil {
				t.Fatalf("the public search without a project answered %s", resp.Body)
			}
			e.do(req{method: "GET", path: public + projectID}).expect(t, http.StatusUnauthorized, "access_token")
			stranger := e.signUp("Stranger")
			e.do(req{method: "GET", path: public + projectID, token: stranger.token}).expect(t, http.StatusNotFound)
			e.do(req{method: "GET", path: public + "not-an-id", token: owner.token}).expect(t, http.StatusBadRequest, "project_id")
		})
	})
}

func TestAITools(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	resp := e.do(req{method: "GET", path: "/api/v1/docs/ai-tools.json"}).expect(t, http.StatusOK)
	if resp.str("version") != "1.1.0" || resp.str("base_url") != "http://api.test" {
		t.Fatalf("version %q, base_url %q", resp.str("version"), resp.str("base_url"))
	}
	tools := map[string]map[string]any{}
	var names []string
	for _, raw := range resp.json["tools"].([]any) {
		tool := raw.(map[string]any)
		tools[tool["name"].(string)] = tool
		names = append(names, tool["name"].(string))
	}
	want := []string{"get_workflow_ai_context", "import_workflow_patch", "search_integration_docs", "search_project_integration_docs", "get_integration_doc"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	compile := func(t *testing.T, name string) *jsonschema.Schema {
		t.Helper()
		raw, _ := json.Marshal(tools[name]["input_schema"])
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.AssertFormat()
		if err := c.AddResource("file:///"+name+".json", doc); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile("file:///" + name + ".json")
		if err != nil {
			t.Fatalf("%s: input_schema does not compile: %v", name, err)
		}
		return s
	}
	valid := func(s *jsonschema.Schema, input string) bool {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(input))
		if err != nil {
			t.Fatal(err)
		}
		return s.Validate(v) == nil
	}
	t.Run("every tool's input schema compiles and names an operation of the contract", func(t *testing.T) {
		for _, name := range want {
			compile(t, name)
			h := tools[name]["http"].(map[string]any)
			if e.contract.Operation(h["method"].(string), h["path"].(string)) == nil {
				t.Errorf("%s: %s %s is not in the contract", name, h["method"], h["path"])
			}
			if tools[name]["description"] == "" {
				t.Errorf("%s has no description", name)
			}
		}
	})
	t.Run("the import tool takes a workflow id and a patch document as the schema defines it", func(t *testing.T) {
		s := compile(t, "import_workflow_patch")
		id := "0190b7c4-5b1e-7cc3-9e1a-3f0c2a4d5e6f"
		patch := `{"format":"service-workflow-patch-v1","schema_version":1,"base_workflow_id":"` + id + `","operations":[{"op":"add_action","action":{"action_key":"pause","action_type_key":"delay.wait","config":{"seconds":5}}}]}`
		if !valid(s, `{"workflow_id":"`+id+`","patch":`+patch+`}`) {
			t.Fatal("a valid patch is refused")
		}
		for _, bad := range []string{
			`{"workflow_id":"` + id + `"}`,
			`{"workflow_id":"` + id + `","patch":{"format":"v2"}}`,
			`{"workflow_id":"` + id + `","patch":` + strings.Replace(patch, `"pause"`, `"Bad Key"`, 1) + `}`,
		} {
			if valid(s, bad) {
				t.Errorf("accepted %s", bad)
			}
		}
	})
	t.Run("the doc tool offers exactly the served slugs", func(t *testing.T) {
		s := compile(t, "get_integration_doc")
		if !valid(s, `{"public_slug":"http-request"}`) || valid(s, `{"public_slug":"nope"}`) {
			t.Fatal("slug enum is wrong")
		}
	})
}

func TestProviderCatalog(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	resp := e.do(req{method: "GET", path: "/api/v1/providers/catalog"}).expect(t, http.StatusOK)
	var items []map[string]any
	if err := json.Unmarshal(resp.Body.Bytes(), &items); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var order []string
	for _, it := range items {
		var types, actions []string
		for _, d := range it["dependency_types"].([]any) {
			types = append(types, d.(map[string]any)["dependency_type_key"].(string))
		}
		for _, a := range it["action_type_keys"].([]any) {
			actions = append(actions, a.(string))
		}
		key := it["provider_key"].(string)
		order = append(order, key)
		got[key] = strings.Join(types, ",") + " | " + strings.Join(actions, ",") + " | " + it["docs_slug"].(string) + " | " +
			map[bool]string{true: "supported", false: "planned"}[it["supported_now"].(bool)] + " | " + it["display_name"].(string)
	}
	want := map[string]string{
		"messenger_a": "messenger_a.bot | messenger_a.relay.trigger,messenger_a.send_message | messenger-a | supported | Messenger A bot",
		"messenger_b": "messenger_b.bot | messenger_b.send_message | messenger-b | supported | Messenger B bot",
		"smtp":        "smtp.server | email.send | email-smtp | supported | SMTP server",
		"http":        "http.auth | http.request | http-request | supported | HTTP credential",
		"ai":          "ai.model_provider | ai.agent | ai-agent | supported | AI model provider",
		"postgres":    "postgres.database | db.query | postgres-database | supported | PostgreSQL database",
	}
	if !slices.Equal(order, []string{"messenger_a", "messenger_b", "smtp", "http", "ai", "postgres"}) {
		t.Errorf("providers in order %v", order)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %q, want %q", k, got[k], w)
		}
	}
	if items[0]["docs_url"] != "http://api.test/api/v1/docs/integrations/messenger-a.md" || items[4]["docs_url"] != "http://api.test/api/v1/docs/integrations/ai-agent.md" {
		t.Errorf("docs urls %v, %v", items[0]["docs_url"], items[4]["docs_url"])
	}
}
