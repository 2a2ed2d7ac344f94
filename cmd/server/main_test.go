package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

func start(t *testing.T, env map[string]string) *Main {
	t.Helper()
	m := &Main{}
	if err := m.ParseFlags([]string{"-addr", "127.0.0.1:0"}, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m
}

func call(t *testing.T, m *Main, method, path, token string, body any) (*http.Response, map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	if body != nil {
		json.NewEncoder(&buf).Encode(body)
	}
	req, _ := http.NewRequest(method, "http://"+m.Addr()+path, &buf)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp, out
}

// TestServerRestartKeepsDataAndKeys starts the real binary's Main on the embedded defaults,
// signs a user in, restarts on the same data dir and uses the same token.
func TestServerRestartKeepsDataAndKeys(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"APP_DATA_DIR": dir, "TEMPORAL_PORT": "0", "TEMPORAL_UI_PORT": "0"}

	m := start(t, env)
	resp, health := call(t, m, "GET", "/healthz", "", nil)
	checks, _ := health["checks"].(map[string]any)
	if resp.StatusCode != http.StatusOK || health["status"] != "ok" || checks["temporal"] == nil {
		t.Fatalf("healthz: %d %v", resp.StatusCode, health)
	}
	if _, err := os.Stat(filepath.Join(dir, "secret.key")); err != nil {
		t.Fatalf("no generated secret key: %v", err)
	}
	call(t, m, "POST", "/api/v1/auth/register", "", map[string]any{"email": "ops@example.com", "password": "correct-horse-battery", "name": "Ops"})
	resp, login := call(t, m, "POST", "/api/v1/auth/login", "", map[string]any{"email": "ops@example.com", "password": "correct-horse-battery", "client_type": "api"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("login: %d %v", resp.StatusCode, login)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get("http://" + m.Addr() + "/healthz"); err == nil {
		t.Fatal("the server still answers after Close")
	}

	m = start(t, env)
	defer m.Close()
	resp, me := call(t, m, "GET", "/api/v1/auth/me", login["access_token"].(string), nil)
	if resp.StatusCode != http.StatusOK || me["email"] != "ops@example.com" {
		t.Fatalf("after restart, me: %d %v", resp.StatusCode, me)
	}
}

func TestConfig(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	t.Run("defaults are the embedded ones", func(t *testing.T) {
		c, err := ParseConfig(nil, env())
		if err != nil {
			t.Fatal(err)
		}
		if c.Addr != "127.0.0.1:8080" || c.DataDir != "./data" || c.DatabaseURL != "" || c.PublicURL != "http://127.0.0.1:8080" || c.MaxBodyBytes != 1<<20 {
			t.Fatalf("defaults: %+v", c)
		}
		if secure, _ := c.secureCookies(); secure {
			t.Fatal("cookies are Secure by default on a plain-http public URL")
		}
	})
	t.Run("an https public URL makes cookies Secure", func(t *testing.T) {
		c, err := ParseConfig(nil, env("APP_PUBLIC_URL", "https://api.example.com/"))
		if err != nil {
			t.Fatal(err)
		}
		if secure, _ := c.secureCookies(); !secure || c.PublicURL != "https://api.example.com" {
			t.Fatalf("%+v", c)
		}
	})
	t.Run("a flag overrides its environment variable", func(t *testing.T) {
		c, err := ParseConfig([]string{"-addr", ":9999"}, env("APP_ADDR", ":7777"))
		if err != nil || c.Addr != ":9999" {
			t.Fatalf("addr %q, err %v", c.Addr, err)
		}
	})
	for _, bad := range [][]string{
		{"APP_ACCESS_TTL", "soon"},
		{"APP_MAX_BODY_BYTES", "lots"},
		{"APP_MAX_BODY_BYTES", "10"},
		{"APP_COOKIE_SAMESITE", "sometimes"},
		{"APP_COOKIE_SECURE", "maybe"},
		{"APP_LOG_LEVEL", "loud"},
		{"APP_REFRESH_TTL", "1m"},
		{"APP_METRICS_ADDR", "9090"},
		{"OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"},
	} {
		t.Run("a bad "+bad[0]+" is refused", func(t *testing.T) {
			if _, err := ParseConfig(nil, env(bad...)); err == nil {
				t.Fatalf("%s=%s accepted", bad[0], bad[1])
			}
		})
	}
}
