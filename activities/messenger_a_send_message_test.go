package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"agencyhub/activities/egress"
	"agencyhub/models/integration"
)

// botTokenA is the token of the messenger_a test bot; no failure may repeat it.
const botTokenA = "123456:AAH-secret-token-A"

// botAPIA is a local server speaking messenger_a's Bot API for the bot botTokenA, under an
// optional path prefix.
type botAPIA struct {
	*httptest.Server
	prefix string

	mu   sync.Mutex
	sent []map[string]any
	// refuse, when set, answers sendMessage instead of accepting the message.
	refuse func(w http.ResponseWriter)
}

func startBotAPIA(t *testing.T, prefix string) *botAPIA {
	t.Helper()
	api := &botAPIA{prefix: prefix}
	api.Server = httptest.NewServer(http.HandlerFunc(api.serve))
	t.Cleanup(api.Close)
	return api
}

func (api *botAPIA) serve(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, api.prefix+"/bot")
	token, method, _ := strings.Cut(rest, "/")
	if !ok || token != botTokenA {
		writeJSON(w, 401, map[string]any{"ok": false, "error_code": 401, "description": "Unauthorized"})
		return
	}
	if method != "sendMessage" || r.Method != http.MethodPost {
		writeJSON(w, 404, map[string]any{"ok": false, "error_code": 404, "description": "Not Found"})
		return
	}
	var payload map[string]any
	if err := json.NewDecoder(r.Body).Decode(&payload); err != nil || r.Header.Get("Content-Type") != "application/json" {
		writeJSON(w, 400, map[string]any{"ok": false, "error_code": 400, "description": "Bad Request: body is not JSON"})
		return
	}
	api.mu.Lock()
	refuse := api.refuse
	if refuse == nil {
		api.sent = append(api.sent, payload)
	}
	n := len(api.sent)
	api.mu.Unlock()
	if refuse != nil {
		refuse(w)
		return
	}
	chatID, _ := strconv.ParseInt(fmt.Sprint(payload["chat_id"]), 10, 64)
	writeJSON(w, 200, map[string]any{"ok": true, "result": map[string]any{
		"message_id": 100 + n, "chat": map[string]any{"id": chatID}, "text": payload["text"],
	}})
}

func (api *botAPIA) refuseWith(f func(w http.ResponseWriter)) {
	api.mu.Lock()
	defer api.mu.Unlock()
	api.refuse = f
}

