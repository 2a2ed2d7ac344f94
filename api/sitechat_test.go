package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/migrations/dbtest"
	"agencyhub/models/sitechat"
)

// siteChatTestSettings are the default settings with the test server's URLs.
func siteChatTestSettings() sitechat.Settings {
	st := sitechat.DefaultSettings()
	st.EndpointBase, st.AppURL = "http://api.test", "http://app.test"
	return st
}

// chatSite is a project with an active widget, seen by its owner.
type chatSite struct {
	owner              user
	projectID, widget  string
	publicKey, company string
}

func (e *env) chatSite(name string) chatSite {
	e.t.Helper()
	u := e.signUp(name)
	companyID := e.companyOf(u, name+" Agency")
	projectID := e.projectIn(u, companyID, name+" Shop")
	w := e.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/site-chat-widgets", token: u.token,
		body: map[string]any{"name": name + " shop"}}).expect(e.t, http.StatusCreated)
	return chatSite{owner: u, projectID: projectID, widget: w.str("chat_widget_id"), publicKey: w.str("public_key"), company: companyID}
}

// signInAgain answers a fresh access token of u, for tests that move the clock past its
// 15 minutes.
func (e *env) signInAgain(u user) string {
	e.t.Helper()
	return e.do(req{method: "POST", path: "/api/v1/auth/login", body: map[string]any{"email": u.email, "password": password, "client_type": "api"}}).
		expect(e.t, http.StatusOK).str("access_token")
}

// chatVisitor is a visitor's presence: its ids and token.
type chatVisitor struct {
	visitorID, sessionID, conversationID, token, anonymousID string
}

func (e *env) presence(publicKey, anonymousID string, extra map[string]any) *response {
	e.t.Helper()
	body := map[string]any{"public_key": publicKey, "anonymous_id": anonymousID, "url": "https://shop.test/pricing", "title": "Pricing"}
	for k, v := range extra {
		body[k] = v
	}
	return e.do(req{method: "POST", path: "/api/v1/public/site-chat/presence", body: body})
}

func (e *env) visitor(publicKey, anonymousID string) chatVisitor {
	e.t.Helper()
	p := e.presence(publicKey, anonymousID, nil).expect(e.t, http.StatusOK)
	return chatVisitor{visitorID: p.str("visitor_id"), sessionID: p.str("visit_session_id"), conversationID: p.str("conversation_id"),
		token: p.str("visitor_token"), anonymousID: p.str("anonymous_id")}
}

// as sends r with the visitor's token.
func (v chatVisitor) as(r req) req {
	if r.header == nil {
		r.header = map[string]string{}
	}
	r.header["X-Visitor-Token"] = v.token
	return r
}

// addSiteChatIDs adds a widget, a visit with a conversation, a call and an attachment.
func (e *env) addSiteChatIDs(u user, ids map[string]string) {
	e.t.Helper()
	w := e.do(req{method: "POST", path: "/api/v1/projects/" + ids["project_id"] + "/site-chat-widgets", token: u.token, body: map[string]any{}}).
		expect(e.t, http.StatusCreated)
	ids["chat_widget_id"], ids["public_key"] = w.str("chat_widget_id"), w.str("public_key")
	v := e.visitor(w.str("public_key"), "fixture-"+strings.Repeat("a", 12)+u.id[:8])
	ids["visit_session_id"] = v.sessionID
	e.do(v.as(req{method: "POST", path: "/api/v1/public/site-chat/messages", body: map[string]any{"body": "Hello"}})).expect(e.t, http.StatusCreated)
	ids["conversation_id"] = v.conversationID
	call := e.do(req{method: "POST", path: "/api/v1/site-visit-sessions/" + v.sessionID + "/call-offer", token: u.token, body: map[string]any{}}).
		expect(e.t, http.StatusCreated)
	ids["call_session_id"] = call.str("call_session_id")
	m := e.uploadChatFile(req{path: "/api/v1/site-chat-conversations/" + v.conversationID + "/attachments", token: u.token}, "note.txt", []byte("fixture\n")).
		expect(e.t, http.StatusCreated)
	ids["attachment_id"], ids["download_token"] = attachmentLink(e.t, m)
}

