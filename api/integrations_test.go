package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"agencyhub/activities/mailer/smtptest"
	"agencyhub/migrations/dbtest"
	"agencyhub/models/integration"
	"agencyhub/models/integration/integrationtest"
)

// newIntegrationService is the env's integration service. Its egress may reach loopback,
// where the tests' stand-ins for the providers listen.
// addIntegrationIDs creates one integration and one template of each kind in the project
// ids["project_id"] names and adds their ids to ids under the names of their path
// parameters, for tests that call every operation of the contract.
func (e *env) addIntegrationIDs(u user, ids map[string]string) {
	e.t.Helper()
	base := "/api/v1/projects/" + ids["project_id"]
	post := func(path, idField string, body map[string]any) {
		ids[idField] = e.do(req{method: "POST", path: base + path, token: u.token, body: body}).expect(e.t, http.StatusCreated).str(idField)
	}
	post("/action-dependencies", "action_dependency_id", map[string]any{
		"dependency_type_key": "http.auth", "name": "Fixture API", "auth": map[string]any{"scheme": "bearer", "token": "fixture-token-0123456789"}})
	post("/email-templates", "email_template_id", map[string]any{"name": "Fixture mail", "subject": "Hello", "body": "Hi"})
	post("/message-templates", "message_template_id", map[string]any{"name": "Fixture text", "text": "Hi"})
}

const botSecret = "123456789:AAE-the_bot_secret_token"