func (api *botAPIA) messages() []map[string]any {
	api.mu.Lock()
	defer api.mu.Unlock()
	return append([]map[string]any(nil), api.sent...)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func runMessengerA(t *testing.T, action MessengerASendMessage, deps *projectDependencies, config map[string]any) (Result, error) {
	t.Helper()
	action.ActionDependencies = deps
	if action.Client == nil {
		action.Client = loopbackClient(t, 5*time.Second)
	}
	return action.Run(context.Background(), deps.request(ActionMessengerASendMessage, config))
}

func TestMessengerASendMessageSendsThroughTheBotAPI(t *testing.T) {
	api := startBotAPIA(t, "/gateway")
	deps := newProjectDependencies()
	bot := deps.add(integration.TypeMessengerABot, map[string]any{"api_base_url": api.URL + "/gateway/"}, map[string]any{"bot_token": botTokenA})
	res, err := runMessengerA(t, MessengerASendMessage{}, deps, map[string]any{
		"action_dependency_id": bot, "chat_id": -1001234567890.0, "text": "  Hello, *world*  ", "parse_mode": "MarkdownV2",
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	sent := api.messages()
	want := map[string]any{"chat_id": "-1001234567890", "text": "  Hello, *world*  ", "parse_mode": "MarkdownV2"}
	if len(sent) != 1 || fmt.Sprint(sent[0]) != fmt.Sprint(want) {
		t.Fatalf("the API got %v, want %v", sent, want)
	}
	if res.Output["message_id"] != int64(101) || res.Output["chat_id"] != "-1001234567890" {
		t.Errorf("output = %v, want message_id 101 and the chat id", res.Output)
	}
	if body, _ := res.ProviderResponse["body"].(map[string]any); body["ok"] != true {
		t.Errorf("provider response = %v, want the API's answer", res.ProviderResponse)
	}
}

func TestMessengerASendMessageFindsTheAPIAddress(t *testing.T) {
	api := startBotAPIA(t, "")
	deps := newProjectDependencies()
	withoutBase := deps.add(integration.TypeMessengerABot, nil, map[string]any{"bot_token": botTokenA})
	t.Run("an integration without api_base_url uses the server's default", func(t *testing.T) {
		_, err := runMessengerA(t, MessengerASendMessage{DefaultBaseURL: api.URL}, deps, map[string]any{"action_dependency_id": withoutBase, "chat_id": "42", "text": "hi"})
		if err != nil || len(api.messages()) != 1 {
			t.Fatalf("Run = %v; the API got %d messages", err, len(api.messages()))
		}
	})
	t.Run("without either address the failure names api_base_url", func(t *testing.T) {
		_, err := runMessengerA(t, MessengerASendMessage{}, deps, map[string]any{"action_dependency_id": withoutBase, "chat_id": "42", "text": "hi"})
		f := requireFailure(t, err, ClassValidation, "api_base_url_missing")
		if !strings.Contains(f.HumanReason+f.NextAction, "api_base_url") {
			t.Errorf("failure does not name api_base_url: %+v", f)
		}
	})
}

func TestMessengerASendMessageClassifiesFailures(t *testing.T) {
	api := startBotAPIA(t, "")
	hanging := startHangingServer(t)
	deps := newProjectDependencies()
	bot := deps.add(integration.TypeMessengerABot, map[string]any{"api_base_url": api.URL}, map[string]any{"bot_token": botTokenA})
	wrongToken := deps.add(integration.TypeMessengerABot, map[string]any{"api_base_url": api.URL}, map[string]any{"bot_token": "999:other-" + botTokenA})
	silent := deps.add(integration.TypeMessengerABot, map[string]any{"api_base_url": hanging.URL}, map[string]any{"bot_token": botTokenA})
	unreachable := deps.add(integration.TypeMessengerABot, map[string]any{"api_base_url": "http://" + closedPort(t)}, map[string]any{"bot_token": botTokenA})

	apiError := func(status int, description string, extra ...any) func(w http.ResponseWriter) {
		body := map[string]any{"ok": false, "error_code": status, "description": description}
		for i := 0; i+1 < len(extra); i += 2 {
			body[extra[i].(string)] = extra[i+1]
		}
		return func(w http.ResponseWriter) { writeJSON(w, status, body) }
	}
	tests := []struct {
		name        string
		bot         string
		refuse      func(w http.ResponseWriter)
		client      *http.Client
		class, code string
		says        string
	}{
		{name: "a token the API does not know is an auth failure", bot: wrongToken, class: ClassAuth, code: "bot_token_rejected", says: "Unauthorized"},
		{name: "a bot blocked by the user is an auth failure", bot: bot, refuse: apiError(403, "Forbidden: bot was blocked by the user"), class: ClassAuth, code: "bot_token_rejected"},
		{name: "an unknown chat is a validation failure", bot: bot, refuse: apiError(400, "Bad Request: chat not found"), class: ClassValidation, code: "request_rejected", says: "chat not found"},
		{name: "too many requests is rate limited with the API's wait", bot: bot, refuse: apiError(429, "Too Many Requests: retry after 7", "parameters", map[string]any{"retry_after": 7}), class: ClassRateLimited, code: "rate_limited", says: "7s"},
		{name: "an API error that quotes the token does not leak it", bot: bot, refuse: func(w http.ResponseWriter) {
			writeJSON(w, 400, map[string]any{"ok": false, "error_code": 400, "description": "Bad Request: no bot " + botTokenA, "echo": []any{botTokenA}})
		}, class: ClassValidation, code: "request_rejected", says: "no bot [token]"},
		{name: "an internal error of the API is transient", bot: bot, refuse: apiError(500, "Internal Server Error"), class: ClassTransient, code: "provider_unavailable"},
		{name: "a gateway error page is transient", bot: bot, refuse: func(w http.ResponseWriter) { w.WriteHeader(502); fmt.Fprint(w, "<html>Bad Gateway</html>") }, class: ClassTransient, code: "provider_unavailable"},
		{name: "a success that cannot be read is an unknown outcome", bot: bot, refuse: func(w http.ResponseWriter) { fmt.Fprint(w, "ok!") }, class: ClassUnknownOutcome, code: "unreadable_answer"},
		{name: "no answer after sending is an unknown outcome", bot: silent, client: loopbackClient(t, 200*time.Millisecond), class: ClassUnknownOutcome, code: "no_answer"},
		{name: "an API that cannot be reached is transient", bot: unreachable, class: ClassTransient, code: "connection_failed"},
		{name: "an API address the egress policy forbids is a validation failure", bot: bot, client: egress.NewClient(egress.Policy{}, 0), class: ClassValidation, code: "egress_refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api.refuseWith(tt.refuse)
			_, err := runMessengerA(t, MessengerASendMessage{Client: tt.client}, deps, map[string]any{"action_dependency_id": tt.bot, "chat_id": "42", "text": "hi"})
			f := requireFailure(t, err, tt.class, tt.code)
			if f.Provider != "messenger_a" {
				t.Errorf("provider = %q, want messenger_a", f.Provider)
			}
			if tt.says != "" && !strings.Contains(f.HumanReason, tt.says) {
				t.Errorf("human_reason %q does not say %q", f.HumanReason, tt.says)
			}
			requireNoSecret(t, err, botTokenA)
			requireNoSecret(t, err, "AAH-secret")
		})
	}
}

func TestMessengerASendMessageRejectsConfigItCannotUse(t *testing.T) {
	deps := newProjectDependencies()
	bot := deps.add(integration.TypeMessengerABot, map[string]any{"api_base_url": "https://bots.example"}, map[string]any{"bot_token": botTokenA})
	otherType := deps.add(integration.TypeMessengerBBot, nil, map[string]any{"bot_token": botTokenA})
	noToken := deps.add(integration.TypeMessengerABot, map[string]any{"api_base_url": "https://bots.example"}, map[string]any{})
	badBase := deps.add(integration.TypeMessengerABot, map[string]any{"api_base_url": "bots.example"}, map[string]any{"bot_token": botTokenA})
	tests := []struct {
		name, code, field string
		config            map[string]any
	}{
		{"no integration", "dependency_not_found", "action_dependency_id", map[string]any{"chat_id": "1", "text": "hi"}},
		{"an integration that does not exist", "dependency_not_found", "action_dependency_id", map[string]any{"action_dependency_id": "0198a5a0-0000-7000-8000-000000000000", "chat_id": "1", "text": "hi"}},
		{"an integration of the other messenger", "dependency_type_mismatch", "action_dependency_id", map[string]any{"action_dependency_id": otherType, "chat_id": "1", "text": "hi"}},
		{"an integration without token", "invalid_dependency", "action_dependency_id", map[string]any{"action_dependency_id": noToken, "chat_id": "1", "text": "hi"}},
		{"an integration with a relative api_base_url", "invalid_dependency", "action_dependency_id", map[string]any{"action_dependency_id": badBase, "chat_id": "1", "text": "hi"}},
		{"no chat_id", "invalid_config", "chat_id", map[string]any{"action_dependency_id": bot, "text": "hi"}},
		{"a blank text", "invalid_config", "text", map[string]any{"action_dependency_id": bot, "chat_id": "1", "text": " \n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is a validation failure naming "+tt.field, func(t *testing.T) {
			_, err := runMessengerA(t, MessengerASendMessage{}, deps, tt.config)
			f := requireFailure(t, err, ClassValidation, tt.code)
			if !strings.Contains(f.HumanReason+f.NextAction, tt.field) {
				t.Errorf("the failure does not name %s: %q / %q", tt.field, f.HumanReason, f.NextAction)
			}
			requireNoSecret(t, err, botTokenA)
		})
	}
}
