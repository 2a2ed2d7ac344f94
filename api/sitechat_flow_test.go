package api_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"agencyhub/api"
	"agencyhub/migrations/dbtest"
	"agencyhub/models/sitechat"
)

func TestSiteChatVisitorTokenAttacks(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		site := e.chatSite("Ada")
		victim := e.visitor(site.publicKey, "victim-0123456789abcdef")
		e.do(victim.as(req{method: "POST", path: "/api/v1/public/site-chat/messages", body: map[string]any{"body": "my card ends 4242"}})).expect(t, http.StatusCreated)
		attacker := e.visitor(site.publicKey, "attacker-0123456789abcdef")
		otherSite := e.chatSite("Eve")
		foreign := e.visitor(otherSite.publicKey, "foreign-0123456789abcdef")
		victimMessages := "/api/v1/public/site-chat/conversations/" + victim.conversationID + "/messages"
		batch := func(v chatVisitor) map[string]any {
			return map[string]any{"public_key": site.publicKey, "visitor_id": v.visitorID, "visit_session_id": v.sessionID, "events": []any{map[string]any{"event_type": "page_view"}}}
		}
		cases := []struct {
			name string
			r    req
		}{
			{"no token reads no conversation", req{method: "GET", path: victimMessages}},
			{"a garbage token reads no conversation", req{method: "GET", path: victimMessages, header: map[string]string{"X-Visitor-Token": "garbage"}}},
			{"an operator's access token is no visitor token", req{method: "GET", path: victimMessages, header: map[string]string{"X-Visitor-Token": site.owner.token}}},
			{"another visitor's token reads no conversation by its id", attacker.as(req{method: "GET", path: victimMessages})},
			{"a token of another widget reads no conversation", foreign.as(req{method: "GET", path: victimMessages})},
			{"another visitor's token posts into no conversation by its id", attacker.as(req{method: "POST", path: "/api/v1/public/site-chat/messages",
				body: map[string]any{"body": "hi", "conversation_id": victim.conversationID}})},
			{"a body naming another visitor is refused", attacker.as(req{method: "POST", path: "/api/v1/public/site-chat/messages",
				body: map[string]any{"body": "hi", "visitor_id": victim.visitorID}})},
			{"a body naming another session is refused", attacker.as(req{method: "POST", path: "/api/v1/public/site-chat/events", body: batch(victim)})},
			{"a body naming another widget is refused", foreign.as(req{method: "POST", path: "/api/v1/public/site-chat/conversations", body: map[string]any{"public_key": site.publicKey}})},
			{"no token sends no events", req{method: "POST", path: "/api/v1/public/site-chat/events", body: batch(victim)}},
			{"no token gets no voice config", req{method: "GET", path: "/api/v1/public/site-chat/voice-config"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { e.do(c.r).expect(t, http.StatusUnauthorized, "X-Visitor-Token") })
		}
		t.Run("another visitor's token uploads nothing into the conversation", func(t *testing.T) {
			e.uploadChatFile(attacker.as(req{path: "/api/v1/public/site-chat/conversations/" + victim.conversationID + "/attachments"}), "x.txt", []byte("x\n")).
				expect(t, http.StatusUnauthorized, "X-Visitor-Token")
		})
		t.Run("an unknown conversation is 404 whatever the token", func(t *testing.T) {
			e.do(attacker.as(req{method: "GET", path: "/api/v1/public/site-chat/conversations/" + attacker.sessionID + "/messages"})).expect(t, http.StatusNotFound)
		})
		t.Run("an expired token is refused; presence signs a fresh one", func(t *testing.T) {
			e.advance(12*time.Hour + time.Second)
			e.do(victim.as(req{method: "GET", path: victimMessages})).expect(t, http.StatusUnauthorized, "X-Visitor-Token")
			fresh := e.presence(site.publicKey, victim.anonymousID, map[string]any{"visit_session_id": victim.sessionID}).expect(t, http.StatusOK)
			victim.token = fresh.str("visitor_token")
			items := e.do(victim.as(req{method: "GET", path: victimMessages})).expect(t, http.StatusOK).items()
			if len(items) != 1 || items[0]["body"] != "my card ends 4242" {
				t.Fatalf("victim's messages: %v", items)
			}
		})
		t.Run("the attacks changed nothing", func(t *testing.T) {
			owner := e.signInAgain(site.owner)
			items := e.do(req{method: "GET", path: "/api/v1/site-chat-conversations/" + victim.conversationID + "/messages", token: owner}).expect(t, http.StatusOK).items()
			if len(items) != 1 {
				t.Fatalf("victim's conversation has %d messages", len(items))
			}
		})
	})
}

