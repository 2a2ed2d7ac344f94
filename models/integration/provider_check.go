package integration

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/textproto"
	"reflect"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/activities"
	"agencyhub/activities/egress"
	"agencyhub/activities/mailer"
	"agencyhub/activities/messenger"
	"agencyhub/models"
)

// Outcomes of a connection test.
const (
	TestOK         = "ok"
	TestFailed     = "failed"
	TestUntestable = "untestable"
)

// testTimeout bounds one connection test, connecting included.
const testTimeout = 20 * time.Second

// TestResult is the outcome of a connection test. RetryClass is one of the specification's
// retry classes (activities.Class*) when Status is failed, empty otherwise; ReasonCode is a
// machine code (ok, untestable, or why it failed) and Message says the same for a person.
type TestResult struct {
	Status, RetryClass, ReasonCode, Message string
	CheckedAt                               time.Time
}

// Test makes one real call to the provider with the dependency's credential, as an action
// would, without any effect there: getMe for a messenger_a bot, me for a messenger_b bot, an
// SMTP session up to AUTH then QUIT for a mail server. Types with nothing to call (http.auth
// and the planned ones) are untestable. A failed call is a result, not an error; the result
// is stored on the dependency (a messenger_a test also records the bot's user name in
// metadata.bot_username) unless the dependency changed while the call was under way.
func (s *Service) Test(ctx context.Context, d *ActionDependency) (*ActionDependency, TestResult, error) {
	auth, err := s.openAuth(d)
	if err != nil {
		return nil, TestResult{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, testTimeout)
	defer cancel()
	dep := &activities.Dependency{ID: d.ID, TypeKey: d.DependencyTypeKey, Metadata: d.Metadata, Auth: auth}
	var (
		result   TestResult
		metadata = d.Metadata
	)
	switch d.DependencyTypeKey {
	case activities.DependencyMessengerA:
		var username string
		result, username = s.testMessengerA(ctx, dep)
		if username != "" && d.Metadata["bot_username"] != username {
			metadata = maps.Clone(d.Metadata)
			metadata["bot_username"] = username
		}
	case activities.DependencyMessengerB:
		result = s.testMessengerB(ctx, dep)
	case activities.DependencySMTPServer:
		result = s.testSMTP(ctx, dep)
	default:
		result = TestResult{Status: TestUntestable, ReasonCode: "untestable",
			Message: fmt.Sprintf("A %s integration has no provider to call; it is checked when an action uses it.", d.DependencyTypeKey)}
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return nil, TestResult{}, ctx.Err()
	}
	result.CheckedAt = s.now()
	out, err := s.recordTest(context.WithoutCancel(ctx), d, result, metadata)
	return out, result, err
}

// recordTest stores a test result on d, and metadata when the test changed it, unless the
// credential or the settings changed since d was read: the result would describe something
// that no longer exists. It returns the dependency as it now is.
func (s *Service) recordTest(ctx context.Context, d *ActionDependency, r TestResult, metadata map[string]any) (*ActionDependency, error) {
	var out *ActionDependency
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		current, err := loadInProject[ActionDependency](tx, d.CompanyID, d.ProjectID, d.ID, "action_dependency_not_found", clause.Locking{Strength: "UPDATE"})
		if err != nil {
			return err
		}
		out = current
		if current.AuthSealed != d.AuthSealed || !reflect.DeepEqual(current.Metadata, d.Metadata) {
			return nil
		}
		columns := lastTestColumns
		if !reflect.DeepEqual(metadata, d.Metadata) {
			current.Metadata = metadata
			current.UpdatedAt = r.CheckedAt
			columns = append([]string{"metadata", "updated_at"}, lastTestColumns...)
		}
		checkedAt := r.CheckedAt
		current.LastTestStatus, current.LastTestRetryClass, current.LastTestReasonCode = r.Status, r.RetryClass, r.ReasonCode
		current.LastTestMessage, current.LastTestedAt = r.Message, &checkedAt
		err = tx.Model(&ActionDependency{ID: d.ID}).Where("company_id = ? AND project_id = ?", d.CompanyID, d.ProjectID).
			Select(columns).Updates(current).Error
		if err != nil {
			return models.Internal("record test of action dependency: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, models.AsError(err)
	}
	return out, nil
}

func passed(format string, args ...any) TestResult {
	return TestResult{Status: TestOK, ReasonCode: "ok", Message: fmt.Sprintf(format, args...)}
}

func failed(class, reason, format string, args ...any) TestResult {
	return TestResult{Status: TestFailed, RetryClass: class, ReasonCode: reason, Message: fmt.Sprintf(format, args...)}
}

// botSettings reads a bot integration's API address and token; a failure is a validation
// result.
func botSettings(dep *activities.Dependency, defaultBaseURL string) (base, token string, problem *TestResult) {
	token, _ = dep.Auth["bot_token"].(string)
	base, _ = dep.Metadata["api_base_url"].(string)
	if base == "" {
		base = defaultBaseURL
	}
	if base == "" {
		r := failed(activities.ClassValidation, "api_base_url_missing",
			"No API address is known: the integration has no api_base_url and the server has no default for %s.", dep.TypeKey)
		return "", "", &r
	}
	return base, token, nil
}

func (s *Service) testMessengerA(ctx context.Context, dep *activities.Dependency) (TestResult, string) {
	base, token, problem := botSettings(dep, s.MessengerABaseURL)
	if problem != nil {
		return *problem, ""
	}
	client, err := messenger.NewClientA(s.Client, base, token)
	if err != nil {
		return failed(activities.ClassValidation, "invalid_dependency", "The integration cannot be used: %v.", err), ""
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

func (s *Service) testMessengerB(ctx context.Context, dep *activities.Dependency) TestResult {
	base, token, problem := botSettings(dep, s.MessengerBBaseURL)
	if problem != nil {
		return *problem
	}
	client, err := messenger.NewClientB(s.Client, base, token)
	if err != nil {
		return failed(activities.ClassValidation, "invalid_dependency", "The integration cannot be used: %v.", err)
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
func botFailure(err error) TestResult {
	var me *messenger.Error
	if !errors.As(err, &me) {
		return failed(activities.ClassTransient, "connection_failed", "The API could not be called: %s.", egress.Reason(err))
	}
	said := fmt.Sprintf("%s answered %d %s", me.Provider, me.StatusCode, http.StatusText(me.StatusCode))
	if me.Description != "" {
		said += ": " + me.Description
	}
	var refused *egress.RefusedError
	switch {
	case errors.As(me, &refused):
		return failed(activities.ClassValidation, "egress_refused",
			"The %s API address may not be called: %s. Use a public api_base_url, or ask the operator to allow-list it in APP_EGRESS_ALLOW.", me.Provider, refused.Reason)
	case !me.Answered():
		reason := "no answer"
		if cause := me.Unwrap(); cause != nil {
			reason = egress.Reason(cause)
		}
		return failed(activities.ClassTransient, "connection_failed", "Could not reach the %s API: %s.", me.Provider, reason)
	case me.StatusCode < 400:
		return failed(activities.ClassPermanent, "unexpected_answer",
			"The address answered, but not as the %s API does (%s). Check api_base_url.", me.Provider, me.Description)
	case me.StatusCode == http.StatusUnauthorized || me.StatusCode == http.StatusForbidden:
		return failed(activities.ClassAuth, "bot_token_rejected", "%s. Check the bot token.", said)
	case me.StatusCode == http.StatusNotFound:
		return failed(activities.ClassPermanent, "api_not_found", "%s. Check api_base_url and the bot token.", said)
	case me.StatusCode == http.StatusTooManyRequests:
		if me.RetryAfter > 0 {
			said += fmt.Sprintf("; it asked to wait %s", me.RetryAfter)
		}
		return failed(activities.ClassRateLimited, "rate_limited", "%s. Test again later.", said)
	case me.StatusCode >= 500:
		return failed(activities.ClassTransient, "provider_unavailable", "%s. Test again later.", said)
	}
	return failed(activities.ClassPermanent, "request_rejected", "%s.", said)
}

// smtpSettings reads an smtp.server integration into a mailer.Config, as email.send does:
// security tls speaks TLS from the first byte (port 465 by default); starttls and none
// upgrade with STARTTLS when the server offers it (port 587 by default).
func smtpSettings(dep *activities.Dependency) mailer.Config {
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	cfg := mailer.Config{Host: str(dep.Metadata, "host"), Port: mailer.DefaultSMTPPort, From: str(dep.Metadata, "from")}
	if str(dep.Metadata, "security") == "tls" {
		cfg.ImplicitTLS, cfg.Port = true, mailer.DefaultSMTPSPort
	}
	switch port := dep.Metadata["port"].(type) {
	case float64:
		cfg.Port = int(port)
	case int:
		cfg.Port = port
	}
	cfg.Username, cfg.Password = str(dep.Auth, "username"), str(dep.Auth, "password")
	cfg.Auth = mailer.AuthNone
	if cfg.Username != "" {
		cfg.Auth = mailer.AuthPlain
		if str(dep.Metadata, "auth") == mailer.AuthLogin {
			cfg.Auth = mailer.AuthLogin
		}
	}
	return cfg
}

func (s *Service) testSMTP(ctx context.Context, dep *activities.Dependency) TestResult {
	cfg := smtpSettings(dep)
	if err := s.Policy.CheckHost(ctx, cfg.Host); err != nil {
		var refused *egress.RefusedError
		if errors.As(err, &refused) {
			return failed(activities.ClassValidation, "egress_refused",
				"The mail server %s may not be reached: %s. Use a public mail server, or ask the operator to allow-list it in APP_EGRESS_ALLOW.", cfg.Host, refused.Reason)
		}
		return failed(activities.ClassTransient, "dns_failed", "The mail server's name %s could not be resolved: %s.", cfg.Host, egress.Reason(err))
	}
	if err := mailer.NewSender(cfg).Check(ctx); err != nil {
		return smtpFailure(err, cfg)
	}
	if cfg.Username == "" {
		return passed("The mail server %s:%d accepted a session (no login configured).", cfg.Host, cfg.Port)
	}
	return passed("The mail server %s:%d accepted the login of %s.", cfg.Host, cfg.Port, cfg.Username)
}

// smtpFailure classifies a failed SMTP session check.
func smtpFailure(err error, cfg mailer.Config) TestResult {
	var (
		reply     *textproto.Error
		certErr   *tls.CertificateVerificationError
		unknownCA x509.UnknownAuthorityError
		hostErr   x509.HostnameError
	)
	msg := err.Error()
	switch {
	case errors.As(err, &certErr), errors.As(err, &unknownCA), errors.As(err, &hostErr):
		return failed(activities.ClassPermanent, "tls_certificate_invalid",
			"The mail server %s presented a TLS certificate that is not trusted. Fix the server's certificate, or the integration's host and security.", cfg.Host)
	case strings.Contains(msg, "SMTP AUTH failed") || strings.Contains(msg, "does not support SMTP AUTH"):
		cause := errors.Unwrap(errors.Unwrap(err))
		if cause == nil {
			cause = err
		}
		return failed(activities.ClassAuth, "smtp_auth_failed",
			"The mail server %s did not accept the login: %v. Check the username, password and security.", cfg.Host, cause)
	case errors.As(err, &reply) && reply.Code >= 500:
		return failed(activities.ClassPermanent, "smtp_"+strconv.Itoa(reply.Code),
			"The mail server %s refused the session: %d %s. Check the host, port and security.", cfg.Host, reply.Code, reply.Msg)
	case errors.As(err, &reply):
		return failed(activities.ClassTransient, "smtp_"+strconv.Itoa(reply.Code),
			"The mail server %s is not accepting sessions now: %d %s. Test again later.", cfg.Host, reply.Code, reply.Msg)
	}
	return failed(activities.ClassTransient, "connection_failed", "Could not reach the mail server %s:%d: %s.", cfg.Host, cfg.Port, egress.Reason(err))
}
