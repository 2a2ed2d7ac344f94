package relay_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/integration"
	"agencyhub/models/relay"
)

// world is a project with a messenger_a.bot integration and the relay service on a clock
// tests move.
type world struct {
	svc *relay.Service
	bot *integration.ActionDependency
	now time.Time
}

func newWorld(t *testing.T, db *dbtest.DB) *world {
	t.Helper()
	tenant := dbtest.NewTenant(t, db.DB, "northwind")
	w := &world{now: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
	w.svc = relay.NewService(db.DB, tenant.Keys.Sealer)
	w.svc.Now = func() time.Time { return w.now }
	var err error
	w.bot, err = integration.NewService(db.DB, tenant.Keys.Sealer, tenant.Catalog).CreateActionDependency(context.Background(),
		tenant.Company.ID, tenant.Project.ID, integration.ActionDependencyInput{
			DependencyTypeKey: "messenger_a.bot", Name: "Support bot",
			Metadata: map[string]any{"api_base_url": "http://127.0.0.1:9"}, Auth: map[string]any{"bot_token": "1:token"},
		})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestRelayKeysAndSecrets(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		w := newWorld(t, db)
		r, secret, err := w.svc.RotateWebhookSecret(ctx, w.bot)
		if err != nil {
			t.Fatal(err)
		}
		if !relay.KeyPattern.MatchString(r.RelayKey) || len(secret) < 40 || r.WebhookSecretMasked != secret[:4]+"****" {
			t.Fatalf("relay %+v, secret %q", r, secret)
		}
		again, err := w.svc.Ensure(ctx, w.bot)
		if err != nil || again.RelayKey != r.RelayKey {
			t.Fatalf("the relay key changed: %+v, %v", again, err)
		}
		cases := []struct {
			name, key, secret string
			kind              models.Kind
		}{
			{"the right secret passes", r.RelayKey, secret, ""},
			{"a wrong secret is unauthenticated", r.RelayKey, secret + "x", models.KindUnauthenticated},
			{"no secret is unauthenticated", r.RelayKey, "", models.KindUnauthenticated},
			{"an unknown key is not found", "unknown-key-unknown-key-0123456", secret, models.KindNotFound},
			{"a malformed key is invalid", "short", secret, models.KindInvalid},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				_, err := w.svc.Authenticate(ctx, c.key, c.secret)
				if (c.kind == "" && err != nil) || (c.kind != "" && !models.IsKind(err, c.kind)) {
					t.Fatalf("err = %v, want kind %q", err, c.kind)
				}
			})
		}
		_, rotated, err := w.svc.RotateWebhookSecret(ctx, w.bot)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.svc.Authenticate(ctx, r.RelayKey, secret); !models.IsKind(err, models.KindUnauthenticated) {
			t.Fatalf("the old secret still works: %v", err)
		}
		if _, err := w.svc.Authenticate(ctx, r.RelayKey, rotated); err != nil {
			t.Fatalf("the new secret: %v", err)
		}
	})
}

func TestUpdatesAreStoredOnce(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		w := newWorld(t, db)
		r, err := w.svc.Ensure(ctx, w.bot)
		if err != nil {
			t.Fatal(err)
		}
		raw := json.RawMessage(`{"update_id": 9007199254740993, "message": {"text": "/start@northwind_bot now", "chat": {"id": -1001234567890123}}}`)
		first, dup, err := w.svc.Save(ctx, r, raw, relay.SourceWebhook)
		if err != nil || dup || first.UpdateID != 9007199254740993 || first.ChatID != "-1001234567890123" || first.UpdateType != "message" {
			t.Fatalf("first save: %+v, %v, %v", first, dup, err)
		}
		second, dup, err := w.svc.Save(ctx, r, raw, relay.SourcePolling)
		if err != nil || !dup || second.ID != first.ID {
			t.Fatalf("second save: %+v, %v, %v", second, dup, err)
		}
		if updates, _ := w.svc.Updates(ctx, r); len(updates) != 1 {
			t.Fatalf("%d updates stored", len(updates))
		}
		if _, _, err := w.svc.Save(ctx, r, json.RawMessage(`{"message": {}}`), relay.SourceWebhook); !models.IsKind(err, models.KindInvalid) {
			t.Fatalf("an update without update_id: %v", err)
		}
	})
}

func TestParseTakesUpdatesApart(t *testing.T) {
	cases := []struct {
		name, raw                           string
		typ, chat, command, args, text, cbd string
	}{
		{"a command with the bot's name and arguments", `{"update_id": 1, "message": {"text": "/start@northwind_bot ref 42", "chat": {"id": 7}}}`,
			"message", "7", "/start", "ref 42", "/start@northwind_bot ref 42", ""},
		{"plain text has no command", `{"update_id": 2, "edited_message": {"text": "hello", "chat": {"id": "@news"}}}`,
			"edited_message", "@news", "", "", "hello", ""},
		{"a callback query carries its message and data", `{"update_id": 3, "callback_query": {"data": "yes", "from": {"id": 5}, "message": {"text": "Sure?", "chat": {"id": 5}}}}`,
			"callback_query", "5", "", "", "Sure?", "yes"},
		{"a membership change has a chat but no message", `{"update_id": 4, "my_chat_member": {"chat": {"id": 8}, "from": {"id": 9}}}`,
			"my_chat_member", "8", "", "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, _, err := relay.Parse(json.RawMessage(c.raw))
			if err != nil {
				t.Fatal(err)
			}
			text, _ := p.Message["text"].(string)
			if p.Type != c.typ || p.ChatID() != c.chat || p.Command != c.command || p.Args != c.args || text != c.text || p.CallbackData != c.cbd {
				t.Fatalf("parsed %+v", p)
			}
		})
	}
}

