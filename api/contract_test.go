package api_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/schemas"
)

// TestRoutesMatchTheContract fails when a route exists that the contract lacks, or the
// contract names an operation that is not routed.
func TestRoutesMatchTheContract(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	routed := map[string]bool{}
	for _, r := range e.handler.(*gin.Engine).Routes() {
		key := r.Method + " " + httpx.TemplatePath(r.Path)
		routed[key] = true
		if e.contract.Operation(r.Method, httpx.TemplatePath(r.Path)) == nil {
			t.Errorf("route %s is not in schemas/openapi.yaml", key)
		}
	}
	for _, op := range e.contract.Operations {
		if !routed[op.Method+" "+op.Path] {
			t.Errorf("contract operation %s (%s %s) is not routed", op.ID, op.Method, op.Path)
		}
	}
}

// fixture is one user's resources: one of every kind a path of the API names.
type fixture struct {
	owner user
	ids   map[string]string
}

func (e *env) fixture(name string) fixture {
	e.t.Helper()
	u := e.signUp(name)
	companyID := e.companyOf(u, name+" Agency")
	entity := e.do(req{method: "POST", path: "/api/v1/companies/" + companyID + "/legal-entities", token: u.token,
		body: map[string]any{"entity_type": "legal_entity", "name": name + " LLC", "inn": "7707083893"}}).expect(e.t, http.StatusCreated)
	key := e.do(req{method: "POST", path: "/api/v1/auth/api-keys", token: u.token, body: map[string]any{"name": "k"}}).expect(e.t, http.StatusOK)
	sessions := e.do(req{method: "GET", path: "/api/v1/auth/sessions", token: u.token}).expect(e.t, http.StatusOK).items()
	f := fixture{owner: u, ids: map[string]string{
		"company_id":              companyID,
		"project_id":              e.projectIn(u, companyID, name+" Site"),
		"company_legal_entity_id": entity.str("company_legal_entity_id"),
		"api_key_id":              key.str("api_key_id"),
		"session_id":              sessions[0]["session_id"].(string),
		"user_id":                 u.id,
	}}
	f.ids["invitation_id"] = e.do(req{method: "POST", path: "/api/v1/companies/" + companyID + "/invitations", token: u.token,
		body: map[string]any{"email": "invited-by-" + strings.ToLower(name) + "@example.com", "role": "member"}}).expect(e.t, http.StatusCreated).str("invitation_id")
	e.addIntegrationIDs(u, f.ids)
	e.addWorkflowIDs(u, f.ids)
	e.addWebhookIDs(u, f.ids)
	e.addRelayIDs(u, f.ids)
	e.addClientIDs(u, f.ids)
	e.addWorkIDs(u, f.ids)
	e.addSiteChatIDs(u, f.ids)
	e.addDesktopIDs(u, f.ids)
	e.addAIIDs(u, f.ids)
	f.ids["public_slug"] = schemas.PatchContractSlug // an integration document, public
	return f
}

// pathFor fills an operation's path template with ids.
func pathFor(op *schemas.Operation, ids map[string]string) string {
	path := op.Path
	for _, param := range pathParamsOf(op) {
		if id, ok := ids[fixtureKey(op, param)]; ok {
			path = strings.ReplaceAll(path, "{"+param+"}", id)
		}
	}
	return path
}

// fixtureKey is the fixture entry a path parameter reads: session_id names an auth session
// under /auth/ and an AI session under /ai/, so the AI operations read ai_session_id.
func fixtureKey(op *schemas.Operation, param string) string {
	if param == "session_id" && strings.Contains(op.Path, "/ai/") {
		return "ai_session_id"
	}
	return param
}

func hasPathParams(op *schemas.Operation) bool { return strings.Contains(op.Path, "{") }

// TestOtherTenantsResourcesAreNotFound proves, for every operation with an id in its path,
// that a signed-in user of another company gets 404 — never 403, never the resource.
func TestOtherTenantsResourcesAreNotFound(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		victim := e.fixture("Victim")
		intruder := e.fixture("Intruder")
		for _, op := range e.contract.Operations {
			if !hasPathParams(op) || !op.Secured {
				continue
			}
			t.Run(op.ID+" answers 404 to another company's user", func(t *testing.T) {
				resp := e.do(req{method: op.Method, path: pathFor(op, victim.ids), token: intruder.owner.token, body: e.contract.ExampleBody(op)})
				resp.expect(t, http.StatusNotFound)
			})
		}
		// Nothing the intruder tried changed the victim's data.
		company := e.do(req{method: "GET", path: "/api/v1/companies/" + victim.ids["company_id"], token: victim.owner.token}).expect(t, http.StatusOK)
		if company.str("name") != "Victim Agency" {
			t.Fatalf("victim's company after the intrusion attempts: %s", company.Body)
		}
		e.do(req{method: "GET", path: "/api/v1/auth/me", apiKey: "", token: victim.owner.token}).expect(t, http.StatusOK)
	})
}

