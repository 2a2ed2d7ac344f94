package activities

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"agencyhub/activities/egress"
	"agencyhub/activities/llm"
	"agencyhub/activities/mailer"
	"agencyhub/activities/messenger"
	"agencyhub/models/integration"
)

// testTimeout bounds one connection test, connecting included.
const testTimeout = 20 * time.Second

// ProviderCheck is the connection test of action dependencies: one real call to the
// provider with the dependency's credential, made exactly as an action would make it (the
// same bot API clients, SMTP sender and egress policy), its outcome stored on the dependency.
type ProviderCheck struct {
	Store *integration.Service
	// Client is the egress HTTP client bot API calls go through.
	Client *http.Client
	// Policy is APP_EGRESS_ALLOW parsed, checked against an SMTP server before connecting.
	Policy egress.Policy
	// MessengerABaseURL and MessengerBBaseURL are the bot API addresses of integrations that
	// set no api_base_url; empty means such an integration cannot be tested.
	MessengerABaseURL, MessengerBBaseURL string
}

// Test calls the provider without any effect there: getMe for a messenger_a bot, me for a
// messenger_b bot, an SMTP session up to AUTH then QUIT for a mail server, the model list
// of an AI model provider. Types with
// nothing to call (http.auth and the planned ones) are untestable. A failed call is a
// result, not an error; the result is stored on the dependency (a messenger_a test also
// records the bot's user name in metadata.bot_username) unless the dependency changed while
// the call was under way. It answers the dependency as it now is.
func (p *ProviderCheck) Test(ctx context.Context,
	d *integration.ActionDependency) (*integration.ActionDependency, integration.TestResult, error) {
	dep, err := p.Store.UnsealDependency(d)
	if err != nil {
		return nil, integration.TestResult{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, testTimeout)
	defer cancel()
	var (
		result  integration.TestResult
		learned map[string]any
	)
	switch d.DependencyTypeKey {
	case integration.TypeMessengerABot:
		var username string
		result, username = p.testMessengerA(ctx, dep)
		if username != "" {
			learned = map[string]any{"bot_username": username}
		}
	case integration.TypeMessengerBBot:
		result = p.testMessengerB(ctx, dep)
	case integration.TypeSMTPServer:
		result = p.testSMTP(ctx, dep)
	case integration.TypeAIModelProvider:
		result = p.testModelProvider(ctx, dep)
	default:
		result = integration.TestResult{Status: integration.TestUntestable, ReasonCode: "untestable",
			Message: fmt.Sprintf("A %s integration has no provider to call; it is checked when an action uses it.", d.DependencyTypeKey)}
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return nil, integration.TestResult{}, ctx.Err()
	}
	return p.Store.RecordTest(context.WithoutCancel(ctx), d, result, learned)
}

func passed(format string, args ...any) integration.TestResult {
	return integration.TestResult{Status: integration.TestOK, ReasonCode: "ok", Message: fmt.Sprintf(format, args...)}
}

func failed(class, reason, format string, args ...any) integration.TestResult {
	return integration.TestResult{Status: integration.TestFailed, RetryClass: class, ReasonCode: reason, Message: fmt.Sprintf(format, args...)}
}

// failedAs is the test result of a failure an action would have met: its class and reason,
// and what happened and what to do as one message.
func failedAs(err error) integration.TestResult {
	f := AsFailure(err)
	return integration.TestResult{Status: integration.TestFailed, RetryClass: f.RetryClass, ReasonCode: f.ReasonCode,
		Message: f.HumanReason + " " + f.NextAction + "."}
}

func (p *ProviderCheck) testMessengerA(ctx context.Context, dep *integration.Unsealed) (integration.TestResult, string) {
	bot, err := readBot(dep, "", messenger.ProviderA, p.MessengerABaseURL)
	if err != nil {
		return failedAs(err), ""
	}
	client, err := messenger.NewClientA(p.Client, bot.baseURL, bot.token)
	if err != nil {
		return failedAs(invalidBot(dep.TypeKey, "", err)), ""
	}
	me, err := client.GetMe(ctx)
	if err != nil {
		return botFailure(err), ""
	}
	username, _ := me["username"].(string)
	if len(username) > 64 { // metadata.bot_username's bound; a longer one is not a user name
		username = ""
	}
	if username == "" {
		return passed("The bot token works."), ""
	}
	return passed("The bot token works: signed in as @%s.", username), username
}

func (p *ProviderCheck) testMessengerB(ctx context.Context, dep *integration.Unsealed) integration.TestResult {
	bot, err := readBot(dep, "", messenger.ProviderB, p.MessengerBBaseURL)
	if err != nil {
		return failedAs(err)
	}
	client, err := messenger.NewClientB(p.Client, bot.baseURL, bot.token)
	if err != nil {
		return failedAs(invalidBot(dep.TypeKey, "", err))
	}
	me, err := client.Me(ctx)
	if err != nil {
		return botFailure(err)
	}
	if name, _ := me["name"].(string); name != "" {
		return passed("The bot token works: signed in as %s.", name)
	}
	return passed("The bot token works.")
}

// botFailure classifies a failed bot API call. The test reads and changes nothing, so
// unlike a send no outcome is unknown: a call without an answer can simply be repeated.
func botFailure(err error) integration.TestResult {
	var me *messenger.Error
	if !errors.As(err, &me) {
		return failed(ClassTransient, "connection_failed", "The API could not be called: %s.", egress.Reason(err))
	}
	said := fmt.Sprintf("%s answered %d %s", me.Provider, me.StatusCode, http.StatusText(me.StatusCode))
	if me.Description != "" {
		said += ": " + me.Description
	}
	var refused *egress.RefusedError
	switch {
	case errors.As(me, &refused):
		return failed(
			ClassValidation,
			"egress_refused",
			"The %s API address may not be called: %s. Use a public api_base_url, or ask the operator to allow-list it in APP_EGRESS_ALLOW.",
			me.Provider,
			refused.Reason,
		)
	case !me.Answered():
		reason := "no answer"
		if cause := me.Unwrap(); cause != nil {
			reason = egress.Reason(cause)
		}
		return failed(ClassTransient, "connection_failed", "Could not reach the %s API: %s.", me.Provider, reason)
	case me.StatusCode < 400:
		return failed(ClassPermanent, "unexpected_answer",
			"The address answered, but not as the %s API does (%s). Check api_base_url.", me.Provider, me.Description)
	case me.StatusCode == http.StatusUnauthorized || me.StatusCode == http.StatusForbidden:
		return failed(ClassAuth, "bot_token_rejected", "%s. Check the bot token.", said)
	case me.StatusCode == http.StatusNotFound:
		return failed(ClassPermanent, "api_not_found", "%s. Check api_base_url and the bot token.", said)
	case me.StatusCode == http.StatusTooManyRequests:
		if me.RetryAfter > 0 {
			said += fmt.Sprintf("; it asked to wait %s", me.RetryAfter)
		}
		return failed(ClassRateLimited, "rate_limited", "%s. Test again later.", said)
	case me.StatusCode >= 500:
		return failed(ClassTransient, "provider_unavailable", "%s. Test again later.", said)
	}
	return failed(ClassPermanent, "request_rejected", "%s.", said)
}

func (p *ProviderCheck) testSMTP(ctx context.Context, dep *integration.Unsealed) integration.TestResult {
	cfg, err := smtpConfig(dep, "")
	if err != nil {
		return failedAs(err)
	}
	if err := p.Policy.CheckHost(ctx, cfg.Host); err != nil {
		var refused *egress.RefusedError
		if errors.As(err, &refused) {
			return failed(
				ClassValidation,
				"egress_refused",
				"The mail server %s may not be reached: %s. Use a public mail server, or ask the operator to allow-list it in APP_EGRESS_ALLOW.",
				cfg.Host,
				refused.Reason,
			)
		}
		return failed(ClassTransient, "dns_failed", "The mail server's name %s could not be resolved: %s.", cfg.Host, egress.Reason(err))
	}
	if err := mailer.NewSender(cfg).Check(ctx); err != nil {
		return failedAs(smtpSessionFailure(err, cfg.Host))
	}
	if cfg.Username == "" {
		return passed("The mail server %s:%d accepted a session (no login configured).", cfg.Host, cfg.Port)
	}
	return passed("The mail server %s:%d accepted the login of %s.", cfg.Host, cfg.Port, cfg.Username)
}

// testModelProvider lists the provider's models with the integration's key: the call every
// OpenAI-compatible server answers, and one that proves the address and the key.
func (p *ProviderCheck) testModelProvider(ctx context.Context, dep *integration.Unsealed) integration.TestResult {
	baseURL, _ := dep.Metadata["base_url"].(string)
	key, _ := dep.Auth["api_key"].(string)
	list, err := (&llm.Client{HTTP: p.Client, BaseURL: baseURL, APIKey: key}).Models(ctx)
	var le *llm.Error
	switch {
	case err == nil:
		return passed("The model provider answered with %d model(s).", len(list))
	case !errors.As(err, &le):
		return failed(ClassTransient, "connection_failed", "The model provider could not be called: %s.", egress.Reason(err))
	case le.Refused():
		return failed(
			ClassValidation,
			"egress_refused",
			"The model provider's address may not be called: %s. Use a public base_url, or ask the operator to allow-list it in APP_EGRESS_ALLOW.",
			egress.Reason(le.Err),
		)
	case le.StatusCode == 0:
		return failed(ClassTransient, "connection_failed", "%s.", le.Error())
	case le.StatusCode == http.StatusUnauthorized || le.StatusCode == http.StatusForbidden:
		return failed(ClassAuth, "api_key_rejected", "%s. Check the api_key.", le.Error())
	case le.StatusCode == http.StatusTooManyRequests:
		return failed(ClassRateLimited, "rate_limited", "%s. Test again later.", le.Error())
	case le.StatusCode >= 500:
		return failed(ClassTransient, "provider_unavailable", "%s. Test again later.", le.Error())
	}
	return failed(ClassPermanent, "request_rejected", "%s. Check base_url.", le.Error())
}
