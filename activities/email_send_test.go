package activities

import (
	"context"
	"net"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emersion/go-smtp"

	"agencyhub/activities/egress"
	"agencyhub/activities/mailer/smtptest"
	"agencyhub/models/integration"
)

const smtpPassword = "s3cret-smtp-pass"

// smtpIntegration stores an smtp.server integration for s with the given security and
// credentials.
func smtpIntegration(deps *projectDependencies, s *smtptest.Server, security, user, pass string) string {
	auth := map[string]any{}
	if user != "" {
		auth = map[string]any{"username": user, "password": pass}
	}
	return deps.add(integration.TypeSMTPServer, map[string]any{
		"host": s.Host, "port": float64(s.Port), "security": security, "from": "noreply@agency.test", "from_name": "Agency",
	}, auth)
}

func runEmailSend(t *testing.T, policy egress.Policy, deps *projectDependencies, config map[string]any) (Result, error) {
	t.Helper()
	return EmailSend{ActionDependencies: deps, Policy: policy}.Run(context.Background(), deps.request(ActionEmailSend, config))
}

func TestEmailSendDeliversThroughTheSMTPIntegration(t *testing.T) {
	s := smtptest.Start(t, smtptest.RequireAuth("mailer", smtpPassword))
	deps := newProjectDependencies()
	server := smtpIntegration(deps, s, "starttls", "mailer", smtpPassword)
	res, err := runEmailSend(t, loopbackPolicy(t), deps, map[string]any{
		"smtp_action_dependency_id": server,
		"to":                        "Ann Lee <ann@example.com>, bob@example.com",
		"cc":                        []any{"carl@example.com"},
		"bcc":                       "dina@example.com",
		"subject":                   "Invoice\n ready",
		"body":                      "Hello,\nyour invoice is ready: 1 500 ₽.",
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	got := s.Messages()
	if len(got) != 1 {
		t.Fatalf("the server accepted %d messages, want 1", len(got))
	}
	wantRcpt := []string{"ann@example.com", "bob@example.com", "carl@example.com", "dina@example.com"}
	if slices.Sort(got[0].To); !reflect.DeepEqual(got[0].To, wantRcpt) || got[0].From != "noreply@agency.test" {
		t.Errorf("envelope from %s to %v, want noreply@agency.test to %v", got[0].From, got[0].To, wantRcpt)
	}
	mail := smtptest.ReadMail(t, got[0].Data)
	if to := mail.Header.Get("To"); !strings.Contains(to, "ann@example.com") || !strings.Contains(to, "bob@example.com") {
		t.Errorf("To = %q", to)
	}
	if cc := mail.Header.Get("Cc"); !strings.Contains(cc, "carl@example.com") {
		t.Errorf("Cc = %q", cc)
	}
	if bcc := mail.Header.Get("Bcc"); bcc != "" || strings.Contains(string(got[0].Data), "dina@") {
		t.Errorf("the message shows the Bcc recipient: %q", bcc)
	}
	if mail.Header.Get("Subject") != "Invoice ready" {
		t.Errorf("Subject = %q, want the one-line subject", mail.Header.Get("Subject"))
	}
	if !strings.Contains(mail.Body, "your invoice is ready: 1 500 ₽.") {
		t.Errorf("body = %q", mail.Body)
	}
	wantRecipients := []string{`"Ann Lee" <ann@example.com>`, "bob@example.com", "carl@example.com", "dina@example.com"}
	if !reflect.DeepEqual(res.Output["recipients"], wantRecipients) {
		t.Errorf("output recipients = %#v\nwant %#v", res.Output["recipients"], wantRecipients)
	}
	if id, _ := res.Output["message_id"].(string); id == "" || "<"+id+">" != mail.Header.Get("Message-Id") {
		t.Errorf("output message_id %q, but the mail's Message-Id is %q", id, mail.Header.Get("Message-Id"))
	}
}

func TestEmailSendClassifiesFailuresByHowFarTheDialogueGot(t *testing.T) {
	deps := newProjectDependencies()
	policy := loopbackPolicy(t)
	message := func(server string) map[string]any {
		return map[string]any{"smtp_action_dependency_id": server, "to": "ann@example.com", "subject": "Hi", "body": "Hello"}
	}
	closed := closedPort(t)
	host, port, _ := net.SplitHostPort(closed)
	portNumber, _ := strconv.Atoi(port)

	tests := []struct {
		name        string
		server      func(t *testing.T) string
		policy      egress.Policy
		class, code string
	}{
		{"a wrong password is an auth failure", func(t *testing.T) string {
			return smtpIntegration(deps, smtptest.Start(t, smtptest.RequireAuth("mailer", "other-pass")), "none", "mailer", smtpPassword)
		}, policy, ClassAuth, "smtp_auth_failed"},
		{"a server that demands a login the integration lacks is an auth failure", func(t *testing.T) string {
			return smtpIntegration(deps, smtptest.Start(t, smtptest.RequireAuth("mailer", smtpPassword)), "none", "", "")
		}, policy, ClassAuth, "smtp_auth_required"},
		{"a rejected recipient is permanent", func(t *testing.T) string {
			s := smtptest.Start(t)
			s.RejectRecipients(func(string) bool { return true })
			return smtpIntegration(deps, s, "none", "", "")
		}, policy, ClassPermanent, "smtp_550"},
		{"a message rejected at the end of data is permanent", func(t *testing.T) string {
			s := smtptest.Start(t)
			s.ReplyAt(smtptest.StageData, smtptest.Reply{Err: &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: "content rejected"}})
			return smtpIntegration(deps, s, "none", "", "")
		}, policy, ClassPermanent, "smtp_554"},
		{"a message deferred at the end of data is transient", func(t *testing.T) string {
			s := smtptest.Start(t)
			s.ReplyAt(smtptest.StageData, smtptest.Reply{Err: &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try later"}})
			return smtpIntegration(deps, s, "none", "", "")
		}, policy, ClassTransient, "smtp_451"},
		{"a connection lost after the message was handed over is an unknown outcome", func(t *testing.T) string {
			s := smtptest.Start(t)
			s.ReplyAt(smtptest.StageData, smtptest.Reply{Drop: true})
			return smtpIntegration(deps, s, "none", "", "")
		}, policy, ClassUnknownOutcome, "no_reply_after_data"},
		{"a server that does not listen is transient", func(t *testing.T) string {
			return smtpIntegration(deps, &smtptest.Server{Host: host, Port: portNumber}, "none", "mailer", smtpPassword)
		}, policy, ClassTransient, "connection_failed"},
		{"an untrusted TLS certificate is permanent", func(t *testing.T) string {
			return smtpIntegration(deps, smtptest.Start(t, smtptest.ImplicitTLS(smtptest.SelfSignedCert(t))), "tls", "mailer", smtpPassword)
		}, policy, ClassPermanent, "tls_certificate_invalid"},
		{"a server on an address the egress policy forbids is a validation failure", func(t *testing.T) string {
			return smtpIntegration(deps, smtptest.Start(t), "none", "", "")
		}, egress.Policy{}, ClassValidation, "egress_refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runEmailSend(t, tt.policy, deps, message(tt.server(t)))
			f := requireFailure(t, err, tt.class, tt.code)
			if f.Provider != "smtp" {
				t.Errorf("provider = %q, want smtp", f.Provider)
			}
			requireNoSecret(t, err, smtpPassword)
		})
	}
}

func TestEmailSendSucceedsWhenTheConnectionBreaksAfterDelivery(t *testing.T) {
	s := smtptest.Start(t)
	s.ReplyAt(smtptest.StageData, smtptest.Reply{DropAfter: true})
	deps := newProjectDependencies()
	server := smtpIntegration(deps, s, "none", "", "")
	_, err := runEmailSend(t, loopbackPolicy(t), deps, map[string]any{"smtp_action_dependency_id": server, "to": "ann@example.com", "subject": "Hi", "body": "Hello"})
	if err != nil {
		t.Fatalf("Run = %v, want success: the server accepted the message", err)
	}
	if n := len(s.Messages()); n != 1 {
		t.Fatalf("the server accepted %d messages, want 1", n)
	}
}

func TestEmailSendRejectsConfigItCannotUse(t *testing.T) {
	deps := newProjectDependencies()
	s := &smtptest.Server{Host: "127.0.0.1", Port: 2525}
	server := smtpIntegration(deps, s, "none", "", "")
	noHost := deps.add(integration.TypeSMTPServer, map[string]any{"from": "a@b.test"}, nil)
	badSecurity := deps.add(integration.TypeSMTPServer, map[string]any{"host": "127.0.0.1", "from": "a@b.test", "security": "ssl3"}, nil)
	noFrom := deps.add(integration.TypeSMTPServer, map[string]any{"host": "127.0.0.1"}, nil)
	bot := deps.add(integration.TypeMessengerABot, nil, nil)
	tests := []struct {
		name, code, field string
		config            map[string]any
	}{
		{"no recipient", "invalid_config", "to", map[string]any{"smtp_action_dependency_id": server, "to": []any{}, "body": "x"}},
		{"a recipient that is not an address", "invalid_config", "cc", map[string]any{"smtp_action_dependency_id": server, "to": "a@b.test", "cc": "not an address", "body": "x"}},
		{"recipients that are not text", "invalid_config", "bcc", map[string]any{"smtp_action_dependency_id": server, "to": "a@b.test", "bcc": []any{1}, "body": "x"}},
		{"no integration", "dependency_not_found", "smtp_action_dependency_id", map[string]any{"to": "a@b.test"}},
		{"an integration of another type", "dependency_type_mismatch", "smtp_action_dependency_id", map[string]any{"smtp_action_dependency_id": bot, "to": "a@b.test"}},
		{"an integration without host", "invalid_dependency", "smtp_action_dependency_id", map[string]any{"smtp_action_dependency_id": noHost, "to": "a@b.test"}},
		{"an integration with an unknown security", "invalid_dependency", "smtp_action_dependency_id", map[string]any{"smtp_action_dependency_id": badSecurity, "to": "a@b.test"}},
		{"an integration without from", "invalid_dependency", "smtp_action_dependency_id", map[string]any{"smtp_action_dependency_id": noFrom, "to": "a@b.test"}},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is a validation failure naming "+tt.field, func(t *testing.T) {
			_, err := runEmailSend(t, loopbackPolicy(t), deps, tt.config)
			f := requireFailure(t, err, ClassValidation, tt.code)
			if !strings.Contains(f.HumanReason+f.NextAction, tt.field) {
				t.Errorf("the failure does not name %s: %q / %q", tt.field, f.HumanReason, f.NextAction)
			}
		})
	}
}
