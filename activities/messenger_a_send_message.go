package activities

import (
	"context"
	"net/http"

	"agencyhub/activities/messenger"
)

// MessengerASendMessage is the messenger_a.send_message action: it sends a text message
// through the messenger_a.bot integration named by action_dependency_id.
//
// Config: action_dependency_id; chat_id (numeric id or @channel name); text; parse_mode
// (optional, passed to the API as it is). Output: message_id (number), chat_id (as the API
// reports it, as text). Failures are classified as messengerFailure describes.
type MessengerASendMessage struct {
	Dependencies Dependencies
	// Client is the egress client (egress.NewClient); nil means one with the zero Policy.
	Client *http.Client
	// DefaultBaseURL is the API address for integrations without api_base_url.
	DefaultBaseURL string
}

// Run sends one message.
func (a MessengerASendMessage) Run(ctx context.Context, req Request) (Result, error) {
	chatID, err := requiredString(req.Config, "chat_id")
	if err != nil {
		return Result{}, err
	}
	text, err := requiredText(req.Config, "text")
	if err != nil {
		return Result{}, err
	}
	parseMode, err := optionalString(req.Config, "parse_mode")
	if err != nil {
		return Result{}, err
	}
	const field = "action_dependency_id"
	dep, err := loadDependency(ctx, a.Dependencies, req, field, DependencyMessengerA, true)
	if err != nil {
		return Result{}, err
	}
	bot, err := readBot(dep, field, messenger.ProviderA, a.DefaultBaseURL)
	if err != nil {
		return Result{}, err
	}
	client, err := messenger.NewClientA(a.Client, bot.baseURL, bot.token)
	if err != nil {
		return Result{}, invalidBot(field, err)
	}

	sent, err := client.SendMessage(ctx, messenger.MessageA{ChatID: chatID, Text: text, ParseMode: parseMode})
	if err != nil {
		if ctx.Err() == context.Canceled {
			return Result{}, ctx.Err()
		}
		return Result{}, messengerFailure(err)
	}
	return Result{
		Output:           map[string]any{"message_id": sent.MessageID, "chat_id": sent.ChatID},
		ProviderResponse: map[string]any{"body": sent.Response},
	}, nil
}
