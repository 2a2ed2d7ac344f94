package wshub_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/websocket"

	"agencyhub/api/wshub"
	"agencyhub/models"
	"agencyhub/models/sitechat/chatws"
	"agencyhub/platform/realtime"
)

// fakeDomain relays chat.typing to the project's operators, acks chat.message with its
// body, routes notices {"visit_session_id":...} to that visit and the operators, and
// records arrivals and departures.
type fakeDomain struct {
	mu      sync.Mutex
	events  []string
	revoked map[uuid.UUID]bool
	// held holds Route on a notice of the visit session until its channel closes; sorting,
	// when not nil, holds VisitSessionOf so.
	held    map[uuid.UUID]chan struct{}
	sorting chan struct{}
	// rechecks are Recheck's calls, in order.
	rechecks []recheck
}

type recheck struct {
	at      time.Time
	sockets int
}

// notice is what fakeDomain routes.
type notice struct {
	VisitSessionID uuid.UUID `json:"visit_session_id"`
	Body           string    `json:"body"`
}

func readNotice(data json.RawMessage) (notice, error) {
	var n notice
	err := json.Unmarshal(data, &n)
	return n, err
}

// hold holds the routing of the visit session's notices until the test ends.
func (d *fakeDomain) hold(t *testing.T, visitSessionID uuid.UUID) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.held == nil {
		d.held = map[uuid.UUID]chan struct{}{}
	}
	release := make(chan struct{})
	d.held[visitSessionID] = release
	t.Cleanup(func() { close(release) })
}

// holdSorting holds VisitSessionOf, and so the hub's reading of the bus, until release.
func (d *fakeDomain) holdSorting() (release func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.sorting = make(chan struct{})
	return sync.OnceFunc(func() { close(d.sorting) })
}

func (d *fakeDomain) record(s string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.events = append(d.events, s)
}

func (d *fakeDomain) seen() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.events...)
}

func (d *fakeDomain) Receive(_ context.Context, c *chatws.Client, e chatws.Envelope) (chatws.Reply, error) {
	switch e.Type {
	case chatws.ChatTyping:
		to := chatws.Delivery{To: chatws.Target{Operators: true}, Envelope: e}
		return chatws.Reply{Relay: &chatws.Relay{ProjectID: c.Visit.ProjectID, Delivery: to}}, nil
	case chatws.ChatMessage:
		var p struct{ Body string }
		json.Unmarshal(e.Payload, &p)
		if p.Body == "" {
			return chatws.Reply{}, models.Invalid("invalid_body", "payload.body")
		}
		return chatws.Reply{Ack: map[string]string{"body": p.Body}}, nil
	}
	return chatws.Reply{}, nil
}

func (d *fakeDomain) Route(_ context.Context, projectID uuid.UUID, data json.RawMessage) ([]chatws.Delivery, error) {
	n, err := readNotice(data)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	held := d.held[n.VisitSessionID]
	d.mu.Unlock()
	if held != nil {
		<-held
	}
	e, _ := chatws.NewEnvelope(chatws.ChatMessage, map[string]string{"body": n.Body})
	e.IDs(chatws.EnvelopeIDs{ProjectID: projectID, VisitSessionID: n.VisitSessionID})
	return []chatws.Delivery{{To: chatws.Target{Operators: true, VisitSessionID: n.VisitSessionID}, Envelope: e}}, nil
}

func (d *fakeDomain) VisitSessionOf(data json.RawMessage) uuid.UUID {
	d.mu.Lock()
	sorting := d.sorting
	d.mu.Unlock()
	if sorting != nil {
		<-sorting
	}
	n, _ := readNotice(data)
	return n.VisitSessionID
}

func (d *fakeDomain) Arrived(_ context.Context, v chatws.Visit) {
	d.record("arrived " + v.VisitSessionID.String())
}

