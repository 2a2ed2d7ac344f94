package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"agencyhub/api"
	"agencyhub/api/wshub"
	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/sitechat/chatws"
	"agencyhub/platform/realtime"
)

// chatEnv is the API behind a real HTTP server, for the sockets, with the site chat wired
// as Main wires it and a short departure grace period.
type chatEnv struct {
	*env
	url string
}

func newChatEnv(t testing.TB, db *dbtest.DB, configure ...func(*api.Server)) *chatEnv {
	t.Helper()
	configure = append(configure, func(s *api.Server) {
		s.SiteChatSockets = wshub.DefaultConfig()
		s.SiteChatSockets.LeaveGrace = 100 * time.Millisecond
		s.SiteChatSockets.Recheck = 50 * time.Millisecond
	})
	e := newEnv(t, db, configure...)
	srv := httptest.NewServer(e.handler)
	t.Cleanup(func() { e.server.CloseSockets(); srv.Close() })
	return &chatEnv{env: e, url: srv.URL}
}

// newChatPair is a site with one visitor and its owner, each on a socket let in.
func newChatPair(t *testing.T, db *dbtest.DB) (*chatEnv, chatSite, chatVisitor, *socket, *socket) {
	t.Helper()
	e := newChatEnv(t, db)
	site := e.chatSite("Ada")
	v := e.visitor(site.publicKey, "")
	visitor, operator := e.visitorSocket(t, site, v), e.operatorSocket(t, site.owner, "")
	e.waitSockets(1, 1)
	return e, site, v, visitor, operator
}

// socketQuery is the visitor socket's query for a visitor of site.
func socketQuery(site chatSite, v chatVisitor) string {
	return "public_key=" + url.QueryEscape(site.publicKey) + "&visit_session_id=" + v.sessionID + "&visitor_token=" + url.QueryEscape(v.token)
}

// socket is a test client of one of the two sockets. Envelopes read while looking for
// another kind wait in held for the next look.
type socket struct {
	t    *testing.T
	conn *websocket.Conn
	n    int
	held []chatws.Envelope
}

// dial opens a socket, failing the test unless the upgrade succeeds with the headers the
// contract requires on the 101.
func (e *chatEnv) dial(t *testing.T, path string, header http.Header) *socket {
	t.Helper()
	conn, resp, err := e.tryDial(path, header)
	if err != nil {
		t.Fatalf("dial %s: %v (status %d)", path, err, statusOf(resp))
	}
	route, _, _ := strings.Cut(path, "?")
	checkRequiredHeaders(t, e.contract.Match(http.MethodGet, route), "GET "+path, resp.StatusCode, resp.Header)
	t.Cleanup(func() { conn.Close() })
	return &socket{t: t, conn: conn}
}

func (e *chatEnv) tryDial(path string, header http.Header) (*websocket.Conn, *http.Response, error) {
	return websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(e.url, "http")+path, header)
}

func statusOf(resp *http.Response) int {
	if resp == nil {
		return 0
	}
	return resp.StatusCode
}

func (e *chatEnv) visitorSocket(t *testing.T, site chatSite, v chatVisitor) *socket {
	return e.dial(t, "/api/v1/public/site-chat/ws?"+socketQuery(site, v), nil)
}

func (e *chatEnv) operatorSocket(t *testing.T, u user, query string) *socket {
	return e.dial(t, "/api/v1/site-chat/ws/operator"+query, http.Header{"Authorization": {"Bearer " + u.token}})
}

