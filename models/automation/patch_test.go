package automation

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"agencyhub/models"
)

var patchWorkflowID = uuid.MustParse("0190b7c4-5b1e-7cc3-9e1a-3f0c2a4d5e6f")

// Integrations of the test project.
const (
	botID      = "0190b7c4-0000-7000-8000-00000000000a"
	mailID     = "0190b7c4-0000-7000-8000-00000000000b"
	disabledID = "0190b7c4-0000-7000-8000-00000000000c"
	foreignID  = "0190b7c4-0000-7000-8000-0000000000ff"
)

var testIntegrations = []ProjectIntegration{
	{ID: botID, TypeKey: "messenger_a.bot", Name: "Sales bot", Active: true},
	{ID: mailID, TypeKey: "smtp.server", Name: "Office mail", Active: true},
	{ID: disabledID, TypeKey: "messenger_a.bot", Name: "Old bot", Active: false},
}

// baseDraft is a sound draft: start -> fetch -> check -(true)-> notify, check -(false)-> done.
func baseDraft() Draft {
	at := func(x, y float64) *ActionUI { return &ActionUI{Position: &Position{X: x, Y: y}} }
	return Draft{
		Graph: Graph{
			Actions: []Action{
				{ActionKey: "start", Label: "Start", ActionTypeKey: TypeManual, Config: map[string]any{}, UI: at(80, 80)},
				{ActionKey: "fetch", Label: "Fetch", ActionTypeKey: "http.request", Config: map[string]any{
					"url": "https://api.example.com/orders/{{ start.id }}", "retry_policy": map[string]any{"max_attempts": 3.0, "initial_interval_seconds": 1.0},
				}, UI: at(360, 80)},
				{ActionKey: "check", Label: "OK?", ActionTypeKey: TypeCondition, Config: map[string]any{"text": "steps.fetch.status_code == 200"}, UI: at(640, 80)},
				{ActionKey: "notify", Label: "Notify", ActionTypeKey: "messenger_a.send_message", Config: map[string]any{
					"action_dependency_id": botID, "chat_id": "42", "text": "Order {{ start.id }}",
				}, UI: at(920, 80)},
				{ActionKey: "done", Label: "Done", ActionTypeKey: TypeStop, Config: map[string]any{}, UI: at(920, 240)},
			},
			Connections: []Connection{edge("start", "fetch", ""), edge("fetch", "check", ""), edge("check", "notify", "true"), edge("check", "done", "false")},
		},
		TestInput:         map[string]any{"id": "A-1"},
		ChangeDescription: "before",
	}
}

// parse parses a patch text for patchWorkflowID, failing the test on error.
func parse(t *testing.T, text string) *Patch {
	t.Helper()
	p, err := ParsePatch([]byte(text), patchWorkflowID)
	if err != nil {
		t.Fatalf("ParsePatch: %v\n%s", err, text)
	}
	return p
}

// doc wraps operations into a patch document for patchWorkflowID.
func doc(ops ...string) string {
	return `{"format":"service-workflow-patch-v1","schema_version":1,"base_workflow_id":"` + patchWorkflowID.String() +
		`","operations":[` + strings.Join(ops, ",") + `]}`
}

func invalidFields(t *testing.T, err error) []string {
	t.Helper()
	var e *models.Error
	if !errors.As(err, &e) || e.Kind != models.KindInvalid {
		t.Fatalf("want an invalid error, got %v", err)
	}
	return e.Fields
}

