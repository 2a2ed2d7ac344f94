package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"agencyhub/engine/intake"
	"agencyhub/migrations/dbtest"
	"agencyhub/models/integration/integrationtest"
	"agencyhub/models/relay"
)

// withRelay gives the server its messenger relay, on the server's clock.
// addRelayIDs gives the fixture's project a messenger_a.bot integration with a relay, and
// records its relay key and a forwarded bot API method.
func (e *env) addRelayIDs(u user, ids map[string]string) {
	e.t.Helper()
	dep := e.do(req{method: "POST", path: "/api/v1/projects/" + ids["project_id"] + "/action-dependencies", token: u.token, body: map[string]any{
		"dependency_type_key": "messenger_a.bot", "name": "Fixture bot",
		"metadata": map[string]any{"api_base_url": "http://127.0.0.1:9"}, "auth": map[string]any{"bot_token": "42:fixture-bot-token"},
	}}).expect(e.t, http.StatusCreated).str("action_dependency_id")
	rotated := e.do(req{method: "POST", path: "/api/v1/projects/" + ids["project_id"] + "/action-dependencies/" + dep + "/messenger_a-relay-webhook-secret/rotate",
		token: u.token}).expect(e.t, http.StatusOK)
	ids["relay_key"], ids["method"] = rotated.str("relay_key"), "getMe"
}

const relayBotToken = "777000:AAH-relay_bot_secret_token"

// relayWorld is a project with a messenger_a.bot integration on a local bot API, its relay,
// and a published workflow that answers bot updates.
type relayWorld struct {
	e                *env
	owner            user
	projectID, depID string
	bot              *integrationtest.BotAPI
	relayKey, secret string
}

func newRelayWorld(t *testing.T, e *env) *relayWorld {
	t.Helper()
	w := newBotProject(t, e)
	w.publishDialog(t)
	return w
}

// newBotProject is a relay world without workflows.
func newBotProject(t *testing.T, e *env) *relayWorld {
	t.Helper()
	w := &relayWorld{e: e, owner: e.signUp("Ada")}
	w.projectID = e.projectIn(w.owner, e.companyOf(w.owner, "Northwind"), "Bots")
	w.bot = integrationtest.StartMessengerA(t, relayBotToken, "northwind_bot")
	w.depID = e.do(req{method: "POST", path: "/api/v1/projects/" + w.projectID + "/action-dependencies", token: w.owner.token, body: map[string]any{
		"dependency_type_key": "messenger_a.bot", "name": "Support bot",
		"metadata": map[string]any{"api_base_url": w.bot.URL}, "auth": map[string]any{"bot_token": relayBotToken},
	}}).expect(t, http.StatusCreated).str("action_dependency_id")
	rotated := e.do(req{method: "POST", path: w.depPath() + "/messenger_a-relay-webhook-secret/rotate", token: w.owner.token}).expect(t, http.StatusOK)
	w.relayKey, w.secret = rotated.str("relay_key"), rotated.str("webhook_secret")
	if w.secret == "" || rotated.str("webhook_secret_masked") != w.secret[:4]+"****" || rotated.str("mode") != "webhook" ||
		rotated.str("webhook_url") != "http://api.test/messenger_a/relay/"+w.relayKey || rotated.str("secret_header") != "X-Bot-Api-Secret-Token" {
		t.Fatalf("rotate answered %s", rotated.Body)
	}
	return w
}

func (w *relayWorld) depPath() string {
	return "/api/v1/projects/" + w.projectID + "/action-dependencies/" + w.depID
}

// publishDialog publishes a workflow that, for a message saying /start, remembers the
// chat's state, and for any other message answers with the state the chat had.
func (w *relayWorld) publishDialog(t *testing.T) {
	t.Helper()
	w.publish(t, "Dialog", map[string]any{
		"actions": []any{
			// allowed_updates defaults to ["message"].
			map[string]any{"action_key": "incoming", "action_type_key": "messenger_a.relay.trigger", "config": map[string]any{
				"action_dependency_id": w.depID}},
			map[string]any{"action_key": "is_start", "action_type_key": "condition.branch", "config": map[string]any{
				"text": `messenger_a_relay.message.text == "/start"`}},
			map[string]any{"action_key": "remember", "action_type_key": "bot.set_state", "config": map[string]any{
				"state_key": "awaiting_email", "merge_context": true,
				"context_json": map[string]any{"name": "{{ bot.message.from.first_name }}", "command": "{{ messenger_a_relay.command }}"}}},
			map[string]any{"action_key": "reply", "action_type_key": "messenger_a.send_message", "config": map[string]any{
				"action_dependency_id": w.depID, "chat_id": "{{ messenger_a_relay.chat.id }}",
				"text": "state {{ bot_session.state_key }} of {{ bot_session.context_json.name }} at update {{ messenger_a.update_id }}: {{ bot.message.text }}"}},
		},
		"connections": []any{
			map[string]any{"from": "incoming", "to": "is_start"},
			map[string]any{"from": "is_start", "to": "remember", "branch": "true"},
			map[string]any{"from": "is_start", "to": "reply", "branch": "false"},
		},
	})
}