func TestIntegrationActionDependencyAPI(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		base := newEnv(t, db)
		ada := base.signUp("Ada")
		companyID := base.companyOf(ada, "Northwind")
		projectID := base.projectIn(ada, companyID, "Site")
		siblingID := base.projectIn(ada, companyID, "Shop")
		deps := "/api/v1/projects/" + projectID + "/action-dependencies"
		bot := integrationtest.StartMessengerA(t, botSecret, "northwind_bot")
		mail := smtptest.Start(t, smtptest.RequireAuth("mailer@northwind.test", "mail-password"))

		// noSecret fails when a response body holds any of the secrets sent in this test.
		noSecret := func(t *testing.T, resp *response) {
			t.Helper()
			for _, secret := range []string{"the_bot_secret_token", "mail-password", "rotated_secret", "wrong-password"} {
				if strings.Contains(resp.Body.String(), secret) {
					t.Fatalf("response holds a secret: %s", resp.Body)
				}
			}
		}
		var botID, mailID string

		t.Run("create names every bad metadata and auth field", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "POST", path: deps, token: ada.token, body: map[string]any{
				"dependency_type_key": "messenger_a.bot", "name": "Bot",
				"metadata": map[string]any{"api_base_url": "ftp://bot.example"}, "auth": map[string]any{"bot_token": "no-bot-id"},
			}}).expect(t, http.StatusBadRequest, "metadata.api_base_url", "auth.bot_token")
			e.do(req{method: "POST", path: deps, token: ada.token, body: map[string]any{"dependency_type_key": "smtp.server", "name": "Mail"}}).
				expect(t, http.StatusBadRequest, "metadata.from", "metadata.host")
			e.do(req{method: "POST", path: deps, token: ada.token, body: map[string]any{"dependency_type_key": "fax.machine", "name": "Fax"}}).
				expect(t, http.StatusBadRequest, "dependency_type_key")
		})

		t.Run("create answers the integration with its auth masked and never the token", func(t *testing.T) {
			e := base.asSubtest(t)
			resp := e.do(req{method: "POST", path: deps, token: ada.token, body: map[string]any{
				"dependency_type_key": "messenger_a.bot", "name": "Support bot",
				"metadata": map[string]any{"api_base_url": bot.URL}, "auth": map[string]any{"bot_token": botSecret},
			}}).expect(t, http.StatusCreated)
			noSecret(t, resp)
			masked, _ := resp.json["auth_masked"].(map[string]any)
			if masked["bot_token"] != "1234****" || resp.str("status") != "active" || resp.str("provider_key") != "messenger_a" ||
				resp.json["last_test"] != nil || resp.str("project_id") != projectID {
				t.Fatalf("create answered %s", resp.Body)
			}
			botID = resp.str("action_dependency_id")
		})

		t.Run("the stored auth is encrypted", func(t *testing.T) {
			var row struct{ AuthSealed, AuthMasked string }
			if err := db.Raw("SELECT auth_sealed, auth_masked FROM action_dependencies WHERE id = ?", botID).Scan(&row).Error; err != nil {
				t.Fatal(err)
			}
			if row.AuthSealed == "" || strings.Contains(row.AuthSealed, "the_bot_secret_token") || strings.Contains(row.AuthMasked, "the_bot_secret_token") {
				t.Fatalf("stored auth %+v", row)
			}
		})

		t.Run("get and list show only masked auth", func(t *testing.T) {
			e := base.asSubtest(t)
			noSecret(t, e.do(req{method: "GET", path: deps + "/" + botID, token: ada.token}).expect(t, http.StatusOK))
			list := e.do(req{method: "GET", path: deps, token: ada.token}).expect(t, http.StatusOK)
			noSecret(t, list)
			if got := idsOf(list.items(), "action_dependency_id"); len(got) != 1 || got[0] != botID {
				t.Fatalf("list = %v", got)
			}
		})

		t.Run("test calls the bot API's getMe and stores the result", func(t *testing.T) {
			e := base.asSubtest(t)
			r := e.do(req{method: "POST", path: deps + "/" + botID + "/test", token: ada.token}).expect(t, http.StatusOK)
			if r.str("status") != "ok" || r.json["retry_class"] != nil || r.str("reason_code") != "ok" || r.str("checked_at") == "" {
				t.Fatalf("test answered %s", r.Body)
			}
			got := e.do(req{method: "GET", path: deps + "/" + botID, token: ada.token}).expect(t, http.StatusOK)
			last, _ := got.json["last_test"].(map[string]any)
			metadata, _ := got.json["metadata"].(map[string]any)
			if last["status"] != "ok" || metadata["bot_username"] != "northwind_bot" || bot.Calls() != 1 {
				t.Fatalf("after the test: %s (%d calls)", got.Body, bot.Calls())
			}
		})

		t.Run("a token the bot API refuses is a 200 with status failed and retry class auth", func(t *testing.T) {
			e := base.asSubtest(t)
			id := e.do(req{method: "POST", path: deps, token: ada.token, body: map[string]any{
				"dependency_type_key": "messenger_a.bot", "name": "Old bot",
				"metadata": map[string]any{"api_base_url": bot.URL}, "auth": map[string]any{"bot_token": "42:revoked-token"},
			}}).expect(t, http.StatusCreated).str("action_dependency_id")
			r := e.do(req{method: "POST", path: deps + "/" + id + "/test", token: ada.token}).expect(t, http.StatusOK)
			if r.str("status") != "failed" || r.str("retry_class") != "auth" || r.str("reason_code") != "bot_token_rejected" {
				t.Fatalf("test answered %s", r.Body)
			}
		})

		t.Run("an SMTP server is tested up to AUTH without sending mail", func(t *testing.T) {
			e := base.asSubtest(t)
			create := e.do(req{method: "POST", path: deps, token: ada.token, body: map[string]any{
				"dependency_type_key": "smtp.server", "name": "Mail",
				"metadata": map[string]any{"host": mail.Host, "port": mail.Port, "from": "noreply@northwind.test"},
				"auth":     map[string]any{"username": "mailer@northwind.test", "password": "mail-password"},
			}}).expect(t, http.StatusCreated)
			noSecret(t, create)
			mailID = create.str("action_dependency_id")
			masked, _ := create.json["auth_masked"].(map[string]any)
			if masked["password"] != "****" || masked["username"] != "mailer@northwind.test" {
				t.Fatalf("auth_masked %v", masked)
			}
			r := e.do(req{method: "POST", path: deps + "/" + mailID + "/test", token: ada.token}).expect(t, http.StatusOK)
			sessions := mail.Sessions()
			if r.str("status") != "ok" || len(sessions) != 1 || sessions[0].AuthUser != "mailer@northwind.test" || sessions[0].MailFrom {
				t.Fatalf("test answered %s; sessions %+v", r.Body, sessions)
			}
		})

		t.Run("rotate replaces the credential, shows it masked and clears the last test", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "POST", path: deps + "/" + mailID + "/rotate-secret", token: ada.token, body: map[string]any{"auth": map[string]any{"username": "x"}}}).
				expect(t, http.StatusBadRequest, "auth.password")
			r := e.do(req{method: "POST", path: deps + "/" + mailID + "/rotate-secret", token: ada.token, body: map[string]any{
				"auth": map[string]any{"username": "mailer@northwind.test", "password": "wrong-password"},
			}}).expect(t, http.StatusOK)
			noSecret(t, r)
			if r.json["last_test"] != nil {
				t.Fatalf("rotate answered %s", r.Body)
			}
			dep, err := base.server.Integrations.Unseal(context.Background(), uuid.MustParse(companyID), uuid.MustParse(projectID), uuid.MustParse(mailID))
			if err != nil || dep.Auth["password"] != "wrong-password" {
				t.Fatalf("Dependency after rotation: %v, %v", dep, err)
			}
			test := e.do(req{method: "POST", path: deps + "/" + mailID + "/test", token: ada.token}).expect(t, http.StatusOK)
			if test.str("status") != "failed" || test.str("retry_class") != "auth" {
				t.Fatalf("test with the wrong password answered %s", test.Body)
			}
			noSecret(t, test)
		})

		t.Run("an http.auth credential is untestable", func(t *testing.T) {
			e := base.asSubtest(t)
			id := e.do(req{method: "POST", path: deps, token: ada.token, body: e.contract.ExampleBody(e.contract.Operation("POST", "/api/v1/projects/{project_id}/action-dependencies"))}).
				expect(t, http.StatusCreated).str("action_dependency_id")
			r := e.do(req{method: "POST", path: deps + "/" + id + "/test", token: ada.token}).expect(t, http.StatusOK)
			if r.str("status") != "untestable" || r.json["retry_class"] != nil {
				t.Fatalf("test answered %s", r.Body)
			}
		})

		t.Run("another project's integration is not found, through the API and for the actions", func(t *testing.T) {
			e := base.asSubtest(t)
			other := "/api/v1/projects/" + siblingID + "/action-dependencies/" + botID
			e.do(req{method: "GET", path: other, token: ada.token}).expect(t, http.StatusNotFound)
			e.do(req{method: "POST", path: other + "/test", token: ada.token}).expect(t, http.StatusNotFound)
			e.do(req{method: "DELETE", path: other, token: ada.token}).expect(t, http.StatusNotFound)
			_, err := base.server.Integrations.Unseal(context.Background(), uuid.MustParse(companyID), uuid.MustParse(siblingID), uuid.MustParse(botID))
			if err != integration.ErrActionDependencyNotFound {
				t.Fatalf("Dependency from the sibling project: %v", err)
			}
		})

		t.Run("viewers read but may not create; members may not change credentials", func(t *testing.T) {
			e := base.asSubtest(t)
			viewer, member := e.signUp("Vera"), e.signUp("Max")
			e.addToCompany(ada, companyID, viewer, "viewer")
			e.addToCompany(ada, companyID, member, "member")
			body := map[string]any{"dependency_type_key": "http.auth", "name": "Viewer's", "auth": map[string]any{"scheme": "bearer", "token": "t"}}
			e.do(req{method: "POST", path: deps, token: viewer.token, body: body}).expect(t, http.StatusForbidden)
			e.do(req{method: "GET", path: deps + "/" + botID, token: viewer.token}).expect(t, http.StatusOK)
			e.do(req{method: "POST", path: deps, token: member.token, body: body}).expect(t, http.StatusForbidden)
			e.do(req{method: "POST", path: deps + "/" + botID + "/test", token: member.token}).expect(t, http.StatusForbidden)
		})

		t.Run("patch renames and disables; a taken name is a conflict", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "PATCH", path: deps + "/" + botID, token: ada.token, body: map[string]any{"name": "Mail"}}).expect(t, http.StatusConflict, "name")
			e.do(req{method: "PATCH", path: deps + "/" + botID, token: ada.token, body: map[string]any{"metadata": map[string]any{"api_base_url": 1}}}).
				expect(t, http.StatusBadRequest, "metadata.api_base_url")
			r := e.do(req{method: "PATCH", path: deps + "/" + botID, token: ada.token, body: map[string]any{"name": "Sales bot", "status": "disabled"}}).expect(t, http.StatusOK)
			if r.str("name") != "Sales bot" || r.str("status") != "disabled" || r.json["last_test"] == nil {
				t.Fatalf("patch answered %s", r.Body)
			}
		})

		t.Run("delete answers 204 and the integration is gone", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "DELETE", path: deps + "/" + botID, token: ada.token}).expect(t, http.StatusNoContent)
			e.do(req{method: "GET", path: deps + "/" + botID, token: ada.token}).expect(t, http.StatusNotFound)
		})
	})
}

