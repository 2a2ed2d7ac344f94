package api_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
)

// publishQuiz publishes a workflow that asks a question after /quiz and waits a minute for
// the answer, and after /ping waits a second for an answer that does not come.
func (w *relayWorld) publishQuiz(t *testing.T) {
	t.Helper()
	send := func(key, text string) map[string]any {
		return map[string]any{"action_key": key, "action_type_key": "messenger_a.send_message", "config": map[string]any{
			"action_dependency_id": w.depID, "chat_id": "{{ messenger_a_relay.chat.id }}", "text": text}}
	}
	w.publish(t, "Quiz", map[string]any{
		"actions": []any{
			map[string]any{"action_key": "incoming", "action_type_key": "messenger_a.relay.trigger", "config": map[string]any{
				"action_dependency_id": w.depID}},
			map[string]any{"action_key": "is_quiz", "action_type_key": "condition.branch", "config": map[string]any{
				"text": `messenger_a_relay.command == "/quiz"`}},
			send("ask", "What is 2+2?"),
			map[string]any{"action_key": "answer", "action_type_key": "bot.wait_for_reply", "config": map[string]any{
				"timeout_seconds": 60, "allowed_updates": []any{"message"}, "state_key": "quiz"}},
			send("said", "You said {{ steps.answer.message.text }}"),
			send("too_slow", "Too slow"),
			map[string]any{"action_key": "is_ping", "action_type_key": "condition.branch", "config": map[string]any{
				"text": `messenger_a_relay.command == "/ping"`}},
			map[string]any{"action_key": "pong", "action_type_key": "bot.wait_for_reply", "config": map[string]any{"timeout_seconds": 1}},
			send("no_pong", "No pong"),
		},
		"connections": []any{
			map[string]any{"from": "incoming", "to": "is_quiz"},
			map[string]any{"from": "is_quiz", "to": "ask", "branch": "true"},
			map[string]any{"from": "ask", "to": "answer"},
			map[string]any{"from": "answer", "to": "said"},
			map[string]any{"from": "answer", "to": "too_slow", "branch": "timeout"},
			map[string]any{"from": "incoming", "to": "is_ping"},
			map[string]any{"from": "is_ping", "to": "pong", "branch": "true"},
			map[string]any{"from": "pong", "to": "no_pong", "branch": "timeout"},
		},
	})
}

// ids reads an array of ids of a delivery answer.
func ids(resp *response, field string) []string {
	raw, _ := resp.json[field].([]any)
	out := []string{}
	for _, id := range raw {
		out = append(out, id.(string))
	}
	return out
}

// texts are the texts the bot sent, in order.
func (w *relayWorld) texts() []string {
	var out []string
	for _, m := range w.bot.Sent() {
		out = append(out, m["chat_id"].(string)+": "+m["text"].(string))
	}
	return out
}

