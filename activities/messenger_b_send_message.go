package activities

import (
	"context"
	"net/http"

	"agencyhub/activities/messenger"
)

// MessengerBSendMessage is the messenger_b.send_message action: it sends a text message
// through the messenger_b.bot integration named by action_dependency_id.
//
// Config: action_dependency_id; chat_id; text. Output: message_id (text), chat_id. Failures
// are classified as messengerFailure describes.
type MessengerBSendMessage struct {
	Dependencies Dependencies
	// Client is the egress client (egress.NewClient); nil means one with the zero Policy.
	Client *http.Client
	// DefaultBaseURL is the API address for integrations without api_base_url.
	DefaultBaseURL string
}

// Run sends one message.
func (a MessengerBSendMessage) Run(ctx context.Context, req Request) (Result, error) {
	chatID, err := requiredString(req.Config, "chat_id")
	if err != nil {
		return Result{}, err
	}
	text, err := requiredText(req.Config, "text")
	if err != nil {
		return Result{}, err
	}
	const field = "action_dependency_id"
	dep, err := loadDependency(ctx, a.Dependencies, req, field, DependencyMessengerB, true)
	if err != nil {
		return Result{}, err
	}
	bot, err := readBot(dep, field, messenger.ProviderB, a.DefaultBaseURL)
	if err != nil {
		return Result{}, err
	}
	client, err := messenger.NewClientB(a.Client, bot.baseURL, bot.token)
	if err != nil {
		return Result{}, invalidBot(field, err)
	}

	sent, err := client.SendMessage(ctx, messenger.MessageB{ChatID: chatID, Text: text})
	if err != nil {
		if ctx.Err() == context.Canceled {
			return Result{}, ctx.Err()
		}
		return Result{}, messengerFailure(err)
	}
	return Result{
		Output:           map[string]any{"message_id": sent.MessageID, "chat_id": chatID},
		ProviderResponse: map[string]any{"body": sent.Response},
	}, nil
}
