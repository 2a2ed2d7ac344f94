package activities

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	netmail "net/mail"
	"net/textproto"
	"slices"
	"strconv"
	"strings"

	"github.com/wneessen/go-mail"

	"agencyhub/activities/egress"
	"agencyhub/activities/mailer"
	"agencyhub/models/integration"
)

// smtpProvider names the mail server in failure diagnostics.
const smtpProvider = "smtp"

// EmailSend is the email.send action: it delivers one plain-text message through the
// smtp.server integration named by smtp_action_dependency_id.
//
// Config: smtp_action_dependency_id; to, cc, bcc (each a string or an array of strings,
// every string an address or a comma-separated address list); subject; body. At least one
// recipient is required. The integration's metadata holds host, port (default 465 for tls,
// else 587), security (starttls, the default, tls or none), from, and optionally auth
// (plain or login); its auth holds username and password.
//
// Output: message_id (the Message-ID header) and recipients (every address the server
// accepted); the provider response repeats the addresses and subject as sent.
//
// Failures, by how far the SMTP dialogue got:
//
//	config or integration unusable, address unreadable     validation
//	server host refused by the egress policy                validation
//	DNS failure, connection refused, greeting or STARTTLS   transient
//	TLS certificate not trusted                             permanent
//	AUTH rejected (535 etc.), or required but not given     auth
//	MAIL FROM / RCPT TO / DATA rejected: 5xx                permanent
//	                                     4xx or dropped     transient
//	after the message was handed over: 5xx                  permanent
//	                                   4xx                  transient
//	                                   no reply             unknown_outcome
//	delivered, then the connection failed (RSET, QUIT)      success
type EmailSend struct {
	ActionDependencies ActionDependencies
	// Policy is checked against the SMTP server's addresses before connecting.
	Policy egress.Policy
}

// Run sends one message.
func (a EmailSend) Run(ctx context.Context, req Request) (Result, error) {
	var lists [3][]string
	for i, field := range []string{"to", "cc", "bcc"} {
		list, err := addressList(req.Config, field)
		if err != nil {
			return Result{}, err
		}
		lists[i] = list
	}
	to, cc, bcc := lists[0], lists[1], lists[2]
	if len(to)+len(cc)+len(bcc) == 0 {
		return Result{}, invalidField("to", "field_recipients", nil)
	}
	subject, err := rawString(req.Config, "subject")
	if err != nil {
		return Result{}, err
	}
	subject = strings.Join(strings.Fields(subject), " ") // a header is one line
	body, err := rawString(req.Config, "body")
	if err != nil {
		return Result{}, err
	}

	const field = "smtp_action_dependency_id"
	dep, err := loadDependency(ctx, a.ActionDependencies, req, field, integration.TypeSMTPServer, true)
	if err != nil {
		return Result{}, err
	}
	cfg, err := smtpConfig(dep, field)
	if err != nil {
		return Result{}, err
	}
	if err := a.Policy.CheckHost(ctx, cfg.Host); err != nil {
		var refused *egress.RefusedError
		if errors.As(err, &refused) {
			return Result{}, fromSMTP(Failed(ClassValidation, "egress_refused", "smtp_egress_refused", "",
				Args{"host": cfg.Host, "egress_reason": refused.Reason}), nil)
		}
		if ctx.Err() == context.Canceled {
			return Result{}, ctx.Err()
		}
		return Result{}, fromSMTP(Failed(ClassTransient, "dns_failed", "smtp_dns_failed", "",
			Args{"host": cfg.Host, "error": err.Error()}), nil)
	}

	sender := mailer.NewSender(cfg)
	messageID := sender.NewMessageID()
	err = sender.Send(ctx, mailer.Mail{To: to, Cc: cc, Bcc: bcc, Subject: subject, TextBody: body, MessageID: messageID})
	if err != nil {
		if ctx.Err() == context.Canceled {
			return Result{}, ctx.Err()
		}
		if f := smtpFailure(err, cfg.Host); f != nil {
			return Result{}, f
		}
	}
	return Result{
		Output:           map[string]any{"message_id": messageID, "recipients": slices.Concat(to, cc, bcc)},
		ProviderResponse: map[string]any{"to": to, "cc": cc, "bcc": bcc, "subject": subject},
	}, nil
}