func TestBotWaitForReplyHoldsAConversation(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		w := newBotProject(t, e)
		w.publishQuiz(t)

		asked := w.deliver(message(1, 42, "/quiz"), w.secret).expect(t, http.StatusOK)
		quiz := ids(asked, "workflow_run_ids")
		if len(quiz) != 1 || len(ids(asked, "replied_run_ids")) != 0 {
			t.Fatalf("/quiz: %s", asked.Body)
		}
		e.awaitRun(w.owner, quiz[0], 30*time.Second, "waiting", func(r *response) bool { return r.str("status") == "waiting" })

		t.Run("while the run waits, the chat's state is the wait's and the question was asked", func(t *testing.T) {
			if got := w.texts(); !slices.Equal(got, []string{"42: What is 2+2?"}) {
				t.Fatalf("the bot sent %v", got)
			}
			r, err := e.server.Relays.ByKey(t.Context(), w.relayKey)
			if err != nil {
				t.Fatal(err)
			}
			if st, err := e.server.Relays.Session(t.Context(), r, "42"); err != nil || st.StateKey != "quiz" {
				t.Fatalf("chat state %+v, %v", st, err)
			}
		})
		t.Run("another chat's message does not answer it: it starts a run of its own", func(t *testing.T) {
			resp := w.deliver(message(2, 43, "4"), w.secret).expect(t, http.StatusOK)
			if len(ids(resp, "workflow_run_ids")) != 1 || len(ids(resp, "replied_run_ids")) != 0 {
				t.Fatalf("delivery: %s", resp.Body)
			}
			w.runsOf(t, resp)
		})
		t.Run("the same chat through another bot does not answer it", func(t *testing.T) {
			dep := e.do(req{method: "POST", path: "/api/v1/projects/" + w.projectID + "/action-dependencies", token: w.owner.token, body: map[string]any{
				"dependency_type_key": "messenger_a.bot", "name": "Sales bot",
				"metadata": map[string]any{"api_base_url": w.bot.URL}, "auth": map[string]any{"bot_token": "42:sales-bot-token"},
			}}).expect(t, http.StatusCreated).str("action_dependency_id")
			other := e.do(req{method: "POST", path: "/api/v1/projects/" + w.projectID + "/action-dependencies/" + dep + "/messenger_a-relay-webhook-secret/rotate",
				token: w.owner.token}).expect(t, http.StatusOK)
			resp := e.do(req{method: "POST", path: "/messenger_a/relay/" + other.str("relay_key"), body: message(3, 42, "5"),
				header: map[string]string{"X-Bot-Api-Secret-Token": other.str("webhook_secret")}}).expect(t, http.StatusOK)
			if len(ids(resp, "replied_run_ids")) != 0 {
				t.Fatalf("delivery: %s", resp.Body)
			}
		})
		t.Run("the chat's next message is the answer: the run goes on, and no other run starts", func(t *testing.T) {
			resp := w.deliver(message(4, 42, "4"), w.secret).expect(t, http.StatusOK)
			if replied := ids(resp, "replied_run_ids"); !slices.Equal(replied, quiz) || len(ids(resp, "workflow_run_ids")) != 0 {
				t.Fatalf("delivery: %s", resp.Body)
			}
			if run := e.waitRun(w.owner, quiz[0]); run.str("status") != "succeeded" {
				t.Fatalf("run: %s", run.Body)
			}
			if got := w.texts(); !slices.Equal(got, []string{"42: What is 2+2?", "42: You said 4"}) {
				t.Fatalf("the bot sent %v", got)
			}
			status := map[string]any{}
			for _, a := range e.do(req{method: "GET", path: "/api/v1/runs/" + quiz[0] + "/actions", token: w.owner.token}).expect(t, http.StatusOK).items() {
				status[a["action_key"].(string)] = a["status"]
				if a["action_key"] == "answer" {
					output, _ := a["output_json"].(map[string]any)
					message, _ := output["message"].(map[string]any)
					if output["timed_out"] != false || message["text"] != "4" || output["update_type"] != "message" {
						t.Fatalf("answer output: %v", output)
					}
				}
			}
			if status["said"] != "succeeded" || status["too_slow"] != "skipped" {
				t.Fatalf("action states: %v", status)
			}
		})
		t.Run("a wait that times out takes the timeout branch, and the chat's next message starts runs again", func(t *testing.T) {
			resp := w.deliver(message(5, 44, "/ping"), w.secret).expect(t, http.StatusOK)
			ping := w.runsOf(t, resp)
			if len(ping) != 1 || !slices.Contains(w.texts(), "44: No pong") {
				t.Fatalf("runs %v, the bot sent %v", ping, w.texts())
			}
			e.advance(time.Second) // the server's clock, which the recorded wait expires by
			later := w.deliver(message(6, 44, "pong"), w.secret).expect(t, http.StatusOK)
			if len(ids(later, "workflow_run_ids")) != 1 || len(ids(later, "replied_run_ids")) != 0 {
				t.Fatalf("delivery after the timeout: %s", later.Body)
			}
		})
	})
}