func TestPatchParseAcceptsEveryForm(t *testing.T) {
	op := `{"op":"set_change_description","description":"from the AI"}`
	pretty := "{\n  \"format\": \"service-workflow-patch-v1\",\n  \"schema_version\": 1,\n  \"base_workflow_id\": \"" + patchWorkflowID.String() +
		"\",\n  \"operations\": [\n    " + op + "\n  ]\n}"
	quoted, _ := json.Marshal("Here you go:\n```json\n" + doc(op) + "\n```")
	cases := map[string]string{
		"minified JSON":                    doc(op),
		"pretty JSON":                      pretty,
		"fenced JSON":                      "```json\n" + pretty + "\n```",
		"fenced JSON with prose around it": "Sure! Here is the patch {as asked}:\n\n```JSON\n" + doc(op) + "\n```\nTell me if [anything] else is needed.",
		"a fence without a language":       "```\n" + doc(op) + "\n```",
		"one operation object":             op,
		"an array of operations":           "[" + op + "]",
		"text around the first JSON":       "I changed the description [1]. {\"draft\": true is wrong} Patch: " + doc(op) + " Done {\"op\": 2}.",
		"text around an array":             "Operations: [" + op + "] — that is all.",
		"a JSON string holding the answer": string(quoted),
		"surrounding whitespace":           "\n\t " + doc(op) + "\n\n",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			p := parse(t, text)
			if len(p.Operations) != 1 || p.Operations[0].Op != OpSetChangeDescription || *p.Operations[0].Description != "from the AI" {
				t.Fatalf("operations %+v", p.Operations)
			}
			if p.BaseWorkflowID != patchWorkflowID.String() {
				t.Fatalf("base %q", p.BaseWorkflowID)
			}
		})
	}
}

func TestPatchParseRejects(t *testing.T) {
	other := uuid.MustParse("0190b7c4-5b1e-7cc3-9e1a-000000000000")
	cases := []struct {
		name, text string
		want       []string
	}{
		{"an empty body", "", []string{"body"}},
		{"prose without JSON", "I could not find a way to do that.", []string{"body"}},
		{"truncated JSON", `{"format": "service-workflow-patch-v1", "operations": [`, []string{"body"}},
		{"a JSON number", "42", []string{"body"}},
		{"a string holding a string", `"\"{}\""`, []string{"body"}},
		{"brackets that hold no objects", "see [1] and [2, 3]", []string{"body"}},
		{"a wrong format", strings.Replace(doc(), "service-workflow-patch-v1", "service-workflow-patch-v2", 1), []string{"format"}},
		{"a wrong schema_version", strings.Replace(doc(), `"schema_version":1`, `"schema_version":2`, 1), []string{"schema_version"}},
		{"a document missing its fields", `{"change_description": "x"}`, []string{"base_workflow_id", "format", "operations", "schema_version"}},
		{"an unknown field", strings.Replace(doc(), `{"format"`, `{"extra":1,"format"`, 1), []string{"extra"}},
		{"an unknown operation", doc(`{"op":"rename_action","action_key":"a"}`), []string{"operations.0.op"}},
		{"an operation missing its fields", doc(`{"op":"add_connection","from":"a"}`), []string{"operations.0.to"}},
		{"an operation with a field of another", doc(`{"op":"delete_action","action_key":"a","delete_connections":true,"set":{}}`), []string{"operations.0.set"}},
		{"a bad action key", doc(`{"op":"add_action","action":{"action_key":"Fetch Order","action_type_key":"stop"}}`), []string{"operations.0.action.action_key"}},
		{"a bad branch", doc(`{"op":"add_connection","from":"a","to":"b","branch":"Yes please"}`), []string{"operations.0.branch"}},
		{"an empty set", doc(`{"op":"update_action","action_key":"a","set":{}}`), []string{"operations.0.set"}},
		{"a lone operation is numbered as the first", `{"op":"set_test_input","test_input_json":[]}`, []string{"operations.0.test_input_json"}},
		{"a patch for another workflow", strings.Replace(doc(), patchWorkflowID.String(), other.String(), 1), []string{"base_workflow_id"}},
		{"a base id that is not a uuid", strings.Replace(doc(), patchWorkflowID.String(), "workflow-1", 1), []string{"base_workflow_id"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParsePatch([]byte(c.text), patchWorkflowID)
			if got := invalidFields(t, err); !slices.Equal(got, c.want) {
				t.Fatalf("fields %v, want %v", got, c.want)
			}
		})
	}
}

