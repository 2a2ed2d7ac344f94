package api_test

import (
	"net/http"
	"strings"
	"testing"

	"agencyhub/migrations/dbtest"
	"agencyhub/models/integration/integrationtest"
)

// TestSendActionsUseProjectTemplates: a messenger send naming a message template sends the
// template's text rendered with the run's variables (system.run_url opens the run in the
// console); a template deleted since publishing is refused before anything runs.
func TestSendActionsUseProjectTemplates(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		ada := e.signUp("Ada")
		projectID := e.projectIn(ada, e.companyOf(ada, "Northwind"), "Site")
		base := "/api/v1/projects/" + projectID
		bot := integrationtest.StartMessengerA(t, botSecret, "northwind_bot")
		botID := e.do(req{method: "POST", path: base + "/action-dependencies", token: ada.token, body: map[string]any{
			"dependency_type_key": "messenger_a.bot", "name": "Bot",
			"metadata": map[string]any{"api_base_url": bot.URL}, "auth": map[string]any{"bot_token": botSecret},
		}}).expect(t, http.StatusCreated).str("action_dependency_id")
		templateID := e.do(req{method: "POST", path: base + "/message-templates", token: ada.token, body: map[string]any{
			"name": "Greeting", "text": "Hello {{ start.customer }}, run {{ system.run_id }} at {{ system.run_url }}",
		}}).expect(t, http.StatusCreated).str("message_template_id")

		flow := func(t *testing.T, templateID string) string {
			t.Helper()
			id := e.do(req{method: "POST", path: base + "/workflows", token: ada.token, body: map[string]any{"name": "Greet"}}).
				expect(t, http.StatusCreated).str("workflow_id")
			e.do(req{method: "PUT", path: "/api/v1/workflows/" + id + "/draft", token: ada.token, body: map[string]any{
				"actions": []any{
					map[string]any{"action_key": "start", "action_type_key": "manual.trigger", "config": map[string]any{}},
					map[string]any{"action_key": "greet", "action_type_key": "messenger_a.send_message", "config": map[string]any{
						"action_dependency_id": botID, "chat_id": "42", "message_template_id": templateID}},
				},
				"connections": []any{map[string]any{"from": "start", "to": "greet"}},
			}}).expect(t, http.StatusOK)
			e.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/publish", token: ada.token}).expect(t, http.StatusCreated)
			return id
		}

		t.Run("the template's text is sent, rendered with the run's variables", func(t *testing.T) {
			id := flow(t, templateID)
			run := e.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/runs/manual", token: ada.token,
				body: map[string]any{"input": map[string]any{"customer": "Grace"}}}).expect(t, http.StatusAccepted)
			runID := run.str("workflow_run_id")
			if done := e.waitRun(ada, runID); done.str("status") != "succeeded" {
				t.Fatalf("run: %s", done.Body)
			}
			sent := bot.Sent()
			if len(sent) != 1 || sent[0]["text"] != "Hello Grace, run "+runID+" at http://api.test/runs/"+runID {
				t.Fatalf("bot received %v", sent)
			}
		})
		t.Run("a template deleted since publishing is refused before anything runs", func(t *testing.T) {
			goneID := e.do(req{method: "POST", path: base + "/message-templates", token: ada.token, body: map[string]any{
				"name": "Soon gone", "text": "Bye",
			}}).expect(t, http.StatusCreated).str("message_template_id")
			id := flow(t, goneID)
			e.do(req{method: "DELETE", path: base + "/message-templates/" + goneID, token: ada.token}).expect(t, http.StatusNoContent)
			resp := e.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/runs/manual", token: ada.token}).
				expect(t, http.StatusBadRequest, "actions.greet.config.message_template_id")
			if !strings.Contains(resp.str("title"), "emplate") {
				t.Fatalf("problem: %s", resp.Body)
			}
			runs := e.do(req{method: "GET", path: "/api/v1/workflows/" + id + "/runs", token: ada.token}).expect(t, http.StatusOK).items()
			if len(runs) != 0 {
				t.Fatalf("a refused run was recorded: %v", runs)
			}
		})
	})
}
