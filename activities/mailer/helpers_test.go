package mailer

import (
	"mime"
	netmail "net/mail"
	"strings"
	"testing"

	"agencyhub/activities/mailer/smtptest"
)

// testFrom is the From address every test Config uses.
const testFrom = "noreply@agencyhub.test"

// configFor is a Config that reaches this server with its own credentials.
func configFor(s *smtptest.Server) Config {
	cfg := Config{Host: s.Host, Port: s.Port, From: testFrom, Username: s.Username, Password: s.Password, ImplicitTLS: s.ImplicitTLS}
	cfg.Auth = defaultAuth(cfg.Username)
	return cfg
}

// readMail parses raw message data the way a recipient's mail client would and checks it is
// the plain UTF-8 text the Sender writes.
func readMail(t *testing.T, data []byte) smtptest.SeenMail {
	t.Helper()
	seen := smtptest.ReadMail(t, data)
	mediaType, params, err := mime.ParseMediaType(seen.Header.Get("Content-Type"))
	if err != nil || mediaType != "text/plain" || !strings.EqualFold(params["charset"], "utf-8") {
		t.Fatalf("Content-Type = %q, want text/plain; charset=UTF-8", seen.Header.Get("Content-Type"))
	}
	return seen
}

// addresses returns the bare addresses of an address-list header, or nil when it is absent.
func addresses(t *testing.T, h netmail.Header, key string) []string {
	t.Helper()
	if h.Get(key) == "" {
		return nil
	}
	list, err := h.AddressList(key)
	if err != nil {
		t.Fatalf("parse %s header %q: %v", key, h.Get(key), err)
	}
	out := make([]string, len(list))
	for i, a := range list {
		out[i] = a.Address
	}
	return out
}
