package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"agencyhub/migrations/dbtest"
	"agencyhub/schemas"
)

// importWorld is a workflow with a sound draft (start -> notify through the project's bot),
// an integration of another project of the same company, and a viewer of the company.
type importWorld struct {
	*env
	owner, viewer     user
	workflowID        string
	botID, foreignBot string
}

func newImportWorld(t *testing.T, db *dbtest.DB, name string) *importWorld {
	e := newEnv(t, db)
	w := &importWorld{env: e, owner: e.signUp(name + "Owner"), viewer: e.signUp(name + "Viewer")}
	companyID := e.companyOf(w.owner, name+" Agency")
	e.addToCompany(w.owner, companyID, w.viewer, "viewer")
	projectID := e.projectIn(w.owner, companyID, "Site")
	sibling := e.projectIn(w.owner, companyID, "Shop")
	bot := func(projectID, name string) string {
		return e.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/action-dependencies", token: w.owner.token, body: map[string]any{
			"dependency_type_key": "messenger_a.bot", "name": name, "auth": map[string]any{"bot_token": botSecret}}}).
			expect(t, http.StatusCreated).str("action_dependency_id")
	}
	w.botID, w.foreignBot = bot(projectID, "Sales bot"), bot(sibling, "Shop bot")
	w.workflowID = e.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/workflows", token: w.owner.token,
		body: map[string]any{"name": "Lead follow-up"}}).expect(t, http.StatusCreated).str("workflow_id")
	e.do(req{method: "PUT", path: "/api/v1/workflows/" + w.workflowID + "/draft", token: w.owner.token, body: map[string]any{
		"actions": []any{
			map[string]any{"action_key": "start", "label": "Start", "action_type_key": "manual.trigger", "config": map[string]any{},
				"ui": map[string]any{"position": map[string]any{"x": 80, "y": 80}}},
			map[string]any{"action_key": "notify", "label": "Notify", "action_type_key": "messenger_a.send_message",
				"config": map[string]any{"action_dependency_id": w.botID, "chat_id": "42", "text": "Lead {{ start.email }}"},
				"ui":     map[string]any{"position": map[string]any{"x": 360, "y": 80}}},
		},
		"connections":        []any{map[string]any{"from": "start", "to": "notify", "branch": ""}},
		"test_input_json":    map[string]any{"email": "ann@example.com"},
		"change_description": "first draft",
	}}).expect(t, http.StatusOK)
	return w
}

func (w *importWorld) path(suffix string) string { return "/api/v1/workflows/" + w.workflowID + suffix }

func (w *importWorld) patch(ops ...string) string {
	return `{"format":"service-workflow-patch-v1","schema_version":1,"base_workflow_id":"` + w.workflowID + `","operations":[` + strings.Join(ops, ",") + `]}`
}

// send posts body to ai-import as contentType.
func (w *importWorld) send(t *testing.T, contentType, body string) *response {
	t.Helper()
	return w.asSubtest(t).do(req{method: "POST", path: w.path("/ai-import"), token: w.owner.token, body: body,
		header: map[string]string{"Content-Type": contentType}})
}

// stored answers the workflow as stored, and its draft as JSON bytes.
func (w *importWorld) stored(t *testing.T) (*response, string) {
	t.Helper()
	resp := w.asSubtest(t).do(req{method: "GET", path: w.path(""), token: w.owner.token}).expect(t, http.StatusOK)
	draft, _ := json.Marshal(resp.json["draft"])
	return resp, string(draft)
}

func actionKeys(draft map[string]any) []string {
	var out []string
	for _, raw := range draft["actions"].([]any) {
		out = append(out, raw.(map[string]any)["action_key"].(string))
	}
	return out
}

func draftAction(draft map[string]any, key string) map[string]any {
	for _, raw := range draft["actions"].([]any) {
		if a := raw.(map[string]any); a["action_key"] == key {
			return a
		}
	}
	return nil
}