func TestSiteChatEventBatches(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		site := e.chatSite("Ada")
		v := e.visitor(site.publicKey, "events-0123456789abcdef")
		send := func(events ...map[string]any) *response {
			list := make([]any, len(events))
			for i := range events {
				list[i] = events[i]
			}
			return e.do(v.as(req{method: "POST", path: "/api/v1/public/site-chat/events",
				body: map[string]any{"public_key": site.publicKey, "visitor_id": v.visitorID, "visit_session_id": v.sessionID, "events": list}}))
		}
		t.Run("co-browse kinds become frames; DOM frames only while monitoring is active", func(t *testing.T) {
			res := send(map[string]any{"event_type": "page_view"}, map[string]any{"event_type": "cursor", "payload": map[string]any{"x": 10, "y": 20}},
				map[string]any{"event_type": "snapshot", "payload": map[string]any{"html": "<p>hi</p>"}},
				map[string]any{"event_type": "scroll", "payload": map[string]any{"type": 3, "data": map[string]any{"source": 3, "id": 1, "x": 0, "y": 299.6}}}).expect(t, http.StatusAccepted)
			if res.json["accepted"] != 4.0 || res.json["frames"] != 2.0 || res.json["first_sequence"] != 1.0 || res.json["last_sequence"] != 2.0 {
				t.Fatalf("batch: %s", res.Body)
			}
			snap := e.do(req{method: "GET", path: "/api/v1/site-visit-sessions/" + v.sessionID + "/snapshot", token: site.owner.token}).expect(t, http.StatusOK)
			if snap.json["signals"].(map[string]any)["page_view"] != 1.0 || snap.json["scroll"].(map[string]any)["y"] != 300.0 {
				t.Fatalf("snapshot: %s", snap.Body)
			}
		})
		t.Run("51 events are refused naming events, and change nothing", func(t *testing.T) {
			events := make([]map[string]any, 51)
			for i := range events {
				events[i] = map[string]any{"event_type": "cursor"}
			}
			send(events...).expect(t, http.StatusBadRequest, "events")
			send(events[:50]...).expect(t, http.StatusAccepted)
		})
		t.Run("the visit's frames page by after_sequence", func(t *testing.T) {
			first := e.do(req{method: "GET", path: "/api/v1/site-visit-sessions/" + v.sessionID + "/events?limit=30", token: site.owner.token}).expect(t, http.StatusOK)
			items := first.items()
			if len(items) != 30 || items[0]["sequence"] != 1.0 || items[0]["kind"] != "cursor" || items[29]["sequence"] != 30.0 || first.str("next_cursor") != "30" {
				t.Fatalf("first page: %d items, next %q", len(items), first.str("next_cursor"))
			}
			rest := e.do(req{method: "GET", path: "/api/v1/site-visit-sessions/" + v.sessionID + "/events?after_sequence=30", token: site.owner.token}).expect(t, http.StatusOK)
			if items := rest.items(); len(items) != 22 || items[21]["sequence"] != 52.0 || rest.str("next_cursor") != "" {
				t.Fatalf("rest: %d items, next %q", len(items), rest.str("next_cursor"))
			}
			e.do(req{method: "GET", path: "/api/v1/site-visit-sessions/" + v.sessionID + "/events?after_sequence=-1", token: site.owner.token}).expect(t, http.StatusBadRequest, "after_sequence")
		})
		t.Run("frames past the retention are removed by the janitor's sweep", func(t *testing.T) {
			e.advance(7*24*time.Hour + time.Minute)
			if n, err := e.server.SiteChat.ExpireFrames(context.Background()); err != nil || n != 52 {
				t.Fatalf("expired %d frames, err %v", n, err)
			}
			site.owner.token = e.signInAgain(site.owner)
			if items := e.do(req{method: "GET", path: "/api/v1/site-visit-sessions/" + v.sessionID + "/events", token: site.owner.token}).expect(t, http.StatusOK).items(); len(items) != 0 {
				t.Fatalf("%d frames after the retention", len(items))
			}
		})
	})
}

