package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"agencyhub/activities/egress"
	"agencyhub/models/integration"
)

// botTokenB is the token of the messenger_b test bot; no failure may repeat it.
const botTokenB = "mb-secret-token-B-0001"

// botAPIB is a local server speaking messenger_b's REST API for the bot botTokenB.
type botAPIB struct {
	*httptest.Server

	mu     sync.Mutex
	sent   []map[string]any
	refuse func(w http.ResponseWriter)
}

func startBotAPIB(t *testing.T) *botAPIB {
	t.Helper()
	api := &botAPIB{}
	api.Server = httptest.NewServer(http.HandlerFunc(api.serve))
	t.Cleanup(api.Close)
	return api
}

func apiErrorB(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"code": code, "message": message}})
}

func (api *botAPIB) serve(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+botTokenB {
		apiErrorB(w, 401, "unauthorized", "invalid bot token")
		return
	}
	if r.URL.Path != "/v1/messages" || r.Method != http.MethodPost {
		apiErrorB(w, 404, "not_found", "no such method")
		return
	}
	var payload map[string]any
	if err := json.NewDecoder(r.Body).Decode(&payload); err != nil {
		apiErrorB(w, 400, "bad_request", "body is not JSON")
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
	writeJSON(w, 200, map[string]any{"message_id": fmt.Sprintf("msg-%d", n)})
}

func (api *botAPIB) refuseWith(f func(w http.ResponseWriter)) {
	api.mu.Lock()
	defer api.mu.Unlock()
	api.refuse = f
}

func (api *botAPIB) messages() []map[string]any {
	api.mu.Lock()
	defer api.mu.Unlock()
	return append([]map[string]any(nil), api.sent...)
}

func runMessengerB(t *testing.T, action MessengerBSendMessage, deps *projectDependencies, config map[string]any) (Result, error) {
	t.Helper()
	action.ActionDependencies = deps
	if action.Client == nil {
		action.Client = loopbackClient(t, 5*time.Second)
	}
	return action.Run(context.Background(), deps.request(ActionMessengerBSendMessage, config))
}

func TestMessengerBSendMessageSendsThroughTheBotAPI(t *testing.T) {
	api := startBotAPIB(t)
	deps := newProjectDependencies()
	bot := deps.add(integration.TypeMessengerBBot, nil, map[string]any{"bot_token": botTokenB})
	res, err := runMessengerB(t, MessengerBSendMessage{DefaultBaseURL: api.URL}, deps, map[string]any{
		"action_dependency_id": bot, "chat_id": "chat-7", "text": "Invoice is ready",
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if sent := api.messages(); len(sent) != 1 || sent[0]["chat_id"] != "chat-7" || sent[0]["text"] != "Invoice is ready" {
		t.Fatalf("the API got %v", sent)
	}
	if res.Output["message_id"] != "msg-1" || res.Output["chat_id"] != "chat-7" {
		t.Errorf("output = %v, want message_id msg-1 and chat_id chat-7", res.Output)
	}
	if body, _ := res.ProviderResponse["body"].(map[string]any); body["message_id"] != "msg-1" {
		t.Errorf("provider response = %v, want the API's answer", res.ProviderResponse)
	}
}

func TestMessengerBSendMessageClassifiesFailures(t *testing.T) {
	api := startBotAPIB(t)
	hanging := startHangingServer(t)
	deps := newProjectDependencies()
	bot := deps.add(integration.TypeMessengerBBot, map[string]any{"api_base_url": api.URL}, map[string]any{"bot_token": botTokenB})
	wrongToken := deps.add(integration.TypeMessengerBBot, map[string]any{"api_base_url": api.URL}, map[string]any{"bot_token": "x-" + botTokenB})
	silent := deps.add(integration.TypeMessengerBBot, map[string]any{"api_base_url": hanging.URL}, map[string]any{"bot_token": botTokenB})
	unreachable := deps.add(integration.TypeMessengerBBot, map[string]any{"api_base_url": "http://" + closedPort(t)}, map[string]any{"bot_token": botTokenB})

	tests := []struct {
		name        string
		bot         string
		refuse      func(w http.ResponseWriter)
		client      *http.Client
		class, code string
		says        string
	}{
		{name: "a token the API does not know is an auth failure", bot: wrongToken, class: ClassAuth, code: "bot_token_rejected", says: "invalid bot token"},
		{name: "a chat the bot may not write to is an auth failure", bot: bot, refuse: func(w http.ResponseWriter) { apiErrorB(w, 403, "forbidden", "bot is not a member") }, class: ClassAuth, code: "bot_token_rejected"},
		{name: "a malformed message is a validation failure", bot: bot, refuse: func(w http.ResponseWriter) { apiErrorB(w, 400, "invalid_chat", "chat_id unknown") }, class: ClassValidation, code: "request_rejected", says: "chat_id unknown"},
		{name: "too many requests is rate limited with Retry-After", bot: bot, refuse: func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "12")
			apiErrorB(w, 429, "rate_limited", "slow down")
		}, class: ClassRateLimited, code: "rate_limited", says: "12s"},
		{name: "an unavailable API is transient", bot: bot, refuse: func(w http.ResponseWriter) { apiErrorB(w, 503, "unavailable", "maintenance") }, class: ClassTransient, code: "provider_unavailable"},
		{name: "a success without message_id is an unknown outcome", bot: bot, refuse: func(w http.ResponseWriter) { writeJSON(w, 200, map[string]any{}) }, class: ClassUnknownOutcome, code: "unreadable_answer"},
		{name: "no answer after sending is an unknown outcome", bot: silent, client: loopbackClient(t, 200*time.Millisecond), class: ClassUnknownOutcome, code: "no_answer"},
		{name: "an API that cannot be reached is transient", bot: unreachable, class: ClassTransient, code: "connection_failed"},
		{name: "an API address the egress policy forbids is a validation failure", bot: bot, client: egress.NewClient(egress.Policy{}, 0), class: ClassValidation, code: "egress_refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api.refuseWith(tt.refuse)
			_, err := runMessengerB(t, MessengerBSendMessage{Client: tt.client}, deps, map[string]any{"action_dependency_id": tt.bot, "chat_id": "chat-7", "text": "hi"})
			f := requireFailure(t, err, tt.class, tt.code)
			if f.Provider != "messenger_b" {
				t.Errorf("provider = %q, want messenger_b", f.Provider)
			}
			if tt.says != "" && !strings.Contains(f.HumanReason, tt.says) {
				t.Errorf("human_reason %q does not say %q", f.HumanReason, tt.says)
			}
			requireNoSecret(t, err, botTokenB)
		})
	}
}

func TestMessengerBSendMessageNeedsAMessengerBIntegration(t *testing.T) {
	deps := newProjectDependencies()
	otherType := deps.add(integration.TypeMessengerABot, nil, map[string]any{"bot_token": botTokenB})
	_, err := runMessengerB(t, MessengerBSendMessage{DefaultBaseURL: "https://bots.example"}, deps, map[string]any{"action_dependency_id": otherType, "chat_id": "c", "text": "hi"})
	f := requireFailure(t, err, ClassValidation, "dependency_type_mismatch")
	if !strings.Contains(f.HumanReason, "action_dependency_id") {
		t.Errorf("the failure does not name action_dependency_id: %q", f.HumanReason)
	}
}