func TestImportAcceptsEveryForm(t *testing.T) {
	w := newImportWorld(t, dbtest.SQLite(t), "North")
	op := `{"op":"set_change_description","description":"DESC"}`
	quoted, _ := json.Marshal("Sure, here it is:\n```json\n" + w.patch(op) + "\n```")
	forms := []struct{ name, contentType, body string }{
		{"a minified document", "application/json", w.patch(op)},
		{"a pretty document", "application/json; charset=utf-8", strings.ReplaceAll(w.patch(op), ",", ",\n  ")},
		{"one operation object", "application/json", op},
		{"an array of operations", "application/json", "[" + op + "]"},
		{"a JSON string holding the answer", "application/json", string(quoted)},
		{"fenced JSON as text", "text/plain", "```json\n" + w.patch(op) + "\n```"},
		{"text around the first JSON object", "text/plain; charset=utf-8", "I made the change {as you asked}. " + w.patch(op) + " Anything else?"},
		{"markdown with a fence", "text/markdown", "## Patch\n\n```json\n[" + op + "]\n```\n"},
		{"an answer sent as JSON without being JSON", "application/json", "Here: " + op},
	}
	for i, f := range forms {
		t.Run(f.name+" imports", func(t *testing.T) {
			want := "DESC " + f.name
			resp := w.send(t, f.contentType, strings.ReplaceAll(f.body, "DESC", want)).expect(t, http.StatusOK)
			if resp.str("change_description") != want {
				t.Fatalf("change_description %q, want %q", resp.str("change_description"), want)
			}
			applied := resp.json["applied_operations"].([]any)
			if len(applied) != 1 || applied[0].(map[string]any)["effect"] != "set" || applied[0].(map[string]any)["index"] != 0.0 {
				t.Fatalf("applied %v", applied)
			}
			stored, _ := w.stored(t)
			if got := stored.json["draft"].(map[string]any)["change_description"]; got != want {
				t.Fatalf("stored change description %q after form %d", got, i)
			}
		})
	}
}

func TestImportAppliesEveryOperationAndNeverPublishes(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		w := newImportWorld(t, db, "North")
		resp := w.send(t, "application/json", strings.Replace(w.patch(
			`{"op":"add_action","action":{"action_key":"fetch","label":"Fetch lead","action_type_key":"http.request","config":{"url":"https://crm.example.com/leads/{{ start.email }}"}}}`,
			`{"op":"add_action","action":{"action_key":"is_vip","action_type_key":"condition.branch","config":{"text":"steps.fetch.json.vip == true"}}}`,
			`{"op":"upsert_action","action":{"action_key":"done","action_type_key":"stop"}}`,
			`{"op":"upsert_action","action":{"action_key":"notify","label":"Tell sales","action_type_key":"messenger_a.send_message","config":{"action_dependency_id":"`+w.botID+`","chat_id":"42","text":"VIP {{ steps.fetch.json.name }}"}}}`,
			`{"op":"update_action","action_key":"notify","set":{"config":{"parse_mode":"HTML"}}}`,
			`{"op":"delete_connection","from":"start","to":"notify"}`,
			`{"op":"add_connection","from":"start","to":"fetch","branch":""}`,
			`{"op":"add_connection","from":"fetch","to":"is_vip"}`,
			`{"op":"add_connection","from":"is_vip","to":"notify","branch":"true"}`,
			`{"op":"add_connection","from":"is_vip","to":"done","branch":"false"}`,
			`{"op":"add_action","action":{"action_key":"scratch","action_type_key":"stop"}}`,
			`{"op":"add_connection","from":"done","to":"scratch"}`,
			`{"op":"delete_action","action_key":"scratch","delete_connections":true}`,
			`{"op":"set_test_input","test_input_json":{"email":"vip@example.com"}}`,
			`{"op":"set_change_description","description":"Only VIP leads reach sales"}`,
		), `"operations"`, `"change_description":"overwritten by the operation","operations"`, 1)).expect(t, http.StatusOK)

		draft := resp.json["draft"].(map[string]any)
		if got := actionKeys(draft); !slices.Equal(got, []string{"start", "notify", "fetch", "is_vip", "done"}) {
			t.Fatalf("actions %v", got)
		}
		notify := draftAction(draft, "notify")
		cfg := notify["config"].(map[string]any)
		if notify["label"] != "Tell sales" || cfg["parse_mode"] != "HTML" || cfg["action_dependency_id"] != w.botID {
			t.Fatalf("notify %v", notify)
		}
		if pos := notify["ui"].(map[string]any)["position"].(map[string]any); pos["x"] != 360.0 {
			t.Fatalf("upsert moved notify to %v", pos)
		}
		for _, key := range []string{"fetch", "is_vip", "done"} {
			a := draftAction(draft, key)
			if a["ui"] == nil || a["category"] == "" || a["type_label"] == "" || a["label"] == "" {
				t.Errorf("%s is not normalized: %v", key, a)
			}
		}
		if len(resp.json["diagnostics"].([]any)) != 0 {
			t.Fatalf("diagnostics %v", resp.json["diagnostics"])
		}
		if n := len(resp.json["applied_operations"].([]any)); n != 15 {
			t.Fatalf("%d applied operations", n)
		}

		stored, storedDraft := w.stored(t)
		answered, _ := json.Marshal(draft)
		if storedDraft != string(answered) {
			t.Fatalf("stored draft differs from the answer:\n%s\n%s", storedDraft, answered)
		}
		if stored.str("status") != "draft" || stored.json["current_version_id"] != nil {
			t.Fatalf("the import published: %s", stored.Body)
		}
		if vs := w.do(req{method: "GET", path: w.path("/versions"), token: w.owner.token}).expect(t, http.StatusOK).items(); len(vs) != 0 {
			t.Fatalf("versions %v", vs)
		}
		if d := stored.json["draft"].(map[string]any); d["change_description"] != "Only VIP leads reach sales" ||
			d["test_input_json"].(map[string]any)["email"] != "vip@example.com" {
			t.Fatalf("draft %v", d)
		}

		t.Run("the change description becomes the next version's description", func(t *testing.T) {
			v := w.do(req{method: "POST", path: w.path("/publish"), token: w.owner.token}).expect(t, http.StatusCreated)
			if v.str("description") != "Only VIP leads reach sales" {
				t.Fatalf("version description %q", v.str("description"))
			}
		})
		t.Run("importing into a published workflow keeps its current version", func(t *testing.T) {
			before, _ := w.stored(t)
			w.send(t, "application/json", `{"op":"set_change_description","description":"next"}`).expect(t, http.StatusOK)
			after, _ := w.stored(t)
			if after.json["current_version_id"] != before.json["current_version_id"] || after.str("status") != "published" {
				t.Fatalf("current version %v -> %v", before.json["current_version_id"], after.json["current_version_id"])
			}
		})
	})
}