// TestAModelProviderOnAnAddressTheEgressPolicyRefusesIsRefusedAtOnce: a base URL in a
// private network (a local model the operator has not allowed) is refused as it is saved,
// created or changed, naming the field and the setting that allows it, in the reader's
// language; nothing is stored.
func TestAModelProviderOnAnAddressTheEgressPolicyRefusesIsRefusedAtOnce(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	ada := e.signUp("Ada")
	projectID := e.projectIn(ada, e.companyOf(ada, "Northwind"), "Site")
	deps := "/api/v1/projects/" + projectID + "/action-dependencies"
	provider := func(baseURL string) map[string]any {
		return map[string]any{"dependency_type_key": "ai.model_provider", "name": "Local model",
			"metadata": map[string]any{"base_url": baseURL, "default_model": "llama3"}, "auth": map[string]any{"api_key": "sk-local-0123456789"}}
	}
	refused := e.do(req{method: "POST", path: deps, token: ada.token, body: provider("http://192.168.1.20:11434/v1"),
		header: map[string]string{"Accept-Language": "ru"}}).expect(t, http.StatusBadRequest, "metadata.base_url")
	if !strings.Contains(refused.str("action"), "APP_EGRESS_ALLOW") || !strings.Contains(refused.str("detail"), "Политика исходящих соединений") {
		t.Fatalf("the refusal says %s", refused.Body)
	}
	if items := e.do(req{method: "GET", path: deps, token: ada.token}).expect(t, http.StatusOK).items(); len(items) != 0 {
		t.Fatalf("the refused integration was stored: %v", items)
	}
	id := e.do(req{method: "POST", path: deps, token: ada.token, body: provider("https://api.example.com/v1")}).
		expect(t, http.StatusCreated).str("action_dependency_id")
	e.do(req{method: "PATCH", path: deps + "/" + id, token: ada.token,
		body: map[string]any{"metadata": map[string]any{"base_url": "http://10.0.0.5/v1"}}}).expect(t, http.StatusBadRequest, "metadata.base_url")
}
