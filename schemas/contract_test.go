package schemas

import (
	"net/url"
	"slices"
	"testing"
)

func TestContractLoads(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if c.Version != "1.1.0" {
		t.Fatalf("info.version = %q, want 1.1.0", c.Version)
	}
}

func operationByID(t *testing.T, id string) *Operation {
	t.Helper()
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range c.Operations {
		if op.ID == id {
			return op
		}
	}
	t.Fatalf("no operation %s", id)
	return nil
}

// TestContractRefusesWhatTheServerRefuses: requests the server refuses are refused by the
// contract too, so that a client that follows the contract is never surprised by a 400.
func TestContractRefusesWhatTheServerRefuses(t *testing.T) {
	for _, c := range []struct {
		name, op string
		body     map[string]any
		want     []string
	}{
		{"a task workflow with neither a preset nor a name", "workTaskWorkflowCreate", map[string]any{}, []string{"name", "stages"}},
		{"a task workflow with an empty name", "workTaskWorkflowCreate", map[string]any{"name": "", "stages": []any{map[string]any{"name": "To do"}}}, []string{"name"}},
		{"a task workflow with a blank name", "workTaskWorkflowCreate", map[string]any{"name": "  ", "stages": []any{map[string]any{"name": "To do"}}}, []string{"name"}},
		{"a task workflow with no stages", "workTaskWorkflowCreate", map[string]any{"name": "Support", "stages": []any{}}, []string{"stages"}},
		{"a task workflow with an empty preset", "workTaskWorkflowCreate", map[string]any{"preset_key": ""}, []string{"name", "stages"}},
		{"a widget colour that is not hex", "siteChatWidgetCreate", map[string]any{"accent_color": "blue"}, []string{"accent_color"}},
		{"a widget patch colour that is not hex", "siteChatWidgetPatch", map[string]any{"accent_color": "#12345"}, []string{"accent_color"}},
		{"a widget patch with an empty name", "siteChatWidgetPatch", map[string]any{"name": ""}, []string{"name"}},
		{"a presence anonymous_id of 15 characters", "siteChatPresence", map[string]any{"public_key": "pk", "anonymous_id": "abcdefghijklmno"}, []string{"anonymous_id"}},
		{"a presence anonymous_id with a space", "siteChatPresence", map[string]any{"public_key": "pk", "anonymous_id": "abcdefgh ijklmnopq"}, []string{"anonymous_id"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := operationByID(t, c.op).ValidateRequest(c.body); !slices.Equal(got, c.want) {
				t.Fatalf("validate = %v, want %v", got, c.want)
			}
		})
	}
	t.Run("a task workflow from a preset alone is valid", func(t *testing.T) {
		if got := operationByID(t, "workTaskWorkflowCreate").ValidateRequest(map[string]any{"preset_key": "website_support"}); got != nil {
			t.Fatalf("validate = %v", got)
		}
	})
	t.Run("a presence without anonymous_id, or with an empty one, is valid", func(t *testing.T) {
		op := operationByID(t, "siteChatPresence")
		if got := op.ValidateRequest(map[string]any{"public_key": "pk", "anonymous_id": ""}); got != nil {
			t.Fatalf("validate = %v", got)
		}
	})
	t.Run("a service type status the contract does not list", func(t *testing.T) {
		op := operationByID(t, "clientServiceTypeList")
		if got := op.ValidateParameters(op.Path, url.Values{"status": {"w"}}); !slices.Equal(got, []string{"status"}) {
			t.Fatalf("validate = %v", got)
		}
		if got := op.ValidateParameters(op.Path, url.Values{"status": {"active,archived"}}); got != nil {
			t.Fatalf("validate = %v for listed statuses", got)
		}
	})
}

// TestTheEndpointCatalogNamesEndpointDoc: the catalog's entries are the named schema the
// specification names, EndpointDoc.
func TestTheEndpointCatalogNamesEndpointDoc(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	list, _ := c.resolve(map[string]any{"$ref": "#/components/schemas/EndpointDocList"})
	endpoints, _ := list["properties"].(map[string]any)["endpoints"].(map[string]any)
	if items, _ := endpoints["items"].(map[string]any); items["$ref"] != "#/components/schemas/EndpointDoc" {
		t.Fatalf("EndpointDocList.endpoints.items = %v, want a $ref to components/schemas/EndpointDoc", endpoints["items"])
	}
}

func TestAViolationCarriesTheContractsExampleOfTheField(t *testing.T) {
	vs := operationByID(t, "siteChatWidgetCreate").RequestViolations(map[string]any{"name": "Chat", "accent_color": "blue"})
	if len(vs) != 1 || vs[0].Field != "accent_color" || vs[0].Rule != RuleOther || vs[0].Example != "#2563eb" {
		t.Fatalf("violations %+v", vs)
	}
}
