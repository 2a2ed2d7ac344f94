package schemas

import (
	"embed"
	"errors"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Formats of the documents an AI editor exchanges with the service.
const (
	WorkflowPatchFormat   = "service-workflow-patch-v1"
	WorkflowContextFormat = "service-workflow-context-v1"
	WorkflowPatchVersion  = 1
)

//go:embed workflow-patch-v1.json
var workflowPatchFiles embed.FS

// WorkflowPatchSchema is the JSON Schema of the patch document (workflow-patch-v1.json).
type WorkflowPatchSchema struct {
	// Document is the schema as plain JSON values, for serving.
	Document map[string]any
	schema   *jsonschema.Schema
}

var (
	patchSchemaOnce sync.Once
	patchSchema     *WorkflowPatchSchema
	patchSchemaErr  error
)

// LoadWorkflowPatchSchema parses and compiles the embedded patch schema once.
func LoadWorkflowPatchSchema() (*WorkflowPatchSchema, error) {
	patchSchemaOnce.Do(func() { patchSchema, patchSchemaErr = compileWorkflowPatchSchema() })
	return patchSchema, patchSchemaErr
}

func compileWorkflowPatchSchema() (*WorkflowPatchSchema, error) {
	compiler := jsonschema.NewCompiler()
	compiler.DefaultDraft(jsonschema.Draft2020)
	compiler.AssertFormat()
	out := &WorkflowPatchSchema{}
	var err error
	out.Document, out.schema, err = loadSchema(workflowPatchFiles, compiler, "workflow-patch-v1.json")
	return out, err
}

// Validate checks a patch document decoded with json.Decoder.UseNumber and returns the
// offending fields as dotted paths (operations.2.action.action_key), nil when it is valid.
func (s *WorkflowPatchSchema) Validate(doc any) []string {
	err := s.schema.Validate(doc)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return []string{"body"}
	}
	return fieldsOf(verr)
}

// Definitions returns a deep copy of the schema's $defs, for embedding the patch schema in
// another schema (an AI tool's input) whose $refs then resolve against its root.
func (s *WorkflowPatchSchema) Definitions() map[string]any {
	defs, _ := cloneJSON(s.Document["$defs"]).(map[string]any)
	return defs
}

// DocumentSchema returns a deep copy of the document schema without $schema and $defs.
func (s *WorkflowPatchSchema) DocumentSchema() map[string]any {
	out, _ := cloneJSON(s.Document).(map[string]any)
	delete(out, "$schema")
	delete(out, "$defs")
	return out
}
