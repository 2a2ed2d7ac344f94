package smtptest

import (
	"net"
	"net/smtp"
	"strconv"
	"strings"
	"testing"

	gosmtp "github.com/emersion/go-smtp"
)

// send runs one mail dialogue with net/smtp and answers the first error and the step it
// happened at.
func send(t *testing.T, s *Server, user, pass string) (string, error) {
	t.Helper()
	c, err := smtp.Dial(net.JoinHostPort(s.Host, strconv.Itoa(s.Port)))
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer c.Close()
	if user != "" {
		if err := c.Auth(smtp.PlainAuth("", user, pass, s.Host)); err != nil {
			return "AUTH", err
		}
	}
	if err := c.Mail("a@agency.test"); err != nil {
		return "MAIL", err
	}
	if err := c.Rcpt("b@client.test"); err != nil {
		return "RCPT", err
	}
	w, err := c.Data()
	if err != nil {
		return "DATA", err
	}
	_, _ = w.Write([]byte("Subject: hi\r\n\r\nhello\r\n"))
	if err := w.Close(); err != nil {
		return "end of DATA", err
	}
	if err := c.Quit(); err != nil {
		return "QUIT", err
	}
	return "", nil
}

func TestRepliesAtEachStage(t *testing.T) {
	deferred := &gosmtp.SMTPError{Code: 451, EnhancedCode: gosmtp.EnhancedCode{4, 3, 0}, Message: "try later"}
	tests := []struct {
		name     string
		stage    Stage
		reply    Reply
		failAt   string // the step that fails
		wantCode string // in the error, when there is one
		messages int
	}{
		{"MAIL answered with an error", StageMail, Reply{Err: deferred}, "MAIL", "451", 0},
		{"MAIL dropped", StageMail, Reply{Drop: true}, "MAIL", "", 0},
		{"MAIL accepted, then dropped", StageMail, Reply{DropAfter: true}, "RCPT", "", 0},
		{"RCPT answered with an error", StageRcpt, Reply{Err: deferred}, "RCPT", "451", 0},
		{"RCPT accepted, then dropped", StageRcpt, Reply{DropAfter: true}, "end of DATA", "", 0}, // DATA's 354 comes first,
		{"DATA answered with an error", StageData, Reply{Err: deferred}, "end of DATA", "451", 0},
		{"DATA dropped", StageData, Reply{Drop: true}, "end of DATA", "", 0},
		{"DATA accepted, then dropped", StageData, Reply{DropAfter: true}, "QUIT", "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Start(t)
			s.ReplyAt(tt.stage, tt.reply)
			step, err := send(t, s, "", "")
			if step != tt.failAt || (tt.failAt != "" && (err == nil || !strings.Contains(err.Error(), tt.wantCode))) {
				t.Fatalf("the dialogue failed at %q with %v, want at %q with %q", step, err, tt.failAt, tt.wantCode)
			}
			if n := len(s.Messages()); n != tt.messages {
				t.Errorf("the server accepted %d messages, want %d", n, tt.messages)
			}
		})
	}
}

func TestRejectRecipientsRefusesOnlyThePickedOnes(t *testing.T) {
	s := Start(t)
	s.RejectRecipients(func(rcpt string) bool { return rcpt == "b@client.test" })
	if step, err := send(t, s, "", ""); step != "RCPT" || err == nil || !strings.Contains(err.Error(), "550") {
		t.Fatalf("the dialogue failed at %q with %v, want a 550 at RCPT", step, err)
	}
}

func TestRequireAuthRecordsSessions(t *testing.T) {
	s := Start(t, RequireAuth("mailer", "s3cret"))
	if step, err := send(t, s, "", ""); step != "MAIL" || err == nil || !strings.Contains(err.Error(), "Please authenticate first") {
		t.Fatalf("without AUTH the dialogue failed at %q with %v, want an auth-required answer to MAIL", step, err)
	}
	if step, err := send(t, s, "mailer", "wrong"); step != "AUTH" || err == nil {
		t.Fatalf("with a wrong password the dialogue failed at %q with %v, want at AUTH", step, err)
	}
	if step, err := send(t, s, "mailer", "s3cret"); err != nil {
		t.Fatalf("with the password the dialogue failed at %q: %v", step, err)
	}
	want := []Session{{MailFrom: true}, {}, {AuthUser: "mailer", MailFrom: true}}
	if got := s.Sessions(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("sessions %+v, want %+v", got, want)
	}
	if got := s.Messages(); len(got) != 1 || got[0].AuthUser != "mailer" || got[0].TLS || ReadMail(t, got[0].Data).Body != "hello\n" {
		t.Fatalf("messages %+v", got)
	}
}
