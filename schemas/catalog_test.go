package schemas

import (
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const (
	someID    = "0190a5c4-7d4e-7b1a-9c3e-5f6a7b8c9d0e"
	anotherID = "0190a5c4-7d4e-7b1a-9c3e-5f6a7b8c9d0f"
)

// importable are the action types the specification lists as supported now, in its order,
// with the workflow language's own beside their kin, each with the smallest config that is
// valid.
var importable = []struct {
	key     string
	minimal map[string]any
}{
	{"webhook.trigger", map[string]any{"endpoint_key": "order_created"}},
	{"messenger_a.relay.trigger", map[string]any{"action_dependency_id": ""}},
	{"schedule.trigger", map[string]any{"schedule_key": "daily", "interval_seconds": 3600}},
	{"manual.trigger", map[string]any{}},
	{"http.request", map[string]any{"url": "https://api.example.com/orders"}},
	{"messenger_a.send_message", map[string]any{"action_dependency_id": someID, "chat_id": "{{ messenger_a_relay.chat.id }}", "text": "Hello"}},
	{"messenger_b.send_message", map[string]any{"action_dependency_id": someID, "chat_id": "u-1", "text": "Hello"}},
	{"email.send", map[string]any{"smtp_action_dependency_id": someID, "to": "client@example.com", "body": "Hello"}},
	{"condition.branch", map[string]any{"text": "steps.fetch.status_code == 200"}},
	{"condition.switch", map[string]any{"cases": []any{map[string]any{"name": "north", "text": `order_created.region == "north"`}}}},
	{"data.set", map[string]any{"fields": map[string]any{"total": "steps.fetch.json.total * 2"}}},
	{"loop.for_each", map[string]any{"items": "steps.fetch.json.orders"}},
	{"delay.wait", map[string]any{"seconds": 60}},
	{"stop", map[string]any{}},
	{"bot.set_state", map[string]any{"state_key": "awaiting_email"}},
	{"db.query", map[string]any{"action_dependency_id": someID, "sql": "SELECT name FROM customers WHERE id = $1", "params": []any{"{{ hook.id }}"}}},
	{"workflow.call", map[string]any{"workflow_id": someID}},
	{"bot.wait_for_reply", map[string]any{}},
	{"payment.event_trigger", map[string]any{}},
	{"task.event_trigger", map[string]any{}},
	{"task.create", map[string]any{"board_id": someID, "title": "Call {{ payment.client.name }}"}},
	{"ai.agent", map[string]any{"action_dependency_id": someID, "input": "Why did run {{ start.run_id }} fail?"}},
	{"run.event_trigger", map[string]any{"events": []any{"run.failed", "run.cancelled"}, "workflow_ids": []any{someID}}},
}

var planned []string

func mustCatalog(t *testing.T) *Catalog {
	t.Helper()
	c, err := LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCatalogListsTheSpecificationsTypes(t *testing.T) {
	c := mustCatalog(t)
	var want []string
	for _, it := range importable {
		want = append(want, it.key)
	}
	want = append(want, planned...)
	var got []string
	for _, a := range c.Actions() {
		got = append(got, a.Key)
		if a.Importable != !slices.Contains(planned, a.Key) {
			t.Errorf("%s: importable = %v", a.Key, a.Importable)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("action types %v, want %v", got, want)
	}
	for _, key := range []string{"messenger_a.bot", "messenger_b.bot", "smtp.server", "http.auth"} {
		if _, ok := c.Dependency(key); !ok {
			t.Errorf("dependency type %s is missing", key)
		}
	}
	if _, ok := c.Action("no.such_type"); ok {
		t.Error("an unknown action key was found")
	}
	if _, ok := c.Dependency("no.such_type"); ok {
		t.Error("an unknown dependency key was found")
	}
}

func TestCatalogFlagsFollowTheDecisions(t *testing.T) {
	c := mustCatalog(t)
	cases := []struct {
		key                 string
		requires            bool
		provider            string
		dependencyType      string
		field               string
		trigger, idempotent bool
		category            string
	}{
		{"webhook.trigger", false, "", "", "", true, true, "trigger"},
		{"messenger_a.relay.trigger", true, "messenger_a", "messenger_a.bot", "action_dependency_id", true, true, "trigger"},
		{"http.request", false, "", "http.auth", "auth_dependency_id", false, false, "integration"},
		{"messenger_a.send_message", true, "messenger_a", "messenger_a.bot", "action_dependency_id", false, false, "integration"},
		{"messenger_b.send_message", true, "messenger_b", "messenger_b.bot", "action_dependency_id", false, false, "integration"},
		{"email.send", true, "smtp", "smtp.server", "smtp_action_dependency_id", false, false, "integration"},
		{"condition.branch", false, "", "", "", false, true, "logic"},
		{"delay.wait", false, "", "", "", false, true, "control"},
		{"stop", false, "", "", "", false, true, "control"},
	}
	for _, tc := range cases {
		a, _ := c.Action(tc.key)
		got := []any{a.RequiresDependency, a.ProviderKey, a.DependencyTypeKey, a.DependencyField, a.Trigger, a.Idempotent, a.Category}
		want := []any{tc.requires, tc.provider, tc.dependencyType, tc.field, tc.trigger, tc.idempotent, tc.category}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: requires, provider, dependency type, field, trigger, idempotent, category = %v, want %v", tc.key, got, want)
		}
	}
}

// TestEverySchemaFileCompiles compiles each file on its own, so a file the index does not
// name (and the loader would never see) is checked too, and proves each is named.
func TestEverySchemaFileCompiles(t *testing.T) {
	c := mustCatalog(t)
	named := map[string]bool{"actions/catalog.json": true, "dependencies/catalog.json": true}
	for _, a := range c.Actions() {
		named["actions/"+a.Key+".config.json"] = true
		named["actions/"+a.Key+".result.json"] = true
	}
	for _, d := range c.Dependencies() {
		named["dependencies/"+d.Key+".auth.json"] = true
		named["dependencies/"+d.Key+".metadata.json"] = true
	}
	var files []string
	for _, dir := range []string{"actions", "dependencies"} {
		matches, err := fs.Glob(catalogFiles, dir+"/*.json")
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, matches...)
	}
	for _, name := range files {
		if !named[name] {
			t.Errorf("%s is not named by its catalog.json", name)
		}
		delete(named, name)
		if strings.HasSuffix(name, "/catalog.json") {
			continue
		}
		compiler := jsonschema.NewCompiler()
		compiler.RegisterFormat(ianaTimeZone)
		if _, _, err := loadSchema(catalogFiles, compiler, name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for name := range named {
		t.Errorf("%s is named by a catalog.json but missing", name)
	}
}

func TestImportableConfigSchemasAreStrictAndDocumented(t *testing.T) {
	c := mustCatalog(t)
	for _, a := range c.Actions() {
		if !a.Importable {
			continue
		}
		s := a.ConfigSchema
		if s["$schema"] != "https://json-schema.org/draft/2020-12/schema" || s["additionalProperties"] != false || s["description"] == nil {
			t.Errorf("%s: config schema needs $schema 2020-12, additionalProperties false and a description", a.Key)
		}
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			if desc, _ := p.(map[string]any)["description"].(string); desc == "" {
				t.Errorf("%s: config field %s has no description", a.Key, name)
			}
		}
		if a.ResultSchema["description"] == nil {
			t.Errorf("%s: result schema has no description", a.Key)
		}
	}
}

func TestConfigValidation(t *testing.T) {
	c := mustCatalog(t)
	for _, it := range importable {
		a, _ := c.Action(it.key)
		t.Run(it.key+" accepts its minimal config", func(t *testing.T) {
			if fields := a.ValidateConfig(it.minimal); fields != nil {
				t.Fatalf("fields %v", fields)
			}
		})
		t.Run(it.key+" accepts its minimal config with every default filled in", func(t *testing.T) {
			if fields := a.ValidateConfig(a.ApplyDefaults(it.minimal)); fields != nil {
				t.Fatalf("fields %v", fields)
			}
		})
		t.Run(it.key+" rejects an unknown field", func(t *testing.T) {
			config := a.ApplyDefaults(it.minimal)
			config["unexpected_field"] = 1
			if fields := a.ValidateConfig(config); !slices.Equal(fields, []string{"unexpected_field"}) {
				t.Fatalf("fields %v, want [unexpected_field]", fields)
			}
		})
	}
	for _, key := range planned {
		a, _ := c.Action(key)
		t.Run(key+" is planned and accepts any object", func(t *testing.T) {
			if a.Importable {
				t.Fatal("planned type is importable")
			}
			if fields := a.ValidateConfig(map[string]any{"anything": true}); fields != nil {
				t.Fatalf("fields %v", fields)
			}
		})
	}

	bad := []struct {
		name, key string
		config    map[string]any
		fields    []string
	}{
		{"a webhook endpoint_key that is a service namespace", "webhook.trigger", map[string]any{"endpoint_key": "steps"}, []string{"endpoint_key"}},
		{"a webhook endpoint_key that is not snake_case", "webhook.trigger", map[string]any{"endpoint_key": "Order-Created"}, []string{"endpoint_key"}},
		{"an unknown webhook auth_type", "webhook.trigger", map[string]any{"endpoint_key": "a", "auth_type": "hmac"}, []string{"auth_type"}},
		{"repeated json_fields", "webhook.trigger", map[string]any{"endpoint_key": "a", "json_fields": []any{"a.b", "a.b"}}, []string{"json_fields"}},
		{"an unknown relay update kind", "messenger_a.relay.trigger", map[string]any{"action_dependency_id": "", "allowed_updates": []any{"inline_query"}}, []string{"allowed_updates.0"}},
		{"a relay dependency id that is not a UUID", "messenger_a.relay.trigger", map[string]any{"action_dependency_id": "bot-1"}, []string{"action_dependency_id"}},
		{"a schedule without interval or cron", "schedule.trigger", map[string]any{"schedule_key": "daily"}, []string{"cron", "interval_seconds"}},
		{"a schedule with both interval and cron", "schedule.trigger", map[string]any{"schedule_key": "daily", "interval_seconds": 3600, "cron": "0 9 * * *"}, []string{"interval_seconds"}},
		{"an interval under five seconds", "schedule.trigger", map[string]any{"schedule_key": "daily", "interval_seconds": 4}, []string{"interval_seconds"}},
		{"an interval over a year", "schedule.trigger", map[string]any{"schedule_key": "daily", "interval_seconds": 31536001}, []string{"interval_seconds"}},
		{"a cron with four fields", "schedule.trigger", map[string]any{"schedule_key": "daily", "cron": "0 9 * *"}, []string{"cron"}},
		{"an unknown time zone", "schedule.trigger", map[string]any{"schedule_key": "daily", "cron": "@daily", "timezone": "Mars/Olympus_Mons"}, []string{"timezone"}},
		{"a manual input schema that is not a JSON Schema", "manual.trigger", map[string]any{"input_schema_json": map[string]any{"type": "text"}}, []string{"input_schema_json.type"}},
		{"an http request without url", "http.request", map[string]any{"method": "GET"}, []string{"url"}},
		{"an http url without scheme", "http.request", map[string]any{"url": "example.com"}, []string{"url"}},
		{"an unknown http method", "http.request", map[string]any{"url": "https://x.test", "method": "TRACE"}, []string{"method"}},
		{"an http timeout over two minutes", "http.request", map[string]any{"url": "https://x.test", "timeout_seconds": 121}, []string{"timeout_seconds"}},
		{"too many http attempts", "http.request", map[string]any{"url": "https://x.test", "retry_policy": map[string]any{"max_attempts": 11}}, []string{"retry_policy.max_attempts"}},
		{"a header value that is not a string", "http.request", map[string]any{"url": "https://x.test", "headers_json": map[string]any{"X-Count": 1}}, []string{"headers_json.X-Count"}},
		{"an http body that is a number", "http.request", map[string]any{"url": "https://x.test", "method": "POST", "body": 5}, []string{"body"}},
		{"an http body with the default GET", "http.request", map[string]any{"url": "https://x.test", "body": "x"}, []string{"body"}},
		{"a message over 4096 characters", "messenger_a.send_message", map[string]any{"action_dependency_id": someID, "chat_id": "1", "text": strings.Repeat("x", 4097)}, []string{"text"}},
		{"an unknown parse mode", "messenger_a.send_message", map[string]any{"action_dependency_id": someID, "chat_id": "1", "text": "x", "parse_mode": "html"}, []string{"parse_mode"}},
		{"a message without its bot", "messenger_b.send_message", map[string]any{"chat_id": "1", "text": "x"}, []string{"action_dependency_id"}},
		{"a mail with neither body nor template", "email.send", map[string]any{"smtp_action_dependency_id": someID, "to": "a@example.com"}, []string{"body", "email_template_id"}},
		{"a mail to nobody", "email.send", map[string]any{"smtp_action_dependency_id": someID, "to": []any{}, "body": "x"}, []string{"to"}},
		{"an empty condition", "condition.branch", map[string]any{"text": ""}, []string{"text"}},
		{"a zero delay", "delay.wait", map[string]any{"seconds": 0}, []string{"seconds"}},
		{"a delay over 30 days", "delay.wait", map[string]any{"seconds": 2592001}, []string{"seconds"}},
		{"a state key with spaces", "bot.set_state", map[string]any{"state_key": "awaiting email"}, []string{"state_key"}},
		{"an agent allowed a write tool", "ai.agent", map[string]any{"action_dependency_id": someID, "input": "x", "tools": []any{"get_run", "retry_failed_action"}}, []string{"tools.1"}},
		{"an agent allowed the session's memory", "ai.agent", map[string]any{"action_dependency_id": someID, "input": "x", "tools": []any{"remember"}}, []string{"tools.0"}},
		{"an agent output schema that is not a JSON Schema", "ai.agent", map[string]any{"action_dependency_id": someID, "input": "x", "output_schema": map[string]any{"type": "text"}}, []string{"output_schema.type"}},
		{"an agent without its task", "ai.agent", map[string]any{"action_dependency_id": someID}, []string{"input"}},
	}
	for _, tc := range bad {
		a, _ := c.Action(tc.key)
		t.Run(tc.key+" rejects "+tc.name, func(t *testing.T) {
			if fields := a.ValidateConfig(tc.config); !slices.Equal(fields, tc.fields) {
				t.Fatalf("fields %v, want %v", fields, tc.fields)
			}
		})
	}
	t.Run("email.send accepts a list of recipients and a template instead of a body", func(t *testing.T) {
		a, _ := c.Action("email.send")
		config := map[string]any{"smtp_action_dependency_id": someID, "to": []any{"a@example.com", "{{ order_created.email }}"}, "cc": "b@example.com", "email_template_id": anotherID}
		if fields := a.ValidateConfig(config); fields != nil {
			t.Fatalf("fields %v", fields)
		}
	})
	t.Run("http.request accepts a JSON body with POST", func(t *testing.T) {
		a, _ := c.Action("http.request")
		if fields := a.ValidateConfig(map[string]any{"url": "{{ steps.lookup.json.url }}", "method": "POST", "body": map[string]any{"id": "{{ order_created.id }}"}}); fields != nil {
			t.Fatalf("fields %v", fields)
		}
	})
	t.Run("schedule.trigger accepts a cron in a named time zone", func(t *testing.T) {
		a, _ := c.Action("schedule.trigger")
		if fields := a.ValidateConfig(map[string]any{"schedule_key": "weekdays", "cron": "0 9 * * 1-5", "timezone": "Europe/Moscow"}); fields != nil {
			t.Fatalf("fields %v", fields)
		}
	})
}

func TestApplyDefaults(t *testing.T) {
	c := mustCatalog(t)
	a, _ := c.Action("http.request")
	config := map[string]any{"url": "https://x.test", "timeout_seconds": 5}
	got := a.ApplyDefaults(config)
	if got["method"] != "GET" || got["response_format"] != "auto" || got["auth_dependency_id"] != "" || got["timeout_seconds"] != 5 {
		t.Fatalf("defaults applied: %v", got)
	}
	if len(config) != 2 {
		t.Fatalf("the input was changed: %v", config)
	}
	policy, _ := got["retry_policy"].(map[string]any)
	if policy["max_attempts"] != float64(3) || policy["max_interval_seconds"] != float64(60) {
		t.Fatalf("retry_policy default %v", policy)
	}
	policy["max_attempts"] = 9
	if again := a.ApplyDefaults(nil)["retry_policy"].(map[string]any); again["max_attempts"] != float64(3) {
		t.Fatal("changing an applied default changed the catalog")
	}

	s, _ := c.Action("schedule.trigger")
	if d := s.ApplyDefaults(map[string]any{"schedule_key": "x"}); d["enabled"] != true || d["timezone"] != "UTC" {
		t.Fatalf("schedule defaults %v", d)
	}
	r, _ := c.Action("messenger_a.relay.trigger")
	if d := r.ApplyDefaults(nil); d["bot_key"] != "bot" || !reflect.DeepEqual(d["allowed_updates"], []any{"message"}) {
		t.Fatalf("relay defaults %v", d)
	}
	w, _ := c.Action("webhook.trigger")
	if d := w.ApplyDefaults(map[string]any{"auth_type": "none"}); d["auth_type"] != "none" {
		t.Fatalf("a given value was overridden: %v", d)
	}
}

func TestDependencyValidation(t *testing.T) {
	c := mustCatalog(t)
	cases := []struct {
		name, key      string
		auth, metadata map[string]any
		authFields     []string
		metaFields     []string
	}{
		{"a messenger_a bot", "messenger_a.bot", map[string]any{"bot_token": "123456:AAE-abc_DEF"}, map[string]any{}, nil, nil},
		{"a messenger_a token without its bot id", "messenger_a.bot", map[string]any{"bot_token": "AAE-abc"}, map[string]any{"api_base_url": "ftp://x"}, []string{"bot_token"}, []string{"api_base_url"}},
		{"a messenger_b bot", "messenger_b.bot", map[string]any{"bot_token": "abc"}, map[string]any{"api_base_url": "http://127.0.0.1:9000"}, nil, nil},
		{"an SMTP server", "smtp.server", map[string]any{"username": "u", "password": "p"}, map[string]any{"host": "smtp.example.com", "port": 465, "security": "tls", "from": "noreply@example.com"}, nil, nil},
		{"an SMTP relay without login", "smtp.server", map[string]any{}, map[string]any{"host": "10.0.0.5", "from": "noreply@example.com"}, nil, nil},
		{"an SMTP user without password and an unknown security", "smtp.server", map[string]any{"username": "u"}, map[string]any{"host": "smtp.example.com", "from": "noreply@example.com", "security": "ssl", "port": 70000}, []string{"password"}, []string{"port", "security"}},
		{"SMTP settings without host and sender", "smtp.server", map[string]any{}, map[string]any{}, nil, []string{"from", "host"}},
		{"a bearer credential", "http.auth", map[string]any{"scheme": "bearer", "token": "t"}, map[string]any{"allowed_hosts": []any{"api.example.com", "*.example.org"}}, nil, nil},
		{"a basic credential missing its password", "http.auth", map[string]any{"scheme": "basic", "username": "u"}, map[string]any{}, []string{"password"}, nil},
		{"a header credential with a token", "http.auth", map[string]any{"scheme": "header", "header_name": "X-API-Key", "header_value": "v", "token": "t"}, map[string]any{}, []string{"token"}, nil},
		{"a credential that forwards the trace", "http.auth", map[string]any{"scheme": "bearer", "token": "t"}, map[string]any{"forward_trace_context": true}, nil, nil},
		{"a trace forwarding that is not a yes or no", "http.auth", map[string]any{"scheme": "bearer", "token": "t"}, map[string]any{"forward_trace_context": "yes"}, nil, []string{"forward_trace_context"}},
		{"a credential without scheme and a bad host", "http.auth", map[string]any{}, map[string]any{"allowed_hosts": []any{"https://x"}}, []string{"scheme"}, []string{"allowed_hosts.0"}},
	}
	for _, tc := range cases {
		d, ok := c.Dependency(tc.key)
		if !ok {
			t.Fatalf("no %s", tc.key)
		}
		t.Run(tc.name, func(t *testing.T) {
			if got := d.ValidateAuth(tc.auth); !slices.Equal(got, tc.authFields) {
				t.Errorf("auth fields %v, want %v", got, tc.authFields)
			}
			if got := d.ValidateMetadata(tc.metadata); !slices.Equal(got, tc.metaFields) {
				t.Errorf("metadata fields %v, want %v", got, tc.metaFields)
			}
		})
	}
}

func TestBrokenCatalogsAreRefused(t *testing.T) {
	schema := func(extra string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"` + extra + `}`)}
	}
	valid := func() fstest.MapFS {
		return fstest.MapFS{
			"dependencies/catalog.json":              {Data: []byte(`[{"dependency_type_key": "smtp.server", "display_name": "SMTP", "provider_key": "smtp"}]`)},
			"dependencies/smtp.server.auth.json":     schema(""),
			"dependencies/smtp.server.metadata.json": schema(""),
			"actions/catalog.json": {Data: []byte(`[{"action_key": "email.send", "display_name": "Mail", "category": "integration", "requires_dependency": true,
				"dependency_type_key": "smtp.server", "dependency_field": "smtp_action_dependency_id", "importable": true, "trigger": false, "idempotent": false}]`)},
			"actions/email.send.config.json": schema(`, "properties": {"smtp_action_dependency_id": {"type": "string"}}`),
			"actions/email.send.result.json": schema(""),
		}
	}
	if _, err := parseCatalog(valid()); err != nil {
		t.Fatalf("the valid base catalog is refused: %v", err)
	}
	cases := []struct {
		name   string
		change func(fstest.MapFS)
	}{
		{"a missing result schema", func(m fstest.MapFS) { delete(m, "actions/email.send.result.json") }},
		{"a schema that does not compile", func(m fstest.MapFS) { m["actions/email.send.result.json"] = schema(`, "minimum": "one"`) }},
		{"a schema that is not of an object", func(m fstest.MapFS) {
			m["actions/email.send.result.json"] = &fstest.MapFile{Data: []byte(`{"type": "string"}`)}
		}},
		{"an unknown index field", func(m fstest.MapFS) {
			m["dependencies/catalog.json"] = &fstest.MapFile{Data: []byte(`[{"dependency_type_key": "smtp.server", "display_name": "SMTP", "provider_key": "smtp", "color": "red"}]`)}
		}},
		{"a dependency field the config lacks", func(m fstest.MapFS) { m["actions/email.send.config.json"] = schema("") }},
		{"a provider the dependency catalog lacks", func(m fstest.MapFS) {
			m["dependencies/catalog.json"] = &fstest.MapFile{Data: []byte(`[]`)}
		}},
	}
	for _, tc := range cases {
		t.Run("refuses "+tc.name, func(t *testing.T) {
			files := valid()
			tc.change(files)
			if _, err := parseCatalog(files); err == nil {
				t.Fatal("no error")
			}
		})
	}
}