// publish creates a workflow of the project with graph as its draft and publishes it.
func (w *relayWorld) publish(t *testing.T, name string, graph map[string]any) {
	t.Helper()
	w.e.publishGraph(w.owner, w.projectID, name, graph)
}

// message is a bot update with a text message from Ada in chat.
func message(updateID int, chat int64, text string) map[string]any {
	return map[string]any{"update_id": updateID, "message": map[string]any{
		"message_id": updateID * 10, "date": 1767225600, "text": text,
		"chat": map[string]any{"id": chat, "type": "private"},
		"from": map[string]any{"id": chat, "is_bot": false, "first_name": "Ada"},
	}}
}

// deliver posts an update to the public relay endpoint with a secret.
func (w *relayWorld) deliver(update map[string]any, secret string) *response {
	return w.e.do(req{method: "POST", path: "/messenger_a/relay/" + w.relayKey, body: update,
		header: map[string]string{"X-Bot-Api-Secret-Token": secret}})
}

// runsOf returns the run ids a delivery answered, waiting for each run to finish and
// requiring that it succeeded.
func (w *relayWorld) runsOf(t *testing.T, resp *response) []string {
	t.Helper()
	raw, _ := resp.json["workflow_run_ids"].([]any)
	var ids []string
	for _, id := range raw {
		run := w.e.waitRun(w.owner, id.(string))
		if run.str("status") != "succeeded" {
			t.Fatalf("run %s: %s", id, run.Body)
		}
		ids = append(ids, id.(string))
	}
	return ids
}