// TestBadInputIsRejectedNamingTheFields sends every operation of the contract a malformed
// body, an unknown field, each field with a wrong type, a body missing its required fields,
// a malformed id and an unknown id, and expects a Problem naming what to fix.
func TestBadInputIsRejectedNamingTheFields(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		f := e.fixture("Owner")
		var doc map[string]any
		if err := json.Unmarshal(e.contract.JSON, &doc); err != nil {
			t.Fatal(err)
		}
		for _, op := range e.contract.Operations {
			path := pathFor(op, f.ids)
			call := func(body any) *response {
				return e.do(req{method: op.Method, path: path, token: f.owner.token, body: body})
			}
			fieldsFor := func(want ...string) []string {
				if len(op.ValidateFields) > 0 {
					return op.ValidateFields
				}
				return want
			}
			if op.HasRequestBody() {
				props, required := requestShape(doc, op)
				example, _ := e.contract.ExampleBody(op).(map[string]any)
				t.Run(op.ID+" rejects malformed JSON", func(t *testing.T) {
					call(`{"name": `).expect(t, http.StatusBadRequest, fieldsFor("body")...)
				})
				t.Run(op.ID+" rejects a body that is not JSON", func(t *testing.T) {
					resp := e.do(req{method: op.Method, path: path, token: f.owner.token, body: "name=x", header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}})
					resp.expect(t, http.StatusUnsupportedMediaType, fieldsFor("body")...)
				})
				t.Run(op.ID+" rejects an oversized body", func(t *testing.T) {
					call(`{"name": "`+strings.Repeat("x", int(e.server.MaxBodyBytes))+`"}`).expect(t, http.StatusRequestEntityTooLarge, fieldsFor("body")...)
				})
				t.Run(op.ID+" rejects invalid UTF-8", func(t *testing.T) {
					call("{\"name\": \"caf\xe9\"}").expect(t, http.StatusBadRequest, fieldsFor("body")...) // Latin-1 é
				})
				if op.BodyRequired {
					t.Run(op.ID+" rejects an empty body", func(t *testing.T) {
						call("").expect(t, http.StatusBadRequest, fieldsFor("body")...)
					})
				}
				t.Run(op.ID+" rejects an unknown field", func(t *testing.T) {
					body := clone(example)
					body["unexpected_field"] = 1
					call(body).expect(t, http.StatusBadRequest, fieldsFor("unexpected_field")...)
				})
				for name, schema := range props {
					t.Run(op.ID+" rejects a wrong type for "+name, func(t *testing.T) {
						body := clone(example)
						body[name] = wrongTypeFor(schema)
						call(body).expect(t, http.StatusBadRequest, fieldsFor(name)...)
					})
				}
				if len(required) > 0 {
					t.Run(op.ID+" rejects a body missing its required fields", func(t *testing.T) {
						slices.Sort(required)
						call(map[string]any{}).expect(t, http.StatusBadRequest, fieldsFor(required...)...)
					})
				}
			}
			for _, param := range pathParamsOf(op) {
				if pathParamIsFreeForm(doc, op, param) {
					// A catalog key has no format to violate: anything the catalog lacks is unknown.
					t.Run(op.ID+" answers 404 for an unknown "+param, func(t *testing.T) {
						unknown := maps.Clone(f.ids)
						unknown[param] = "no.such_key"
						e.do(req{method: op.Method, path: pathFor(op, unknown), token: f.owner.token}).expect(t, http.StatusNotFound)
					})
					continue
				}
				t.Run(op.ID+" rejects a malformed "+param, func(t *testing.T) {
					bad := map[string]string{}
					for k, v := range f.ids {
						bad[k] = v
					}
					bad[fixtureKey(op, param)] = "not-a-uuid"
					resp := e.do(req{method: op.Method, path: pathFor(op, bad), token: f.owner.token, body: e.contract.ExampleBody(op)})
					resp.expect(t, http.StatusBadRequest, param)
				})
				if pathParamIsEnum(doc, op, param) {
					continue // a fixed set of names, not stored resources: any other name is malformed
				}
				t.Run(op.ID+" answers 404 for an unknown "+param, func(t *testing.T) {
					unknown := map[string]string{}
					for k, v := range f.ids {
						unknown[k] = v
					}
					unknown[fixtureKey(op, param)] = models.NewID().String()
					resp := e.do(req{method: op.Method, path: pathFor(op, unknown), token: f.owner.token, body: e.contract.ExampleBody(op)})
					resp.expect(t, http.StatusNotFound)
				})
			}
			for name, value := range badQueryValues(doc, op) {
				t.Run(op.ID+" rejects a "+name+" outside the contract", func(t *testing.T) {
					sep := "?"
					if strings.Contains(path, "?") {
						sep = "&"
					}
					resp := e.do(req{method: op.Method, path: path + sep + name + "=" + url.QueryEscape(value), token: f.owner.token, body: e.contract.ExampleBody(op)})
					resp.expect(t, http.StatusBadRequest)
					if named := strings.Split(resp.str("validate"), ","); !slices.Contains(named, name) {
						t.Fatalf("validate = %q does not name %s", resp.str("validate"), name)
					}
				})
			}
			if op.Secured {
				t.Run(op.ID+" requires credentials", func(t *testing.T) {
					e.do(req{method: op.Method, path: path, body: e.contract.ExampleBody(op)}).expect(t, http.StatusUnauthorized, "access_token")
				})
			}
		}
	})
}

