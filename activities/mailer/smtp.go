package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/wneessen/go-mail"

	"agencyhub/models"
)

// SMTP AUTH mechanisms a Config may name.
const (
	AuthPlain = "plain"
	AuthLogin = "login"
	AuthNone  = "none"
)

// Default ports when SMTP_URL names none: submission with STARTTLS, and implicit TLS.
const (
	DefaultSMTPPort  = 587
	DefaultSMTPSPort = 465
)

// sendTimeout bounds the dial and every single SMTP command of one delivery.
const sendTimeout = 15 * time.Second

// Config is parsed from SMTP_URL:
//
//	smtp://user:pass@host:port   STARTTLS when the server offers it
//	smtps://user:pass@host:port  implicit TLS
//
// Query parameters: from=addr (required, the From address; "Name <addr>" works too),
// insecure_skip_verify=true (tests and on-premises servers only), auth=plain|login|none
// (default plain when a user is present, none otherwise). The port defaults to 587 for smtp
// and 465 for smtps. PLAIN and LOGIN are refused over an unencrypted connection unless the
// server is on localhost.
type Config struct {
	Host               string
	Port               int
	Username, Password string
	From               string
	ImplicitTLS        bool
	InsecureSkipVerify bool
	Auth               string
}

// ParseURL parses SMTP_URL into a Config. Errors name what is wrong and never repeat the
// password.
func ParseURL(raw string) (Config, error) {
	var cfg Config
	if strings.TrimSpace(raw) == "" {
		return cfg, errors.New("SMTP_URL is empty")
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url.Error repeats the whole URL, password included: keep only the cause.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return cfg, fmt.Errorf("SMTP_URL is not a valid URL: %v", err)
	}
	switch u.Scheme {
	case "smtp":
		cfg.Port = DefaultSMTPPort
	case "smtps":
		cfg.ImplicitTLS = true
		cfg.Port = DefaultSMTPSPort
	default:
		return Config{}, fmt.Errorf("SMTP_URL scheme must be smtp or smtps, not %q", u.Scheme)
	}
	if u.Opaque != "" {
		return Config{}, errors.New("SMTP_URL must look like smtp://user:pass@host:port?from=addr")
	}
	cfg.Host = u.Hostname()
	if cfg.Host == "" {
		return Config{}, errors.New("SMTP_URL has no host")
	}
	if p := u.Port(); p != "" {
		port, err := strconv.Atoi(p)
		if err != nil || port < 1 || port > 65535 {
			return Config{}, fmt.Errorf("SMTP_URL port %q is not a number between 1 and 65535", p)
		}
		cfg.Port = port
	}
	if u.Path != "" && u.Path != "/" {
		return Config{}, fmt.Errorf("SMTP_URL must not have a path, got %q", u.Path)
	}
	if u.User != nil {
		cfg.Username = u.User.Username()
		cfg.Password, _ = u.User.Password()
		if cfg.Username == "" && cfg.Password != "" {
			return Config{}, errors.New("SMTP_URL has a password but no user")
		}
	}

	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return Config{}, fmt.Errorf("SMTP_URL query is malformed: %v", err)
	}
	for key, values := range q {
		if len(values) > 1 {
			return Config{}, fmt.Errorf("SMTP_URL parameter %q is given more than once", key)
		}
		switch key {
		case "from", "insecure_skip_verify", "auth":
		default:
			return Config{}, fmt.Errorf("SMTP_URL has unknown parameter %q (known: from, insecure_skip_verify, auth)", key)
		}
	}
	cfg.From = strings.TrimSpace(q.Get("from"))
	if cfg.From == "" {
		return Config{}, errors.New("SMTP_URL needs the From address as parameter from=addr")
	}
	if _, err := netmail.ParseAddress(cfg.From); err != nil {
		return Config{}, fmt.Errorf("SMTP_URL from=%q is not a mail address: %v", cfg.From, err)
	}
	if v := q.Get("insecure_skip_verify"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return Config{}, fmt.Errorf("SMTP_URL insecure_skip_verify=%q must be true or false", v)
		}
		cfg.InsecureSkipVerify = b
	}
	cfg.Auth = strings.ToLower(q.Get("auth"))
	switch cfg.Auth {
	case "":
		cfg.Auth = defaultAuth(cfg.Username)
	case AuthPlain, AuthLogin:
		if cfg.Username == "" {
			return Config{}, fmt.Errorf("SMTP_URL auth=%s needs a user: smtp://user:pass@host", cfg.Auth)
		}
	case AuthNone:
	default:
		return Config{}, fmt.Errorf("SMTP_URL auth=%q must be plain, login or none", q.Get("auth"))
	}
	return cfg, nil
}

func defaultAuth(username string) string {
	if username != "" {
		return AuthPlain
	}
	return AuthNone
}