// visitorAccess verifies a visitor's token as the sockets do, for the moves that arrive
// over the visitor socket (consents, invitation answers).
func (e *env) visitorAccess(v chatVisitor) *sitechat.VisitorAccess {
	e.t.Helper()
	access, err := e.server.SiteChat.VerifyVisitorToken(context.Background(), v.token)
	if err != nil {
		e.t.Fatal(err)
	}
	return access
}

func TestSiteChatMonitoringAndInvitations(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		ctx := context.Background()
		site := e.chatSite("Ada")
		v := e.visitor(site.publicKey, "monitored-0123456789abcdef")
		visit := "/api/v1/site-visit-sessions/" + v.sessionID
		move := func(path string, status int) *response {
			return e.do(req{method: "POST", path: visit + path, token: site.owner.token}).expect(t, status)
		}
		dom := func() float64 {
			return e.do(v.as(req{method: "POST", path: "/api/v1/public/site-chat/events", body: map[string]any{"public_key": site.publicKey,
				"visitor_id": v.visitorID, "visit_session_id": v.sessionID, "events": []any{map[string]any{"event_type": "snapshot", "payload": map[string]any{"html": "<p>x</p>"}}}}})).
				expect(t, http.StatusAccepted).json["frames"].(float64)
		}
		t.Run("monitoring becomes active only with the visitor's consent", func(t *testing.T) {
			move("/monitoring/stop", http.StatusConflict)
			if s := move("/monitoring/start", http.StatusOK).str("monitoring_status"); s != "requested" {
				t.Fatalf("after start: %s", s)
			}
			move("/monitoring/start", http.StatusConflict)
			if dom() != 0 {
				t.Fatal("a DOM frame was kept before the visitor consented")
			}
			if err := e.server.SiteChat.AnswerMonitoring(ctx, e.visitorAccess(v), true); err != nil {
				t.Fatal(err)
			}
			if s := e.do(req{method: "GET", path: "/api/v1/projects/" + site.projectID + "/site-visitors/active", token: site.owner.token}).
				expect(t, http.StatusOK).items()[0]["monitoring_status"]; s != "active" {
				t.Fatalf("after consent: %v", s)
			}
			if dom() != 1 {
				t.Fatal("a DOM frame was dropped while monitoring was active")
			}
			move("/monitoring/start", http.StatusConflict)
			if s := move("/monitoring/stop", http.StatusOK).str("monitoring_status"); s != "stopped" {
				t.Fatalf("after stop: %s", s)
			}
			move("/monitoring/stop", http.StatusConflict)
			if dom() != 0 {
				t.Fatal("a DOM frame was kept after monitoring stopped")
			}
			if err := e.server.SiteChat.AnswerMonitoring(ctx, e.visitorAccess(v), true); err == nil {
				t.Fatal("a consent without a request was taken")
			}
			move("/monitoring/start", http.StatusOK)
			if err := e.server.SiteChat.AnswerMonitoring(ctx, e.visitorAccess(v), false); err != nil {
				t.Fatal(err)
			}
			if s := move("/monitoring/start", http.StatusOK).str("monitoring_status"); s != "requested" {
				t.Fatalf("declined, then asked again: %s", s)
			}
		})
		t.Run("an invitation shows its text once, unless forced", func(t *testing.T) {
			inv := e.do(req{method: "POST", path: visit + "/invite", token: site.owner.token}).expect(t, http.StatusOK)
			if inv.json["operator_invited"] != true || inv.str("invite_status") != "pending" || inv.str("invite_message") != sitechat.DefaultInviteMessage {
				t.Fatalf("invited: %s", inv.Body)
			}
			e.do(req{method: "POST", path: visit + "/invite", token: site.owner.token, body: map[string]any{"message": "Again?"}}).expect(t, http.StatusConflict, "visit_session_id")
			forced := e.do(req{method: "POST", path: visit + "/invite", token: site.owner.token, body: map[string]any{"message": "Need help?", "force": true}}).expect(t, http.StatusOK)
			if forced.str("invite_message") != "Need help?" || forced.json["invite_force"] != true {
				t.Fatalf("forced: %s", forced.Body)
			}
			if err := e.server.SiteChat.AnswerInvite(ctx, e.visitorAccess(v), sitechat.InviteDeclined); err != nil {
				t.Fatal(err)
			}
			e.do(req{method: "PATCH", path: "/api/v1/site-chat-widgets/" + site.widget, token: site.owner.token,
				body: map[string]any{"settings_json": map[string]any{"invite_templates": map[string]any{"promo": "10% off today"}}}}).expect(t, http.StatusOK)
			e.do(req{method: "POST", path: visit + "/invite", token: site.owner.token, body: map[string]any{"template": "nope"}}).expect(t, http.StatusBadRequest, "template")
			promo := e.do(req{method: "POST", path: visit + "/invite", token: site.owner.token, body: map[string]any{"template": "promo"}}).expect(t, http.StatusOK)
			if promo.str("invite_message") != "10% off today" {
				t.Fatalf("template: %s", promo.Body)
			}
			if err := e.server.SiteChat.AnswerInvite(ctx, e.visitorAccess(v), sitechat.InviteAccepted); err != nil {
				t.Fatal(err)
			}
			if err := e.server.SiteChat.AnswerInvite(ctx, e.visitorAccess(v), sitechat.InviteAccepted); err == nil {
				t.Fatal("an invitation was accepted twice")
			}
		})
		t.Run("a visitor who left is not monitored or called", func(t *testing.T) {
			e.advance(3 * time.Minute)
			move("/monitoring/stop", http.StatusOK)
			move("/monitoring/start", http.StatusConflict)
			e.do(req{method: "POST", path: visit + "/call-offer", token: site.owner.token}).expect(t, http.StatusConflict, "visit_session_id")
		})
	})
}