// Recheck refuses the sockets of users recorded as revoked.
func (d *fakeDomain) Recheck(_ context.Context, clients []*chatws.Client) []error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.rechecks = append(d.rechecks, recheck{at: time.Now(), sockets: len(clients)})
	errs := make([]error, len(clients))
	for i, c := range clients {
		if d.revoked[c.UserID] {
			errs[i] = models.NotFound("project_not_found")
		}
	}
	return errs
}

func (d *fakeDomain) Left(_ context.Context, v chatws.Visit, _ time.Time) {
	d.record("left " + v.VisitSessionID.String())
}

// instance is a hub behind an HTTP server; its sockets say who they are in the query
// (?side=&project=&visit=&user=), standing in for the API's authentication.
type instance struct {
	hub    *wshub.Hub
	domain *fakeDomain
	url    string
}

func topic(p uuid.UUID) string { return "chat:" + p.String() }

func newInstance(t *testing.T, bus realtime.Bus, cfg wshub.Config) *instance {
	t.Helper()
	d := &fakeDomain{}
	hub := wshub.New(cfg, bus, d, topic, slog.New(slog.DiscardHandler))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		s := &wshub.Socket{Client: chatws.Client{Side: chatws.Side(q.Get("side"))}, Lang: "en", RequestID: "req-1"}
		if s.Side == chatws.SideVisitor {
			s.Visit = chatws.Visit{ProjectID: uuid.MustParse(q.Get("project")), VisitSessionID: uuid.MustParse(q.Get("visit"))}
		} else {
			s.UserID = uuid.MustParse(q.Get("user"))
			s.Projects = []uuid.UUID{uuid.MustParse(q.Get("project"))}
		}
		hub.Serve(w, r, s)
	}))
	t.Cleanup(func() { hub.Close(); srv.Close() })
	return &instance{hub: hub, domain: d, url: "ws" + strings.TrimPrefix(srv.URL, "http")}
}

func testConfig() wshub.Config {
	cfg := wshub.DefaultConfig()
	cfg.LeaveGrace = 50 * time.Millisecond
	cfg.Recheck = 20 * time.Millisecond
	return cfg
}

type client struct {
	t    *testing.T
	conn *websocket.Conn
}

func (in *instance) dial(t *testing.T, query string) *client {
	t.Helper()
	conn, _, err := websocket.DefaultDialer.Dial(in.url+"/?"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &client{t: t, conn: conn}
}

func (in *instance) visitor(t *testing.T, project, visit uuid.UUID) *client {
	return in.dial(t, "side=visitor&project="+project.String()+"&visit="+visit.String())
}

func (in *instance) operator(t *testing.T, project, user uuid.UUID) *client {
	return in.dial(t, "side=operator&project="+project.String()+"&user="+user.String())
}

func (c *client) send(raw string) {
	c.t.Helper()
	if err := c.conn.WriteMessage(websocket.TextMessage, []byte(raw)); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) next() chatws.Envelope {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, raw, err := c.conn.ReadMessage()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	var e chatws.Envelope
	if err := json.Unmarshal(raw, &e); err != nil {
		c.t.Fatalf("%s: %v", raw, err)
	}
	return e
}

// nothing checks that no envelope arrives within a short while.
func (c *client) nothing() {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(150 * time.Millisecond))
	if _, raw, err := c.conn.ReadMessage(); err == nil {
		c.t.Fatalf("got %s, want nothing", raw)
	}
}

