package mailer

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"agencyhub/activities/mailer/smtptest"
)

func TestParseURLReadsEveryPartOfAValidURL(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want Config
	}{
		{
			name: "smtp with user, password and port uses PLAIN and STARTTLS",
			raw:  "smtp://mailer:s3cret@mail.example.com:587?from=noreply@example.com",
			want: Config{Host: "mail.example.com", Port: 587, Username: "mailer", Password: "s3cret", From: "noreply@example.com", Auth: AuthPlain},
		},
		{
			name: "smtps is implicit TLS and may ask for LOGIN",
			raw:  "smtps://mailer:s3cret@mail.example.com:465?from=noreply@example.com&auth=LOGIN",
			want: Config{Host: "mail.example.com", Port: 465, Username: "mailer", Password: "s3cret", From: "noreply@example.com", ImplicitTLS: true, Auth: AuthLogin},
		},
		{
			name: "without a user there is no auth",
			raw:  "smtp://relay.internal:25?from=noreply@example.com&insecure_skip_verify=true",
			want: Config{Host: "relay.internal", Port: 25, From: "noreply@example.com", InsecureSkipVerify: true, Auth: AuthNone},
		},
		{
			name: "auth none ignores the user",
			raw:  "smtp://mailer:s3cret@relay.internal:25?from=noreply@example.com&auth=none",
			want: Config{Host: "relay.internal", Port: 25, Username: "mailer", Password: "s3cret", From: "noreply@example.com", Auth: AuthNone},
		},
		{
			name: "percent-encoded credentials are decoded",
			raw:  "smtp://user%40example.com:p%40ss%2Fw%3Ard@mail.example.com:2525?from=noreply@example.com",
			want: Config{Host: "mail.example.com", Port: 2525, Username: "user@example.com", Password: "p@ss/w:rd", From: "noreply@example.com", Auth: AuthPlain},
		},
		{
			name: "the port defaults to 587 for smtp",
			raw:  "smtp://mail.example.com?from=noreply@example.com",
			want: Config{Host: "mail.example.com", Port: 587, From: "noreply@example.com", Auth: AuthNone},
		},
		{
			name: "the port defaults to 465 for smtps",
			raw:  "smtps://mail.example.com/?from=noreply@example.com",
			want: Config{Host: "mail.example.com", Port: 465, From: "noreply@example.com", ImplicitTLS: true, Auth: AuthNone},
		},
		{
			name: "an IPv6 host loses its brackets",
			raw:  "smtp://[::1]:2525?from=noreply@example.com",
			want: Config{Host: "::1", Port: 2525, From: "noreply@example.com", Auth: AuthNone},
		},
		{
			name: "from may carry a display name",
			raw:  "smtp://mail.example.com:25?from=" + "AgencyHub%20%3Cnoreply@example.com%3E",
			want: Config{Host: "mail.example.com", Port: 25, From: "AgencyHub <noreply@example.com>", Auth: AuthNone},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseURL(tt.raw)
			if err != nil {
				t.Fatalf("ParseURL(%q): %v", tt.raw, err)
			}
			if got != tt.want {
				t.Errorf("ParseURL(%q)\n got %+v\nwant %+v", tt.raw, got, tt.want)
			}
		})
	}
}

func TestParseURLNamesWhatIsWrongWithoutRepeatingThePassword(t *testing.T) {
	tests := []struct {
		name, raw, wantErr string
	}{
		{"empty", "", "SMTP_URL is empty"},
		{"wrong scheme", "https://u:topsecret@mail.example.com?from=a@example.com", `scheme must be smtp or smtps, not "https"`},
		{"no scheme", "mail.example.com:587", "scheme must be smtp or smtps"},
		{"no host", "smtp://u:topsecret@:587?from=a@example.com", "has no host"},
		{"port not a number", "smtp://u:topsecret@mail.example.com:abc?from=a@example.com", "not a valid URL"},
		{"port out of range", "smtp://u:topsecret@mail.example.com:70000?from=a@example.com", `port "70000" is not a number between 1 and 65535`},
		{"port zero", "smtp://mail.example.com:0?from=a@example.com", `port "0"`},
		{"path", "smtp://mail.example.com:587/inbox?from=a@example.com", "must not have a path"},
		{"password without user", "smtp://:topsecret@mail.example.com?from=a@example.com", "password but no user"},
		{"from missing", "smtp://u:topsecret@mail.example.com:587", "needs the From address as parameter from=addr"},
		{"from not an address", "smtp://u:topsecret@mail.example.com:587?from=nobody", `from="nobody" is not a mail address`},
		{"from twice", "smtp://mail.example.com?from=a@example.com&from=b@example.com", `"from" is given more than once`},
		{"unknown parameter", "smtp://mail.example.com?from=a@example.com&tls=on", `unknown parameter "tls"`},
		{"bad insecure_skip_verify", "smtp://mail.example.com?from=a@example.com&insecure_skip_verify=yes please", "insecure_skip_verify"},
		{"unknown auth", "smtp://u:topsecret@mail.example.com?from=a@example.com&auth=cram-md5", `auth="cram-md5" must be plain, login or none`},
		{"plain auth without user", "smtp://mail.example.com?from=a@example.com&auth=plain", "auth=plain needs a user"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseURL(tt.raw)
			if err == nil {
				t.Fatalf("ParseURL(%q) succeeded, want error containing %q", tt.raw, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseURL(%q) error = %q, want it to contain %q", tt.raw, err, tt.wantErr)
			}
			if strings.Contains(err.Error(), "topsecret") {
				t.Errorf("ParseURL(%q) error %q repeats the password", tt.raw, err)
			}
		})
	}
}