func TestPatchParseGivesUpAfterBoundedTries(t *testing.T) {
	// 64 brackets that decode as nothing hide a patch that follows them.
	text := strings.Repeat("{x ", maxScanCandidates) + doc()
	if _, err := ParsePatch([]byte(text), patchWorkflowID); err == nil {
		t.Fatal("the scan went past its bound")
	}
	if _, err := ParsePatch([]byte(strings.Repeat("{x ", maxScanCandidates-1)+doc()), patchWorkflowID); err != nil {
		t.Fatalf("within the bound: %v", err)
	}
	// Each opening bracket of an unclosed array decodes to the end of the text: the scan
	// stops once it has read the text scanBudgetFactor times.
	longPrefix := strings.Repeat("1,", 100000) + " " + doc()
	if _, err := ParsePatch([]byte(strings.Repeat("[", 2*scanBudgetFactor)+longPrefix), patchWorkflowID); err == nil {
		t.Fatal("the scan went past its byte budget")
	}
	if _, err := ParsePatch([]byte("["+longPrefix), patchWorkflowID); err != nil {
		t.Fatalf("within the budget: %v", err)
	}
}

// apply parses and applies operations to baseDraft, failing the test on error.
func apply(t *testing.T, ops ...string) PatchResult {
	t.Helper()
	r, err := ApplyPatch(baseDraft(), parse(t, doc(ops...)), catalog(t), testIntegrations)
	if err != nil {
		t.Fatalf("ApplyPatch: %v", err)
	}
	return r
}

func actionOf(t *testing.T, d Draft, key string) Action {
	t.Helper()
	a, ok := d.Graph.Action(key)
	if !ok {
		t.Fatalf("no action %s in %v", key, keysOf(d))
	}
	return a
}

func keysOf(d Draft) []string {
	var out []string
	for _, a := range d.Graph.Actions {
		out = append(out, a.ActionKey)
	}
	return out
}

func edgesOf(d Draft) []string {
	var out []string
	for _, c := range d.Graph.Connections {
		out = append(out, c.From+">"+c.To+":"+c.Branch)
	}
	return out
}

func effects(r PatchResult) []string {
	var out []string
	for _, a := range r.Applied {
		out = append(out, a.Op+":"+a.Effect)
	}
	return out
}

