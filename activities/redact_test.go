package activities

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"agencyhub/models/integration"
)

// echoHeaders answers status with the request's headers as a JSON body, as some targets
// (and every debugging endpoint) do.
func echoHeaders(status int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Echo-Authorization", r.Header.Get("Authorization"))
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]any{"headers": r.Header, "url": r.URL.String()})
	}
}

// requireRedacted fails when anything of v repeats one of the secrets in any form.
func requireRedacted(t *testing.T, v any, secrets ...string) {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	for _, s := range secrets {
		for _, form := range []string{s, base64.StdEncoding.EncodeToString([]byte(s)), url.QueryEscape(s)} {
			if strings.Contains(text, form) {
				t.Fatalf("the answer repeats a secret (%q): %s", form, text)
			}
		}
	}
	if !strings.Contains(text, Redacted) {
		t.Fatalf("nothing was redacted in %s", text)
	}
}

func TestAnActionsAnswerNeverRepeatsTheSecretsItUsed(t *testing.T) {
	deps := newProjectDependencies()
	client := loopbackClient(t, 5*time.Second)
	run := func(e *endpoint, id string) (Result, error) {
		return Redacting(HTTPRequest{ActionDependencies: deps, Client: client}.Run)(context.Background(),
			deps.request(ActionHTTPRequest, map[string]any{"url": e.URL, "auth_dependency_id": id}))
	}
	bearer := deps.add(integration.TypeHTTPAuth, nil, map[string]any{"scheme": "bearer", "token": "tok/en+with=signs"})
	basic := deps.add(integration.TypeHTTPAuth, nil, map[string]any{"scheme": "basic", "username": "ada", "password": "pa55word"})
	header := deps.add(integration.TypeHTTPAuth, nil, map[string]any{"scheme": "header", "header_name": "X-Api-Key", "header_value": "k3y-k3y-k3y"})

	t.Run("a target echoing a bearer token", func(t *testing.T) {
		res, err := run(startEndpoint(t, echoHeaders(200)), bearer)
		if err != nil {
			t.Fatal(err)
		}
		requireRedacted(t, res, "tok/en+with=signs")
	})
	t.Run("a target echoing Basic credentials", func(t *testing.T) {
		res, err := run(startEndpoint(t, echoHeaders(200)), basic)
		if err != nil {
			t.Fatal(err)
		}
		requireRedacted(t, res, "pa55word", "ada:pa55word")
	})
	t.Run("a failing target echoing a custom header", func(t *testing.T) {
		_, err := run(startEndpoint(t, echoHeaders(500)), header)
		f := requireFailure(t, err, ClassTransient, "http_500")
		requireRedacted(t, f, "k3y-k3y-k3y")
	})
}

func TestRedactingCoversTheEncodedFormsOfASecret(t *testing.T) {
	deps := newProjectDependencies()
	id := deps.add(integration.TypeMessengerABot, map[string]any{"api_base_url": "https://bots.example"}, map[string]any{"bot_token": "42:AA/bb+cc=="})
	secret := "42:AA/bb+cc=="
	forms := []string{secret, base64.StdEncoding.EncodeToString([]byte(secret)), base64.RawURLEncoding.EncodeToString([]byte(secret)),
		url.QueryEscape(secret), url.PathEscape(secret)}
	leaky := func(ctx context.Context, req Request) (Result, error) {
		if _, err := loadDependency(ctx, deps, req, "action_dependency_id", integration.TypeMessengerABot, true); err != nil {
			return Result{}, err
		}
		return Result{Output: map[string]any{"forms": forms, "nested": map[string]any{"text": "token " + secret + " again"}}}, nil
	}
	res, err := Redacting(leaky)(context.Background(), deps.request(ActionMessengerASendMessage, map[string]any{"action_dependency_id": id}))
	if err != nil {
		t.Fatal(err)
	}
	requireRedacted(t, res, forms...)
	if got := res.Output["nested"].(map[string]any)["text"]; got != "token "+Redacted+" again" {
		t.Errorf("nested text = %q", got)
	}
}
