package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"agencyhub/migrations/dbtest"
)

func TestDocs(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	t.Run("the contract is served as YAML and JSON with version 1.1.0", func(t *testing.T) {
		y := e.do(req{method: "GET", path: "/api/v1/docs/openapi.yaml"}).expect(t, http.StatusOK)
		var fromYAML map[string]any
		if err := yaml.Unmarshal(y.Body.Bytes(), &fromYAML); err != nil {
			t.Fatal(err)
		}
		j := e.do(req{method: "GET", path: "/api/v1/docs/openapi.json"}).expect(t, http.StatusOK)
		info, _ := j.json["info"].(map[string]any)
		if info["version"] != "1.1.0" || j.json["openapi"] != fromYAML["openapi"] {
			t.Fatalf("info %v, openapi %v vs %v", info, j.json["openapi"], fromYAML["openapi"])
		}
	})
	t.Run("the endpoint catalog lists every operation with a curl example that sends a valid request", func(t *testing.T) {
		resp := e.do(req{method: "GET", path: "/api/v1/docs/endpoints"}).expect(t, http.StatusOK)
		endpoints, _ := resp.json["endpoints"].([]any)
		if len(endpoints) != len(e.contract.Operations) || resp.str("version") != "1.1.0" {
			t.Fatalf("%d endpoints for %d operations, version %q", len(endpoints), len(e.contract.Operations), resp.str("version"))
		}
		for _, raw := range endpoints {
			ep := raw.(map[string]any)
			op := e.contract.Operation(ep["method"].(string), ep["path"].(string))
			curl := ep["curl_examples"].([]any)[0].(string)
			if !strings.Contains(curl, "-X "+op.Method) || !strings.Contains(curl, "http://api.test/") {
				t.Errorf("%s: curl example %q", op.ID, curl)
			}
			if _, body, ok := strings.Cut(curl, " -d '"); ok {
				var doc any
				if err := json.Unmarshal([]byte(strings.TrimSuffix(body, "'")), &doc); err != nil {
					t.Errorf("%s: curl body is not JSON: %v", op.ID, err)
				} else if fields := op.ValidateRequest(doc); fields != nil {
					t.Errorf("%s: curl example body is invalid by the contract (fields %v)", op.ID, fields)
				}
			}
		}
	})
	t.Run("the testing collection points at a downloadable collection of every operation", func(t *testing.T) {
		info := e.do(req{method: "GET", path: "/api/v1/docs/testing/collection"}).expect(t, http.StatusOK)
		url := info.str("download_url")
		if info.str("format") != "postman_collection_v2.1" || info.str("version") != "1.1.0" || !strings.HasPrefix(url, "http://api.test/") {
			t.Fatalf("collection info %s", info.Body)
		}
		coll := e.do(req{method: "GET", path: strings.TrimPrefix(url, "http://api.test")}).expect(t, http.StatusOK)
		n := 0
		for _, folder := range coll.json["item"].([]any) {
			n += len(folder.(map[string]any)["item"].([]any))
		}
		if n != len(e.contract.Operations) {
			t.Fatalf("collection has %d requests for %d operations", n, len(e.contract.Operations))
		}
	})
}