// waitSockets waits until the server has let that many sockets of each side into their
// rooms, so that what is published next reaches them.
func (e *chatEnv) waitSockets(visitors, operators int) {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		v, o := e.server.SocketCounts()
		if v == visitors && o == operators {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("sockets %d visitors, %d operators; want %d, %d", v, o, visitors, operators)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// send writes an envelope and answers its id.
func (s *socket) send(typ string, payload any, ids map[string]string) string {
	s.t.Helper()
	s.n++
	id := "e" + strings.Repeat("x", s.n%3) + time.Now().Format("150405.000000000")
	e := map[string]any{"id": id, "type": typ, "sent_at": time.Now().UTC().Format(time.RFC3339Nano)}
	if payload != nil {
		e["payload"] = payload
	}
	for k, v := range ids {
		e[k] = v
	}
	if err := s.conn.WriteJSON(e); err != nil {
		s.t.Fatal(err)
	}
	return id
}

// take answers the first envelope, held or read, that match accepts, checking the shape of
// what it reads.
func (s *socket) take(what string, match func(chatws.Envelope) bool) chatws.Envelope {
	s.t.Helper()
	for i, e := range s.held {
		if match(e) {
			s.held = append(s.held[:i], s.held[i+1:]...)
			return e
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.conn.SetReadDeadline(deadline)
		_, raw, err := s.conn.ReadMessage()
		if err != nil {
			s.t.Fatalf("waiting for %s: %v", what, err)
		}
		var e chatws.Envelope
		if err := json.Unmarshal(raw, &e); err != nil || e.ID == "" || e.SentAt.IsZero() || !e.Type.Known() {
			s.t.Fatalf("server envelope %s lacks id, sent_at or a known type", raw)
		}
		if match(e) {
			return e
		}
		s.held = append(s.held, e)
	}
}

// next answers the next envelope of type typ.
func (s *socket) next(typ string) chatws.Envelope {
	s.t.Helper()
	return s.take(typ, func(e chatws.Envelope) bool { return string(e.Type) == typ })
}

// message answers the next chat.message whose body is text.
func (s *socket) message(text string) chatws.Envelope {
	s.t.Helper()
	return s.take("message "+text, func(e chatws.Envelope) bool { return e.Type == chatws.ChatMessage && body(e) == text })
}

// answer answers the ack or error of envelope id.
func (s *socket) answer(id string) chatws.Envelope {
	s.t.Helper()
	return s.take("the answer to "+id, func(e chatws.Envelope) bool {
		return (e.Type == chatws.Ack || e.Type == chatws.Error) && e.ID == id
	})
}

func (s *socket) nextOf(types ...chatws.Type) chatws.Envelope {
	s.t.Helper()
	return s.take(fmt.Sprint(types), func(e chatws.Envelope) bool { return slices.Contains(types, e.Type) })
}

// acked sends an envelope and fails unless the server acks it; it answers the ack's
// payload.
func (s *socket) acked(typ string, payload any, ids map[string]string) map[string]any {
	s.t.Helper()
	e := s.answer(s.send(typ, payload, ids))
	if e.Type != chatws.Ack {
		s.t.Fatalf("%s: got %s %s", typ, e.Type, e.Payload)
	}
	var out map[string]any
	json.Unmarshal(e.Payload, &out)
	return out
}

// refused sends an envelope and answers the Problem of the error it must get.
func (s *socket) refused(typ string, payload any, ids map[string]string) map[string]any {
	s.t.Helper()
	e := s.answer(s.send(typ, payload, ids))
	if e.Type != chatws.Error {
		s.t.Fatalf("%s: got %s, want error", typ, e.Type)
	}
	var p map[string]any
	json.Unmarshal(e.Payload, &p)
	if len(p) != 6 || p["request_id"] == "" {
		s.t.Fatalf("%s: error payload %s is not a Problem", typ, e.Payload)
	}
	return p
}

// silent checks that nothing but acks arrives within a short while.
func (s *socket) silent() {
	s.t.Helper()
	for _, e := range s.held {
		if e.Type != chatws.Ack {
			s.t.Fatalf("got %s %s, want nothing", e.Type, e.Payload)
		}
	}
	s.conn.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	for {
		var e chatws.Envelope
		if err := s.conn.ReadJSON(&e); err != nil {
			return
		}
		if e.Type != chatws.Ack {
			s.t.Fatalf("got %s %s, want nothing", e.Type, e.Payload)
		}
	}
}

func body(e chatws.Envelope) string {
	var p struct{ Body string }
	json.Unmarshal(e.Payload, &p)
	return p.Body
}

func TestSiteChatSocketsExchangeMessagesBothWays(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e, site, v, visitor, operator := newChatPair(t, db)

		ack := visitor.acked("chat.message", map[string]any{"body": "Is the blue one in stock?"}, nil)
		if ack["conversation_id"] != v.conversationID || ack["message_id"] == nil {
			t.Fatalf("ack %v", ack)
		}
		got := operator.next("chat.message")
		if body(got) != "Is the blue one in stock?" || got.ConversationID.String() != v.conversationID || got.VisitSessionID.String() != v.sessionID {
			t.Fatalf("operator got %+v", got)
		}
		// The visitor's own tabs see it too.
		visitor.message("Is the blue one in stock?")

		operator.acked("chat.typing", map[string]any{"typing": true}, map[string]string{"conversation_id": v.conversationID})
		if typing := visitor.next("chat.typing"); typing.VisitSessionID.String() != v.sessionID {
			t.Fatalf("typing %+v", typing)
		}
		operator.acked("chat.message", map[string]any{"body": "Yes, two left."}, map[string]string{"conversation_id": v.conversationID})
		answer := visitor.next("chat.message")
		var m map[string]any
		json.Unmarshal(answer.Payload, &m)
		if m["body"] != "Yes, two left." || m["author_kind"] != "operator" || m["author_name"] != "Ada" {
			t.Fatalf("visitor got %s", answer.Payload)
		}

		// Over HTTP, both ways.
		e.do(req{method: "POST", path: "/api/v1/site-chat-conversations/" + v.conversationID + "/messages", token: site.owner.token,
			body: map[string]any{"body": "Posted over HTTP"}}).expect(t, http.StatusCreated)
		visitor.message("Posted over HTTP")
		e.do(req{method: "POST", path: "/api/v1/public/site-chat/messages", header: map[string]string{"X-Visitor-Token": v.token},
			body: map[string]any{"body": "Thanks!", "visit_session_id": v.sessionID}}).expect(t, http.StatusCreated)
		operator.message("Thanks!")
	})
}

func TestSiteChatSocketsRefuseTheOtherSidesTypes(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		_, _, v, visitor, operator := newChatPair(t, db)

		for _, typ := range []string{"operator.invite", "monitoring.start", "call.offer", "ack", "visitor.left"} {
			if p := visitor.refused(typ, nil, map[string]string{"visit_session_id": v.sessionID}); p["validate"] != "type" || p["status"] != "fix_required" {
				t.Errorf("visitor sending %s: %v", typ, p)
			}
		}
		for _, typ := range []string{"visitor.heartbeat", "event.batch", "monitoring.snapshot", "consent.accepted", "invite.accepted", "error"} {
			if p := operator.refused(typ, nil, nil); p["validate"] != "type" {
				t.Errorf("operator sending %s: %v", typ, p)
			}
		}
		if p := operator.refused("chat.message", map[string]any{"body": "hi"}, nil); p["validate"] != "conversation_id" {
			t.Errorf("chat.message without conversation_id: %v", p)
		}
		if p := visitor.refused("chat.message", map[string]any{"body": " "}, nil); !strings.Contains(p["validate"].(string), "body") {
			t.Errorf("empty message: %v", p)
		}
		// Both sockets still work after their refusals.
		visitor.acked("visitor.heartbeat", nil, nil)
		operator.acked("monitoring.start", nil, map[string]string{"visit_session_id": v.sessionID})
	})
}