func problem(t *testing.T, e chatws.Envelope) map[string]string {
	t.Helper()
	var p map[string]string
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

const sentAt = `"sent_at":"2026-11-21T09:00:00Z"`

func TestEveryEnvelopeIsAnsweredWithAckOrError(t *testing.T) {
	t.Parallel()
	in := newInstance(t, newBus(t), testConfig())
	v := in.visitor(t, models.NewID(), models.NewID())

	v.send(`{"id":"m1","type":"chat.message",` + sentAt + `,"payload":{"body":"hi"}}`)
	if e := v.next(); e.Type != chatws.Ack || e.ID != "m1" || string(e.Payload) != `{"body":"hi"}` {
		t.Fatalf("got %+v, want the ack of m1 with the handler's payload", e)
	}
	cases := []struct{ name, raw, id, validate string }{
		{"a type of the other side", `{"id":"m2","type":"operator.invite",` + sentAt + `}`, "m2", "type"},
		{"a type only the server sends", `{"id":"m3","type":"ack",` + sentAt + `}`, "m3", "type"},
		{"an unknown type without sent_at", `{"id":"m4","type":"chat.shout"}`, "m4", "type,sent_at"},
		{"a payload that is not an object", `{"id":"m5","type":"chat.message",` + sentAt + `,"payload":[1]}`, "m5", "payload"},
		{"no id", `{"type":"chat.message",` + sentAt + `}`, "", "id"},
		{"not JSON", `{"id":"m6",`, "", "envelope"},
		{"a refusal of the handler", `{"id":"m7","type":"chat.message",` + sentAt + `,"payload":{}}`, "m7", "payload.body"},
	}
	for _, tc := range cases {
		v.send(tc.raw)
		e := v.next()
		p := problem(t, e)
		if e.Type != chatws.Error || p["validate"] != tc.validate || p["status"] != "fix_required" || p["request_id"] != "req-1" {
			t.Errorf("%s: got %+v %v, want an error naming %q", tc.name, e, p, tc.validate)
		}
		if tc.id != "" && e.ID != tc.id {
			t.Errorf("%s: error id %q, want %q", tc.name, e.ID, tc.id)
		}
		if tc.id == "" && e.ID == "" {
			t.Errorf("%s: error without an id", tc.name)
		}
	}

	op := in.operator(t, models.NewID(), models.NewID())
	op.send(`{"id":"o1","type":"visitor.heartbeat",` + sentAt + `}`)
	if e := op.next(); e.Type != chatws.Error || problem(t, e)["validate"] != "type" {
		t.Fatalf("operator sending a visitor type: got %+v", e)
	}
}

func TestNoticesReachTheSocketsOfTheirProjectAndVisit(t *testing.T) {
	t.Parallel()
	bus := newBus(t)
	in := newInstance(t, bus, testConfig())
	project, other := models.NewID(), models.NewID()
	visit, otherVisit := models.NewID(), models.NewID()
	visitor, neighbour := in.visitor(t, project, visit), in.visitor(t, project, otherVisit)
	operator, stranger := in.operator(t, project, models.NewID()), in.operator(t, other, models.NewID())
	waitSockets(t, in.hub, 2, 2)

	publish(t, bus, topic(project), `{"visit_session_id":"`+visit.String()+`","body":"hello"}`)
	for _, c := range []*client{visitor, operator} {
		if e := c.next(); e.Type != chatws.ChatMessage || id(e.VisitSessionID) != visit || string(e.Payload) != `{"body":"hello"}` {
			t.Fatalf("got %+v", e)
		}
	}
	neighbour.nothing()
	stranger.nothing()
}

func TestRelaysReachSocketsOnEveryInstance(t *testing.T) {
	t.Parallel()
	bus := newBus(t)
	a, b := newInstance(t, bus, testConfig()), newInstance(t, bus, testConfig())
	project := models.NewID()
	visitor := a.visitor(t, project, models.NewID())
	here, there := a.operator(t, project, models.NewID()), b.operator(t, project, models.NewID())
	elsewhere := b.operator(t, models.NewID(), models.NewID())
	waitSockets(t, a.hub, 1, 1)
	waitSockets(t, b.hub, 0, 2)

	// Large enough to travel deflated.
	long := strings.Repeat("typing ", 2000)
	visitor.send(`{"id":"t1","type":"chat.typing",` + sentAt + `,"payload":{"typing":true,"text":"` + long + `"}}`)
	if e := visitor.next(); e.Type != chatws.Ack {
		t.Fatalf("got %+v", e)
	}
	for _, c := range []*client{here, there} {
		e := c.next()
		var p struct{ Text string }
		json.Unmarshal(e.Payload, &p)
		if e.Type != chatws.ChatTyping || e.ID != "t1" || p.Text != long {
			t.Fatalf("got %s %s, want the relayed typing", e.Type, e.ID)
		}
	}
	elsewhere.nothing()
}

func TestVisitorLeftAfterTheGracePeriodOnly(t *testing.T) {
	t.Parallel()
	in := newInstance(t, newBus(t), testConfig())
	project, visit := models.NewID(), models.NewID()
	first := in.visitor(t, project, visit)
	waitFor(t, func() bool { return len(in.domain.seen()) == 1 })

	// A reconnect within the grace period: no departure, no second arrival.
	first.conn.Close()
	in.visitor(t, project, visit)
	waitSockets(t, in.hub, 1, 0)
	time.Sleep(3 * testConfig().LeaveGrace) // a departure would be recorded by now
	if got := in.domain.seen(); len(got) != 1 {
		t.Fatalf("events %v, want only the arrival", got)
	}

	gone := models.NewID()
	second := in.visitor(t, project, gone)
	waitFor(t, func() bool { return len(in.domain.seen()) == 2 })
	second.conn.Close()
	waitFor(t, func() bool { return len(in.domain.seen()) == 3 })
	if got := in.domain.seen(); got[2] != "left "+gone.String() {
		t.Fatalf("events %v", got)
	}
}

func TestASocketThatFallsBehindIsCutWithoutHoldingUpOthers(t *testing.T) {
	t.Parallel()
	bus := newBus(t)
	cfg := testConfig()
	cfg.SendBuffer = 8
	in := newInstance(t, bus, cfg)
	project := models.NewID()
	reader, stalled := in.operator(t, project, models.NewID()), in.operator(t, project, models.NewID())
	waitSockets(t, in.hub, 0, 2)

	// The stalled client reads nothing: once the kernel's buffers are full, its envelopes
	// pile up in the hub until there is no room. The reader takes every one meanwhile.
	body := strings.Repeat("x", 64<<10)
	const sent = 400
	for i := range sent {
		publish(t, bus, topic(project), `{"visit_session_id":"`+uuid.Nil.String()+`","body":"`+body+`"}`)
		if e := reader.next(); e.Type != chatws.ChatMessage {
			t.Fatalf("envelope %d: got %s", i, e.Type)
		}
	}
	waitSockets(t, in.hub, 0, 1)
	stalled.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		if _, _, err := stalled.conn.ReadMessage(); err != nil {
			if strings.Contains(err.Error(), "timeout") {
				t.Fatalf("stalled socket still open: %v", err)
			}
			break
		}
	}
}