func TestImportKeepsOnlyTheProjectsIntegrations(t *testing.T) {
	w := newImportWorld(t, dbtest.SQLite(t), "North")
	resp := w.send(t, "application/json", w.patch(
		`{"op":"add_action","action":{"action_key":"shop_ping","action_type_key":"messenger_a.send_message","config":{"action_dependency_id":"`+w.foreignBot+`","chat_id":"7","text":"hi"}}}`,
		`{"op":"add_connection","from":"start","to":"shop_ping"}`,
	)).expect(t, http.StatusOK)
	draft := resp.json["draft"].(map[string]any)
	if id := draftAction(draft, "shop_ping")["config"].(map[string]any)["action_dependency_id"]; id != "" {
		t.Fatalf("another project's integration id was kept: %v", id)
	}
	var notes []string
	for _, raw := range resp.json["diagnostics"].([]any) {
		d := raw.(map[string]any)
		notes = append(notes, d["severity"].(string)+":"+d["code"].(string)+"@"+d["action_key"].(string))
	}
	if !slices.Equal(notes[:2], []string{"warning:integration_not_available@shop_ping", "error:invalid_config@shop_ping"}) {
		t.Fatalf("diagnostics %v", notes)
	}
	if msg := resp.json["diagnostics"].([]any)[0].(map[string]any)["message"].(string); !strings.Contains(msg, "Sales bot") {
		t.Fatalf("the note does not offer the project's bot: %q", msg)
	}
	t.Run("publishing waits until an integration is chosen", func(t *testing.T) {
		w.do(req{method: "POST", path: w.path("/publish"), token: w.owner.token}).expect(t, http.StatusBadRequest, "actions.shop_ping.config.action_dependency_id")
	})
}