func (w *relayWorld) storedUpdates(t *testing.T) []relay.Update {
	t.Helper()
	r, err := w.e.server.Relays.ByKey(context.Background(), w.relayKey)
	if err != nil {
		t.Fatal(err)
	}
	updates, err := w.e.server.Relays.Updates(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return updates
}

func TestRelayWebhookStoresUpdatesOnceAndCarriesTheBotState(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		w := newRelayWorld(t, e)

		t.Run("an update with the right secret is stored and starts the workflow, which saves the chat's state", func(t *testing.T) {
			resp := w.deliver(message(1, 42, "/start"), w.secret).expect(t, http.StatusOK)
			if resp.json["duplicate"] != false || resp.json["update_id"] != float64(1) {
				t.Fatalf("delivery: %s", resp.Body)
			}
			runs := w.runsOf(t, resp)
			if len(runs) != 1 {
				t.Fatalf("runs started: %v", runs)
			}
			actions := e.do(req{method: "GET", path: "/api/v1/runs/" + runs[0] + "/actions", token: w.owner.token}).expect(t, http.StatusOK).items()
			status := map[string]any{}
			for _, a := range actions {
				status[a["action_key"].(string)] = a["status"]
			}
			if status["remember"] != "succeeded" || status["reply"] != "skipped" {
				t.Fatalf("action states: %v", status)
			}
		})
		t.Run("the same update delivered again is accepted and ignored", func(t *testing.T) {
			resp := w.deliver(message(1, 42, "/start"), w.secret).expect(t, http.StatusOK)
			if resp.json["duplicate"] != true {
				t.Fatalf("second delivery: %s", resp.Body)
			}
			if n := len(w.storedUpdates(t)); n != 1 {
				t.Fatalf("%d updates stored, want 1", n)
			}
		})
		t.Run("a wrong or missing secret is refused and stores nothing", func(t *testing.T) {
			w.deliver(message(2, 42, "hello"), "not-the-secret").expect(t, http.StatusUnauthorized, "X-Bot-Api-Secret-Token")
			w.deliver(message(2, 42, "hello"), "").expect(t, http.StatusUnauthorized, "X-Bot-Api-Secret-Token")
			if n := len(w.storedUpdates(t)); n != 1 {
				t.Fatalf("%d updates stored, want 1", n)
			}
		})
		t.Run("an unknown relay key is not found", func(t *testing.T) {
			e.do(req{method: "POST", path: "/messenger_a/relay/" + strings.Repeat("x", 32), body: message(2, 42, "hello"),
				header: map[string]string{"X-Bot-Api-Secret-Token": w.secret}}).expect(t, http.StatusNotFound)
		})
		t.Run("the next update of the chat sees the state the first one saved", func(t *testing.T) {
			resp := w.deliver(message(2, 42, "ada@example.com"), w.secret).expect(t, http.StatusOK)
			if resp.json["duplicate"] != false {
				t.Fatalf("delivery: %s", resp.Body)
			}
			w.runsOf(t, resp)
			sent := w.bot.Sent()
			if len(sent) != 1 || sent[0]["chat_id"] != "42" || sent[0]["text"] != "state awaiting_email of Ada at update 2: ada@example.com" {
				t.Fatalf("the bot sent %v", sent)
			}
		})
		t.Run("another chat has no state", func(t *testing.T) {
			w.runsOf(t, w.deliver(message(3, 43, "hi"), w.secret).expect(t, http.StatusOK))
			sent := w.bot.Sent()
			if len(sent) != 2 || sent[1]["chat_id"] != "43" || sent[1]["text"] != "state  of  at update 3: hi" {
				t.Fatalf("the bot sent %v", sent)
			}
		})
		t.Run("an update of a type the trigger does not allow is stored but starts nothing", func(t *testing.T) {
			update := message(4, 42, "edited")
			update["edited_message"] = update["message"]
			delete(update, "message")
			resp := w.deliver(update, w.secret).expect(t, http.StatusOK)
			if ids, _ := resp.json["workflow_run_ids"].([]any); len(ids) != 0 {
				t.Fatalf("runs started: %s", resp.Body)
			}
			updates := w.storedUpdates(t)
			if len(updates) != 4 || updates[3].UpdateType != "edited_message" || updates[3].ChatID != "42" {
				t.Fatalf("stored %+v", updates)
			}
		})
		t.Run("a member may deliver through the API; another company's user gets 404", func(t *testing.T) {
			resp := e.do(req{method: "POST", path: "/api/v1/messenger_a/relay/" + w.relayKey, token: w.owner.token, body: message(5, 44, "/start")}).
				expect(t, http.StatusOK)
			if len(w.runsOf(t, resp)) != 1 {
				t.Fatalf("delivery: %s", resp.Body)
			}
			intruder := e.signUp("Mallory")
			e.companyOf(intruder, "Contoso")
			e.do(req{method: "POST", path: "/api/v1/messenger_a/relay/" + w.relayKey, token: intruder.token, body: message(6, 44, "/start")}).
				expect(t, http.StatusNotFound)
			if n := len(w.storedUpdates(t)); n != 5 {
				t.Fatalf("%d updates stored, want 5", n)
			}
		})
		t.Run("a rotated secret replaces the old one at once", func(t *testing.T) {
			rotated := e.do(req{method: "POST", path: w.depPath() + "/messenger_a-relay-webhook-secret/rotate", token: w.owner.token}).expect(t, http.StatusOK)
			if rotated.str("relay_key") != w.relayKey || rotated.str("webhook_secret") == w.secret {
				t.Fatalf("rotation: %s", rotated.Body)
			}
			w.deliver(message(7, 42, "x"), w.secret).expect(t, http.StatusUnauthorized)
			w.runsOf(t, w.deliver(message(7, 42, "x"), rotated.str("webhook_secret")).expect(t, http.StatusOK))
		})
	})
}

