package schemas

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// CompileJSONSchema compiles a JSON Schema a user wrote (an ai.agent's output_schema),
// 2020-12 unless it says otherwise. It loads nothing from the network: a $ref outside
// the document itself and the standard metaschemas does not compile.
func CompileJSONSchema(doc map[string]any) (*jsonschema.Schema, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	const url = "urn:agencyhub:user-schema"
	if err := c.AddResource(url, parsed); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// noLoader refuses every external resource.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s is not loaded: refer only inside the schema", url)
}

// InvalidFields checks v against a schema CompileJSONSchema compiled and names the fields
// that fail it under whole (input.customer.email), whole itself for v as a whole; nil when
// v is valid.
func InvalidFields(s *jsonschema.Schema, v map[string]any, whole string) []string {
	fields := validateObject(s, v, whole)
	for i, f := range fields {
		if f != whole && f != "body" {
			fields[i] = whole + "." + f
		} else {
			fields[i] = whole
		}
	}
	return fields
}