func TestImportRejectsAndChangesNothing(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		w := newImportWorld(t, db, "North")
		other := newImportWorld(t, db, "South")
		_, before := w.stored(t)
		beforeWorkflow, _ := w.stored(t)
		big := `{"op":"set_change_description","description":"` + strings.Repeat("x", 1<<20) + `"}`
		cases := []struct {
			name, contentType, body string
			status                  int
			validate                string
		}{
			{"an empty body", "application/json", " ", http.StatusBadRequest, "body"},
			{"text without JSON", "text/plain", "Sorry, I cannot do that.", http.StatusBadRequest, "body"},
			{"a form body", "application/x-www-form-urlencoded", "op=add_action", http.StatusUnsupportedMediaType, "body"},
			{"an oversized body", "application/json", big, http.StatusRequestEntityTooLarge, "body"},
			{"a wrong format", "application/json", strings.Replace(w.patch(), "patch-v1", "patch-v9", 1), http.StatusBadRequest, "format"},
			{"a patch of another workflow", "application/json", other.patch(`{"op":"set_test_input","test_input_json":{}}`), http.StatusBadRequest, "base_workflow_id"},
			{"an unsupported action type", "application/json", w.patch(`{"op":"set_test_input","test_input_json":{"x":1}}`,
				`{"op":"add_action","action":{"action_key":"think","action_type_key":"ai.telepathy","config":{}}}`), http.StatusBadRequest, "operations.1.action.action_type_key"},
			{"a dangling connection after good operations", "application/json", w.patch(`{"op":"add_action","action":{"action_key":"wait","action_type_key":"delay.wait","config":{"seconds":5}}}`,
				`{"op":"add_connection","from":"start","to":"wait"}`, `{"op":"add_connection","from":"wait","to":"nowhere"}`), http.StatusBadRequest, "operations.2.to"},
			{"a config that does not match", "text/plain", "```json\n" + w.patch(`{"op":"update_action","action_key":"notify","set":{"config":{"text":"","parse_mode":"BBCode"}}}`) + "\n```",
				http.StatusBadRequest, "operations.0.set.config.parse_mode,operations.0.set.config.text"},
			{"a delete that would leave dangling connections", "application/json", `{"op":"delete_action","action_key":"notify","delete_connections":false}`, http.StatusBadRequest, "operations.0.delete_connections"},
			{"an unknown field in an operation", "application/json", `[{"op":"add_connection","from":"start","to":"notify","why":"because"}]`, http.StatusBadRequest, "operations.0.why"},
		}
		for _, c := range cases {
			t.Run(c.name+" is refused and the stored draft is byte-identical", func(t *testing.T) {
				w.send(t, c.contentType, c.body).expect(t, c.status, c.validate)
				after, draft := w.stored(t)
				if draft != before {
					t.Fatalf("the draft changed:\n%s\n%s", before, draft)
				}
				if after.str("updated_at") != beforeWorkflow.str("updated_at") {
					t.Fatalf("updated_at moved: %s -> %s", beforeWorkflow.str("updated_at"), after.str("updated_at"))
				}
			})
		}
		t.Run("a viewer may not import", func(t *testing.T) {
			w.do(req{method: "POST", path: w.path("/ai-import"), token: w.viewer.token, body: w.patch()}).expect(t, http.StatusForbidden)
			if _, draft := w.stored(t); draft != before {
				t.Fatal("the draft changed")
			}
		})
		t.Run("another company's user finds no workflow", func(t *testing.T) {
			other.do(req{method: "POST", path: w.path("/ai-import"), token: other.owner.token, body: w.patch()}).expect(t, http.StatusNotFound)
		})
	})
}

func TestImportDryRunAnswersTheResultAndStoresNothing(t *testing.T) {
	w := newImportWorld(t, dbtest.SQLite(t), "North")
	before, draft := w.stored(t)
	patch := w.patch(`{"op":"add_action","action":{"action_key":"wait","action_type_key":"delay.wait","config":{"seconds":5}}}`,
		`{"op":"add_connection","from":"notify","to":"wait"}`, `{"op":"set_change_description","description":"wait after"}`)
	resp := w.do(req{method: "POST", path: w.path("/ai-import?dry_run=true"), token: w.owner.token, body: patch,
		header: map[string]string{"Content-Type": "application/json"}}).expect(t, http.StatusOK)
	if got := actionKeys(resp.json["draft"].(map[string]any)); !slices.Equal(got, []string{"start", "notify", "wait"}) {
		t.Fatalf("dry run draft actions %v", got)
	}
	if resp.str("change_description") != "wait after" || len(resp.json["applied_operations"].([]any)) != 3 {
		t.Fatalf("dry run answer %v", resp.json)
	}
	after, stored := w.stored(t)
	if stored != draft || after.str("updated_at") != before.str("updated_at") {
		t.Fatalf("a dry run changed the stored workflow:\n%s\n%s", draft, stored)
	}
	w.do(req{method: "POST", path: w.path("/ai-import?dry_run=true"), token: w.owner.token,
		body: `{"op":"delete_action","action_key":"notify","delete_connections":false}`}).expect(t, http.StatusBadRequest, "operations.0.delete_connections")
}