// uploadChatFile posts a multipart file to r.path with r's credentials.
func (e *env) uploadChatFile(r req, name string, content []byte) *response {
	e.t.Helper()
	body, contentType := multipartBody(e.t, name, content, nil)
	r.method, r.body = "POST", body
	if r.header == nil {
		r.header = map[string]string{}
	}
	r.header["Content-Type"] = contentType
	return e.do(r)
}

// attachmentLink answers the id and download token of a message's first attachment.
func attachmentLink(t testing.TB, m *response) (string, string) {
	t.Helper()
	atts, _ := m.json["attachments"].([]any)
	if len(atts) != 1 {
		t.Fatalf("message attachments: %s", m.Body)
	}
	a := atts[0].(map[string]any)
	url := a["download_url"].(string)
	prefix := "http://api.test/api/v1/site-chat/attachments/" + a["attachment_id"].(string) + "/"
	if !strings.HasPrefix(url, prefix) {
		t.Fatalf("download_url %s", url)
	}
	return a["attachment_id"].(string), strings.TrimPrefix(url, prefix)
}

func TestSiteChatWidgets(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		site := e.chatSite("Ada")
		created := e.do(req{method: "GET", path: "/api/v1/projects/" + site.projectID + "/site-chat-widgets", token: site.owner.token}).expect(t, http.StatusOK).items()
		t.Run("a new widget has the defaults and one script tag with its public key", func(t *testing.T) {
			w := created[0]
			if len(created) != 1 || w["status"] != "active" || w["position"] != "right" || w["sampling_rate"] != 1.0 || w["heavy_tracking_default"] != false ||
				w["title"] != "Chat with us" || w["accent_color"] != "#2563eb" || !strings.HasPrefix(w["public_key"].(string), "pk_") {
				t.Fatalf("widget: %v", w)
			}
			want := `<script src="http://api.test/site-chat/widget.js" data-public-key="` + site.publicKey + `" async></script>`
			if w["embed_script"] != want {
				t.Fatalf("embed_script %q, want %q", w["embed_script"], want)
			}
		})
		t.Run("the public config answers what the script needs", func(t *testing.T) {
			cfg := e.do(req{method: "GET", path: "/api/v1/public/site-chat/widgets/" + site.publicKey + "/config"}).expect(t, http.StatusOK)
			if cfg.str("endpoint_base") != "http://api.test/api/v1/public/site-chat" || cfg.str("chat_widget_id") != site.widget || cfg.str("project_id") != site.projectID {
				t.Fatalf("config: %s", cfg.Body)
			}
		})
		t.Run("a patch changes the fields present and checks them", func(t *testing.T) {
			p := e.do(req{method: "PATCH", path: "/api/v1/site-chat-widgets/" + site.widget, token: site.owner.token,
				body: map[string]any{"title": "Ask us", "position": "left", "sampling_rate": 0.25, "settings_json": map[string]any{"invite_templates": map[string]any{"promo": "10% off today"}}}}).
				expect(t, http.StatusOK)
			if p.str("title") != "Ask us" || p.str("position") != "left" || p.json["sampling_rate"] != 0.25 || p.str("name") != "Ada shop" {
				t.Fatalf("patched: %s", p.Body)
			}
			e.do(req{method: "PATCH", path: "/api/v1/site-chat-widgets/" + site.widget, token: site.owner.token,
				body: map[string]any{"accent_color": "red;background:url(x)"}}).expect(t, http.StatusBadRequest, "accent_color")
			e.do(req{method: "PATCH", path: "/api/v1/site-chat-widgets/" + site.widget, token: site.owner.token,
				body: map[string]any{"sampling_rate": 1.5}}).expect(t, http.StatusBadRequest, "sampling_rate")
			e.do(req{method: "POST", path: "/api/v1/projects/" + site.projectID + "/site-chat-widgets", token: site.owner.token,
				body: map[string]any{"name": ""}}).expect(t, http.StatusBadRequest, "name")
		})
		t.Run("an accent colour that is not hex is refused on create and on patch, changing nothing", func(t *testing.T) {
			before := e.do(req{method: "GET", path: "/api/v1/public/site-chat/widgets/" + site.publicKey + "/config"}).expect(t, http.StatusOK).str("accent_color")
			e.do(req{method: "POST", path: "/api/v1/projects/" + site.projectID + "/site-chat-widgets", token: site.owner.token,
				body: map[string]any{"accent_color": "blue"}}).expect(t, http.StatusBadRequest, "accent_color")
			e.do(req{method: "PATCH", path: "/api/v1/site-chat-widgets/" + site.widget, token: site.owner.token,
				body: map[string]any{"accent_color": "blue", "title": "Blue"}}).expect(t, http.StatusBadRequest, "accent_color")
			cfg := e.do(req{method: "GET", path: "/api/v1/public/site-chat/widgets/" + site.publicKey + "/config"}).expect(t, http.StatusOK)
			if cfg.str("accent_color") != before || cfg.str("title") == "Blue" {
				t.Fatalf("a refused patch changed the widget: %s", cfg.Body)
			}
		})
		t.Run("a paused widget is off the site: config, presence and its tokens", func(t *testing.T) {
			v := e.visitor(site.publicKey, "paused-visitor-0123456789")
			e.do(req{method: "PATCH", path: "/api/v1/site-chat-widgets/" + site.widget, token: site.owner.token, body: map[string]any{"status": "paused"}}).expect(t, http.StatusOK)
			e.do(req{method: "GET", path: "/api/v1/public/site-chat/widgets/" + site.publicKey + "/config"}).expect(t, http.StatusNotFound)
			e.presence(site.publicKey, "paused-visitor-0123456789", nil).expect(t, http.StatusNotFound)
			e.do(v.as(req{method: "GET", path: "/api/v1/public/site-chat/voice-config"})).expect(t, http.StatusUnauthorized, "X-Visitor-Token")
			e.do(req{method: "PATCH", path: "/api/v1/site-chat-widgets/" + site.widget, token: site.owner.token, body: map[string]any{"status": "active"}}).expect(t, http.StatusOK)
			e.do(v.as(req{method: "GET", path: "/api/v1/public/site-chat/voice-config"})).expect(t, http.StatusOK)
		})
		t.Run("a viewer may list widgets but not create them", func(t *testing.T) {
			viewer := e.signUp("Viewer")
			e.do(req{method: "POST", path: "/api/v1/companies/" + site.company + "/members", token: site.owner.token,
				body: map[string]any{"email": viewer.email, "role": "viewer"}}).expect(t, http.StatusCreated)
			e.do(req{method: "GET", path: "/api/v1/projects/" + site.projectID + "/site-chat-widgets", token: viewer.token}).expect(t, http.StatusOK)
			e.do(req{method: "POST", path: "/api/v1/projects/" + site.projectID + "/site-chat-widgets", token: viewer.token, body: map[string]any{}}).expect(t, http.StatusForbidden)
		})
	})
}