func TestASocketWhoseStandingChangedIsClosed(t *testing.T) {
	t.Parallel()
	in := newInstance(t, newBus(t), testConfig())
	project, kept, revoked := models.NewID(), models.NewID(), models.NewID()
	stays, goes := in.operator(t, project, kept), in.operator(t, project, revoked)
	waitSockets(t, in.hub, 0, 2)

	in.domain.mu.Lock()
	in.domain.revoked = map[uuid.UUID]bool{revoked: true}
	in.domain.mu.Unlock()
	waitSockets(t, in.hub, 0, 1)
	goes.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, _, err := goes.conn.ReadMessage(); err == nil || strings.Contains(err.Error(), "timeout") {
		t.Fatalf("revoked socket: %v, want it closed", err)
	}
	stays.send(`{"id":"s1","type":"chat.typing",` + sentAt + `}`)
	if e := stays.next(); e.Type != chatws.Ack && e.Type != chatws.ChatTyping {
		t.Fatalf("kept socket got %+v", e)
	}
}

func TestALaneThatFallsBehindTellsItsSocketsToReadAgain(t *testing.T) {
	t.Parallel()
	bus := newBus(t)
	cfg := testConfig()
	cfg.RouteBuffer = 2
	in := newInstance(t, bus, cfg)
	project, behind, other := models.NewID(), models.NewID(), models.NewID()
	for wshub.LaneOf(other) == wshub.LaneOf(behind) {
		other = models.NewID()
	}
	late, onTime, operator := in.visitor(t, project, behind), in.visitor(t, project, other), in.operator(t, project, models.NewID())
	waitSockets(t, in.hub, 2, 1)

	// The first notice holds its lane; two wait behind it, and there is no room for more.
	in.domain.hold(t, behind)
	for range 5 {
		publish(t, bus, topic(project), `{"visit_session_id":"`+behind.String()+`","body":"late"}`)
	}
	late.toldToReadAgain()
	operator.toldToReadAgain()
	publish(t, bus, topic(project), `{"visit_session_id":"`+other.String()+`","body":"on time"}`)
	if e := onTime.next(); e.Type != chatws.ChatMessage || id(e.VisitSessionID) != other {
		t.Fatalf("the other visit's socket got %+v, want its notice", e)
	}
}