func TestSiteChatSocketsOfAnotherCompanyGetAndReadNothing(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newChatEnv(t, db)
		site, other := e.chatSite("Ada"), e.chatSite("Mallory")
		v := e.visitor(site.publicKey, "")

		// Another company's project is not found before any upgrade.
		_, resp, err := e.tryDial("/api/v1/site-chat/ws/operator?project_id="+site.projectID, http.Header{"Authorization": {"Bearer " + other.owner.token}})
		if err == nil || statusOf(resp) != http.StatusNotFound {
			t.Fatalf("other company's project: err %v, status %d; want 404", err, statusOf(resp))
		}
		visitor := e.visitorSocket(t, site, v)
		mallory := e.operatorSocket(t, other.owner, "")
		ada := e.operatorSocket(t, site.owner, "?project_id="+site.projectID)
		e.waitSockets(1, 2)

		visitor.acked("chat.message", map[string]any{"body": "private"}, nil)
		visitor.acked("chat.typing", map[string]any{"typing": true}, nil)
		visitor.next("chat.message")
		ada.next("chat.message")
		ada.next("chat.typing")
		// Ids of another company are not found, and change nothing.
		for _, tc := range []struct {
			typ string
			ids map[string]string
		}{
			{"chat.message", map[string]string{"conversation_id": v.conversationID}},
			{"chat.typing", map[string]string{"conversation_id": v.conversationID}},
			{"operator.invite", map[string]string{"visit_session_id": v.sessionID}},
			{"monitoring.start", map[string]string{"visit_session_id": v.sessionID}},
			{"call.offer", map[string]string{"visit_session_id": v.sessionID}},
		} {
			if p := mallory.refused(tc.typ, map[string]any{"body": "gotcha"}, tc.ids); p["status"] != "error" || !strings.Contains(p["title"].(string), "not found") && !strings.Contains(p["title"].(string), "Not found") {
				t.Errorf("%s on another company's ids: %v", tc.typ, p)
			}
		}
		mallory.silent()
		visitor.silent()
	})
}