// Russian subject long enough to need several encoded words, and a body with a long line.
const (
	russianSubject = "Ваш счёт №42 за услуги агентства оплачен полностью — спасибо, что выбираете нас!"
	russianBody    = "Здравствуйте, Иван!\n\nМы получили оплату по счёту №42. Это длинная строка, которую кодировщик quoted-printable обязан перенести мягким переносом, не меняя текста.\n\nС уважением,\nAgencyHub\n"
)

func TestSendDeliversToEveryRecipientAndHidesBccFromHeaders(t *testing.T) {
	srv := smtptest.Start(t, smtptest.RequireAuth("mailer", "s3cret"))
	s := NewSender(configFor(srv))

	err := s.Send(context.Background(), Mail{
		To:       []string{"ivan@client.test", "Мария <maria@client.test>"},
		Cc:       []string{"boss@agency.test"},
		Bcc:      []string{"archive@agency.test"},
		Subject:  russianSubject,
		TextBody: russianBody,
	})
	if err != nil {
		t.Fatalf("Send: %v", err)
	}

	got := srv.Messages()
	if len(got) != 1 {
		t.Fatalf("server received %d messages, want 1", len(got))
	}
	rcv := got[0]
	if rcv.AuthUser != "mailer" {
		t.Errorf("authenticated as %q, want mailer", rcv.AuthUser)
	}
	if rcv.From != testFrom {
		t.Errorf("envelope MAIL FROM = %q, want %q", rcv.From, testFrom)
	}
	wantRcpt := []string{"archive@agency.test", "boss@agency.test", "ivan@client.test", "maria@client.test"}
	gotRcpt := slices.Sorted(slices.Values(rcv.To))
	if !slices.Equal(gotRcpt, wantRcpt) {
		t.Errorf("envelope RCPT TO = %v, want %v", gotRcpt, wantRcpt)
	}

	seen := readMail(t, rcv.Data)
	if seen.Subject != russianSubject {
		t.Errorf("Subject decodes to %q, want %q", seen.Subject, russianSubject)
	}
	if seen.Body != russianBody {
		t.Errorf("body = %q, want %q", seen.Body, russianBody)
	}
	if from := addresses(t, seen.Header, "From"); !slices.Equal(from, []string{testFrom}) {
		t.Errorf("From header = %v, want %s", from, testFrom)
	}
	if to := addresses(t, seen.Header, "To"); !slices.Equal(to, []string{"ivan@client.test", "maria@client.test"}) {
		t.Errorf("To header = %v", to)
	}
	if cc := addresses(t, seen.Header, "Cc"); !slices.Equal(cc, []string{"boss@agency.test"}) {
		t.Errorf("Cc header = %v", cc)
	}
	if seen.Header.Get("Bcc") != "" {
		t.Errorf("Bcc header is visible: %q", seen.Header.Get("Bcc"))
	}
	if strings.Contains(string(rcv.Data), "archive@agency.test") {
		t.Errorf("the bcc address appears in the message itself:\n%s", rcv.Data)
	}
	if seen.Header.Get("Date") == "" {
		t.Errorf("Date header missing: %v", seen.Header)
	}
	if id := seen.Header.Get("Message-Id"); !strings.HasSuffix(id, "@agencyhub.test>") {
		t.Errorf("Message-ID = %q, want one in the From domain", id)
	}
}

func TestSendFailsWithAWrongPassword(t *testing.T) {
	srv := smtptest.Start(t, smtptest.RequireAuth("mailer", "s3cret"))
	cfg := configFor(srv)
	cfg.Password = "wrong"

	err := NewSender(cfg).Send(context.Background(), Mail{To: []string{"ivan@client.test"}, Subject: "hi", TextBody: "hi"})
	if err == nil {
		t.Fatal("Send with a wrong password succeeded")
	}
	if !strings.Contains(err.Error(), "535") {
		t.Errorf("error = %q, want the server's 535 authentication failure", err)
	}
	if strings.Contains(err.Error(), "wrong") {
		t.Errorf("error %q repeats the password", err)
	}
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("server accepted %d messages", n)
	}
}

