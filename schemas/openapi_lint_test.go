package schemas

// These tests lint the contract as an OpenAPI document, beyond what Load needs of it: a
// value that YAML reads other than its author meant (an unquoted comma in a flow mapping
// cuts a description short and leaves the rest as a stray key) loads without an error,
// and only a reader that knows which keys each OpenAPI object may have can see it.
//
// The document is read by libopenapi (github.com/pb33f/libopenapi), which must build its
// v3 model without an error, and validated against the official OpenAPI 3.2 JSON Schema
// that libopenapi ships. That schema rejects unknown keys in every OpenAPI object but
// leaves Schema Objects open (JSON Schema ignores unknown keywords), so the test tightens
// it: a Schema Object may only use the keywords of JSON Schema 2020-12 and of OpenAPI, and
// a Reference Object only its own three keys. On top, a few rules of Redocly's recommended
// set that are cheap to check on the model: see the tests below.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"gopkg.in/yaml.v3"
)

// openapiModel is the contract as libopenapi builds it.
var openapiModel = sync.OnceValues(func() (*libopenapi.DocumentModel[v3.Document], error) {
	doc, err := libopenapi.NewDocument(openapiYAML)
	if err != nil {
		return nil, err
	}
	return doc.BuildV3Model()
})

func libopenapiDoc(t *testing.T) *v3.Document {
	t.Helper()
	m, err := openapiModel()
	if err != nil {
		t.Fatalf("libopenapi cannot build the v3 model of openapi.yaml: %v", err)
	}
	return &m.Model
}

// TestOpenAPIBuildsWithLibopenapi: libopenapi builds the model and finds the operations
// our loader does.
func TestOpenAPIBuildsWithLibopenapi(t *testing.T) {
	doc := libopenapiDoc(t)
	if got := doc.Version; got != "3.2.0" {
		t.Errorf("openapi = %q, want 3.2.0", got)
	}
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	var ours, theirs []string
	for _, op := range c.Operations {
		ours = append(ours, op.ID)
	}
	forEachOperation(doc, func(_ string, _ *v3.PathItem, op *v3.Operation) {
		theirs = append(theirs, op.OperationId)
	})
	slices.Sort(ours)
	slices.Sort(theirs)
	if !slices.Equal(ours, theirs) {
		t.Errorf("libopenapi reads the operations\n%v\nLoad reads\n%v", theirs, ours)
	}
}