func TestImportContextExport(t *testing.T) {
	w := newImportWorld(t, dbtest.SQLite(t), "North")
	ctx := w.do(req{method: "GET", path: w.path("/ai-context"), token: w.viewer.token}).expect(t, http.StatusOK)
	if ctx.str("format") != "service-workflow-context-v1" || ctx.json["schema_version"] != 1.0 {
		t.Fatalf("format %q, version %v", ctx.str("format"), ctx.json["schema_version"])
	}
	wf := ctx.json["workflow"].(map[string]any)
	if wf["workflow_id"] != w.workflowID || wf["name"] != "Lead follow-up" || wf["status"] != "draft" {
		t.Fatalf("workflow %v", wf)
	}
	_, stored := w.stored(t)
	if got, _ := json.Marshal(ctx.json["draft"]); string(got) != stored {
		t.Fatalf("draft %s, stored %s", got, stored)
	}

	t.Run("the catalog splits supported and planned types; supported ones carry their config schema", func(t *testing.T) {
		catalog := ctx.json["action_catalog"].(map[string]any)
		supported, planned := catalog["supported_now"].([]any), catalog["planned"].([]any)
		if len(supported) != len(loadCatalog(t).Actions()) || len(planned) != 0 {
			t.Fatalf("%d supported, %d planned", len(supported), len(planned))
		}
		for _, raw := range supported {
			if a := raw.(map[string]any); a["config_schema_json"] == nil {
				t.Errorf("%v has no config schema", a["action_type_key"])
			}
		}
		for _, raw := range planned {
			if a := raw.(map[string]any); a["config_schema_json"] != nil {
				t.Errorf("planned %v carries a config schema", a["action_type_key"])
			}
		}
	})
	t.Run("the project's integrations are named, never their credentials, and no other project's", func(t *testing.T) {
		list := ctx.json["available_integrations"].([]any)
		if len(list) != 1 {
			t.Fatalf("integrations %v", list)
		}
		it := list[0].(map[string]any)
		if it["action_dependency_id"] != w.botID || it["dependency_type_key"] != "messenger_a.bot" || it["name"] != "Sales bot" || it["status"] != "active" {
			t.Fatalf("integration %v", it)
		}
		if strings.Contains(ctx.Body.String(), "the_bot_secret_token") || strings.Contains(ctx.Body.String(), w.foreignBot) {
			t.Fatal("the context holds a credential or another project's integration")
		}
	})
	t.Run("template variables follow the draft", func(t *testing.T) {
		var namespaces []string
		for _, raw := range ctx.json["template_variables"].([]any) {
			namespaces = append(namespaces, raw.(map[string]any)["namespace"].(string))
		}
		if !slices.Equal(namespaces, []string{"start", "steps.notify", "system"}) {
			t.Fatalf("namespaces %v", namespaces)
		}
	})
	t.Run("the patch format carries its rules and the schema file", func(t *testing.T) {
		pf := ctx.json["patch_format"].(map[string]any)
		s, err := schemas.LoadWorkflowPatchSchema()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(s.Document)
		if got, _ := json.Marshal(pf["schema_json"]); string(got) != string(want) {
			t.Fatal("schema_json is not workflow-patch-v1.json")
		}
		if pf["format"] != "service-workflow-patch-v1" || len(pf["operations"].([]any)) != 9 || len(pf["rules"].([]any)) == 0 ||
			pf["docs_url"] != "http://api.test/api/v1/docs/integrations/workflow-ai-patch-contract.md" {
			t.Fatalf("patch_format %v", pf)
		}
		rules, _ := json.Marshal(pf["rules"])
		if !strings.Contains(string(rules), "never invented") {
			t.Fatalf("rules %s", rules)
		}
	})
	t.Run("a patch written from the context imports", func(t *testing.T) {
		w.send(t, "application/json", `{"format":"`+ctx.json["patch_format"].(map[string]any)["format"].(string)+`","schema_version":1,"base_workflow_id":"`+
			wf["workflow_id"].(string)+`","operations":[{"op":"update_action","action_key":"notify","set":{"config":{"text":"{{ system.link }}"}}}]}`).expect(t, http.StatusOK)
	})
}