func TestSiteChatOperatorSocketClosesWhenItsUserLosesAccess(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newChatEnv(t, db)
		site := e.chatSite("Ada")
		bob := e.signUp("Bob")
		e.do(req{method: "POST", path: "/api/v1/companies/" + site.company + "/members", token: site.owner.token,
			body: map[string]any{"email": bob.email, "role": "member"}}).expect(t, http.StatusCreated)
		sock := e.operatorSocket(t, bob, "")
		e.waitSockets(0, 1)

		e.do(req{method: "DELETE", path: "/api/v1/companies/" + site.company + "/members/" + bob.id, token: site.owner.token}).expect(t, http.StatusNoContent)
		e.waitSockets(0, 0)
		sock.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		for {
			if _, _, err := sock.conn.ReadMessage(); err != nil {
				if strings.Contains(err.Error(), "timeout") {
					t.Fatal("the socket of a removed member stayed open")
				}
				break
			}
		}
	})
}

func TestSiteChatSocketCredentials(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newChatEnv(t, db)
		site := e.chatSite("Ada")
		v, other := e.visitor(site.publicKey, ""), e.visitor(site.publicKey, "")

		path := "/api/v1/public/site-chat/ws?"
		for name, query := range map[string]string{
			"another session's token":    "public_key=" + site.publicKey + "&visit_session_id=" + v.sessionID + "&visitor_token=" + url.QueryEscape(other.token),
			"another widget's key":       "public_key=pk_other&visit_session_id=" + v.sessionID + "&visitor_token=" + url.QueryEscape(v.token),
			"a token that is not signed": "public_key=" + site.publicKey + "&visit_session_id=" + v.sessionID + "&visitor_token=" + url.QueryEscape(v.token[:len(v.token)-4]+"AAAA"),
		} {
			e.do(req{method: "GET", path: path + query}).expect(t, http.StatusUnauthorized, "visitor_token")
			if _, resp, err := e.tryDial(path+query, nil); err == nil || statusOf(resp) != http.StatusUnauthorized {
				t.Errorf("%s: status %d, want 401", name, statusOf(resp))
			}
		}
		// Its shape is checked first: a token the contract requires and the request lacks is a 400.
		e.do(req{method: "GET", path: path + "public_key=" + site.publicKey + "&visit_session_id=" + v.sessionID}).expect(t, http.StatusBadRequest, "visitor_token")
		e.do(req{method: "GET", path: path + "public_key=" + site.publicKey + "&visit_session_id=nope&visitor_token=x"}).expect(t, http.StatusBadRequest, "visit_session_id")
		e.do(req{method: "GET", path: "/api/v1/site-chat/ws/operator"}).expect(t, http.StatusUnauthorized, "access_token")

		// A browser signed in by cookie must come from the application's origin.
		login := e.do(req{method: "POST", path: "/api/v1/auth/login", body: map[string]any{"email": site.owner.email, "password": password, "client_type": "browser"}}).expect(t, http.StatusOK)
		cookie := login.cookie("app_access")
		header := func(origin string) http.Header {
			return http.Header{"Cookie": {cookie.Name + "=" + cookie.Value}, "Origin": {origin}}
		}
		if _, resp, err := e.tryDial("/api/v1/site-chat/ws/operator", header("https://evil.example")); err == nil || statusOf(resp) != http.StatusForbidden {
			t.Errorf("cookie from another origin: status %d, want 403", statusOf(resp))
		}
		e.dial(t, "/api/v1/site-chat/ws/operator", header(e.url)).acked("monitoring.start", nil, map[string]string{"visit_session_id": v.sessionID})
	})
}

