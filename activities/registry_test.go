package activities

import (
	"context"
	"slices"
	"testing"
	"time"

	"agencyhub/models/integration"
)

func TestRegistryHoldsTheActivityActionTypes(t *testing.T) {
	reg := Registry(Deps{ActionDependencies: newProjectDependencies()})
	var keys []string
	for key := range reg {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	want := []string{"db.query", "email.send", "http.request", "messenger_a.send_message", "messenger_b.send_message"}
	if !slices.Equal(keys, want) {
		t.Fatalf("Registry keys = %v, want %v", keys, want)
	}
}

func TestRegistryBuildsTheEgressClientFromThePolicy(t *testing.T) {
	e := startEndpoint(t, answerWith(200, "ok"))
	deps := newProjectDependencies()
	req := deps.request(ActionHTTPRequest, map[string]any{"url": e.URL})

	_, err := Registry(Deps{ActionDependencies: deps})[ActionHTTPRequest](context.Background(), req)
	requireFailure(t, err, ClassValidation, "egress_refused")

	reg := Registry(Deps{ActionDependencies: deps, EgressPolicy: loopbackPolicy(t)})
	if res, err := reg[ActionHTTPRequest](context.Background(), req); err != nil || res.Output["body"] != "ok" {
		t.Fatalf("with loopback allow-listed: %v, %v", res.Output, err)
	}
}

func TestRegistryPassesTheDefaultBotAddresses(t *testing.T) {
	apiA, apiB := startBotAPIA(t, ""), startBotAPIB(t)
	deps := newProjectDependencies()
	reg := Registry(Deps{ActionDependencies: deps, Egress: loopbackClient(t, 5*time.Second), MessengerABaseURL: apiA.URL, MessengerBBaseURL: apiB.URL})
	botA := deps.add(integration.TypeMessengerABot, nil, map[string]any{"bot_token": botTokenA})
	botB := deps.add(integration.TypeMessengerBBot, nil, map[string]any{"bot_token": botTokenB})
	if _, err := reg[ActionMessengerASendMessage](context.Background(), deps.request(ActionMessengerASendMessage, map[string]any{"action_dependency_id": botA, "chat_id": "1", "text": "a"})); err != nil {
		t.Fatalf("messenger_a: %v", err)
	}
	if _, err := reg[ActionMessengerBSendMessage](context.Background(), deps.request(ActionMessengerBSendMessage, map[string]any{"action_dependency_id": botB, "chat_id": "1", "text": "b"})); err != nil {
		t.Fatalf("messenger_b: %v", err)
	}
	if len(apiA.messages()) != 1 || len(apiB.messages()) != 1 {
		t.Fatalf("messages: a %d, b %d; want 1 each", len(apiA.messages()), len(apiB.messages()))
	}
}
