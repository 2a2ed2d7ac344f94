package activities

import (
	"context"
	"net/http"

	"agencyhub/activities/messenger"
	"agencyhub/models/integration"
)

// MessengerBSendMessage is the messenger_b.send_message action: it sends a text message
// through the messenger_b.bot integration named by action_dependency_id.
//
// Config: action_dependency_id; chat_id; text. Output: message_id (text), chat_id. Failures
// are classified as messengerFailure describes.
type MessengerBSendMessage struct {
	ActionDependencies ActionDependencies
	// Client is the egress client (egress.NewClient); nil means one with the zero Policy.
	Client *http.Client
	// DefaultBaseURL is the API address for integrations without api_base_url.
	DefaultBaseURL string
}

// Run sends one message.
func (a MessengerBSendMessage) Run(ctx context.Context, req Request) (Result, error) {
	client, msg, err := prepareBotMessage(
		ctx,
		req,
		a.ActionDependencies,
		a.Client,
		integration.TypeMessengerBBot,
		messenger.ProviderB,
		a.DefaultBaseURL,
		messenger.NewClientB,
		func(chatID, text string) (messenger.MessageB, error) {
			return messenger.MessageB{ChatID: chatID, Text: text}, nil
		},
	)
	if err != nil {
		return Result{}, err
	}
	sent, err := client.SendMessage(ctx, msg)
	if err != nil {
		return Result{}, messengerFailure(ctx, err)
	}
	return Result{
		Output:           map[string]any{"message_id": sent.MessageID, "chat_id": msg.ChatID},
		ProviderResponse: map[string]any{"body": sent.Response},
	}, nil
}