func TestSiteChatMonitoringAndDeparture(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e, site, v, visitor, operator := newChatPair(t, db)
		bystander := e.operatorSocket(t, site.owner, "")
		e.waitSockets(1, 2)
		ids := map[string]string{"visit_session_id": v.sessionID}

		operator.acked("monitoring.start", nil, ids)
		if got := statusOfSession(visitor.next("monitoring.start")); got != "requested" {
			t.Fatalf("visitor got monitoring %s", got)
		}
		visitor.acked("consent.accepted", map[string]any{"subject": "monitoring"}, nil)
		for statusOfSession(operator.next("monitoring.start")) != "active" {
		}
		snapshot := map[string]any{"url": "https://shop.example/", "root": map[string]any{"t": 1, "n": "html", "c": []any{}}}
		visitor.acked("monitoring.snapshot", snapshot, nil)
		visitor.acked("cursor.move", map[string]any{"x": 10, "y": 20}, nil)
		frame := operator.next("monitoring.snapshot")
		var f map[string]any
		json.Unmarshal(frame.Payload, &f)
		if f["kind"] != "snapshot" || f["payload_json"].(map[string]any)["url"] != "https://shop.example/" {
			t.Fatalf("frame %s", frame.Payload)
		}
		if cursor := operator.next("cursor.move"); cursor.VisitSessionID.String() != v.sessionID {
			t.Fatalf("cursor %+v", cursor)
		}
		operator.acked("monitoring.stop", nil, ids)
		visitor.next("monitoring.stop")

		// The bystander socket does not monitor: it saw the status moves, not the frames.
		for {
			got := bystander.nextOf(chatws.MonitoringSnapshot, chatws.CursorMove, chatws.MonitoringStop)
			if got.Type != chatws.MonitoringStop {
				t.Fatalf("a socket that does not monitor got %s", got.Type)
			}
			if statusOfSession(got) == "stopped" {
				break
			}
		}

		visitor.conn.Close()
		left := operator.next("visitor.left")
		if left.VisitSessionID.String() != v.sessionID {
			t.Fatalf("left %+v", left)
		}
	})
}

func statusOfSession(e chatws.Envelope) string {
	var p struct {
		MonitoringStatus string `json:"monitoring_status"`
	}
	json.Unmarshal(e.Payload, &p)
	return p.MonitoringStatus
}

func TestSiteChatWidgetScript(t *testing.T) {
	t.Parallel()
	e := newEnv(t, dbtest.SQLite(t))
	r := e.do(req{method: "GET", path: "/site-chat/widget.js"}).expect(t, http.StatusOK)
	etag := r.Header().Get("ETag")
	if !strings.HasPrefix(r.Header().Get("Content-Type"), "text/javascript") || etag == "" ||
		!strings.Contains(r.Header().Get("Cache-Control"), "max-age") || !strings.Contains(r.Body.String(), "data-public-key") {
		t.Fatalf("headers %v", r.Header())
	}
	e.do(req{method: "GET", path: "/site-chat/widget.js", header: map[string]string{"If-None-Match": etag}}).expect(t, http.StatusNotModified)
	e.do(req{method: "GET", path: "/site-chat/widget.js", header: map[string]string{"If-None-Match": `"old"`}}).expect(t, http.StatusOK)
}

func TestSiteChatFanOutCrossesInstances(t *testing.T) {
	t.Parallel()
	db := dbtest.Postgres(t)
	channel := "chat_" + strings.ReplaceAll(models.NewID().String(), "-", "")
	instance := func() *chatEnv {
		return newChatEnv(t, db, func(s *api.Server) {
			bus, err := realtime.NewPostgres(context.Background(), realtime.PostgresOptions{URL: db.URL, Channel: channel})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { bus.Close() })
			s.Bus, s.SiteChat.Bus = bus, bus
		})
	}
	a, b := instance(), instance()
	site := a.chatSite("Ada")
	v := a.visitor(site.publicKey, "")
	visitor := a.visitorSocket(t, site, v)
	operator := b.operatorSocket(t, site.owner, "")
	a.waitSockets(1, 0)
	b.waitSockets(0, 1)

	// Posted over HTTP on one instance, delivered by the other.
	a.do(req{method: "POST", path: "/api/v1/public/site-chat/messages", header: map[string]string{"X-Visitor-Token": v.token},
		body: map[string]any{"body": "Hello from instance A", "visit_session_id": v.sessionID}}).expect(t, http.StatusCreated)
	operator.message("Hello from instance A")
	// Sent over B's socket, delivered on A's; relayed typing crosses too.
	operator.acked("chat.typing", map[string]any{"typing": true}, map[string]string{"conversation_id": v.conversationID})
	visitor.next("chat.typing")
	operator.acked("chat.message", map[string]any{"body": "Hello from B"}, map[string]string{"conversation_id": v.conversationID})
	visitor.message("Hello from B")
}
