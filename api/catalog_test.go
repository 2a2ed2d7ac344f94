package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"agencyhub/api"
	"agencyhub/migrations/dbtest"
	"agencyhub/schemas"
)

// loadCatalog is the embedded action and dependency type catalog.
func loadCatalog(t testing.TB) *schemas.Catalog {
	t.Helper()
	c, err := schemas.LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// list decodes a response whose body is a JSON array of objects.
func (resp *response) list(t testing.TB) []map[string]any {
	t.Helper()
	var out []map[string]any
	if err := json.Unmarshal(resp.Body.Bytes(), &out); err != nil {
		t.Fatalf("body is not an array of objects: %v: %s", err, resp.Body)
	}
	return out
}

func TestCatalogEndpoints(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	u := e.signUp("Editor")
	catalog := loadCatalog(t)

	t.Run("the action type list has every type in catalog order, all importable", func(t *testing.T) {
		items := e.do(req{method: "GET", path: "/api/v1/action-types", token: u.token}).expect(t, http.StatusOK).list(t)
		var got, want []string
		for _, a := range catalog.Actions() {
			want = append(want, a.Key)
		}
		for _, it := range items {
			key := it["action_key"].(string)
			got = append(got, key)
			if it["importable"] != true {
				t.Errorf("%s: importable = %v", key, it["importable"])
			}
			if config, _ := it["config_schema_json"].(map[string]any); config["type"] != "object" {
				t.Errorf("%s: config_schema_json %v", key, it["config_schema_json"])
			}
		}
		// The specification's 19, and condition.switch, data.set and run.event_trigger of the
		// workflow language.
		if !slices.Equal(got, want) || len(got) != 23 {
			t.Fatalf("action types %v, want the 23 of the catalog %v", got, want)
		}
	})
	t.Run("an action whose credential is optional needs no provider", func(t *testing.T) {
		resp := e.do(req{method: "GET", path: "/api/v1/action-types/http.request", token: u.token}).expect(t, http.StatusOK)
		if resp.str("provider_key") != "" || resp.str("dependency_type_key") != "http.auth" || resp.json["requires_dependency"] != false {
			t.Fatalf("http.request: %s", resp.Body)
		}
	})
	t.Run("one action type answers with its schemas and flags", func(t *testing.T) {
		resp := e.do(req{method: "GET", path: "/api/v1/action-types/email.send", token: u.token}).expect(t, http.StatusOK)
		if resp.str("provider_key") != "smtp" || resp.str("dependency_type_key") != "smtp.server" || resp.str("dependency_field") != "smtp_action_dependency_id" ||
			resp.json["requires_dependency"] != true || resp.json["idempotent"] != false || resp.str("category") != "integration" {
			t.Fatalf("email.send: %s", resp.Body)
		}
		props := resp.json["config_schema_json"].(map[string]any)["properties"].(map[string]any)
		if _, ok := props["smtp_action_dependency_id"]; !ok {
			t.Fatalf("config schema lacks its dependency field: %v", props)
		}
		if _, ok := resp.json["result_schema_json"].(map[string]any)["properties"].(map[string]any)["message_id"]; !ok {
			t.Fatalf("result schema lacks message_id: %s", resp.Body)
		}
	})
	t.Run("the AI agent names its provider and the read tools it may be allowed", func(t *testing.T) {
		resp := e.do(req{method: "GET", path: "/api/v1/action-types/ai.agent", token: u.token}).expect(t, http.StatusOK)
		tools := resp.json["config_schema_json"].(map[string]any)["properties"].(map[string]any)["tools"].(map[string]any)["items"].(map[string]any)["enum"]
		if resp.json["importable"] != true || resp.str("provider_key") != "ai" || resp.str("dependency_type_key") != "ai.model_provider" ||
			slices.Contains(tools.([]any), "retry_failed_action") || !slices.Contains(tools.([]any), "get_run") {
			t.Fatalf("ai.agent: %s", resp.Body)
		}
	})
	t.Run("the dependency type list has every type with its schemas", func(t *testing.T) {
		items := e.do(req{method: "GET", path: "/api/v1/action-dependency-types", token: u.token}).expect(t, http.StatusOK).list(t)
		var got, want []string
		for _, d := range catalog.Dependencies() {
			want = append(want, d.Key)
		}
		for _, it := range items {
			got = append(got, it["dependency_type_key"].(string))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("dependency types %v, want %v", got, want)
		}
		for _, key := range []string{"messenger_a.bot", "messenger_b.bot", "smtp.server", "http.auth"} {
			if !slices.Contains(got, key) {
				t.Errorf("%s is missing", key)
			}
		}
	})
	t.Run("one dependency type answers with its auth and metadata schemas", func(t *testing.T) {
		resp := e.do(req{method: "GET", path: "/api/v1/action-dependency-types/smtp.server", token: u.token}).expect(t, http.StatusOK)
		auth := resp.json["auth_schema_json"].(map[string]any)["properties"].(map[string]any)
		meta := resp.json["metadata_schema_json"].(map[string]any)["properties"].(map[string]any)
		if resp.str("provider_key") != "smtp" || auth["password"] == nil || meta["host"] == nil || meta["security"] == nil {
			t.Fatalf("smtp.server: %s", resp.Body)
		}
	})
	for _, path := range []string{"/api/v1/action-types/no.such_type", "/api/v1/action-dependency-types/no.such_type", "/api/v1/action-types/HTTP.REQUEST"} {
		t.Run("an unknown key answers 404: "+path, func(t *testing.T) {
			e.do(req{method: "GET", path: path, token: u.token}).expect(t, http.StatusNotFound)
		})
	}
	t.Run("an unknown key is explained in the caller's language", func(t *testing.T) {
		resp := e.do(req{method: "GET", path: "/api/v1/action-types/no.such_type", token: u.token, header: map[string]string{"Accept-Language": "ru"}})
		if resp.expect(t, http.StatusNotFound).str("title") != "Тип действия не найден" {
			t.Fatalf("title %q", resp.str("title"))
		}
	})
	ru := map[string]string{"Accept-Language": "ru"}
	t.Run("a reader of Russian gets the catalog's names, labels and help in Russian", func(t *testing.T) {
		resp := e.do(req{method: "GET", path: "/api/v1/action-types", token: u.token, header: ru}).expect(t, http.StatusOK)
		if got := resp.Header().Get("Content-Language"); got != "ru" {
			t.Errorf("Content-Language %q", got)
		}
		names := map[string]string{}
		var httpConfig map[string]any
		for _, it := range resp.list(t) {
			names[it["action_key"].(string)] = it["display_name"].(string)
			if it["action_key"] == "http.request" {
				httpConfig = it["config_schema_json"].(map[string]any)
			}
		}
		for key, want := range map[string]string{"webhook.trigger": "Вебхук", "http.request": "HTTP-запрос", "email.send": "Отправить письмо",
			"condition.branch": "Условие", "delay.wait": "Задержка"} {
			if names[key] != want {
				t.Errorf("%s is %q, want %q", key, names[key], want)
			}
		}
		timeout := httpConfig["properties"].(map[string]any)["timeout_seconds"].(map[string]any)
		if timeout["title"] != "Время ожидания" || !strings.HasPrefix(timeout["description"].(string), "Предел времени одной попытки") {
			t.Errorf("http.request timeout_seconds in Russian: %v", timeout)
		}
		if timeout["maximum"] != float64(120) {
			t.Errorf("the Russian schema lost its rules: %v", timeout)
		}
	})
	t.Run("one action type and one dependency type answer in Russian too", func(t *testing.T) {
		one := e.do(req{method: "GET", path: "/api/v1/action-types/delay.wait", token: u.token, header: ru}).expect(t, http.StatusOK)
		if one.str("display_name") != "Задержка" {
			t.Errorf("delay.wait: %s", one.Body)
		}
		smtp := e.do(req{method: "GET", path: "/api/v1/action-dependency-types/smtp.server", token: u.token, header: ru}).expect(t, http.StatusOK)
		host := smtp.json["metadata_schema_json"].(map[string]any)["properties"].(map[string]any)["host"].(map[string]any)
		if smtp.str("display_name") != "SMTP-сервер" || host["title"] != "Хост" {
			t.Errorf("smtp.server: %s", smtp.Body)
		}
		list := e.do(req{method: "GET", path: "/api/v1/action-dependency-types", token: u.token, header: ru}).expect(t, http.StatusOK).list(t)
		if list[0]["display_name"] != "Бот Messenger A" {
			t.Errorf("dependency types in Russian: %v", list[0]["display_name"])
		}
	})
	t.Run("a reader of English still gets English", func(t *testing.T) {
		one := e.do(req{method: "GET", path: "/api/v1/action-types/delay.wait", token: u.token, header: map[string]string{"Accept-Language": "en"}}).expect(t, http.StatusOK)
		if one.str("display_name") != "Delay" {
			t.Errorf("delay.wait: %s", one.Body)
		}
	})
	for _, path := range []string{"/api/v1/action-types", "/api/v1/action-types/http.request", "/api/v1/action-dependency-types", "/api/v1/action-dependency-types/smtp.server"} {
		t.Run("without a token "+path+" answers 401", func(t *testing.T) {
			e.do(req{method: "GET", path: path}).expect(t, http.StatusUnauthorized, "access_token")
		})
	}

	broken := newEnv(t, dbtest.SQLite(t), func(s *api.Server) { s.Catalog = nil })
	b := broken.signUp("Editor")
	for _, path := range []string{"/api/v1/action-types", "/api/v1/action-types/http.request", "/api/v1/action-dependency-types", "/api/v1/action-dependency-types/smtp.server"} {
		t.Run("without a loaded catalog "+path+" answers 500", func(t *testing.T) {
			broken.do(req{method: "GET", path: path, token: b.token}).expect(t, http.StatusInternalServerError)
		})
	}
}
