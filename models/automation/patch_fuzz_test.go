package automation

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"agencyhub/models"
	"agencyhub/schemas"
)

// patchSeeds cover every accepted form and every operation, plus inputs that must fail.
func patchSeeds() []string {
	op := `{"op":"set_change_description","description":"seed"}`
	all := doc(
		`{"op":"update_action","action_key":"fetch","set":{"label":"Fetch","config":{"method":"POST","body":{"a":1},"retry_policy":{"max_attempts":null}}}}`,
		`{"op":"add_action","action":{"action_key":"pause","action_type_key":"delay.wait","config":{"seconds":5},"ui":{"position":{"x":1,"y":2}}}}`,
		`{"op":"upsert_action","action":{"action_key":"done","action_type_key":"stop","config":{"reason":"r"}}}`,
		`{"op":"add_connection","from":"notify","to":"pause","branch":""}`,
		`{"op":"delete_connection","from":"check","to":"done","branch":"false"}`,
		`{"op":"delete_action","action_key":"done","delete_connections":true}`,
		`{"op":"add_action","action":{"action_key":"mail","action_type_key":"email.send","config":{"smtp_action_dependency_id":"`+foreignID+`","to":["a@example.com"],"body":"x"}}}`,
		`{"op":"replace_connections","connections":[{"from":"start","to":"fetch"},{"from":"fetch","to":"mail","description":"d"}]}`,
		`{"op":"set_test_input","test_input_json":{"id":"x"}}`,
		op,
	)
	return []string{
		all,
		doc(op),
		"```json\n" + doc(op) + "\n```",
		"Here it is:\n```json\n" + all + "\n```\nThanks",
		op,
		"[" + op + `,{"op":"add_connection","from":"start","to":"done"}]`,
		"prose [1] {bad} " + doc(op) + " trailing {",
		`"` + strings.ReplaceAll(doc(op), `"`, `\"`) + `"`,
		doc(`{"op":"add_action","action":{"action_key":"x","action_type_key":"ai.agent"}}`),
		doc(`{"op":"add_connection","from":"start","to":"ghost"}`),
		doc(`{"op":"delete_action","action_key":"fetch","delete_connections":false}`),
		doc(`{"op":"update_action","action_key":"check","set":{"config":{"text":"(("}}}`),
		`{"format":"service-workflow-patch-v1"}`,
		"[[[[[[[[",
		"```",
		"",
	}
}

func FuzzParsePatch(f *testing.F) {
	for _, s := range patchSeeds() {
		f.Add([]byte(s))
	}
	known := []string{OpUpdateAction, OpAddAction, OpUpsertAction, OpDeleteAction, OpAddConnection, OpDeleteConnection,
		OpReplaceConnections, OpSetTestInput, OpSetChangeDescription}
	f.Fuzz(func(t *testing.T, input []byte) {
		p, err := ParsePatch(input, patchWorkflowID)
		if err != nil {
			var e *models.Error
			if !errors.As(err, &e) || e.Kind != models.KindInvalid || len(e.Fields) == 0 {
				t.Fatalf("a bad patch must be invalid input naming fields, got %v", err)
			}
			return
		}
		if p.BaseWorkflowID == "" || len(p.Operations) > 500 {
			t.Fatalf("parsed %+v", p)
		}
		for _, op := range p.Operations {
			if !slices.Contains(known, op.Op) {
				t.Fatalf("unknown op %q passed the schema", op.Op)
			}
		}
	})
}

func FuzzApplyPatch(f *testing.F) {
	for _, s := range patchSeeds() {
		f.Add([]byte(s))
	}
	c, err := schemas.LoadCatalog()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		p, err := ParsePatch(input, patchWorkflowID)
		if err != nil {
			return
		}
		d := baseDraft()
		before, _ := json.Marshal(d)
		r, err := ApplyPatch(d, p, c, testIntegrations)
		if after, _ := json.Marshal(d); string(after) != string(before) {
			t.Fatalf("ApplyPatch changed its input draft")
		}
		if err != nil {
			var e *models.Error
			if !errors.As(err, &e) || e.Kind != models.KindInvalid || len(e.Fields) == 0 {
				t.Fatalf("a rejected patch must be invalid input naming fields, got %v", err)
			}
			return
		}
		keys := map[string]bool{}
		for _, a := range r.Draft.Graph.Actions {
			if keys[a.ActionKey] {
				t.Fatalf("action key %s twice", a.ActionKey)
			}
			keys[a.ActionKey] = true
			if a.UI == nil || a.UI.Position == nil {
				t.Fatalf("action %s has no position", a.ActionKey)
			}
			if typ, ok := c.Action(a.ActionTypeKey); !ok || !typ.Importable {
				t.Fatalf("action %s has type %q", a.ActionKey, a.ActionTypeKey)
			}
			if typ, _ := c.Action(a.ActionTypeKey); typ.DependencyField != "" {
				if id, _ := a.Config[typ.DependencyField].(string); id != "" && !slices.ContainsFunc(testIntegrations, func(in ProjectIntegration) bool {
					return strings.EqualFold(in.ID, id) && in.TypeKey == typ.DependencyTypeKey
				}) {
					t.Fatalf("action %s keeps integration id %q the project cannot lend", a.ActionKey, id)
				}
			}
		}
		for _, conn := range r.Draft.Graph.Connections {
			if !keys[conn.From] || !keys[conn.To] {
				t.Fatalf("dangling connection %+v", conn)
			}
		}
		if r.Draft.TestInput == nil || r.Draft.Graph.Connections == nil {
			t.Fatal("nil test input or connections")
		}
		if _, err := json.Marshal(r.Draft); err != nil {
			t.Fatal(err)
		}
	})
}
