package schemas

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// EndpointDoc is one operation of the endpoint catalog.
type EndpointDoc struct {
	Method       string   `json:"method"`
	Path         string   `json:"path"`
	Summary      string   `json:"summary"`
	Tag          string   `json:"tag"`
	OperationID  string   `json:"operation_id"`
	CurlExamples []string `json:"curl_examples"`
	TestHints    []string `json:"test_hints"`
}

// EndpointDocList is the endpoint catalog.
type EndpointDocList struct {
	GeneratedAt time.Time     `json:"generated_at"`
	Version     string        `json:"version"`
	Endpoints   []EndpointDoc `json:"endpoints"`
}

// TestingCollection points at the downloadable collection.
type TestingCollection struct {
	Format      string `json:"format"`
	Version     string `json:"version"`
	DownloadURL string `json:"download_url"`
}

// collectionFormat names the collection's format: the Postman Collection v2.1 JSON, which
// Postman, Insomnia, Bruno and newman all import.
const collectionFormat = "postman_collection_v2.1"

// EndpointDocs generates the endpoint catalog, with curl examples against baseURL.
func (c *Contract) EndpointDocs(baseURL string, now time.Time) EndpointDocList {
	out := EndpointDocList{GeneratedAt: now.UTC(), Version: c.Version, Endpoints: make([]EndpointDoc, 0, len(c.Operations))}
	for _, op := range c.Operations {
		out.Endpoints = append(out.Endpoints, EndpointDoc{
			Method: op.Method, Path: op.Path, Summary: op.Summary, Tag: op.Tag, OperationID: op.ID,
			CurlExamples: []string{c.curl(op, baseURL)},
			TestHints:    c.testHints(op),
		})
	}
	return out
}

// TestingCollectionInfo describes the collection served at downloadURL.
func (c *Contract) TestingCollectionInfo(downloadURL string) TestingCollection {
	return TestingCollection{Format: collectionFormat, Version: c.Version, DownloadURL: downloadURL}
}

// ExampleBody is the request body an operation's examples send: the schema's example when
// it has one, otherwise a value built from its required properties. Nil when the operation
// takes no body.
func (c *Contract) ExampleBody(op *Operation) any {
	body, ok := c.resolve(op.Raw["requestBody"])
	if !ok {
		return nil
	}
	s, ok := mediaSchema(body)
	if !ok {
		return nil
	}
	return c.example(s, 0)
}

func (c *Contract) example(schema any, depth int) any {
	s, ok := schema.(map[string]any)
	if !ok || depth > 8 {
		return nil
	}
	if ex, ok := s["example"]; ok {
		return ex
	}
	if ref, ok := s["$ref"].(string); ok {
		target, _ := c.resolve(map[string]any{"$ref": ref})
		return c.example(target, depth+1)
	}
	if enum := asSlice(s["enum"]); len(enum) > 0 {
		return enum[0]
	}
	switch s["type"] {
	case "object":
		props, _ := s["properties"].(map[string]any)
		out := map[string]any{}
		for _, name := range asSlice(s["required"]) {
			n, _ := name.(string)
			out[n] = c.example(props[n], depth+1)
		}
		return out
	case "array":
		return []any{c.example(s["items"], depth+1)}
	case "integer", "number":
		return 1
	case "boolean":
		return true
	case "string":
		switch s["format"] {
		case "uuid":
			return "00000000-0000-0000-0000-000000000000"
		case "email":
			return "user@example.com"
		case "date-time":
			return "2026-01-01T00:00:00Z"
		case "date":
			return "2026-01-01"
		}
		return "string"
	}
	return nil
}

// shellVar is how a path parameter appears in examples: {project_id} becomes $PROJECT_ID.
func shellVar(param string) string { return "$" + strings.ToUpper(param) }

func pathParams(path string) []string {
	var out []string
	for _, part := range strings.Split(path, "/") {
		if name, _, ok := templateParam(part); ok {
			out = append(out, name)
		}
	}
	return out
}

