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