func TestSendAuthenticatesWithLOGINWhenAsked(t *testing.T) {
	srv := smtptest.Start(t, smtptest.RequireAuth("mailer", "s3cret"))
	cfg := configFor(srv)
	cfg.Auth = AuthLogin

	if err := NewSender(cfg).Send(context.Background(), Mail{To: []string{"ivan@client.test"}, Subject: "hi", TextBody: "hi"}); err != nil {
		t.Fatalf("Send: %v", err)
	}
	if got := srv.Messages(); len(got) != 1 || got[0].AuthUser != "mailer" {
		t.Fatalf("received %+v, want one message from authenticated user mailer", got)
	}
}

func TestSendWithoutAuthReachesAnOpenRelay(t *testing.T) {
	srv := smtptest.Start(t)
	cfg := configFor(srv)
	if cfg.Auth != AuthNone {
		t.Fatalf("config auth = %q, want none", cfg.Auth)
	}
	if err := NewSender(cfg).Send(context.Background(), Mail{Bcc: []string{"archive@agency.test"}, Subject: "only bcc", TextBody: "x"}); err != nil {
		t.Fatalf("Send: %v", err)
	}
	if got := srv.Messages(); len(got) != 1 || !slices.Equal(got[0].To, []string{"archive@agency.test"}) {
		t.Fatalf("received %+v, want one message to archive@agency.test", got)
	}
}

func TestSendUpgradesToTLSWhenTheServerOffersSTARTTLS(t *testing.T) {
	srv := smtptest.Start(t, smtptest.RequireAuth("mailer", "s3cret"), smtptest.STARTTLS(smtptest.SelfSignedCert(t)))
	cfg := configFor(srv)
	cfg.InsecureSkipVerify = true

	if err := NewSender(cfg).Send(context.Background(), Mail{To: []string{"ivan@client.test"}, Subject: russianSubject, TextBody: russianBody}); err != nil {
		t.Fatalf("Send: %v", err)
	}
	got := srv.Messages()
	if len(got) != 1 || !got[0].TLS {
		t.Fatalf("received %d messages (first over TLS: %v), want one over TLS", len(got), len(got) == 1 && got[0].TLS)
	}
}

func TestSendSpeaksImplicitTLSForSMTPS(t *testing.T) {
	srv := smtptest.Start(t, smtptest.RequireAuth("mailer", "s3cret"), smtptest.ImplicitTLS(smtptest.SelfSignedCert(t)))
	cfg := configFor(srv)
	cfg.InsecureSkipVerify = true

	if err := NewSender(cfg).Send(context.Background(), Mail{To: []string{"ivan@client.test"}, Subject: "hi", TextBody: "hi"}); err != nil {
		t.Fatalf("Send: %v", err)
	}
	if got := srv.Messages(); len(got) != 1 || !got[0].TLS {
		t.Fatalf("received %+v, want one message over TLS", got)
	}
}

func TestSendRefusesAnUntrustedCertificateUnlessVerificationIsSkipped(t *testing.T) {
	for _, tt := range []struct {
		name string
		opt  func(*testing.T) smtptest.Option
	}{
		{"STARTTLS", func(t *testing.T) smtptest.Option { return smtptest.STARTTLS(smtptest.SelfSignedCert(t)) }},
		{"implicit TLS", func(t *testing.T) smtptest.Option { return smtptest.ImplicitTLS(smtptest.SelfSignedCert(t)) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := smtptest.Start(t, tt.opt(t))
			err := NewSender(configFor(srv)).Send(context.Background(), Mail{To: []string{"ivan@client.test"}, Subject: "hi", TextBody: "hi"})
			if err == nil || !strings.Contains(err.Error(), "certificate") {
				t.Fatalf("Send to a self-signed server = %v, want a certificate error", err)
			}
			if n := len(srv.Messages()); n != 0 {
				t.Errorf("server accepted %d messages", n)
			}
		})
	}
}

func TestSendRejectsAMailWithoutRecipientsOrWithABadAddress(t *testing.T) {
	srv := smtptest.Start(t)
	s := NewSender(configFor(srv))
	for _, m := range []Mail{
		{Subject: "nobody", TextBody: "x"},
		{To: []string{"not an address"}, Subject: "bad", TextBody: "x"},
	} {
		if err := s.Send(context.Background(), m); err == nil {
			t.Errorf("Send(%+v) succeeded", m)
		}
	}
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("server accepted %d messages", n)
	}
}

func TestSendGivesUpWhenTheContextEnds(t *testing.T) {
	srv := smtptest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	start := time.Now()
	if err := NewSender(configFor(srv)).Send(ctx, Mail{To: []string{"ivan@client.test"}, Subject: "hi", TextBody: "hi"}); err == nil {
		t.Fatal("Send with an expired context succeeded")
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("Send took %v after its context expired", elapsed)
	}
}