func TestSocketsReadAgainWhatTheBusMissed(t *testing.T) {
	t.Parallel()
	bus := newBus(t)
	in := newInstance(t, bus, testConfig())
	project, visit := models.NewID(), models.NewID()
	visitor, operator := in.visitor(t, project, visit), in.operator(t, project, models.NewID())
	waitSockets(t, in.hub, 1, 1)

	// The hub stops reading the bus; the room's subscription fills, and the bus drops the
	// rest.
	release := in.domain.holdSorting()
	defer release()
	for range 200 {
		publish(t, bus, topic(project), `{"visit_session_id":"`+models.NewID().String()+`","body":"elsewhere"}`)
	}
	release()
	visitor.toldToReadAgain()
	operator.toldToReadAgain()
}

// toldToReadAgain reads past the envelopes c was sent until the hub closes it, and checks
// that it says the client missed notices.
func (c *client) toldToReadAgain() {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		_, _, err := c.conn.ReadMessage()
		if err == nil {
			continue
		}
		if !websocket.IsCloseError(err, websocket.CloseTryAgainLater) {
			c.t.Fatalf("read: %v, want the socket closed to read again", err)
		}
		return
	}
}

func TestRechecksAreSpreadOverThePeriod(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.Recheck = time.Second
	in := newInstance(t, newBus(t), cfg)
	project := models.NewID()
	const sockets = 250
	for range sockets {
		in.operator(t, project, models.NewID())
	}
	waitSockets(t, in.hub, 0, sockets)
	var calls []recheck
	waitFor(t, func() bool {
		in.domain.mu.Lock()
		defer in.domain.mu.Unlock()
		calls = slices.Clone(in.domain.rechecks)
		checked := 0
		for _, c := range calls {
			checked += c.sockets
		}
		return checked >= sockets
	})
	// The first period may have begun before every socket joined; the calls that checked
	// the first 250 span most of a period either way.
	for _, c := range calls {
		if c.sockets > 100 {
			t.Fatalf("one recheck of %d sockets, want batches of at most 100", c.sockets)
		}
	}
	if span := calls[len(calls)-1].at.Sub(calls[0].at); span < cfg.Recheck/2 {
		t.Fatalf("%d sockets rechecked within %v, want their checks spread over the period of %v", sockets, span, cfg.Recheck)
	}
}

func newBus(t *testing.T) realtime.Bus {
	bus := realtime.NewLocal()
	t.Cleanup(func() { bus.Close() })
	return bus
}

func publish(t *testing.T, bus realtime.Bus, topic, data string) {
	t.Helper()
	if err := bus.Publish(context.Background(), topic, json.RawMessage(data)); err != nil {
		t.Fatal(err)
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitSockets waits until the hub serves that many sockets of each side, so that a
// notice published next finds them in their rooms.
func waitSockets(t *testing.T, h *wshub.Hub, visitors, operators int) {
	t.Helper()
	waitFor(t, func() bool { v, o := h.Counts(); return v == visitors && o == operators })
}

func id(p *uuid.UUID) uuid.UUID {
	if p == nil {
		return uuid.Nil
	}
	return *p
}