// TestOpenAPINoMergeKeys: `<<` merge keys are YAML 1.1, gone from YAML 1.2, which OpenAPI
// recommends. yaml.v3 (our loader) and many tools still merge them, but libopenapi reads
// `<<` as a plain key (a property named "<<"), so a merge makes readers disagree.
func TestOpenAPINoMergeKeys(t *testing.T) {
	var root yaml.Node
	if err := yaml.Unmarshal(openapiYAML, &root); err != nil {
		t.Fatal(err)
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			for i := 0; i < len(n.Content); i += 2 {
				if k := n.Content[i]; k.Tag == "!!merge" {
					t.Errorf("openapi.yaml:%d: merge key %s: write the keys out", k.Line, k.Value)
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&root)
}

// schemaKeywords are the keywords a Schema Object may use: JSON Schema 2020-12's and the
// four OpenAPI adds. Anything else, but an x- extension, is a typo or a stray key.
var schemaKeywords = []string{
	// core
	"$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$comment", "$defs",
	// applicator and unevaluated
	"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "prefixItems", "items",
	"contains", "properties", "patternProperties", "additionalProperties", "propertyNames",
	"unevaluatedItems", "unevaluatedProperties",
	// validation
	"type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
	"maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
	"maxProperties", "minProperties", "required", "dependentRequired",
	// meta-data, format, content
	"title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples", "format",
	"contentEncoding", "contentMediaType", "contentSchema",
	// OpenAPI
	"discriminator", "xml", "externalDocs", "example",
}

// strictSchemaObject replaces the OpenAPI 3.2 schema's open Schema Object (its $defs/schema,
// reached by $dynamicRef "#meta"): known keywords only, and the same for every subschema.
func strictSchemaObject() map[string]any {
	sub := map[string]any{"$dynamicRef": "#meta"}
	list := map[string]any{"type": "array", "items": sub}
	named := map[string]any{"type": "object", "additionalProperties": sub}
	text := map[string]any{"type": "string"}
	props := map[string]any{}
	for _, k := range schemaKeywords {
		props[k] = true
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "prefixItems"} {
		props[k] = list
	}
	for _, k := range []string{"properties", "patternProperties", "$defs", "dependentSchemas"} {
		props[k] = named
	}
	for _, k := range []string{"not", "if", "then", "else", "items", "contains", "additionalProperties",
		"propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema"} {
		props[k] = sub
	}
	for _, k := range []string{"description", "title", "format", "pattern", "$ref"} {
		props[k] = text
	}
	props["required"] = map[string]any{"type": "array", "items": text, "uniqueItems": true}
	props["enum"] = map[string]any{"type": "array"}
	return map[string]any{
		"$dynamicAnchor":       "meta",
		"type":                 []any{"object", "boolean"},
		"properties":           props,
		"patternProperties":    map[string]any{"^x-": true},
		"additionalProperties": false,
	}
}

// TestOpenAPIMatchesTheOpenAPISchema validates the contract, as served at openapi.json,
// against the OpenAPI 3.2 JSON Schema shipped with libopenapi, tightened as said above.
func TestOpenAPIMatchesTheOpenAPISchema(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, finding := range openapiSchemaFindings(t, c.JSON) {
		t.Error(finding)
	}
}

// TestOpenAPISchemaCheckCatchesStrayKeys shows the check at work on the mistake it is for.
func TestOpenAPISchemaCheckCatchesStrayKeys(t *testing.T) {
	src := `
openapi: 3.2.0
info: {title: T, version: "1"}
paths:
  /x:
    get:
      responses:
        "200": {description: Fine, thanks., content: {application/json: {schema: {type: string, description: Hello, or not.}}}}
`
	var doc any
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(openapiSchemaFindings(t, js), "\n")
	for _, want := range []string{
		"/paths/~1x/get/responses/200/thanks.: not a key of this object",
		"/paths/~1x/get/responses/200/content/application~1json/schema: additional properties 'or not.' not allowed",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("findings lack %q:\n%s", want, got)
		}
	}
}

// openapiSchemaFindings validates a JSON document against the tightened OpenAPI 3.2
// schema and returns one line per finding, each naming the JSON pointer of the value.
func openapiSchemaFindings(t *testing.T, js []byte) []string {
	t.Helper()
	meta, err := jsonschema.UnmarshalJSON(strings.NewReader(datamodel.OpenAPI32SchemaData))
	if err != nil {
		t.Fatal(err)
	}
	defs := meta.(map[string]any)["$defs"].(map[string]any)
	defs["schema"] = strictSchemaObject()
	// "This object cannot be extended with additional properties" (OpenAPI 3.2, Reference Object).
	defs["reference"].(map[string]any)["additionalProperties"] = false

	compiler := jsonschema.NewCompiler()
	const url = "https://spec.openapis.org/oas/3.2/schema/strict"
	if err := compiler.AddResource(url, meta); err != nil {
		t.Fatal(err)
	}
	schema, err := compiler.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	err = schema.Validate(doc)
	if err == nil {
		return nil
	}
	verr, ok := err.(*jsonschema.ValidationError)
	if !ok {
		t.Fatal(err)
	}
	// The leaves of the error tree are the findings; the branches only say which
	// alternative (a response or a reference, and so on) each was tried against.
	english := message.NewPrinter(language.English)
	var findings []string
	var leaves func(e *jsonschema.ValidationError)
	leaves = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				leaves(c)
			}
			return
		}
		what := e.ErrorKind.LocalizedString(english)
		if _, ok := e.ErrorKind.(*kind.FalseSchema); ok {
			what = "not a key of this object"
		}
		ptr := ""
		for _, tok := range e.InstanceLocation {
			ptr += "/" + pointerToken(tok)
		}
		if f := ptr + ": " + what; !slices.Contains(findings, f) {
			findings = append(findings, f)
		}
	}
	leaves(verr)
	return findings
}

// TestOpenAPITagsAreDeclaredAndDescribed: every tag an operation uses is declared at the
// top with a description (Redocly: operation-tag-defined, tag-description), and every
// declared tag is used.
func TestOpenAPITagsAreDeclaredAndDescribed(t *testing.T) {
	doc := libopenapiDoc(t)
	declared := map[string]bool{}
	for i, tag := range doc.Tags {
		declared[tag.Name] = true
		if strings.TrimSpace(tag.Description) == "" {
			t.Errorf("/tags/%d (%s): no description", i, tag.Name)
		}
	}
	used := map[string]bool{}
	forEachOperation(doc, func(ptr string, _ *v3.PathItem, op *v3.Operation) {
		for _, tag := range op.Tags {
			used[tag] = true
			if !declared[tag] {
				t.Errorf("%s: tag %q is not declared under tags", ptr, tag)
			}
		}
	})
	for tag := range declared {
		if !used[tag] {
			t.Errorf("tag %q is declared but no operation uses it", tag)
		}
	}
}

