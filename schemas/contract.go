package schemas

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

//go:embed openapi.yaml
var openapiYAML []byte

// contractURL is the name the contract document is compiled under; schema locations are
// JSON pointers into it.
const contractURL = "file:///openapi.json"

// Contract is the parsed interface contract.
type Contract struct {
	// YAML and JSON are the contract as served.
	YAML, JSON []byte
	// Version is info.version.
	Version    string
	Operations []*Operation
	byRoute    map[string]*Operation
	doc        map[string]any
}

// Operation is one method on one path of the contract.
type Operation struct {
	Method string
	// Path is the OpenAPI path template, e.g. /api/v1/projects/{project_id}.
	Path        string
	ID          string
	Summary     string
	Description string
	Tag         string
	// Secured is true when the operation needs a signed-in caller.
	Secured bool
	// Extension marks operations we added beyond the interface specification.
	Extension bool
	// ValidateFields, when set, is what `validate` names for any invalid body, where the
	// specification fixes it (x-app-validate).
	ValidateFields []string
	// BodyRequired is the request body's required flag: an empty body is refused when it
	// is set, and means "no fields" (the defaults) when it is not.
	BodyRequired bool
	// Raw is the operation object, for generators (curl examples, collections).
	Raw       map[string]any
	request   *jsonschema.Schema
	responses map[int]*jsonschema.Schema
	// problems are the statuses whose body is a Problem.
	problems map[int]bool
	// headers are, by status, the response headers the contract requires.
	headers map[int][]string
	// params are the operation's query and path parameters.
	params []parameter
	// bindsJSON: the request body is JSON and only JSON.
	bindsJSON bool
	// contract is the document the operation is part of, where its schemas' examples are.
	contract *Contract
}

// parameter is a query or path parameter with its compiled schema.
type parameter struct {
	name, in string
	required bool
	// kind is the schema's type (items' type for an array), which a text value is read as.
	kind, itemKind string
	schema         *jsonschema.Schema
}

var (
	loadOnce sync.Once
	loaded   *Contract
	loadErr  error
)

// Load parses and compiles the embedded contract once.
func Load() (*Contract, error) {
	loadOnce.Do(func() { loaded, loadErr = parse(openapiYAML) })
	return loaded, loadErr
}

func parse(src []byte) (*Contract, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("parse openapi.yaml: %w", err)
	}
	js, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml is not representable as JSON: %w", err)
	}
	instance, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return nil, err
	}
	compiler := jsonschema.NewCompiler()
	compiler.DefaultDraft(jsonschema.Draft2020)
	compiler.AssertFormat()
	if err := compiler.AddResource(contractURL, instance); err != nil {
		return nil, err
	}
	c := &Contract{YAML: src, JSON: js, doc: doc, byRoute: map[string]*Operation{}}
	info, _ := doc["info"].(map[string]any)
	c.Version, _ = info["version"].(string)
	globalSecured := len(asSlice(doc["security"])) > 0

	paths, _ := doc["paths"].(map[string]any)
	for _, path := range sortedKeys(paths) {
		item, _ := paths[path].(map[string]any)
		for _, method := range []string{"get", "head", "put", "post", "delete", "patch"} {
			raw, ok := item[method].(map[string]any)
			if !ok {
				continue
			}
			op, err := c.operation(compiler, path, method, raw, globalSecured)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", strings.ToUpper(method), path, err)
			}
			c.Operations = append(c.Operations, op)
			c.byRoute[op.Method+" "+op.Path] = op
		}
	}
	return c, nil
}