func TestPatchApplyOperations(t *testing.T) {
	t.Run("update_action merges the config as a JSON merge patch and keeps the rest", func(t *testing.T) {
		r := apply(t, `{"op":"update_action","action_key":"fetch","set":{"label":"Fetch the order","config":{"method":"POST","body":{"a":1},"retry_policy":{"max_attempts":5},"url":"https://api.example.com/v2"}}}`,
			`{"op":"update_action","action_key":"fetch","set":{"config":{"retry_policy":{"initial_interval_seconds":null}}}}`)
		a := actionOf(t, r.Draft, "fetch")
		want := map[string]any{"method": "POST", "body": map[string]any{"a": 1.0}, "url": "https://api.example.com/v2", "retry_policy": map[string]any{"max_attempts": 5.0}}
		if !reflect.DeepEqual(a.Config, want) || a.Label != "Fetch the order" || a.UI.Position.X != 360 {
			t.Fatalf("fetch %+v, config %v", a, a.Config)
		}
		if !slices.Equal(effects(r), []string{"update_action:updated", "update_action:updated"}) {
			t.Fatalf("effects %v", effects(r))
		}
	})
	t.Run("update_action may change the type when the merged config fits it", func(t *testing.T) {
		r := apply(t, `{"op":"update_action","action_key":"done","set":{"action_type_key":"delay.wait","config":{"seconds":30}}}`)
		if a := actionOf(t, r.Draft, "done"); a.ActionTypeKey != TypeDelay || a.Category != "control" || a.TypeLabel != "Delay" {
			t.Fatalf("done %+v", a)
		}
	})
	t.Run("add_action adds, auto-places and fills what the catalog knows", func(t *testing.T) {
		r := apply(t, `{"op":"add_action","action":{"action_key":"pause","action_type_key":"delay.wait","category":"wrong","config":{"seconds":60}}}`,
			`{"op":"add_connection","from":"notify","to":"pause","branch":""}`)
		a := actionOf(t, r.Draft, "pause")
		if a.Label != "Delay" || a.Category != "control" || a.TypeLabel != "Delay" || a.UI == nil || a.UI.Position == nil {
			t.Fatalf("pause %+v", a)
		}
		if p := a.UI.Position; p.X != placeLeft+4*placeColumn || p.Y != placeTop {
			t.Fatalf("pause placed at %+v, want column 4, first row", *p)
		}
		if !slices.Contains(edgesOf(r.Draft), "notify>pause:") {
			t.Fatalf("edges %v", edgesOf(r.Draft))
		}
	})
	t.Run("auto-placement takes the next free row of a column", func(t *testing.T) {
		r := apply(t, `{"op":"add_action","action":{"action_key":"also","action_type_key":"stop"}}`,
			`{"op":"add_connection","from":"check","to":"also","branch":"true"}`)
		if p := actionOf(t, r.Draft, "also").UI.Position; p.X != placeLeft+3*placeColumn || p.Y != placeTop+2*placeRow {
			t.Fatalf("also placed at %+v", *p)
		}
	})
	t.Run("upsert_action adds a new action and replaces an existing one, keeping its position", func(t *testing.T) {
		r := apply(t, `{"op":"upsert_action","action":{"action_key":"done","label":"Finish","action_type_key":"stop","config":{"reason":"all done"}}}`,
			`{"op":"upsert_action","action":{"action_key":"extra","action_type_key":"stop"}}`)
		if a := actionOf(t, r.Draft, "done"); a.Label != "Finish" || a.Config["reason"] != "all done" || a.UI.Position.Y != 240 {
			t.Fatalf("done %+v", a)
		}
		actionOf(t, r.Draft, "extra")
		if !slices.Equal(effects(r), []string{"upsert_action:updated", "upsert_action:added"}) {
			t.Fatalf("effects %v", effects(r))
		}
	})
	t.Run("delete_action with delete_connections removes the action and its edges", func(t *testing.T) {
		r := apply(t, `{"op":"delete_action","action_key":"check","delete_connections":true}`)
		if slices.Contains(keysOf(r.Draft), "check") || !slices.Equal(edgesOf(r.Draft), []string{"start>fetch:"}) {
			t.Fatalf("actions %v, edges %v", keysOf(r.Draft), edgesOf(r.Draft))
		}
	})
	t.Run("delete_action of an unconnected action needs no delete_connections", func(t *testing.T) {
		r := apply(t, `{"op":"add_action","action":{"action_key":"lonely","action_type_key":"stop"}}`,
			`{"op":"delete_action","action_key":"lonely","delete_connections":false}`)
		if slices.Contains(keysOf(r.Draft), "lonely") {
			t.Fatal("lonely is still there")
		}
	})
	t.Run("add_connection joins actions added earlier in the patch", func(t *testing.T) {
		r := apply(t, `{"op":"add_action","action":{"action_key":"a1","action_type_key":"stop"}}`,
			`{"op":"add_connection","from":"check","to":"a1","branch":"false","description":"otherwise"}`)
		last := r.Draft.Graph.Connections[len(r.Draft.Graph.Connections)-1]
		if last != (Connection{From: "check", To: "a1", Branch: "false", Description: "otherwise"}) {
			t.Fatalf("last edge %+v", last)
		}
	})
	t.Run("add_connection of an existing edge changes nothing and warns", func(t *testing.T) {
		r := apply(t, `{"op":"add_connection","from":"start","to":"fetch"}`)
		if len(r.Draft.Graph.Connections) != 4 || r.Applied[0].Effect != EffectUnchanged || r.Diagnostics[0].Code != "connection_exists" {
			t.Fatalf("edges %v, applied %+v, diagnostics %v", edgesOf(r.Draft), r.Applied, codes(r.Diagnostics))
		}
	})
	t.Run("delete_connection with a branch removes that edge only", func(t *testing.T) {
		r := apply(t, `{"op":"add_connection","from":"check","to":"done","branch":"true"}`,
			`{"op":"delete_connection","from":"check","to":"done","branch":"false"}`)
		if !slices.Equal(edgesOf(r.Draft), []string{"start>fetch:", "fetch>check:", "check>notify:true", "check>done:true"}) {
			t.Fatalf("edges %v", edgesOf(r.Draft))
		}
	})
	t.Run("delete_connection without a branch removes every edge between the two", func(t *testing.T) {
		r := apply(t, `{"op":"add_connection","from":"check","to":"done","branch":"true"}`,
			`{"op":"delete_connection","from":"check","to":"done"}`)
		if slices.ContainsFunc(edgesOf(r.Draft), func(e string) bool { return strings.HasPrefix(e, "check>done") }) {
			t.Fatalf("edges %v", edgesOf(r.Draft))
		}
	})
	t.Run("delete_connection that matches nothing changes nothing and warns", func(t *testing.T) {
		r := apply(t, `{"op":"delete_connection","from":"start","to":"done"}`)
		if len(r.Draft.Graph.Connections) != 4 || r.Applied[0].Effect != EffectUnchanged || r.Diagnostics[0].Code != "connection_not_found" {
			t.Fatalf("applied %+v, diagnostics %v", r.Applied, codes(r.Diagnostics))
		}
	})
	t.Run("replace_connections rebuilds the edges", func(t *testing.T) {
		r := apply(t, `{"op":"replace_connections","connections":[{"from":"start","to":"done"}]}`)
		if !slices.Equal(edgesOf(r.Draft), []string{"start>done:"}) || r.Applied[0].Effect != EffectReplaced {
			t.Fatalf("edges %v", edgesOf(r.Draft))
		}
		if !slices.Contains(codes(r.Diagnostics), "unreachable_action@fetch:") {
			t.Fatalf("the resulting draft's validation is missing: %v", codes(r.Diagnostics))
		}
	})
	t.Run("replace_connections with none removes every edge", func(t *testing.T) {
		r := apply(t, `{"op":"replace_connections","connections":[]}`)
		if r.Draft.Graph.Connections == nil || len(r.Draft.Graph.Connections) != 0 {
			t.Fatalf("edges %#v", r.Draft.Graph.Connections)
		}
	})
	t.Run("set_test_input replaces the test input", func(t *testing.T) {
		r := apply(t, `{"op":"set_test_input","test_input_json":{"id":"B-2","n":[1,2]}}`)
		if !reflect.DeepEqual(r.Draft.TestInput, map[string]any{"id": "B-2", "n": []any{1.0, 2.0}}) {
			t.Fatalf("test input %v", r.Draft.TestInput)
		}
	})
	t.Run("the last change description applied wins", func(t *testing.T) {
		p := parse(t, strings.Replace(doc(`{"op":"set_change_description","description":"first"}`, `{"op":"set_change_description","description":"second"}`),
			`"operations"`, `"change_description":"top","operations"`, 1))
		r, err := ApplyPatch(baseDraft(), p, catalog(t), testIntegrations)
		if err != nil || r.Draft.ChangeDescription != "second" {
			t.Fatalf("change description %q, %v", r.Draft.ChangeDescription, err)
		}
		p = parse(t, strings.Replace(doc(), `"operations"`, `"change_description":"","operations"`, 1))
		if r, _ := ApplyPatch(baseDraft(), p, catalog(t), nil); r.Draft.ChangeDescription != "" {
			t.Fatalf("an empty top-level description did not apply: %q", r.Draft.ChangeDescription)
		}
		if r := apply(t); r.Draft.ChangeDescription != "before" {
			t.Fatalf("without any, the draft's stays: %q", r.Draft.ChangeDescription)
		}
	})
	t.Run("a sound result has only the validation of the draft", func(t *testing.T) {
		r := apply(t, `{"op":"update_action","action_key":"notify","set":{"config":{"text":"Hi {{ steps.fetch.json.name }}"}}}`)
		if len(r.Diagnostics) != 0 {
			t.Fatalf("diagnostics %v", codes(r.Diagnostics))
		}
	})
}