func TestRelayIsReadWithItsSecretMasked(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		owner := e.signUp("Ada")
		companyID := e.companyOf(owner, "Northwind")
		projectID := e.projectIn(owner, companyID, "Bots")
		deps := "/api/v1/projects/" + projectID + "/action-dependencies"
		depID := e.do(req{method: "POST", path: deps, token: owner.token, body: map[string]any{
			"dependency_type_key": "messenger_a.bot", "name": "Support bot", "auth": map[string]any{"bot_token": relayBotToken},
		}}).expect(t, http.StatusCreated).str("action_dependency_id")
		dep := deps + "/" + depID

		t.Run("an integration without a relay answers 404 relay_not_set_up", func(t *testing.T) {
			r := e.do(req{method: "GET", path: dep + "/messenger_a-relay", token: owner.token}).expect(t, http.StatusNotFound)
			if r.str("title") != "Relay not set up" {
				t.Fatalf("no relay answered %s", r.Body)
			}
		})

		t.Run("a relay is read as polling left it, its secret masked, by a viewer too", func(t *testing.T) {
			rotated := e.do(req{method: "POST", path: dep + "/messenger_a-relay-webhook-secret/rotate", token: owner.token}).expect(t, http.StatusOK)
			e.do(req{method: "POST", path: dep + "/messenger_a-relay-polling", token: owner.token, body: map[string]any{"enabled": true}}).
				expect(t, http.StatusOK)
			viewer := e.signUp("Vera")
			e.addToCompany(owner, companyID, viewer, "viewer")
			got := e.do(req{method: "GET", path: dep + "/messenger_a-relay", token: viewer.token}).expect(t, http.StatusOK)
			secret := rotated.str("webhook_secret")
			if got.str("relay_key") != rotated.str("relay_key") || got.str("mode") != "polling" ||
				got.str("webhook_secret_masked") != secret[:4]+"****" || strings.Contains(got.Body.String(), secret) {
				t.Fatalf("the relay read as %s", got.Body)
			}
		})
	})
}

func TestRelayPollingPullsUpdatesFromTheBotAPI(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		w := newRelayWorld(t, e)
		on := e.do(req{method: "POST", path: w.depPath() + "/messenger_a-relay-polling", token: w.owner.token, body: map[string]any{"enabled": true}}).
			expect(t, http.StatusOK)
		if on.str("mode") != "polling" || on.json["polling"].(map[string]any)["enabled"] != true {
			t.Fatalf("polling on: %s", on.Body)
		}
		if strings.Contains(on.Body.String(), w.secret) {
			t.Fatalf("the polling answer shows the webhook secret: %s", on.Body)
		}

		// Two pollers, as two instances would run: the lease lets one of them poll the bot.
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for i := range 2 {
			p := &intake.RelayPoller{Intake: e.server.Intake, BotAPI: e.server.BotAPI, Owner: fmt.Sprintf("instance-%d", i), Scan: 20 * time.Millisecond, LongPoll: time.Second}
			wg.Go(func() { p.Run(ctx) })
		}
		t.Cleanup(func() { cancel(); wg.Wait() })

		w.bot.AddUpdate(message(0, 42, "/start"))
		w.bot.AddUpdate(message(0, 42, "ada@example.com"))
		updates := waitFor(t, func() ([]relay.Update, bool) {
			u := w.storedUpdates(t)
			return u, len(u) == 2 && u[0].Status == relay.UpdateDispatched && u[1].Status == relay.UpdateDispatched
		})
		for _, u := range updates {
			if u.Source != relay.SourcePolling || len(u.RunIDs) != 1 {
				t.Fatalf("stored %+v", u)
			}
			if run := e.waitRun(w.owner, u.RunIDs[0].String()); run.str("status") != "succeeded" {
				t.Fatalf("run: %s", run.Body)
			}
		}
		// The runs start in order but may finish in any: the second sees the first's state
		// only if the first saved it before the second started, so check the state itself.
		r, _ := e.server.Relays.ByKey(context.Background(), w.relayKey)
		st, err := e.server.Relays.Session(context.Background(), r, "42")
		if err != nil || st.StateKey != "awaiting_email" || st.Context["name"] != "Ada" {
			t.Fatalf("bot session %+v, %v", st, err)
		}
		waitFor(t, func() (struct{}, bool) {
			r, _ := e.server.Relays.ByKey(context.Background(), w.relayKey)
			return struct{}{}, r.PollOffset == 3 && r.PollError == "" && r.PolledAt != nil
		})
		w.bot.AddUpdate(message(0, 42, "again"))
		waitFor(t, func() (struct{}, bool) { return struct{}{}, len(w.storedUpdates(t)) == 3 })

		off := e.do(req{method: "POST", path: w.depPath() + "/messenger_a-relay-polling", token: w.owner.token, body: map[string]any{"enabled": false}}).
			expect(t, http.StatusOK)
		if off.str("mode") != "webhook" {
			t.Fatalf("polling off: %s", off.Body)
		}
	})
}