// addressList reads a recipients field into single addresses; never nil.
func addressList(cfg map[string]any, field string) ([]string, error) {
	items, err := stringList(cfg, field)
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, item := range items {
		addrs, err := netmail.ParseAddressList(item)
		if err != nil {
			return nil, invalidField(field, "field_not_mail_address", Args{"value": item})
		}
		for _, a := range addrs {
			if a.Name == "" {
				out = append(out, a.Address)
			} else {
				out = append(out, a.String())
			}
		}
	}
	return out, nil
}

// smtpConfig reads an smtp.server integration into a mailer.Config.
//
// security none and starttls both use STARTTLS when the server offers it and go on
// without it otherwise: mailer.Sender has no switch to demand it or to leave it out.
func smtpConfig(dep *integration.Unsealed, field string) (mailer.Config, error) {
	invalid := func(key string, args Args) error {
		return integrationFailed("invalid_dependency", key, integration.TypeSMTPServer, field, args)
	}
	var cfg mailer.Config
	cfg.Host, _ = optionalString(dep.Metadata, "host")
	if cfg.Host == "" {
		return cfg, invalid("smtp_no_host", nil)
	}
	security, _ := optionalString(dep.Metadata, "security")
	switch strings.ToLower(security) {
	case "", "starttls", "none":
		cfg.Port = mailer.DefaultSMTPPort
	case "tls":
		cfg.ImplicitTLS = true
		cfg.Port = mailer.DefaultSMTPSPort
	default:
		return cfg, invalid("smtp_security", Args{"value": security})
	}
	if p, _ := optionalString(dep.Metadata, "port"); p != "" {
		port, err := strconv.Atoi(p)
		if err != nil || port < 1 || port > 65535 {
			return cfg, invalid("smtp_port", Args{"value": p})
		}
		cfg.Port = port
	}
	from, _ := optionalString(dep.Metadata, "from")
	if _, err := netmail.ParseAddress(from); err != nil {
		return cfg, invalid("smtp_from", nil)
	}
	name, _ := optionalString(dep.Metadata, "from_name")
	cfg.From = (&netmail.Address{Name: name, Address: from}).String()
	cfg.Username, _ = optionalString(dep.Auth, "username")
	cfg.Password, _ = optionalString(dep.Auth, "password")
	cfg.Auth = mailer.AuthNone
	if cfg.Username != "" {
		cfg.Auth = mailer.AuthPlain
	}
	switch auth, _ := optionalString(dep.Metadata, "auth"); strings.ToLower(auth) {
	case "":
	case mailer.AuthPlain, mailer.AuthLogin:
		if cfg.Username == "" {
			return cfg, invalid("smtp_username", Args{"value": auth})
		}
		cfg.Auth = strings.ToLower(auth)
	default:
		return cfg, invalid("smtp_auth", Args{"value": auth})
	}
	return cfg, nil
}

// smtpFailure classifies an error of mailer.Sender.Send; nil means the message was
// delivered although something failed afterwards.
func smtpFailure(err error, host string) *Failure {
	var se *mail.SendError
	if errors.As(err, &se) {
		return sendErrorFailure(se, host)
	}
	if msg := err.Error(); !strings.Contains(msg, "dial failed") && strings.Contains(msg, "failed to close connection") {
		// go-mail reports a failed QUIT after a successful delivery this way.
		return nil
	}
	return smtpSessionFailure(err, host)
}