func TestSiteChatPresence(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		site := e.chatSite("Ada")
		first := e.presence(site.publicKey, "browser-one-0123456789", map[string]any{"browser": "Firefox", "viewport_width": 1280, "viewport_height": 720,
			"utm": map[string]any{"source": "ads"}, "analytics_client_id": "GA1.2.3"}).expect(t, http.StatusOK)
		t.Run("a first presence creates the visitor and a session with a reserved conversation and a token", func(t *testing.T) {
			if first.json["is_first_visit"] != true || first.str("monitoring_status") != "idle" || first.json["operator_invited"] != false ||
				first.str("visitor_token") == "" || first.str("conversation_id") == "" || first.str("anonymous_id") != "browser-one-0123456789" ||
				first.str("panel_url") != "http://app.test/site-chat/visits/"+first.str("visit_session_id") {
				t.Fatalf("presence: %s", first.Body)
			}
			snap := first.json["visitor_state_snapshot"].(map[string]any)
			if snap["current_url"] != "https://shop.test/pricing" || snap["viewport"].(map[string]any)["width"] != 1280.0 ||
				snap["analytics"].(map[string]any)["client_id"] != "GA1.2.3" {
				t.Fatalf("snapshot: %v", snap)
			}
		})
		t.Run("presence with the session id resumes it; without, a new session of the same visitor", func(t *testing.T) {
			again := e.presence(site.publicKey, "browser-one-0123456789", map[string]any{"visit_session_id": first.str("visit_session_id"), "url": "https://shop.test/cart"}).
				expect(t, http.StatusOK)
			if again.str("visit_session_id") != first.str("visit_session_id") || again.json["is_first_visit"] != false || again.str("visitor_id") != first.str("visitor_id") {
				t.Fatalf("resumed: %s", again.Body)
			}
			fresh := e.presence(site.publicKey, "browser-one-0123456789", nil).expect(t, http.StatusOK)
			if fresh.str("visit_session_id") == first.str("visit_session_id") || fresh.str("visitor_id") != first.str("visitor_id") {
				t.Fatalf("new session: %s", fresh.Body)
			}
		})
		t.Run("another browser cannot resume someone's session by its id", func(t *testing.T) {
			other := e.presence(site.publicKey, "browser-two-0123456789", map[string]any{"visit_session_id": first.str("visit_session_id")}).expect(t, http.StatusOK)
			if other.str("visit_session_id") == first.str("visit_session_id") || other.str("visitor_id") == first.str("visitor_id") || other.json["is_first_visit"] != true {
				t.Fatalf("hijack: %s", other.Body)
			}
		})
		t.Run("without anonymous_id the server makes one; a short one is refused", func(t *testing.T) {
			p := e.do(req{method: "POST", path: "/api/v1/public/site-chat/presence", body: map[string]any{"public_key": site.publicKey}}).expect(t, http.StatusOK)
			if len(p.str("anonymous_id")) < 16 {
				t.Fatalf("anonymous_id %q", p.str("anonymous_id"))
			}
			e.presence(site.publicKey, "short", nil).expect(t, http.StatusBadRequest, "anonymous_id")
			e.presence("pk_unknown", "browser-three-0123456789", nil).expect(t, http.StatusNotFound)
		})
		t.Run("active visitors are the sessions with activity in the last two minutes", func(t *testing.T) {
			active := e.do(req{method: "GET", path: "/api/v1/projects/" + site.projectID + "/site-visitors/active", token: site.owner.token}).expect(t, http.StatusOK).items()
			if len(active) != 4 {
				t.Fatalf("%d active visitors: %v", len(active), active)
			}
			e.advance(2*time.Minute + time.Second)
			e.presence(site.publicKey, "browser-one-0123456789", map[string]any{"visit_session_id": first.str("visit_session_id")}).expect(t, http.StatusOK)
			active = e.do(req{method: "GET", path: "/api/v1/projects/" + site.projectID + "/site-visitors/active", token: site.owner.token}).expect(t, http.StatusOK).items()
			if len(active) != 1 || active[0]["visit_session_id"] != first.str("visit_session_id") || active[0]["current_url"] != "https://shop.test/pricing" {
				t.Fatalf("active after two minutes: %v", active)
			}
		})
	})
}

func mustUUID(t testing.TB, s string) uuid.UUID {
	t.Helper()
	id, err := uuid.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func sitechatVisitor() sitechat.Party { return sitechat.VisitorParty() }
