package activities

import (
	"context"
	"net/http"

	"agencyhub/activities/messenger"
	"agencyhub/models/integration"
)

// MessengerASendMessage is the messenger_a.send_message action: it sends a text message
// through the messenger_a.bot integration named by action_dependency_id.
//
// Config: action_dependency_id; chat_id (numeric id or @channel name); text; parse_mode
// (optional, passed to the API as it is). Output: message_id (number), chat_id (as the API
// reports it, as text). Failures are classified as messengerFailure describes.
type MessengerASendMessage struct {
	ActionDependencies ActionDependencies
	// Client is the egress client (egress.NewClient); nil means one with the zero Policy.
	Client *http.Client
	// DefaultBaseURL is the API address for integrations without api_base_url.
	DefaultBaseURL string
}

// Run sends one message.
func (a MessengerASendMessage) Run(ctx context.Context, req Request) (Result, error) {
	client, msg, err := prepareBotMessage(
		ctx,
		req,
		a.ActionDependencies,
		a.Client,
		integration.TypeMessengerABot,
		messenger.ProviderA,
		a.DefaultBaseURL,
		messenger.NewClientA,
		func(chatID, text string) (messenger.MessageA, error) {
			parseMode, err := optionalString(req.Config, "parse_mode")
			return messenger.MessageA{ChatID: chatID, Text: text, ParseMode: parseMode}, err
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
		Output:           map[string]any{"message_id": sent.MessageID, "chat_id": sent.ChatID},
		ProviderResponse: map[string]any{"body": sent.Response},
	}, nil
}
