package activities

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"agencyhub/activities/messenger"
	"agencyhub/models"
	"agencyhub/models/integration"
	"agencyhub/models/relay"
)

// ProxyMethods are the bot API methods the proxy forwards: replying in chats and describing
// the bot. Left out on purpose: getUpdates and the webhook methods (they would take updates
// away from the relay), getFile (its answer leads to a download address that contains the
// token), logOut and close, and everything that administers chats or the bot's profile.
var ProxyMethods = []string{
	"getMe", "getChat", "sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage",
	"answerCallbackQuery", "sendChatAction",
}

// BotAPI calls the bot API of messenger relays' integrations: the relay poller's
// getUpdates and the calls the bot API proxy forwards, with the integration's token, which
// callers never see.
type BotAPI struct {
	ActionDependencies ActionDependencies
	// Client is the egress HTTP client.
	Client *http.Client
	// MessengerABaseURL is the bot API address of integrations that set no api_base_url.
	MessengerABaseURL string
}

// BotClient builds the bot API client of a relay's integration: its token, and its
// api_base_url or else the server's default, through the egress client. Errors: not_found
// (the integration is gone or disabled), conflict (no token or no API address).
func (b *BotAPI) BotClient(ctx context.Context, r *relay.Relay) (*messenger.ClientA, error) {
	dep, err := b.ActionDependencies.Unseal(ctx, r.CompanyID, r.ProjectID, r.ActionDependencyID)
	if errors.Is(err, integration.ErrActionDependencyNotFound) {
		return nil, models.NotFound("relay_not_found")
	}
	if err != nil {
		return nil, err
	}
	token, _ := dep.Auth["bot_token"].(string)
	base, _ := dep.Metadata["api_base_url"].(string)
	if base == "" {
		base = b.MessengerABaseURL
	}
	client, err := messenger.NewClientA(b.Client, base, token)
	if err != nil {
		// The client's error names what is wrong and never repeats the token.
		return nil, &models.Error{Kind: models.KindConflict, Key: "bot_api_not_configured", Err: err}
	}
	return client, nil
}

// CallBotAPI forwards one call of an allowed method to the bot API with the integration's
// token, and answers the API's answer as it came ({"ok": ..., "result" or "error_code",
// "description", "parameters"}), the token masked should the API repeat it. The caller
// never sees the token, not even in errors. Errors: invalid (method), not_found, conflict
// (the integration lacks a token or an API address), unavailable (no usable answer).
func (b *BotAPI) Call(ctx context.Context, r *relay.Relay, method string, params map[string]any) (map[string]any, error) {
	if !slices.Contains(ProxyMethods, method) {
		return nil, models.Invalid("bot_api_method_not_allowed", "method")
	}
	client, err := b.BotClient(ctx, r)
	if err != nil {
		return nil, err
	}
	answer, err := client.Call(ctx, method, params)
	var me *messenger.Error
	switch {
	case err == nil:
		return answer, nil
	case errors.As(err, &me) && me.Response != nil:
		return me.Response, nil
	}
	return nil, models.Unavailable("bot_api_unavailable", fmt.Errorf("relay %s: %w", r.ActionDependencyID, err))
}