func (c *Contract) operation(compiler *jsonschema.Compiler, path, method string, raw map[string]any,
	globalSecured bool) (*Operation, error) {
	op := &Operation{
		Method:    strings.ToUpper(method),
		Path:      path,
		Raw:       raw,
		contract:  c,
		responses: map[int]*jsonschema.Schema{},
		problems:  map[int]bool{},
		headers:   map[int][]string{},
	}
	op.ID, _ = raw["operationId"].(string)
	op.Summary, _ = raw["summary"].(string)
	op.Description, _ = raw["description"].(string)
	op.Extension, _ = raw["x-extension"].(bool)
	if tags := asSlice(raw["tags"]); len(tags) > 0 {
		op.Tag, _ = tags[0].(string)
	}
	if op.ID == "" || op.Summary == "" || op.Tag == "" {
		return nil, errors.New("operationId, summary and tags are required")
	}
	op.Secured = globalSecured
	if sec, ok := raw["security"]; ok {
		op.Secured = len(asSlice(sec)) > 0
	}
	if v, ok := raw["x-app-validate"].(string); ok {
		op.ValidateFields = strings.Split(v, ",")
	}
	pointer := "#/paths/" + escapePointer(path) + "/" + method
	params, err := c.parameters(compiler, pointer, raw)
	if err != nil {
		return nil, err
	}
	op.params = params
	if body, ok := c.resolve(raw["requestBody"]); ok {
		op.BodyRequired, _ = body["required"].(bool)
		if _, ok := mediaSchema(body); ok {
			content, _ := body["content"].(map[string]any)
			op.bindsJSON = len(content) == 1
			s, err := compiler.Compile(contractURL + pointerOf(body, pointer+"/requestBody") + "/content/application~1json/schema")
			if err != nil {
				return nil, fmt.Errorf("request schema: %w", err)
			}
			op.request = s
		}
	}
	responses, _ := raw["responses"].(map[string]any)
	if len(responses) == 0 {
		return nil, errors.New("no responses")
	}
	for code, r := range responses {
		status, err := strconv.Atoi(code)
		if err != nil {
			return nil, fmt.Errorf("response %q: status codes must be explicit", code)
		}
		resp, _ := c.resolve(r)
		headers, _ := resp["headers"].(map[string]any)
		for _, name := range sortedKeys(headers) {
			if h, _ := c.resolve(headers[name]); h["required"] == true {
				op.headers[status] = append(op.headers[status], name)
			}
		}
		schema, ok := mediaSchema(resp)
		if !ok {
			continue
		}
		if ref, _ := schema.(map[string]any)["$ref"].(string); ref == "#/components/schemas/Problem" {
			op.problems[status] = true
		}
		s, err := compiler.Compile(contractURL + pointerOf(r, pointer+"/responses/"+code) + "/content/application~1json/schema")
		if err != nil {
			return nil, fmt.Errorf("response %s schema: %w", code, err)
		}
		op.responses[status] = s
	}
	return op, nil
}

// parameters compiles the query and path parameters of an operation.
func (c *Contract) parameters(compiler *jsonschema.Compiler, pointer string, raw map[string]any) ([]parameter, error) {
	var out []parameter
	for i, p := range asSlice(raw["parameters"]) {
		param, _ := c.resolve(p)
		in, _ := param["in"].(string)
		if in != "query" && in != "path" {
			continue
		}
		schema, _ := c.resolve(param["schema"])
		items, _ := c.resolve(schema["items"])
		name, _ := param["name"].(string)
		required, _ := param["required"].(bool)
		s, err := compiler.Compile(contractURL + pointerOf(p, pointer+"/parameters/"+strconv.Itoa(i)) + "/schema")
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", name, err)
		}
		out = append(out, parameter{name: name, in: in, required: required, kind: typeOf(schema), itemKind: typeOf(items), schema: s})
	}
	return out, nil
}

func typeOf(schema map[string]any) string {
	t, _ := schema["type"].(string)
	return t
}

// resolve follows a local $ref of a response or request body object.
func (c *Contract) resolve(v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	ref, isRef := m["$ref"].(string)
	if !isRef {
		return m, true
	}
	out := c.at(ref)
	return out, out != nil
}

// pointerOf is the JSON pointer of an object that may be a $ref: the target when it is one.
// at is the object at a JSON pointer into the contract ("#/components/…", or without the
// "#"), nil when there is none.
func (c *Contract) at(pointer string) map[string]any {
	var cur any = c.doc
	for _, part := range strings.Split(strings.TrimPrefix(strings.TrimPrefix(pointer, "#"), "/"), "/") {
		obj, _ := cur.(map[string]any)
		cur = obj[strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")]
	}
	out, _ := cur.(map[string]any)
	return out
}

func pointerOf(v any, here string) string {
	if m, ok := v.(map[string]any); ok {
		if ref, ok := m["$ref"].(string); ok {
			return ref
		}
	}
	return here
}

func mediaSchema(obj map[string]any) (any, bool) {
	content, _ := obj["content"].(map[string]any)
	media, _ := content["application/json"].(map[string]any)
	s, ok := media["schema"]
	return s, ok
}

// Operation returns the operation for a method and an OpenAPI path template, or nil.
func (c *Contract) Operation(method, path string) *Operation {
	return c.byRoute[strings.ToUpper(method)+" "+path]
}

// Match finds the operation whose path template matches a concrete request path.
func (c *Contract) Match(method, path string) *Operation {
	parts := strings.Split(path, "/")
	for _, op := range c.Operations {
		if op.Method != strings.ToUpper(method) {
			continue
		}
		tmpl := strings.Split(op.Path, "/")
		if len(tmpl) != len(parts) {
			continue
		}
		if slices.EqualFunc(tmpl, parts, segmentMatches) {
			return op
		}
	}
	return nil
}

// templateParam reads a path template segment: "{name}" or "{name}<suffix>" (as in
// "{public_slug}.md") is a parameter; anything else is literal.
func templateParam(segment string) (name, suffix string, ok bool) {
	inner, suffix, closed := strings.Cut(segment, "}")
	if !closed || !strings.HasPrefix(inner, "{") {
		return "", "", false
	}
	return inner[1:], suffix, true
}

// segmentMatches reports whether a concrete path segment fits a template segment.
func segmentMatches(tmpl, part string) bool {
	if _, suffix, ok := templateParam(tmpl); ok {
		return len(part) > len(suffix) && strings.HasSuffix(part, suffix)
	}
	return tmpl == part
}

// HasRequestBody reports whether the operation takes a JSON body.
func (op *Operation) HasRequestBody() bool { return op.request != nil }

// ValidateRequest checks a decoded JSON body and returns the names of the offending fields
// (nil when the body is valid).
func (op *Operation) ValidateRequest(body any) []string {
	vs := op.RequestViolations(body)
	if vs == nil {
		return nil
	}
	if len(op.ValidateFields) > 0 {
		return op.ValidateFields
	}
	return vs.Fields()
}

// RequestViolations checks a decoded JSON body and returns what it breaks (nil when the
// body is valid).
func (op *Operation) RequestViolations(body any) Violations {
	if op.request == nil {
		return nil
	}
	err := op.request.Validate(body)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return Violations{{Field: "body", Rule: RuleOther}}
	}
	vs := violationsOf(verr)
	for i, v := range vs {
		if _, pointer, ok := strings.Cut(v.schema, "#"); ok {
			if example, ok := op.contract.at(pointer)["example"]; ok {
				vs[i].Example = fmt.Sprint(example)
			}
		}
	}
	return vs
}