// waitFor polls check until it reports done, for at most 30 seconds.
func waitFor[T any](t *testing.T, check func() (T, bool)) T {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		v, done := check()
		if done {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting; last %+v", v)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestBotAPIProxyForwardsAllowedMethodsWithTheStoredToken(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		w := newRelayWorld(t, e)
		proxy := "/api/v1/messenger_a/bot-api/" + w.relayKey + "/"

		t.Run("sendMessage reaches the bot API with the token and answers what the API said", func(t *testing.T) {
			resp := e.do(req{method: "POST", path: proxy + "sendMessage", token: w.owner.token,
				body: map[string]any{"params": map[string]any{"chat_id": "42", "text": "Hello from the proxy"}}}).expect(t, http.StatusOK)
			result, _ := resp.json["result"].(map[string]any)
			if resp.json["ok"] != true || result["message_id"] != float64(101) {
				t.Fatalf("answer %s", resp.Body)
			}
			if sent := w.bot.Sent(); len(sent) != 1 || sent[0]["text"] != "Hello from the proxy" {
				t.Fatalf("the bot API got %v", sent)
			}
		})
		t.Run("the API's refusal comes back as it is", func(t *testing.T) {
			// The local bot API knows no getChat: it answers 404 in the API's frame.
			resp := e.do(req{method: "POST", path: proxy + "getChat", token: w.owner.token, body: map[string]any{"params": map[string]any{"chat_id": 42}}}).
				expect(t, http.StatusOK)
			if resp.json["ok"] != false || resp.json["error_code"] != float64(404) {
				t.Fatalf("answer %s", resp.Body)
			}
		})
		t.Run("a method that is not forwarded is refused before any call", func(t *testing.T) {
			calls := w.bot.Calls()
			for _, method := range []string{"getUpdates", "getFile", "setWebhook", "logOut"} {
				e.do(req{method: "POST", path: proxy + method, token: w.owner.token}).expect(t, http.StatusBadRequest, "method")
			}
			if w.bot.Calls() != calls {
				t.Fatalf("the bot API was called")
			}
		})
		t.Run("another company's user gets 404, a caller without credentials 401", func(t *testing.T) {
			intruder := e.signUp("Mallory")
			e.companyOf(intruder, "Contoso")
			e.do(req{method: "POST", path: proxy + "getMe", token: intruder.token}).expect(t, http.StatusNotFound)
			e.do(req{method: "POST", path: proxy + "getMe"}).expect(t, http.StatusUnauthorized, "access_token")
		})
		t.Run("the token never shows, not even when the bot API cannot be reached", func(t *testing.T) {
			resp := e.do(req{method: "POST", path: proxy + "getMe", token: w.owner.token}).expect(t, http.StatusOK)
			if resp.json["ok"] != true || strings.Contains(resp.Body.String(), "relay_bot_secret_token") {
				t.Fatalf("answer %s", resp.Body)
			}
			e.do(req{method: "PATCH", path: w.depPath(), token: w.owner.token, body: map[string]any{"metadata": map[string]any{"api_base_url": "http://127.0.0.1:9"}}}).
				expect(t, http.StatusOK)
			down := e.do(req{method: "POST", path: proxy + "getMe", token: w.owner.token}).expect(t, http.StatusServiceUnavailable)
			if strings.Contains(down.Body.String(), "relay_bot_secret_token") {
				t.Fatalf("answer %s", down.Body)
			}
		})
		t.Run("a disabled integration's relay is not found", func(t *testing.T) {
			e.do(req{method: "PATCH", path: w.depPath(), token: w.owner.token, body: map[string]any{"status": "disabled"}}).expect(t, http.StatusOK)
			e.do(req{method: "POST", path: proxy + "getMe", token: w.owner.token}).expect(t, http.StatusNotFound)
			w.deliver(message(1, 42, "hi"), w.secret).expect(t, http.StatusNotFound)
		})
	})
}

func TestRelayNeedsAMessengerABotIntegration(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	u := e.signUp("Ada")
	projectID := e.projectIn(u, e.companyOf(u, "Northwind"), "Site")
	dep := e.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/action-dependencies", token: u.token, body: map[string]any{
		"dependency_type_key": "http.auth", "name": "API", "auth": map[string]any{"scheme": "bearer", "token": "token-0123456789abcdef"}}}).
		expect(t, http.StatusCreated).str("action_dependency_id")
	base := "/api/v1/projects/" + projectID + "/action-dependencies/" + dep
	e.do(req{method: "POST", path: base + "/messenger_a-relay-webhook-secret/rotate", token: u.token}).expect(t, http.StatusBadRequest, "action_dependency_id")
	e.do(req{method: "POST", path: base + "/messenger_a-relay-polling", token: u.token, body: map[string]any{"enabled": true}}).
		expect(t, http.StatusBadRequest, "action_dependency_id")
	e.do(req{method: "GET", path: base + "/messenger_a-relay", token: u.token}).expect(t, http.StatusBadRequest, "action_dependency_id")
}