func TestPatchApplyIntegrations(t *testing.T) {
	send := func(id string) string {
		return `{"op":"add_action","action":{"action_key":"ping","action_type_key":"messenger_a.send_message","config":{"action_dependency_id":"` + id + `","chat_id":"1","text":"hi"}}}`
	}
	cases := []struct {
		name, op, wantID, wantNote string
	}{
		{"an id of the project's integration of the right type is kept", send(botID), botID, ""},
		{"an id matches whatever its case", send(strings.ToUpper(botID)), strings.ToUpper(botID), ""},
		{"an id of another project is emptied", send(foreignID), "", "integration_not_available@ping:config.action_dependency_id"},
		{"an id of the wrong type is emptied", send(mailID), "", "integration_not_available@ping:config.action_dependency_id"},
		{"an invented placeholder is emptied", send("YOUR_BOT_ID"), "", "integration_not_available@ping:config.action_dependency_id"},
		{"an empty id is left for the user, with a note", send(""), "", "integration_required@ping:config.action_dependency_id"},
		{"a disabled integration is kept, with a note", send(disabledID), disabledID, "integration_disabled@ping:config.action_dependency_id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := apply(t, c.op, `{"op":"add_connection","from":"fetch","to":"ping"}`)
			if got := actionOf(t, r.Draft, "ping").Config["action_dependency_id"]; got != c.wantID {
				t.Fatalf("action_dependency_id %v, want %q", got, c.wantID)
			}
			var notes []string
			for _, d := range r.Diagnostics {
				if strings.HasPrefix(d.Code, "integration_") {
					notes = append(notes, d.Code+"@"+d.ActionKey+":"+d.Field)
					if d.Severity != SeverityWarning || !strings.Contains(d.Message, "config.action_dependency_id") && d.Code != "integration_disabled" {
						t.Errorf("note %+v", d)
					}
				}
			}
			if c.wantNote == "" && len(notes) > 0 || c.wantNote != "" && !slices.Equal(notes, []string{c.wantNote}) {
				t.Fatalf("notes %v, want %q", notes, c.wantNote)
			}
			if c.wantID == "" && !slices.Contains(codes(r.Diagnostics), "invalid_config@ping:config.action_dependency_id") {
				t.Fatalf("an empty required integration must block publishing: %v", codes(r.Diagnostics))
			}
		})
	}
	t.Run("the note names the project's integrations of the type", func(t *testing.T) {
		r := apply(t, send(""), `{"op":"add_connection","from":"fetch","to":"ping"}`)
		if msg := r.Diagnostics[0].Message; !strings.Contains(msg, "Sales bot") || strings.Contains(msg, "Office mail") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("an update of an action rechecks the id it keeps", func(t *testing.T) {
		d := baseDraft()
		d.Graph.Actions[3].Config["action_dependency_id"] = foreignID
		r, err := ApplyPatch(d, parse(t, doc(`{"op":"update_action","action_key":"notify","set":{"label":"Tell"}}`)), catalog(t), testIntegrations)
		if err != nil || actionOf(t, r.Draft, "notify").Config["action_dependency_id"] != "" {
			t.Fatalf("%v: %v", err, actionOf(t, r.Draft, "notify").Config)
		}
	})
	t.Run("an action the patch does not touch keeps its id", func(t *testing.T) {
		d := baseDraft()
		d.Graph.Actions[3].Config["action_dependency_id"] = foreignID
		r, err := ApplyPatch(d, parse(t, doc(`{"op":"set_test_input","test_input_json":{}}`)), catalog(t), testIntegrations)
		if err != nil || actionOf(t, r.Draft, "notify").Config["action_dependency_id"] != foreignID {
			t.Fatalf("%v: %v", err, actionOf(t, r.Draft, "notify").Config)
		}
	})
	t.Run("an optional integration may stay empty without a note", func(t *testing.T) {
		r := apply(t, `{"op":"update_action","action_key":"fetch","set":{"config":{"auth_dependency_id":""}}}`)
		if len(r.Diagnostics) != 0 {
			t.Fatalf("diagnostics %v", codes(r.Diagnostics))
		}
	})
	t.Run("e-mail uses its own dependency field", func(t *testing.T) {
		r := apply(t, `{"op":"add_action","action":{"action_key":"mail","action_type_key":"email.send","config":{"smtp_action_dependency_id":"`+botID+`","to":"a@example.com","body":"x"}}}`,
			`{"op":"add_connection","from":"fetch","to":"mail"}`)
		if actionOf(t, r.Draft, "mail").Config["smtp_action_dependency_id"] != "" || r.Diagnostics[0].Field != "config.smtp_action_dependency_id" {
			t.Fatalf("mail %v, diagnostics %v", actionOf(t, r.Draft, "mail").Config, codes(r.Diagnostics))
		}
	})
}

func TestPatchApplyRejects(t *testing.T) {
	cases := []struct {
		name string
		ops  []string
		want []string
	}{
		{"an unknown action type", []string{`{"op":"add_action","action":{"action_key":"x","action_type_key":"teleport"}}`}, []string{"operations.0.action.action_type_key"}},
		{"an agent allowed a write tool", []string{`{"op":"add_action","action":{"action_key":"x","action_type_key":"ai.agent","config":{"action_dependency_id":"0190a5c4-7d4e-7b1a-9c3e-5f6a7b8c9d0e","input":"x","tools":["retry_failed_action"]}}}`}, []string{"operations.0.action.config.tools.0"}},
		{"a config that does not match", []string{`{"op":"add_action","action":{"action_key":"x","action_type_key":"delay.wait","config":{"seconds":0,"extra":1}}}`},
			[]string{"operations.0.action.config.extra", "operations.0.action.config.seconds"}},
		{"a merged config that does not match", []string{`{"op":"update_action","action_key":"fetch","set":{"config":{"url":null,"timeout_seconds":500}}}`},
			[]string{"operations.0.set.config.timeout_seconds", "operations.0.set.config.url"}},
		{"a type change the old config does not fit", []string{`{"op":"update_action","action_key":"fetch","set":{"action_type_key":"stop"}}`},
			[]string{"operations.0.set.config.retry_policy", "operations.0.set.config.url"}},
		{"a condition that does not compile", []string{`{"op":"update_action","action_key":"check","set":{"config":{"text":"steps.fetch.status_code =="}}}`}, []string{"operations.0.set.config.text"}},
		{"an added key that is taken", []string{`{"op":"add_action","action":{"action_key":"fetch","action_type_key":"stop"}}`}, []string{"operations.0.action.action_key"}},
		{"an update of a missing action", []string{`{"op":"update_action","action_key":"ghost","set":{"label":"x"}}`}, []string{"operations.0.action_key"}},
		{"a delete of a missing action", []string{`{"op":"delete_action","action_key":"ghost","delete_connections":true}`}, []string{"operations.0.action_key"}},
		{"a delete that would leave dangling edges", []string{`{"op":"delete_action","action_key":"fetch","delete_connections":false}`}, []string{"operations.0.delete_connections"}},
		{"a dangling connection", []string{`{"op":"add_connection","from":"start","to":"ghost"}`}, []string{"operations.0.to"}},
		{"a connection to an action added later", []string{`{"op":"add_connection","from":"ghost","to":"start"}`, `{"op":"add_action","action":{"action_key":"ghost","action_type_key":"stop"}}`}, []string{"operations.0.from"}},
		{"a connection to an action deleted earlier", []string{`{"op":"delete_action","action_key":"done","delete_connections":true}`, `{"op":"add_connection","from":"check","to":"done","branch":"false"}`}, []string{"operations.1.to"}},
		{"a dangling replacement", []string{`{"op":"replace_connections","connections":[{"from":"start","to":"fetch"},{"from":"nobody","to":"nowhere"}]}`},
			[]string{"operations.0.connections.1.from", "operations.0.connections.1.to"}},
		{"every failing operation at once", []string{`{"op":"add_connection","from":"start","to":"ghost"}`, `{"op":"set_test_input","test_input_json":{}}`, `{"op":"add_action","action":{"action_key":"y","action_type_key":"teleport"}}`},
			[]string{"operations.0.to", "operations.2.action.action_type_key"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := baseDraft()
			before, _ := json.Marshal(d)
			_, err := ApplyPatch(d, parse(t, doc(c.ops...)), catalog(t), testIntegrations)
			if got := invalidFields(t, err); !slices.Equal(got, c.want) {
				t.Fatalf("fields %v, want %v", got, c.want)
			}
			if after, _ := json.Marshal(d); string(after) != string(before) {
				t.Fatalf("the input draft changed:\n%s\n%s", before, after)
			}
		})
	}
	t.Run("a draft over the size limit", func(t *testing.T) {
		d := Draft{}
		for i := range maxDraftActions {
			d.Graph.Actions = append(d.Graph.Actions, Action{ActionKey: fmt.Sprintf("a%03d", i), ActionTypeKey: TypeStop, Config: map[string]any{}})
		}
		_, err := ApplyPatch(d, parse(t, doc(`{"op":"add_action","action":{"action_key":"one_more","action_type_key":"stop"}}`)), catalog(t), nil)
		if got := invalidFields(t, err); !slices.Equal(got, []string{"operations"}) {
			t.Fatalf("fields %v", got)
		}
	})
}

func TestPatchApplyNeverChangesItsInput(t *testing.T) {
	d := baseDraft()
	before, _ := json.Marshal(d)
	_, err := ApplyPatch(d, parse(t, doc(
		`{"op":"update_action","action_key":"fetch","set":{"config":{"retry_policy":{"max_attempts":9}}}}`,
		`{"op":"update_action","action_key":"notify","set":{"config":{"action_dependency_id":"`+foreignID+`"},"ui":{"position":{"x":1,"y":2}}}}`,
		`{"op":"set_test_input","test_input_json":{"x":1}}`,
		`{"op":"delete_action","action_key":"done","delete_connections":true}`,
	)), catalog(t), testIntegrations)
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := json.Marshal(d); string(after) != string(before) {
		t.Fatalf("the input draft changed:\n%s\n%s", before, after)
	}
}

func TestPatchTemplateVariables(t *testing.T) {
	g := Graph{Actions: []Action{
		{ActionKey: "hook", ActionTypeKey: TypeWebhook, Config: map[string]any{"endpoint_key": "order_created", "json_fields": []any{"id", "customer.email"}}},
		{ActionKey: "tick", ActionTypeKey: TypeSchedule, Config: map[string]any{"schedule_key": "daily"}},
		{ActionKey: "bot_update", ActionTypeKey: TypeRelay, Config: map[string]any{"bot_key": "sales"}},
		{ActionKey: "start", ActionTypeKey: TypeManual, Config: map[string]any{"input_schema_json": map[string]any{"properties": map[string]any{"customer": map[string]any{}}}}},
		{ActionKey: "fetch", ActionTypeKey: "http.request", Config: map[string]any{}},
	}}
	got := map[string][]string{}
	for _, ns := range TemplateVariables(g, catalog(t)) {
		got[ns.Namespace] = append(got[ns.Namespace], ns.Variables...)
	}
	want := map[string]string{
		"order_created":     "{{ order_created.customer.email }}",
		"daily":             "{{ daily.scheduled_at }}",
		"schedule":          "{{ schedule.scheduled_at }}",
		"messenger_a_relay": "{{ messenger_a_relay.chat.id }}",
		"sales":             "{{ sales.message.text }}",
		"bot_session":       "{{ bot_session.state_key }}",
		"messenger_a":       "{{ messenger_a.update_id }}",
		"start":             "{{ start.customer }}",
		"steps.fetch":       "{{ steps.fetch.json.<field> }}",
		"system":            "{{ system.id }}",
	}
	for ns, v := range want {
		if !slices.Contains(got[ns], v) {
			t.Errorf("%s: %v lacks %s", ns, got[ns], v)
		}
	}
	// Every listed variable of the graph resolves by the validator's rules.
	namespaces := TriggerNamespaces(g)
	for ns := range got {
		head, _, _ := strings.Cut(ns, ".")
		if head != "steps" && head != "system" && !namespaces[head] {
			t.Errorf("namespace %s is not one the validator resolves", ns)
		}
	}
}
