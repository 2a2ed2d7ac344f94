package activities_test

import (
	"context"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/activities"
	"agencyhub/activities/egress"
	"agencyhub/activities/mailer/smtptest"
	"agencyhub/migrations/dbtest"
	"agencyhub/models/integration"
	"agencyhub/models/integration/integrationtest"
)

const botToken = "123456789:AAE-secret_token_of_the_bot"

// checkWorld is a project's action dependencies on a fixed clock and the connection test
// over an egress client that may reach the local provider servers.
type checkWorld struct {
	svc                  *integration.Service
	check                *activities.ProviderCheck
	companyID, projectID uuid.UUID
	now                  time.Time
}

func newCheckWorld(t *testing.T, db *dbtest.DB) *checkWorld {
	t.Helper()
	tenant := dbtest.NewTenant(t, db.DB, "northwind")
	policy, err := egress.ParsePolicy("127.0.0.0/8,::1,localhost")
	if err != nil {
		t.Fatal(err)
	}
	w := &checkWorld{companyID: tenant.Company.ID, projectID: tenant.Project.ID, now: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
	w.svc = integration.NewService(db.DB, tenant.Keys.Sealer, tenant.Catalog)
	w.svc.Now = func() time.Time { return w.now }
	w.check = &activities.ProviderCheck{Store: w.svc, Policy: policy, Client: egress.NewClient(policy, egress.DefaultMaxBody)}
	return w
}

// create adds a dependency to the world's project.
func (w *checkWorld) create(t *testing.T, in integration.ActionDependencyInput) *integration.ActionDependency {
	t.Helper()
	return integrationtest.Create(t, w.svc, w.companyID, w.projectID, in)
}

func startBotA(t *testing.T) *integrationtest.BotAPI {
	return integrationtest.StartMessengerA(t, botToken, "agency_support_bot")
}

func smtpServer(host string, port int, user, pass string) integration.ActionDependencyInput {
	return integration.ActionDependencyInput{
		DependencyTypeKey: "smtp.server", Name: "Mail",
		Metadata: map[string]any{"host": host, "port": port, "security": "starttls", "from": "noreply@example.com"},
		Auth:     map[string]any{"username": user, "password": pass},
	}
}

// closedLoopbackPort is a loopback port nothing listens on.
func closedLoopbackPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

func TestProviderCheck(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		w := newCheckWorld(t, db)
		ctx := context.Background()
		// test runs Test and checks the stored result equals the answered one.
		test := func(t *testing.T, d *integration.ActionDependency) (*integration.ActionDependency, integration.TestResult) {
			t.Helper()
			out, r, err := w.check.Test(ctx, d)
			if err != nil {
				t.Fatalf("Test: %v", err)
			}
			if stored := out.LastTest(); stored == nil || *stored != r || !r.CheckedAt.Equal(w.now) {
				t.Fatalf("stored %+v, answered %+v", stored, r)
			}
			return out, r
		}

		t.Run("a messenger_a bot whose token works is ok and its user name is recorded", func(t *testing.T) {
			api := startBotA(t)
			d, r := test(t, w.create(t, integrationtest.MessengerABot(api.URL, api.Token)))
			if r.Status != integration.TestOK || r.RetryClass != "" || !strings.Contains(r.Message, "@agency_support_bot") {
				t.Fatalf("result %+v", r)
			}
			if d.Metadata["bot_username"] != "agency_support_bot" || api.Calls() != 1 {
				t.Fatalf("metadata %v after %d calls", d.Metadata, api.Calls())
			}
		})

		t.Run("a messenger_a token the API refuses fails with retry class auth", func(t *testing.T) {
			api := startBotA(t)
			_, r := test(t, w.create(t, integrationtest.MessengerABot(api.URL, "111:wrong")))
			if r.Status != integration.TestFailed || r.RetryClass != "auth" || r.ReasonCode != "bot_token_rejected" {
				t.Fatalf("result %+v", r)
			}
			if strings.Contains(r.Message, "111:wrong") {
				t.Fatalf("the message repeats the token: %q", r.Message)
			}
		})

		t.Run("a messenger_b bot is tested with me, and a wrong token fails with auth", func(t *testing.T) {
			api := integrationtest.StartMessengerB(t, "b-token", "Agency")
			in := integration.ActionDependencyInput{DependencyTypeKey: "messenger_b.bot", Name: "B", Metadata: map[string]any{"api_base_url": api.URL}, Auth: map[string]any{"bot_token": "b-token"}}
			if _, r := test(t, w.create(t, in)); r.Status != integration.TestOK || !strings.Contains(r.Message, "Agency") {
				t.Fatalf("result %+v", r)
			}
			in.Auth = map[string]any{"bot_token": "other"}
			if _, r := test(t, w.create(t, in)); r.Status != integration.TestFailed || r.RetryClass != "auth" {
				t.Fatalf("result %+v", r)
			}
		})

		t.Run("a bot API that does not answer fails as transient", func(t *testing.T) {
			_, r := test(t, w.create(t, integrationtest.MessengerABot("http://127.0.0.1:"+strconv.Itoa(closedLoopbackPort(t)), botToken)))
			if r.Status != integration.TestFailed || r.RetryClass != "transient" || r.ReasonCode != "connection_failed" {
				t.Fatalf("result %+v", r)
			}
		})

		t.Run("a bot without api_base_url and no server default fails as validation", func(t *testing.T) {
			in := integrationtest.MessengerABot("", botToken)
			in.Metadata = map[string]any{}
			if _, r := test(t, w.create(t, in)); r.Status != integration.TestFailed || r.RetryClass != "validation" || r.ReasonCode != "api_base_url_missing" {
				t.Fatalf("result %+v", r)
			}
		})

		t.Run("an SMTP server that accepts the login is ok and receives no message", func(t *testing.T) {
			srv := smtptest.Start(t, smtptest.RequireAuth("mailer", "s3cret-password"))
			_, r := test(t, w.create(t, smtpServer(srv.Host, srv.Port, "mailer", "s3cret-password")))
			if r.Status != integration.TestOK {
				t.Fatalf("result %+v", r)
			}
			sessions := srv.Sessions()
			if len(sessions) != 1 || sessions[0].AuthUser != "mailer" || sessions[0].MailFrom {
				t.Fatalf("sessions %+v", sessions)
			}
		})

		t.Run("an SMTP login the server refuses fails with retry class auth", func(t *testing.T) {
			srv := smtptest.Start(t, smtptest.RequireAuth("mailer", "s3cret-password"))
			_, r := test(t, w.create(t, smtpServer(srv.Host, srv.Port, "mailer", "wrong-password")))
			if r.Status != integration.TestFailed || r.RetryClass != "auth" || r.ReasonCode != "smtp_auth_failed" {
				t.Fatalf("result %+v", r)
			}
			if strings.Contains(r.Message, "wrong-password") {
				t.Fatalf("the message repeats the password: %q", r.Message)
			}
		})

		t.Run("an SMTP server that is not there fails as transient", func(t *testing.T) {
			_, r := test(t, w.create(t, smtpServer("127.0.0.1", closedLoopbackPort(t), "mailer", "pw")))
			if r.Status != integration.TestFailed || r.RetryClass != "transient" {
				t.Fatalf("result %+v", r)
			}
		})

		t.Run("a provider on an address the egress policy refuses fails as validation without a call", func(t *testing.T) {
			strict := *w.check
			strict.Policy = egress.Policy{}
			strict.Client = egress.NewClient(egress.Policy{}, 0)
			api := startBotA(t)
			d := w.create(t, integrationtest.MessengerABot(api.URL, api.Token))
			if _, r, err := strict.Test(ctx, d); err != nil || r.RetryClass != "validation" || r.ReasonCode != "egress_refused" || api.Calls() != 0 {
				t.Fatalf("bot: result %+v, %v, %d calls", r, err, api.Calls())
			}
			srv := smtptest.Start(t, smtptest.RequireAuth("mailer", "pw"))
			d = w.create(t, smtpServer(srv.Host, srv.Port, "mailer", "pw"))
			if _, r, err := strict.Test(ctx, d); err != nil || r.ReasonCode != "egress_refused" || len(srv.Sessions()) != 0 {
				t.Fatalf("SMTP: result %+v, %v, sessions %v", r, err, srv.Sessions())
			}
		})

		t.Run("an http.auth credential has nothing to call and is untestable", func(t *testing.T) {
			d := w.create(t, integration.ActionDependencyInput{DependencyTypeKey: "http.auth", Name: "API", Auth: map[string]any{"scheme": "bearer", "token": "t"}})
			if _, r := test(t, d); r.Status != integration.TestUntestable || r.RetryClass != "" {
				t.Fatalf("result %+v", r)
			}
		})

		t.Run("a result is not stored when the credential changed during the test", func(t *testing.T) {
			api := startBotA(t)
			d := w.create(t, integrationtest.MessengerABot(api.URL, api.Token))
			if _, err := w.svc.RotateSecret(ctx, d, map[string]any{"bot_token": "5:other"}); err != nil {
				t.Fatal(err)
			}
			out, r, err := w.check.Test(ctx, d) // d is the copy read before the rotation
			if err != nil || r.Status != integration.TestOK || out.LastTest() != nil {
				t.Fatalf("result %+v, stored %v, %v", r, out.LastTest(), err)
			}
		})
	})
}
