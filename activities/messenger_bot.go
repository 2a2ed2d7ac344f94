package activities

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"agencyhub/activities/egress"
	"agencyhub/activities/messenger"
	"agencyhub/models/integration"
)

// What messenger_a.send_message and messenger_b.send_message share: reading the config and
// the bot integration, and classifying the bot API's failures.

// prepareBotMessage does what both send actions do before they send, in this order: it
// reads chat_id and text, has message turn them into the provider's message (reading the
// action's own fields as well), loads the bot integration of typeKey that
// action_dependency_id names, and makes a client for it with newClient through hc.
func prepareBotMessage[C, M any](ctx context.Context, req Request, deps ActionDependencies, hc *http.Client,
	typeKey, provider, defaultBaseURL string,
	newClient func(hc *http.Client, baseURL, token string) (C, error),
	message func(chatID, text string) (M, error),
) (client C, m M, err error) {
	chatID, err := requiredString(req.Config, "chat_id")
	if err != nil {
		return client, m, err
	}
	text, err := requiredText(req.Config, "text")
	if err != nil {
		return client, m, err
	}
	if m, err = message(chatID, text); err != nil {
		return client, m, err
	}
	const field = "action_dependency_id"
	dep, err := loadDependency(ctx, deps, req, field, typeKey, true)
	if err != nil {
		return client, m, err
	}
	bot, err := readBot(dep, field, provider, defaultBaseURL)
	if err != nil {
		return client, m, err
	}
	if client, err = newClient(hc, bot.baseURL, bot.token); err != nil {
		return client, m, invalidBot(typeKey, field, err)
	}
	return client, m, nil
}

// botIntegration is a messenger bot integration ready for a client: API base URL and token.
type botIntegration struct {
	baseURL, token string
}

// readBot reads a bot integration: auth {bot_token}, metadata {api_base_url} falling back to
// the server's default for the provider.
func readBot(dep *integration.Unsealed, field, provider, defaultBaseURL string) (botIntegration, error) {
	token, _ := optionalString(dep.Auth, "bot_token")
	if token == "" {
		return botIntegration{}, integrationFailed("invalid_dependency", "bot_token_missing", dep.TypeKey, field, nil)
	}
	base, _ := optionalString(dep.Metadata, "api_base_url")
	if base == "" {
		base = defaultBaseURL
	}
	if base == "" {
		return botIntegration{}, integrationFailed("api_base_url_missing", "bot_base_url_missing", dep.TypeKey, field, Args{"provider": provider})
	}
	return botIntegration{baseURL: base, token: token}, nil
}

// invalidBot is the failure of a bot integration a client refused; the client's error
// never holds the token.
func invalidBot(typeKey, field string, err error) *Failure {
	return integrationFailed("invalid_dependency", "bot_unusable", typeKey, field, Args{"error": err.Error()})
}

// messengerFailure classifies a failed send; one the run's cancellation cut off fails with
// the context's error. Sends are not idempotent, so whatever may have delivered the message
// is not retried automatically:
//
//	target refused by the egress policy           validation
//	not sent (DNS, connection refused, timeout)   transient
//	sent, no answer (timeout, reset)              unknown_outcome
//	success status but an unreadable answer       unknown_outcome
//	401, 403                                      auth
//	400                                           validation (chat, text or parse_mode)
//	429                                           rate_limited, with the API's retry_after
//	5xx                                           transient
//	any other status                              permanent
func messengerFailure(ctx context.Context, err error) error {
	if ctx.Err() == context.Canceled {
		return ctx.Err()
	}
	var me *messenger.Error
	if !errors.As(err, &me) {
		return err
	}
	f := classifyMessengerError(me)
	f.Provider = me.Provider
	if me.Answered() {
		f.ProviderResponse = map[string]any{"status_code": me.StatusCode, "body": me.Response}
	}
	return f
}

func classifyMessengerError(me *messenger.Error) *Failure {
	said := "messenger_status"
	args := Args{"provider": me.Provider, "status": strconv.Itoa(me.StatusCode), "status_text": http.StatusText(me.StatusCode)}
	if me.Description != "" {
		said, args["description"] = "messenger_status_said", me.Description
	}
	var refused *egress.RefusedError
	switch {
	case errors.As(me, &refused):
		return Failed(ClassValidation, "egress_refused", "messenger_egress_refused", "",
			Args{"provider": me.Provider, "egress_reason": refused.Reason})
	case !me.Answered() && !me.Sent:
		return Failed(ClassTransient, "connection_failed", "messenger_unreachable", "retried.next",
			Args{"provider": me.Provider, "error": networkReason(me)})
	case !me.Answered():
		return Failed(ClassUnknownOutcome, "no_answer", "messenger_no_answer", "", Args{"provider": me.Provider, "error": networkReason(me)})
	case me.StatusCode < 400:
		return Failed(ClassUnknownOutcome, "unreadable_answer", "messenger_unreadable", "",
			Args{"provider": me.Provider, "error": me.Description})
	case me.StatusCode == http.StatusUnauthorized || me.StatusCode == http.StatusForbidden:
		return Failed(ClassAuth, "bot_token_rejected", said, "messenger_token.next", args)
	case me.StatusCode == http.StatusBadRequest:
		return Failed(ClassValidation, "request_rejected", said, "messenger_request.next", args)
	case me.StatusCode == http.StatusTooManyRequests:
		if me.RetryAfter > 0 {
			args["wait"] = me.RetryAfter.String()
			return Failed(ClassRateLimited, "rate_limited", said+"_wait", "retried_after.next", args)
		}
		return Failed(ClassRateLimited, "rate_limited", said, "retried.next", args)
	case me.StatusCode >= 500:
		return Failed(ClassTransient, "provider_unavailable", said, "retried.next", args)
	}
	return Failed(ClassPermanent, "request_rejected", said, "messenger_settings.next", args)
}

// networkReason is why a call got no answer, in a few words.
func networkReason(me *messenger.Error) string {
	if cause := me.Unwrap(); cause != nil {
		return egress.Reason(cause)
	}
	return "no answer"
}