// TestOpenAPIOperationsAnswerA4XX: every operation says how it refuses a bad request
// (Redocly: operation-4xx-response). An operation that takes no input at all, no parameter,
// no body and no credentials (security: []), has no client error to describe: the public
// documents and probes.
func TestOpenAPIOperationsAnswerA4XX(t *testing.T) {
	forEachOperation(libopenapiDoc(t), func(ptr string, item *v3.PathItem, op *v3.Operation) {
		if op.Responses == nil {
			t.Errorf("%s: no responses", ptr)
			return
		}
		for code := range op.Responses.Codes.KeysFromOldest() {
			if strings.HasPrefix(code, "4") {
				return
			}
		}
		takesNoInput := len(item.Parameters)+len(op.Parameters) == 0 && op.RequestBody == nil &&
			op.Security != nil && len(op.Security) == 0
		if !takesNoInput {
			t.Errorf("%s/responses: no 4XX answer", ptr)
		}
	})
}

// TestOpenAPIRequiredPropertiesAreDefined: each name a schema requires is one of its
// properties, or one of an allOf it is composed of or is a member of (Redocly:
// no-required-schema-properties-undefined); and no allOf has a single member (Redocly:
// no-illogical-composition-keywords: use the member itself).
func TestOpenAPIRequiredPropertiesAreDefined(t *testing.T) {
	// composed holds, for each member of an allOf, the properties its whole allOf defines.
	composed := map[*base.Schema]map[string]bool{}
	forEachSchema(libopenapiDoc(t), func(ptr string, s *base.Schema) {
		if len(s.AllOf) == 1 {
			t.Errorf("%s/allOf: a single member; use it directly", ptr)
		}
		defined := maps.Clone(composed[s])
		if defined == nil {
			defined = map[string]bool{}
		}
		collectProperties(s, defined, 0)
		for _, member := range s.AllOf {
			if !member.IsReference() {
				composed[member.Schema()] = defined
			}
		}
		for i, name := range s.Required {
			if !defined[name] {
				t.Errorf("%s/required/%d: %q is not among the properties", ptr, i, name)
			}
		}
	})
}

// collectProperties adds the properties of s and of its allOf members, followed through
// references.
func collectProperties(s *base.Schema, into map[string]bool, depth int) {
	if s == nil || depth > 8 {
		return
	}
	for name := range s.Properties.KeysFromOldest() {
		into[name] = true
	}
	for _, member := range s.AllOf {
		collectProperties(member.Schema(), into, depth+1)
	}
}

// forEachOperation calls f with each operation and the JSON pointer to it.
func forEachOperation(doc *v3.Document, f func(ptr string, item *v3.PathItem, op *v3.Operation)) {
	if doc.Paths == nil {
		return
	}
	for path, item := range doc.Paths.PathItems.FromOldest() {
		for method, op := range item.GetOperations().FromOldest() {
			f("/paths/"+pointerToken(path)+"/"+method, item, op)
		}
	}
}

// forEachSchema calls f with every Schema Object written in the contract, once, at the
// JSON pointer where it is written: component schemas first, then the schemas inline in
// other components and in operations, and each one's subschemas. A $ref is not followed
// (its target is visited where it is written).
func forEachSchema(doc *v3.Document, f func(ptr string, s *base.Schema)) {
	w := schemaWalker{f: f, seen: map[any]bool{}}
	if c := doc.Components; c != nil {
		for name, p := range c.Schemas.FromOldest() {
			w.proxy("/components/schemas/"+pointerToken(name), p)
		}
		for name, p := range c.Parameters.FromOldest() {
			w.parameter("/components/parameters/"+pointerToken(name), p)
		}
		for name, h := range c.Headers.FromOldest() {
			w.header("/components/headers/"+pointerToken(name), h)
		}
		for name, r := range c.Responses.FromOldest() {
			w.response("/components/responses/"+pointerToken(name), r)
		}
		for name, b := range c.RequestBodies.FromOldest() {
			w.content("/components/requestBodies/"+pointerToken(name)+"/content", b.Content)
		}
	}
	if doc.Paths != nil {
		for path, item := range doc.Paths.PathItems.FromOldest() {
			for i, p := range item.Parameters {
				w.parameter(fmt.Sprintf("/paths/%s/parameters/%d", pointerToken(path), i), p)
			}
		}
	}
	forEachOperation(doc, func(ptr string, _ *v3.PathItem, op *v3.Operation) {
		for i, p := range op.Parameters {
			w.parameter(fmt.Sprintf("%s/parameters/%d", ptr, i), p)
		}
		if op.RequestBody != nil {
			w.content(ptr+"/requestBody/content", op.RequestBody.Content)
		}
		if op.Responses != nil {
			for code, r := range op.Responses.Codes.FromOldest() {
				w.response(ptr+"/responses/"+code, r)
			}
			if op.Responses.Default != nil {
				w.response(ptr+"/responses/default", op.Responses.Default)
			}
		}
	})
}