func TestSiteChatNoticesReachTheBus(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		site := e.chatSite("Ada")
		v := e.visitor(site.publicKey, "noticed-0123456789abcdef")
		projectID := site.projectID
		sub := e.server.Bus.Subscribe("chat:" + projectID)
		defer sub.Close()
		m := e.do(req{method: "POST", path: "/api/v1/public/site-chat/messages", header: map[string]string{"X-Visitor-Token": v.token}, body: map[string]any{"body": "Hi"}}).
			expect(t, http.StatusCreated)
		answer := e.do(req{method: "POST", path: "/api/v1/site-chat-conversations/" + v.conversationID + "/messages", token: site.owner.token, body: map[string]any{"body": "Hello"}}).
			expect(t, http.StatusCreated)
		call := e.do(req{method: "POST", path: "/api/v1/site-visit-sessions/" + v.sessionID + "/call-offer", token: site.owner.token}).expect(t, http.StatusCreated)
		want := []string{
			`{"type":"presence.update","project_id":"%[1]s","chat_widget_id":"%[2]s","visitor_id":"%[3]s","visit_session_id":"%[4]s","conversation_id":"%[5]s","status":"open"}`,
			`{"type":"chat.message","project_id":"%[1]s","chat_widget_id":"%[2]s","visitor_id":"%[3]s","visit_session_id":"%[4]s","conversation_id":"%[5]s","message_id":"%[6]s","author_kind":"visitor"}`,
			`{"type":"chat.message","project_id":"%[1]s","chat_widget_id":"%[2]s","visitor_id":"%[3]s","visit_session_id":"%[4]s","conversation_id":"%[5]s","message_id":"%[7]s","author_kind":"operator"}`,
			`{"type":"call.offer","project_id":"%[1]s","chat_widget_id":"%[2]s","visitor_id":"%[3]s","visit_session_id":"%[4]s","conversation_id":"%[5]s","call_session_id":"%[8]s","status":"offered"}`,
		}
		for i, w := range want {
			w = fmt.Sprintf(w, projectID, site.widget, v.visitorID, v.sessionID, v.conversationID, m.str("message_id"), answer.str("message_id"), call.str("call_session_id"))
			select {
			case got := <-sub.C():
				if string(got.Data) != w {
					t.Fatalf("notice %d:\n got %s\nwant %s", i, got.Data, w)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("notice %d never came", i)
			}
		}
	})
}