// BindsJSON reports whether the operation's request body is JSON and nothing else, so
// that it is read and checked before the handler runs.
func (op *Operation) BindsJSON() bool { return op.bindsJSON }

// ValidateParameters checks the query and path parameters of a request to the operation
// and returns the names of the offending ones (nil when all are valid). A parameter sent
// with an empty value counts as not sent; an array parameter is comma-separated (style
// form, explode false); a parameter sent twice is read from its first value.
func (op *Operation) ValidateParameters(path string, query url.Values) []string {
	values := pathValues(op.Path, path)
	var bad []string
	for _, p := range op.params {
		v := query.Get(p.name)
		if p.in == "path" {
			v = values[p.name]
		}
		if v == "" {
			if p.required {
				bad = append(bad, p.name)
			}
			continue
		}
		typed, ok := p.read(v)
		if !ok || p.schema.Validate(typed) != nil {
			bad = append(bad, p.name)
		}
	}
	sort.Strings(bad)
	return bad
}

// read turns a parameter's text into the JSON value its schema describes.
func (p parameter) read(v string) (any, bool) {
	if p.kind != "array" {
		return readAs(p.kind, v)
	}
	var out []any
	for _, item := range strings.Split(v, ",") {
		x, ok := readAs(p.itemKind, item)
		if !ok {
			return nil, false
		}
		out = append(out, x)
	}
	return out, true
}

func readAs(kind, v string) (any, bool) {
	switch kind {
	case "integer":
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	case "number":
		n, err := strconv.ParseFloat(v, 64)
		return n, err == nil
	case "boolean":
		b, err := strconv.ParseBool(v)
		return b, err == nil && (v == "true" || v == "false")
	}
	return v, true
}

// pathValues reads the path parameters of a concrete path by its template.
func pathValues(template, path string) map[string]string {
	out := map[string]string{}
	parts := strings.Split(path, "/")
	for i, segment := range strings.Split(template, "/") {
		if name, suffix, ok := templateParam(segment); ok && i < len(parts) {
			out[name] = strings.TrimSuffix(parts[i], suffix)
		}
	}
	return out
}

// ValidateResponse checks a decoded response body against the schema of its status.
func (op *Operation) ValidateResponse(status int, body any) error {
	s, ok := op.responses[status]
	if !ok {
		if status == http.StatusNoContent || len(op.responses) == 0 {
			return nil
		}
		return fmt.Errorf("%s %s: status %d is not in the contract", op.Method, op.Path, status)
	}
	return s.Validate(body)
}

// RequiredHeaders are the headers the contract requires on a response of the status.
func (op *Operation) RequiredHeaders(status int) []string { return op.headers[status] }

// ReturnsProblem reports whether the operation answers status with a Problem body.
func (op *Operation) ReturnsProblem(status int) bool { return op.problems[status] }

// DocumentsStatus reports whether the contract lists a status for the operation.
func (op *Operation) DocumentsStatus(status int) bool {
	responses, _ := op.Raw["responses"].(map[string]any)
	_, ok := responses[strconv.Itoa(status)]
	return ok
}

func join(base, name string) string {
	if base == "" {
		return name
	}
	return base + "." + name
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