type schemaWalker struct {
	f func(string, *base.Schema)
	// seen holds the low-level objects visited, so that a shared (referenced or
	// YAML-aliased) one is visited once.
	seen map[any]bool
}

func (w *schemaWalker) once(low any) bool {
	if w.seen[low] {
		return false
	}
	w.seen[low] = true
	return true
}

func (w *schemaWalker) parameter(ptr string, p *v3.Parameter) {
	if p != nil && w.once(p.GoLow()) {
		w.proxy(ptr+"/schema", p.Schema)
		w.content(ptr+"/content", p.Content)
	}
}

func (w *schemaWalker) header(ptr string, h *v3.Header) {
	if h != nil && w.once(h.GoLow()) {
		w.proxy(ptr+"/schema", h.Schema)
		w.content(ptr+"/content", h.Content)
	}
}

func (w *schemaWalker) response(ptr string, r *v3.Response) {
	if r != nil && w.once(r.GoLow()) {
		for name, h := range r.Headers.FromOldest() {
			w.header(ptr+"/headers/"+pointerToken(name), h)
		}
		w.content(ptr+"/content", r.Content)
	}
}

func (w *schemaWalker) content(ptr string, content *orderedmap.Map[string, *v3.MediaType]) {
	for mediaType, m := range content.FromOldest() {
		w.proxy(ptr+"/"+pointerToken(mediaType)+"/schema", m.Schema)
		w.proxy(ptr+"/"+pointerToken(mediaType)+"/itemSchema", m.ItemSchema)
	}
}

func (w *schemaWalker) proxy(ptr string, p *base.SchemaProxy) {
	if p == nil || p.IsReference() {
		return
	}
	s := p.Schema()
	if s == nil || !w.once(p.GoLow().GetValueNode()) {
		return
	}
	w.f(ptr, s)
	type named = *orderedmap.Map[string, *base.SchemaProxy]
	for _, m := range []struct {
		kw   string
		subs named
	}{{"properties", s.Properties}, {"patternProperties", s.PatternProperties}, {"$defs", s.Defs}, {"dependentSchemas", s.DependentSchemas}} {
		for name, sub := range m.subs.FromOldest() {
			w.proxy(ptr+"/"+m.kw+"/"+pointerToken(name), sub)
		}
	}
	for _, l := range []struct {
		kw   string
		subs []*base.SchemaProxy
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}, {"prefixItems", s.PrefixItems}} {
		for i, sub := range l.subs {
			w.proxy(fmt.Sprintf("%s/%s/%d", ptr, l.kw, i), sub)
		}
	}
	either := func(v *base.DynamicValue[*base.SchemaProxy, bool]) *base.SchemaProxy {
		if v != nil && v.IsA() {
			return v.A
		}
		return nil
	}
	for _, one := range []struct {
		kw  string
		sub *base.SchemaProxy
	}{
		{"items", either(s.Items)}, {"additionalProperties", either(s.AdditionalProperties)},
		{"unevaluatedProperties", either(s.UnevaluatedProperties)}, {"not", s.Not}, {"if", s.If}, {"then", s.Then},
		{"else", s.Else}, {"contains", s.Contains}, {"propertyNames", s.PropertyNames},
		{"unevaluatedItems", s.UnevaluatedItems}, {"contentSchema", s.ContentSchema},
	} {
		w.proxy(ptr+"/"+one.kw, one.sub)
	}
}

// pointerToken escapes one JSON pointer token (RFC 6901).
func pointerToken(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// commonResponseHeaders are the headers the specification requires on every response.
var commonResponseHeaders = []string{"Content-Language", "X-Request-Id", "X-App-Result"}

// TestOpenAPIEveryResponseDeclaresTheCommonHeaders: every response of every operation
// (success, redirect, socket upgrade, error) declares the headers the specification
// requires on every response, required, by a $ref to the one definition in
// components/headers.
func TestOpenAPIEveryResponseDeclaresTheCommonHeaders(t *testing.T) {
	for _, name := range commonResponseHeaders {
		if h, ok := libopenapiDoc(t).Components.Headers.Get(name); !ok || !h.Required {
			t.Fatalf("components/headers/%s is missing or not required", name)
		}
	}
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range c.Operations {
		responses, _ := op.Raw["responses"].(map[string]any)
		for _, code := range sortedKeys(responses) {
			r, _ := c.resolve(responses[code])
			headers, _ := r["headers"].(map[string]any)
			for _, name := range commonResponseHeaders {
				h, _ := headers[name].(map[string]any)
				if h["$ref"] != "#/components/headers/"+name {
					t.Errorf("%s %s: response %s does not declare %s by a $ref to components/headers/%s", op.Method, op.Path, code, name, name)
				}
			}
		}
	}
}