func (c *Contract) curl(op *Operation, baseURL string) string {
	path := op.Path
	for _, p := range pathParams(op.Path) {
		path = strings.ReplaceAll(path, "{"+p+"}", shellVar(p))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "curl -sS -X %s \"%s%s\"", op.Method, baseURL, path)
	if op.Secured {
		b.WriteString(" -H \"Authorization: Bearer $ACCESS_TOKEN\"")
	}
	if body := c.ExampleBody(op); body != nil {
		js, _ := json.Marshal(body)
		fmt.Fprintf(&b, " -H \"Content-Type: application/json\" -d '%s'", js)
	}
	return b.String()
}

func (c *Contract) testHints(op *Operation) []string {
	responses, _ := op.Raw["responses"].(map[string]any)
	codes := sortedKeys(responses)
	var success string
	for _, code := range codes {
		if strings.HasPrefix(code, "2") {
			success = code
			break
		}
	}
	hints := []string{fmt.Sprintf("A valid request answers %s with X-App-Result: ok.", success)}
	if op.Secured {
		hints = append(hints, "Without credentials it answers 401 fix_required with validate=access_token.")
	}
	for _, p := range pathParams(op.Path) {
		if c.pathParamFormat(op, p) == "uuid" {
			hints = append(hints, fmt.Sprintf("A %s that is not a UUID answers 400 naming it; one of another company answers 404.", p))
		} else {
			hints = append(hints, fmt.Sprintf("An unknown %s answers 404.", p))
		}
	}
	if op.HasRequestBody() {
		hints = append(hints, "An unknown body field, a wrong type or a missing required field answers 400 fix_required naming the fields.")
	}
	for _, code := range codes {
		if code == success || code == "401" {
			continue
		}
		r, _ := c.resolve(responses[code])
		desc, _ := r["description"].(string)
		hints = append(hints, fmt.Sprintf("%s: %s", code, desc))
	}
	return hints
}

// pathParamFormat is the schema format of a path parameter ("" when it has none).
func (c *Contract) pathParamFormat(op *Operation, name string) string {
	for _, raw := range asSlice(op.Raw["parameters"]) {
		param, _ := c.resolve(raw)
		if param["name"] == name && param["in"] == "path" {
			schema, _ := param["schema"].(map[string]any)
			format, _ := schema["format"].(string)
			return format
		}
	}
	return ""
}

// PostmanCollection generates the testing collection: one folder per tag, one request per
// operation with its example body, bearer auth from the accessToken variable.
func (c *Contract) PostmanCollection(baseURL string) map[string]any {
	folders := map[string][]any{}
	for _, op := range c.Operations {
		segments := strings.Split(strings.TrimPrefix(op.Path, "/"), "/")
		var vars []any
		for i, s := range segments {
			if name, suffix, ok := templateParam(s); ok {
				segments[i] = ":" + name + suffix
				vars = append(vars, map[string]any{"key": name, "value": ""})
			}
		}
		request := map[string]any{
			"method": op.Method,
			"url": map[string]any{
				"raw":      "{{baseUrl}}/" + strings.Join(segments, "/"),
				"host":     []string{"{{baseUrl}}"},
				"path":     segments,
				"variable": vars,
			},
			"header": []any{},
		}
		if !op.Secured {
			request["auth"] = map[string]any{"type": "noauth"}
		}
		if body := c.ExampleBody(op); body != nil {
			js, _ := json.MarshalIndent(body, "", "  ")
			request["header"] = []any{map[string]any{"key": "Content-Type", "value": "application/json"}}
			request["body"] = map[string]any{"mode": "raw", "raw": string(js), "options": map[string]any{"raw": map[string]any{"language": "json"}}}
		}
		folders[op.Tag] = append(folders[op.Tag], map[string]any{"name": op.Summary, "request": request})
	}
	tags := make([]string, 0, len(folders))
	for t := range folders {
		tags = append(tags, t)
	}
	sort.Strings(tags)
	items := make([]any, 0, len(tags))
	for _, t := range tags {
		items = append(items, map[string]any{"name": t, "item": folders[t]})
	}
	return map[string]any{
		"info": map[string]any{
			"name":    "Agency back end API " + c.Version,
			"schema":  "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
			"version": c.Version,
		},
		"auth": map[string]any{"type": "bearer", "bearer": []any{map[string]any{"key": "token", "value": "{{accessToken}}", "type": "string"}}},
		"variable": []any{
			map[string]any{"key": "baseUrl", "value": baseURL},
			map[string]any{"key": "accessToken", "value": ""},
		},
		"item": items,
	}
}