// Mail is one plain-text UTF-8 message. Bcc recipients get the message but appear in no header.
type Mail struct {
	To, Cc, Bcc       []string
	Subject, TextBody string
	// MessageID is the Message-ID header (without angle brackets); empty makes one.
	MessageID string
}

// Sender delivers mail over SMTP, one connection per message. It is safe for concurrent use.
type Sender struct {
	cfg Config
}

// NewSender returns a Sender for cfg (usually from ParseURL).
func NewSender(cfg Config) *Sender { return &Sender{cfg: cfg} }

// Send delivers m: From is the configured address; the envelope holds every recipient of
// To, Cc and Bcc. The context bounds connecting; each SMTP command then has its own timeout.
func (s *Sender) Send(ctx context.Context, m Mail) error {
	if len(m.To)+len(m.Cc)+len(m.Bcc) == 0 {
		return errors.New("send mail: no recipients")
	}
	msg, err := s.message(m)
	if err != nil {
		return fmt.Errorf("send mail: %w", err)
	}
	client, err := s.client()
	if err != nil {
		return fmt.Errorf("send mail: %w", err)
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("send mail via %s: %w", s.addr(), err)
	}
	return nil
}

// Check opens a session as Send would (greeting, EHLO, STARTTLS when offered or TLS from
// the first byte, AUTH when configured) and ends it with QUIT without sending anything: it
// is how an smtp.server integration is tested. The context bounds connecting.
func (s *Sender) Check(ctx context.Context) error {
	client, err := s.client()
	if err != nil {
		return fmt.Errorf("check mail server: %w", err)
	}
	if err := client.DialWithContext(ctx); err != nil {
		return fmt.Errorf("check mail server %s: %w", s.addr(), err)
	}
	if err := client.Close(); err != nil {
		return fmt.Errorf("check mail server %s: %w", s.addr(), err)
	}
	return nil
}

// NewMessageID makes a unique Message-ID in the sender's domain.
func (s *Sender) NewMessageID() string { return models.RandomToken(16) + "@" + s.fromDomain() }

func (s *Sender) addr() string { return net.JoinHostPort(s.cfg.Host, strconv.Itoa(s.cfg.Port)) }

func (s *Sender) message(m Mail) (*mail.Msg, error) {
	msg := mail.NewMsg(mail.WithCharset(mail.CharsetUTF8), mail.WithEncoding(mail.EncodingQP))
	if err := msg.From(s.cfg.From); err != nil {
		return nil, fmt.Errorf("from %q: %w", s.cfg.From, err)
	}
	for _, set := range []struct {
		header string
		addrs  []string
		fn     func(...string) error
	}{{"to", m.To, msg.To}, {"cc", m.Cc, msg.Cc}, {"bcc", m.Bcc, msg.Bcc}} {
		if len(set.addrs) == 0 {
			continue
		}
		if err := set.fn(set.addrs...); err != nil {
			return nil, fmt.Errorf("%s: %w", set.header, err)
		}
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	if m.MessageID == "" {
		m.MessageID = s.NewMessageID()
	}
	msg.SetMessageIDWithValue(m.MessageID)
	msg.SetBodyString(mail.TypeTextPlain, m.TextBody)
	return msg, nil
}

// fromDomain is the domain of the From address: Message-IDs are made in it rather than in
// the local host name, which mail filters hold against the sender.
func (s *Sender) fromDomain() string {
	addr := s.cfg.From
	if a, err := netmail.ParseAddress(addr); err == nil {
		addr = a.Address
	}
	if i := strings.LastIndexByte(addr, '@'); i >= 0 && i < len(addr)-1 {
		return addr[i+1:]
	}
	return "localhost"
}

func (s *Sender) client() (*mail.Client, error) {
	opts := []mail.Option{
		mail.WithPort(s.cfg.Port),
		mail.WithTimeout(sendTimeout),
		mail.WithTLSConfig(&tls.Config{
			ServerName:         s.cfg.Host,
			MinVersion:         tls.VersionTLS12,
			InsecureSkipVerify: s.cfg.InsecureSkipVerify, //nolint:gosec // opt-in via SMTP_URL, tests and on-prem only
		}),
	}
	if s.cfg.ImplicitTLS {
		opts = append(opts, mail.WithSSL())
	} else {
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	}
	auth := s.cfg.Auth
	if auth == "" {
		auth = defaultAuth(s.cfg.Username)
	}
	switch auth {
	case AuthPlain:
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthPlain))
	case AuthLogin:
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthLogin))
	case AuthNone:
	default:
		return nil, fmt.Errorf("unknown SMTP auth %q", s.cfg.Auth)
	}
	if auth != AuthNone {
		opts = append(opts, mail.WithUsername(s.cfg.Username), mail.WithPassword(s.cfg.Password))
	}
	return mail.NewClient(s.cfg.Host, opts...)
}