// badQueryValues gives, for each query parameter of an operation whose schema limits its
// values, one value past a limit.
func badQueryValues(doc map[string]any, op *schemas.Operation) map[string]string {
	out := map[string]string{}
	for _, p := range asList(op.Raw["parameters"]) {
		param := resolveRef(doc, p)
		if param["in"] != "query" {
			continue
		}
		if v, ok := pastALimit(doc, resolveRef(doc, param["schema"])); ok {
			out[param["name"].(string)] = v
		}
	}
	return out
}

func pastALimit(doc, s map[string]any) (string, bool) {
	if items, ok := s["items"]; ok {
		return pastALimit(doc, resolveRef(doc, items))
	}
	switch {
	case s["enum"] != nil:
		return "not-listed", true
	case s["maxLength"] != nil:
		return strings.Repeat("x", whole(s["maxLength"])+1), true
	case s["maximum"] != nil:
		return strconv.Itoa(whole(s["maximum"]) + 1), true
	case s["minimum"] != nil:
		return strconv.Itoa(whole(s["minimum"]) - 1), true
	case s["format"] == "uuid" || s["format"] == "date" || s["type"] == "integer" || s["type"] == "boolean":
		return "not-a-value", true
	}
	return "", false
}

// whole reads a number of the contract, which the operation's raw YAML holds as an int.
func whole(v any) int {
	if f, ok := v.(float64); ok {
		return int(f)
	}
	return v.(int)
}

func pathParamsOf(op *schemas.Operation) []string {
	var out []string
	for _, part := range strings.Split(op.Path, "/") {
		if strings.HasPrefix(part, "{") {
			name, _, _ := strings.Cut(part[1:], "}") // {public_slug}.md names public_slug
			out = append(out, name)
		}
	}
	return out
}

// pathParamIsEnum reports whether a path parameter takes one of a fixed set of values
// (such as an identity provider's name) rather than naming a stored resource.
func pathParamIsEnum(doc map[string]any, op *schemas.Operation, name string) bool {
	for _, p := range asList(op.Raw["parameters"]) {
		param := resolveRef(doc, p)
		if param["name"] == name && param["in"] == "path" {
			_, ok := resolveRef(doc, param["schema"])["enum"]
			return ok
		}
	}
	return false
}

func clone(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// requestShape reads an operation's request body properties and required names from the
// contract document, following $ref and merging allOf.
func requestShape(doc map[string]any, op *schemas.Operation) (map[string]map[string]any, []string) {
	rb, _ := op.Raw["requestBody"].(map[string]any)
	content, _ := rb["content"].(map[string]any)
	media, _ := content["application/json"].(map[string]any)
	props := map[string]map[string]any{}
	var required []string
	var walk func(any)
	walk = func(v any) {
		s := resolveRef(doc, v)
		for _, part := range asList(s["allOf"]) {
			walk(part)
		}
		if p, ok := s["properties"].(map[string]any); ok {
			for name, ps := range p {
				props[name] = resolveRef(doc, ps)
			}
		}
		for _, r := range asList(s["required"]) {
			required = append(required, r.(string))
		}
	}
	walk(media["schema"])
	return props, required
}

func resolveRef(doc map[string]any, v any) map[string]any {
	s, _ := v.(map[string]any)
	ref, ok := s["$ref"].(string)
	if !ok {
		return s
	}
	var cur any = doc
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		m, _ := cur.(map[string]any)
		cur = m[part]
	}
	return resolveRef(doc, cur)
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// wrongTypeFor returns a JSON value that the schema's type does not admit.
func wrongTypeFor(schema map[string]any) any {
	types := map[string]bool{}
	switch t := schema["type"].(type) {
	case string:
		types[t] = true
	case []any:
		for _, x := range t {
			types[x.(string)] = true
		}
	}
	if types["string"] {
		return 12345
	}
	return "not-the-right-type"
}

// pathParamIsFreeForm reports whether a path parameter's schema sets no format, pattern or
// enum (a catalog key), so no value of it is malformed.
func pathParamIsFreeForm(doc map[string]any, op *schemas.Operation, name string) bool {
	for _, p := range asList(op.Raw["parameters"]) {
		param := resolveRef(doc, p)
		if param["name"] == name && param["in"] == "path" {
			s := resolveRef(doc, param["schema"])
			_, hasEnum := s["enum"]
			return s["format"] == nil && s["pattern"] == nil && !hasEnum
		}
	}
	return false
}