func TestSiteChatRateLimit(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db, func(s *api.Server) { s.SiteChatLimiter = sitechat.NewPublicLimiter(0.01, 3) })
		site := e.chatSite("Ada")
		other := e.chatSite("Bob")
		for range 3 {
			e.do(req{method: "GET", path: "/api/v1/public/site-chat/widgets/" + site.publicKey + "/config"}).expect(t, http.StatusOK)
		}
		limited := e.presence(site.publicKey, "limited-0123456789abcdef", nil).expect(t, http.StatusTooManyRequests)
		if ra := limited.Header().Get("Retry-After"); ra == "" || ra == "0" {
			t.Fatalf("Retry-After %q", ra)
		}
		// Another widget from the same address has its own allowance.
		e.presence(other.publicKey, "limited-0123456789abcdef", nil).expect(t, http.StatusOK)
	})
}

func TestSiteChatVoiceConfig(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db, func(s *api.Server) {
			s.SiteChat.Settings.ICEServers = []string{"stun:stun.example.com:3478", "turn:turn.example.com:3478?transport=udp", "turns:turn.example.com:5349"}
			s.SiteChat.Settings.TURNSecret = "coturn-static-auth-secret"
		})
		site := e.chatSite("Ada")
		v := e.visitor(site.publicKey, "caller-0123456789abcdef")
		for _, r := range []req{v.as(req{method: "GET", path: "/api/v1/public/site-chat/voice-config"}), {method: "GET", path: "/api/v1/site-chat/voice-config", token: site.owner.token}} {
			cfg := e.do(r).expect(t, http.StatusOK)
			var got struct {
				ICEServers []struct {
					URLs                 []string
					Username, Credential string
				} `json:"ice_servers"`
				TTL int `json:"credential_ttl_seconds"`
			}
			json.Unmarshal(cfg.Body.Bytes(), &got)
			if len(got.ICEServers) != 2 || got.ICEServers[0].URLs[0] != "stun:stun.example.com:3478" || got.ICEServers[0].Credential != "" || got.TTL != 3600 {
				t.Fatalf("%s: %s", r.path, cfg.Body)
			}
			turn := got.ICEServers[1]
			expiry, subject, _ := strings.Cut(turn.Username, ":")
			mac := hmac.New(sha1.New, []byte("coturn-static-auth-secret"))
			mac.Write([]byte(turn.Username))
			if len(turn.URLs) != 2 || expiry != fmt.Sprint(e.now.Add(time.Hour).Unix()) || subject == "" || turn.Credential != base64.StdEncoding.EncodeToString(mac.Sum(nil)) {
				t.Fatalf("%s: TURN entry %+v", r.path, turn)
			}
		}
	})
}