// smtpSessionFailure classifies a failure of an SMTP session before any message was handed
// over (email.send, and the connection test of smtp.server integrations): a TLS
// certificate or a login the server refused, a session it refused or deferred, or no
// session at all.
func smtpSessionFailure(err error, host string) *Failure {
	var (
		reply     *textproto.Error
		certErr   *tls.CertificateVerificationError
		unknownCA x509.UnknownAuthorityError
		hostErr   x509.HostnameError
	)
	hasReply := errors.As(err, &reply)
	switch {
	case errors.As(err, &certErr), errors.As(err, &unknownCA), errors.As(err, &hostErr):
		return fromSMTP(Failed(ClassPermanent, "tls_certificate_invalid", "smtp_certificate_invalid", "", Args{"host": host}), nil)
	case strings.Contains(err.Error(), "SMTP AUTH failed") || strings.Contains(err.Error(), "does not support SMTP AUTH"):
		cause := errors.Unwrap(errors.Unwrap(err))
		if cause == nil {
			cause = err
		}
		return fromSMTP(Failed(ClassAuth, "smtp_auth_failed", "smtp_auth_failed", "",
			Args{"host": host, "error": cause.Error()}), replyResponse(reply))
	case hasReply && reply.Code >= 500:
		return fromSMTP(Failed(ClassPermanent, "smtp_"+strconv.Itoa(reply.Code), "smtp_session_refused", "",
			Args{"host": host, "status": strconv.Itoa(reply.Code), "error": reply.Msg}), replyResponse(reply))
	}
	return fromSMTP(Failed(ClassTransient, "connection_failed", "smtp_unreachable", "retried.next",
		Args{"host": host, "error": egress.Reason(err)}), replyResponse(reply))
}

// sendErrorFailure classifies a failure inside the mail transaction.
func sendErrorFailure(se *mail.SendError, host string) *Failure {
	if se.Msg() != nil && se.Msg().IsDelivered() {
		return nil
	}
	code, enhanced := se.ErrorCode(), se.EnhancedStatusCode()
	response := map[string]any{"reply": se.Error()}
	if code != 0 {
		response["code"] = code
	}
	if enhanced != "" {
		response["enhanced_status"] = enhanced
	}
	const said = "smtp_refused"
	args := Args{"host": host, "error": se.Error()}
	smtpCode := "smtp_" + strconv.Itoa(code)
	switch se.Reason {
	case mail.ErrGetSender, mail.ErrGetRcpts:
		return fromSMTP(Failed(ClassValidation, "invalid_address", said, "smtp_addresses.next", args), response)
	case mail.ErrWriteContent, mail.ErrSMTPDataClose:
		switch {
		case code >= 500:
			return fromSMTP(Failed(ClassPermanent, smtpCode, said, "smtp_message.next", args), response)
		case code >= 400:
			return fromSMTP(Failed(ClassTransient, smtpCode, said, "retried.next", args), response)
		}
		return fromSMTP(Failed(ClassUnknownOutcome, "no_reply_after_data", "smtp_unconfirmed", "smtp_ask.next", args), response)
	case mail.ErrSMTPMailFrom, mail.ErrSMTPRcptTo, mail.ErrSMTPData, mail.ErrConnCheck, mail.ErrNoUnencoded:
		switch {
		case code == 530 || code == 534 || code == 535 || code == 538 || enhanced == "5.7.8" ||
			se.Reason == mail.ErrSMTPMailFrom && enhanced == "5.7.0":
			return fromSMTP(Failed(ClassAuth, "smtp_auth_required", said, "smtp_login.next", args), response)
		case code >= 500:
			return fromSMTP(Failed(ClassPermanent, smtpCode, said, "smtp_recipients.next", args), response)
		case code >= 400:
			return fromSMTP(Failed(ClassTransient, smtpCode, said, "retried.next", args), response)
		}
		return fromSMTP(Failed(ClassTransient, "connection_failed", "smtp_broke", "retried.next", args), response)
	}
	return fromSMTP(Failed(ClassUnknownOutcome, "smtp_failed", said, "smtp_ask.next", args), response)
}

// replyResponse is an SMTP reply as ProviderResponse, or nil without one.
func replyResponse(reply *textproto.Error) map[string]any {
	if reply == nil {
		return nil
	}
	return map[string]any{"code": reply.Code, "reply": reply.Msg}
}

// fromSMTP marks f as caused by the mail server and attaches its reply, if any.
func fromSMTP(f *Failure, response map[string]any) *Failure {
	f.Provider = smtpProvider
	f.ProviderResponse = response
	return f
}
