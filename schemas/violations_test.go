package schemas

import (
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

func TestAnEmptyConstantIsNotNamedAsTheAllowedValue(t *testing.T) {
	if rule, limit := ruleOf(&kind.Const{Want: ""}); rule != RuleOther {
		t.Fatalf("an empty constant reads as %s %q", rule, limit)
	}
	if rule, limit := ruleOf(&kind.Const{Want: "v1"}); rule != RuleEnum || limit != "v1" {
		t.Fatalf("a constant reads as %s %q", rule, limit)
	}
}
