package activities

import (
	"context"
	"errors"
	"fmt"
	"net/http"

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
		return botIntegration{}, Fail(ClassValidation, "invalid_dependency",
			fmt.Sprintf("No bot token is set in %s.", integrationIn(dep.TypeKey, field)),
			"Enter the bot token in the integration")
	}
	base, _ := optionalString(dep.Metadata, "api_base_url")
	if base == "" {
		base = defaultBaseURL
	}
	if base == "" {
		return botIntegration{}, Fail(
			ClassValidation,
			"api_base_url_missing",
			fmt.Sprintf(
				"No %s API address is known: %s has no api_base_url and the server has no default.",
				provider,
				integrationIn(dep.TypeKey, field),
			),
			"Set api_base_url on the integration, or ask the operator to configure the default",
		)
	}
	return botIntegration{baseURL: base, token: token}, nil
}

// invalidBot is the failure of a bot integration a client refused; the client's error
// never holds the token.
func invalidBot(typeKey, field string, err error) *Failure {
	return Fail(ClassValidation, "invalid_dependency",
		fmt.Sprintf("Cannot use %s: %v.", integrationIn(typeKey, field), err),
		"Fix the integration's api_base_url or bot token")
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
	said := fmt.Sprintf("%s answered %d %s", me.Provider, me.StatusCode, http.StatusText(me.StatusCode))
	if me.Description != "" {
		said += ": " + me.Description
	}
	said += "."
	var refused *egress.RefusedError
	switch {
	case errors.As(me, &refused):
		return Fail(ClassValidation, "egress_refused",
			fmt.Sprintf("The %s API address may not be called: %s.", me.Provider, refused.Reason),
			"Use a public api_base_url, or ask the operator to allow-list it in APP_EGRESS_ALLOW")
	case !me.Answered() && !me.Sent:
		return Fail(ClassTransient, "connection_failed",
			fmt.Sprintf("Could not reach the %s API, nothing was sent: %s.", me.Provider, networkReason(me)),
			"The action is retried automatically")
	case !me.Answered():
		return Fail(
			ClassUnknownOutcome,
			"no_answer",
			fmt.Sprintf(
				"The message was sent to the %s API but no answer arrived: %s. It may or may not have been delivered.",
				me.Provider,
				networkReason(me),
			),
			"Check the chat, then retry the action by hand if the message is missing",
		)
	case me.StatusCode < 400:
		return Fail(
			ClassUnknownOutcome,
			"unreadable_answer",
			fmt.Sprintf(
				"The %s API accepted the call but its answer could not be read (%s). The message was probably delivered.",
				me.Provider,
				me.Description,
			),
			"Check the chat before retrying the action by hand",
		)
	case me.StatusCode == http.StatusUnauthorized || me.StatusCode == http.StatusForbidden:
		return Fail(ClassAuth, "bot_token_rejected", said,
			"Check the bot token in the integration and that the bot may write to this chat")
	case me.StatusCode == http.StatusBadRequest:
		return Fail(ClassValidation, "request_rejected", said,
			"Check chat_id, text and parse_mode")
	case me.StatusCode == http.StatusTooManyRequests:
		next := "The action is retried automatically"
		if me.RetryAfter > 0 {
			said += fmt.Sprintf(" It asked to wait %s before retrying.", me.RetryAfter)
			next = fmt.Sprintf("Wait %s; the action is retried automatically", me.RetryAfter)
		}
		return Fail(ClassRateLimited, "rate_limited", said, next)
	case me.StatusCode >= 500:
		return Fail(ClassTransient, "provider_unavailable", said, "The action is retried automatically")
	}
	return Fail(ClassPermanent, "request_rejected", said, "Check the action's settings and the integration")
}

// networkReason is why a call got no answer, in a few words.
func networkReason(me *messenger.Error) string {
	if cause := me.Unwrap(); cause != nil {
		return egress.Reason(cause)
	}
	return "no answer"
}