func TestOnePollerHoldsARelayAtATime(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		w := newWorld(t, db)
		r, err := w.svc.SetPolling(ctx, w.bot, true)
		if err != nil {
			t.Fatal(err)
		}
		now := w.now
		pollable, err := w.svc.PollableRelays(ctx, now)
		if err != nil || len(pollable) != 1 {
			t.Fatalf("pollable %v, %v", pollable, err)
		}
		a, err := w.svc.ClaimPollLease(ctx, r.ActionDependencyID, "a", now, now.Add(time.Minute))
		if err != nil || a == nil {
			t.Fatalf("a's claim: %v, %v", a, err)
		}
		if b, err := w.svc.ClaimPollLease(ctx, r.ActionDependencyID, "b", now, now.Add(time.Minute)); err != nil || b != nil {
			t.Fatalf("b claimed a held lease: %v, %v", b, err)
		}
		if pollable, _ := w.svc.PollableRelays(ctx, now); len(pollable) != 0 {
			t.Fatalf("a held relay is listed as pollable")
		}
		if kept, err := w.svc.RenewPollLease(ctx, a, "a", now.Add(2*time.Minute), 5, ""); err != nil || !kept {
			t.Fatalf("a's renewal: %v, %v", kept, err)
		}
		// a stops renewing; once the lease runs out b takes over, and a learns it lost it.
		later := now.Add(3 * time.Minute)
		b, err := w.svc.ClaimPollLease(ctx, r.ActionDependencyID, "b", later, later.Add(time.Minute))
		if err != nil || b == nil || b.PollOffset != 5 {
			t.Fatalf("b's claim after expiry: %+v, %v", b, err)
		}
		if kept, _ := w.svc.RenewPollLease(ctx, a, "a", later.Add(time.Minute), 6, ""); kept {
			t.Fatal("a renewed a lease b holds")
		}
		// Back to webhook mode: b's next renewal fails, and nothing is pollable.
		if _, err := w.svc.SetPolling(ctx, w.bot, false); err != nil {
			t.Fatal(err)
		}
		if kept, _ := w.svc.RenewPollLease(ctx, b, "b", later.Add(time.Minute), 6, ""); kept {
			t.Fatal("b renewed the lease of a relay in webhook mode")
		}
		if err := w.svc.ReleasePollLease(ctx, b, "b"); err != nil {
			t.Fatal(err)
		}
		if pollable, _ := w.svc.PollableRelays(ctx, later.Add(time.Hour)); len(pollable) != 0 {
			t.Fatalf("a relay in webhook mode is pollable")
		}
	})
}

func TestSetRunChatStateMergesOrReplacesTheContext(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		w := newWorld(t, db)
		wf := automation.Workflow{ID: models.NewID(), CompanyID: w.bot.CompanyID, ProjectID: w.bot.ProjectID, Name: "Dialog",
			DraftActions: "[]", DraftConnections: "[]", DraftTestInput: "{}", DraftUpdatedAt: w.now, CreatedBy: models.NewID(),
			CreatedAt: w.now, UpdatedAt: w.now}
		if err := db.Create(&wf).Error; err != nil {
			t.Fatal(err)
		}
		newRun := func(namespaces string) uuid.UUID {
			r := automation.Run{ID: models.NewID(), CompanyID: wf.CompanyID, ProjectID: wf.ProjectID, WorkflowID: wf.ID,
				Status: automation.RunRunning, TriggerType: "relay", Input: "{}", Namespaces: namespaces, Graph: "{}",
				CreatedAt: w.now, UpdatedAt: w.now}
			if err := db.Create(&r).Error; err != nil {
				t.Fatal(err)
			}
			return r.ID
		}
		relayRun := newRun(`{"messenger_a_relay": {"action_dependency_id": "` + w.bot.ID.String() + `", "chat": {"id": -100123}}}`)
		set := func(state string, c map[string]any, merge bool) map[string]any {
			t.Helper()
			saved, err := w.svc.SetRunChatState(ctx, wf.CompanyID, wf.ProjectID, relayRun, state, c, merge)
			if err != nil {
				t.Fatal(err)
			}
			return saved
		}
		set("asked_name", map[string]any{"a": "1", "b": "2"}, false)
		if got := set("asked_email", map[string]any{"b": "3", "c": "4"}, true); len(got) != 3 || got["a"] != "1" || got["b"] != "3" {
			t.Fatalf("merged context %v", got)
		}
		if got := set("done", map[string]any{"d": "5"}, false); len(got) != 1 || got["d"] != "5" {
			t.Fatalf("replaced context %v", got)
		}
		r, _ := w.svc.Ensure(ctx, w.bot)
		st, err := w.svc.Session(ctx, r, "-100123")
		if err != nil || st.StateKey != "done" || len(st.Context) != 1 {
			t.Fatalf("session %+v, %v", st, err)
		}
		manual := newRun(`{}`)
		if _, err := w.svc.SetRunChatState(ctx, wf.CompanyID, wf.ProjectID, manual, "x", nil, false); !errors.Is(err, relay.ErrNoBotChat) {
			t.Fatalf("a run no update started: %v", err)
		}
	})
}
