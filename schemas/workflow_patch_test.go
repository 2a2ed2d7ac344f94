package schemas

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// TestPatchSchemaIsTheContracts fails when workflow-patch-v1.json and the contract's
// WorkflowPatch* components drift apart: the contract holds the same schemas, with
// #/$defs/X spelled #/components/schemas/WorkflowPatchX.
func TestPatchSchemaIsTheContracts(t *testing.T) {
	s, err := LoadWorkflowPatchSchema()
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	components := c.doc["components"].(map[string]any)["schemas"].(map[string]any)
	// Through JSON, so YAML's and JSON's number types compare equal.
	normal := func(v any) any {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var out any
		_ = json.Unmarshal([]byte(strings.ReplaceAll(string(b), `"#/components/schemas/WorkflowPatch`, `"#/$defs/`)), &out)
		return out
	}
	want := map[string]any{"WorkflowPatchDocument": s.DocumentSchema()}
	for name, def := range s.Definitions() {
		want["WorkflowPatch"+name] = def
	}
	for name, schema := range want {
		if !reflect.DeepEqual(normal(components[name]), normal(schema)) {
			t.Errorf("components.schemas.%s differs from workflow-patch-v1.json", name)
		}
	}
	for name := range components {
		if strings.HasPrefix(name, "WorkflowPatch") && want[name] == nil && name != "WorkflowPatchImportRequest" && name != "WorkflowPatchAppliedOperation" {
			t.Errorf("components.schemas.%s is not in workflow-patch-v1.json", name)
		}
	}
}

func TestPatchSchemaNamesTheFields(t *testing.T) {
	s, err := LoadWorkflowPatchSchema()
	if err != nil {
		t.Fatal(err)
	}
	decode := func(text string) any {
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	head := `{"format":"service-workflow-patch-v1","schema_version":1,"base_workflow_id":"0190b7c4-5b1e-7cc3-9e1a-3f0c2a4d5e6f","operations":`
	cases := map[string][]string{
		head + `[]}`: nil,
		head + `[{"op":"add_action","action":{"action_key":"a","action_type_key":"stop"}}]}`:                           nil,
		head + `[{"op":"add_action","action":{"action_key":"a"}}]}`:                                                    []string{"operations.0.action.action_type_key"},
		head + `[{"op":"update_action","action_key":"a","set":{"config":[]}}]}`:                                        []string{"operations.0.set.config"},
		head + `[{"op":"add_connection","from":"a","to":"b","branch":"true"},{"op":"delete_connection","from":"a"}]}`:  []string{"operations.1.to"},
		head + `[{"op":"replace_connections","connections":[{"from":"a","to":"b","branch":"Maybe?"}]}]}`:               []string{"operations.0.connections.0.branch"},
		head + `[{"op":"set_change_description","description":"` + strings.Repeat("x", 2001) + `"}]}`:                  []string{"operations.0.description"},
		head + `[{"op":"add_action","action":{"action_key":"a","action_type_key":"stop","ui":{"position":{"x":1}}}}]}`: []string{"operations.0.action.ui.position.y"},
		`{"format":"service-workflow-patch-v1","schema_version":1,"base_workflow_id":"nope","operations":[]}`:          []string{"base_workflow_id"},
	}
	for text, want := range cases {
		if got := s.Validate(decode(text)); !reflect.DeepEqual(got, want) {
			t.Errorf("%.120s: fields %v, want %v", text, got, want)
		}
	}
}

func TestIntegrationDocsLoad(t *testing.T) {
	docs, err := LoadIntegrationDocs()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := docs.Get(PatchContractSlug); !ok {
		t.Fatal("no patch contract document")
	}
	catalog, err := LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("a document naming a type the catalog lacks does not load", func(t *testing.T) {
		broken := func(index string) error {
			files := fstest.MapFS{
				"docs/integrations/index.json":                   {Data: []byte(index)},
				"docs/integrations/x.md":                         {Data: []byte("# X\n")},
				"docs/integrations/" + PatchContractSlug + ".md": {Data: []byte("# P\n")},
			}
			_, err := parseIntegrationDocs(files, catalog)
			return err
		}
		entry := func(extra string) string {
			return `[{"public_slug":"` + PatchContractSlug + `","title":"P","summary":"p","keywords":[],"action_type_keys":[],"dependency_type_keys":[],"provider_key":""},` +
				`{"public_slug":"x","title":"X","summary":"x","keywords":[],"action_type_keys":[],"dependency_type_keys":[],"provider_key":""` + extra + `}]`
		}
		if err := broken(entry("")); err != nil {
			t.Fatalf("a sound index: %v", err)
		}
		for _, bad := range []string{
			strings.Replace(entry(""), `"action_type_keys":[],"dependency_type_keys":[],"provider_key":""}]`, `"action_type_keys":["teleport"],"dependency_type_keys":[],"provider_key":""}]`, 1),
			strings.Replace(entry(""), `"dependency_type_keys":[],"provider_key":""}]`, `"dependency_type_keys":["fax.machine"],"provider_key":""}]`, 1),
			strings.Replace(entry(""), `"provider_key":""}]`, `"provider_key":"fax"}]`, 1),
			strings.Replace(entry(""), `"public_slug":"x"`, `"public_slug":"Bad Slug"`, 1),
			entry(`,"extra":1`),
			`[{"public_slug":"x","title":"X","summary":"x"}]`,
		} {
			if broken(bad) == nil {
				t.Errorf("loaded %s", bad)
			}
		}
	})
}

// TestIntegrationDocsUseNeutralNames: the documents name providers as the specification
// does (messenger_a, messenger_b, smtp, http), never a third-party product.
func TestIntegrationDocsUseNeutralNames(t *testing.T) {
	docs, err := LoadIntegrationDocs()
	if err != nil {
		t.Fatal(err)
	}
	products := regexp.MustCompile(`(?i)telegram|whatsapp|slack|viber|discord|gmail|mailchimp|twilio`)
	for _, d := range docs.All() {
		text := strings.Join(append([]string{d.Title, d.Summary, string(d.Markdown)}, d.Keywords...), "\n")
		if found := products.FindString(text); found != "" {
			t.Errorf("document %s names %q", d.Slug, found)
		}
	}
}
