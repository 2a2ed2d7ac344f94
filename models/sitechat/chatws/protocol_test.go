package chatws_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/auth"
	"agencyhub/models/company"
	"agencyhub/models/sitechat"
	"agencyhub/models/sitechat/chatws"
	"agencyhub/platform/realtime"
)

// views renders the few fields these tests read; the API's own views are checked by its
// socket tests.
type views struct{}

func (views) Message(m sitechat.Message) any {
	return map[string]any{"message_id": m.ID, "body": m.Body, "author_name": m.AuthorName}
}

func (views) Call(c *sitechat.CallSession) any {
	return map[string]any{"call_session_id": c.ID, "status": c.Status}
}

func (views) VisitSession(_ context.Context, v *sitechat.VisitSession) (any, error) {
	return map[string]any{"visit_session_id": v.ID, "monitoring_status": v.MonitoringStatus}, nil
}

func (views) Frame(f sitechat.Frame) any {
	return map[string]any{"sequence": f.Sequence, "kind": f.Kind}
}

// site is a widget with one visitor, the people of its company and a stranger from
// another, each on a socket (a Client) of the protocol.
type site struct {
	t        *testing.T
	chat     *sitechat.Service
	protocol *chatws.Protocol
	notices  *realtime.Subscription
	tenant   *dbtest.Tenant
	widget   *sitechat.Widget
	session  uuid.UUID
	visitor  *chatws.Client
	owner    *chatws.Client
	viewer   *chatws.Client
	stranger *chatws.Client
}

func newSite(t *testing.T, db *dbtest.DB) *site {
	t.Helper()
	ctx := context.Background()
	tn := dbtest.NewTenant(t, db.DB, "chat")
	bus := realtime.NewLocal()
	t.Cleanup(func() { bus.Close() })
	chat := sitechat.NewService(db.DB, tn.Companies, bus, nil, tn.Keys.TokenSigning, sitechat.DefaultSettings())
	w, err := chat.CreateWidget(ctx, tn.Project, sitechat.WidgetFields{})
	if err != nil {
		t.Fatal(err)
	}
	notices := bus.Subscribe(sitechat.Topic(tn.Project.ID))
	t.Cleanup(notices.Close)
	p, err := chat.Presence(ctx, sitechat.PresenceInput{PublicKey: w.PublicKey, AnonymousID: "anon-0123456789abcdef", URL: "https://shop.test/"})
	if err != nil {
		t.Fatal(err)
	}
	s := &site{t: t, chat: chat, notices: notices, tenant: tn, widget: w, session: p.Access.Session.ID}
	s.protocol = chatws.New(chat, auth.NewService(db.DB, tn.Keys, auth.Settings{}), views{})
	s.protocol.Follow(tn.Project.ID, tn.Company.ID)
	s.visitor = &chatws.Client{Side: chatws.SideVisitor, VisitorToken: p.Token, Visit: chatws.Visit{
		CompanyID:      tn.Company.ID,
		ProjectID:      tn.Project.ID,
		ChatWidgetID:   w.ID,
		VisitorID:      p.Access.Visitor.ID,
		VisitSessionID: p.Access.Session.ID,
	}}
	s.owner = s.operator(db, tn.Company.ID, "Ada", company.RoleOwner)
	s.viewer = s.operator(db, tn.Company.ID, "Vic", company.RoleViewer)
	other := dbtest.NewTenant(t, db.DB, "other")
	s.stranger = s.operator(db, other.Company.ID, "Sam", company.RoleOwner)
	return s
}

// operator adds a user with role in a company and answers their socket.
func (s *site) operator(db *dbtest.DB, companyID uuid.UUID, name string, role company.Role) *chatws.Client {
	s.t.Helper()
	now := time.Now().UTC()
	u := auth.User{ID: models.NewID(), Email: name + "@" + companyID.String() + ".test", Name: name, PasswordHash: "-",
		Status: auth.StatusActive, CreatedAt: now, UpdatedAt: now}
	if err := db.Create(&u).Error; err != nil {
		s.t.Fatal(err)
	}
	if err := db.Create(&company.Member{CompanyID: companyID, UserID: u.ID, Role: role, CreatedAt: now}).Error; err != nil {
		s.t.Fatal(err)
	}
	c := &chatws.Client{Side: chatws.SideOperator, UserID: u.ID}
	if companyID == s.tenant.Company.ID {
		c.Projects = []uuid.UUID{s.tenant.Project.ID}
	}
	return c
}

// send has c send an envelope of type typ with payload and ids.
func (s *site) send(c *chatws.Client, typ chatws.Type, payload string, ids chatws.EnvelopeIDs) (chatws.Reply, error) {
	e := chatws.Envelope{ID: "env-" + string(typ), Type: typ, SentAt: time.Now().UTC()}
	if payload != "" {
		e.Payload = json.RawMessage(payload)
	}
	e.IDs(ids)
	return s.protocol.Receive(context.Background(), c, e)
}

// ok sends an envelope that must be accepted and answers its reply.
func (s *site) ok(c *chatws.Client, typ chatws.Type, payload string, ids chatws.EnvelopeIDs) chatws.Reply {
	s.t.Helper()
	r, err := s.send(c, typ, payload, ids)
	if err != nil {
		s.t.Fatalf("%s: %v", typ, err)
	}
	return r
}

// refused sends an envelope that must be refused with kind, naming fields.
func (s *site) refused(c *chatws.Client, typ chatws.Type, payload string, ids chatws.EnvelopeIDs, kind models.Kind, fields ...string) {
	s.t.Helper()
	_, err := s.send(c, typ, payload, ids)
	if e := models.AsError(err); err == nil || e.Kind != kind || !slices.Equal(e.Fields, fields) {
		s.t.Fatalf("%s: %v, want %s naming %v", typ, err, kind, fields)
	}
}

// route takes the project's notices until one of type typ and answers its deliveries. The
// notice must name the visitor's visit session, by which the hub keeps its notices in
// order (VisitSessionOf).
func (s *site) route(typ string) []chatws.Delivery {
	s.t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case m := <-s.notices.C():
			n, err := sitechat.ParseNotice(m.Data)
			if err != nil || n.Type != typ {
				continue
			}
			if got := s.protocol.VisitSessionOf(m.Data); got != s.session {
				s.t.Fatalf("the %s notice names the visit session %s, want the visitor's %s", typ, got, s.session)
			}
			d, err := s.protocol.Route(context.Background(), s.tenant.Project.ID, m.Data)
			if err != nil {
				s.t.Fatalf("route %s: %v", typ, err)
			}
			return d
		case <-timeout:
			s.t.Fatalf("no %s notice", typ)
		}
	}
}

// only checks that deliveries are one envelope of type typ for to, and answers its payload.
func only(t *testing.T, deliveries []chatws.Delivery, typ chatws.Type, to chatws.Target) map[string]any {
	t.Helper()
	if len(deliveries) != 1 || deliveries[0].Envelope.Type != typ || deliveries[0].To != to {
		t.Fatalf("deliveries %+v, want one %s for %+v", deliveries, typ, to)
	}
	var p map[string]any
	if err := json.Unmarshal(deliveries[0].Envelope.Payload, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func ackID(t *testing.T, r chatws.Reply, key string) uuid.UUID {
	t.Helper()
	ids, ok := r.Ack.(map[string]uuid.UUID)
	if !ok || ids[key] == uuid.Nil {
		t.Fatalf("ack %#v, want %s", r.Ack, key)
	}
	return ids[key]
}

func TestMessagesGoBothWaysToTheVisitAndTheOperators(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		s := newSite(t, db)
		both := chatws.Target{Operators: true, VisitSessionID: s.session}

		conversation := ackID(t, s.ok(s.visitor, chatws.ChatMessage, `{"body":"Is it in stock?"}`, chatws.EnvelopeIDs{}), "conversation_id")
		if got := only(t, s.route(sitechat.NoticeChatMessage), chatws.ChatMessage, both); got["body"] != "Is it in stock?" {
			t.Fatalf("visitor's message delivered as %v", got)
		}

		on := chatws.EnvelopeIDs{ConversationID: conversation}
		s.ok(s.owner, chatws.ChatMessage, `{"body":"It is."}`, on)
		if got := only(t, s.route(sitechat.NoticeChatMessage), chatws.ChatMessage, both); got["body"] != "It is." || got["author_name"] != "Ada" {
			t.Fatalf("operator's message delivered as %v", got)
		}

		s.refused(s.viewer, chatws.ChatMessage, `{"body":"Hello"}`, on, models.KindForbidden)
		s.refused(s.stranger, chatws.ChatMessage, `{"body":"Hello"}`, on, models.KindNotFound)
		s.refused(s.owner, chatws.ChatMessage, `{"body":"Hello"}`, chatws.EnvelopeIDs{}, models.KindInvalid, "conversation_id")
		s.refused(s.visitor, chatws.ChatMessage, `{"body":"Hello"}}`, chatws.EnvelopeIDs{}, models.KindInvalid, "payload")
	})
}

func TestANoticeThatCannotBeReadNamesNoVisitSession(t *testing.T) {
	p := chatws.New(nil, nil, nil)
	for _, notice := range []string{`{`, `[]`, `{"type":"chat.message","visit_session_id":"nope"}`} {
		if got := p.VisitSessionOf(json.RawMessage(notice)); got != uuid.Nil {
			t.Errorf("VisitSessionOf(%s) = %s, want none", notice, got)
		}
	}
}

func TestTypingIsPassedOnToTheOtherSide(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		s := newSite(t, db)
		r := s.ok(s.visitor, chatws.ChatTyping, `{"typing":true}`, chatws.EnvelopeIDs{})
		if r.Relay == nil || r.Relay.ProjectID != s.tenant.Project.ID || r.Relay.To != (chatws.Target{Operators: true}) ||
			r.Relay.Envelope.ID != "env-chat.typing" || *r.Relay.Envelope.VisitSessionID != s.session || r.Ack != nil {
			t.Fatalf("visitor typing: %+v, want it relayed to the operators", r)
		}

		conversation := ackID(t, s.ok(s.visitor, chatws.ChatMessage, `{"body":"Hi"}`, chatws.EnvelopeIDs{}), "conversation_id")
		r = s.ok(s.owner, chatws.ChatTyping, `{"typing":true}`, chatws.EnvelopeIDs{ConversationID: conversation})
		if r.Relay == nil || r.Relay.To != (chatws.Target{VisitSessionID: s.session}) || string(r.Relay.Envelope.Payload) != `{"typing":true}` {
			t.Fatalf("operator typing: %+v, want it relayed to the visit session", r)
		}
	})
}

func TestCoBrowseFramesReachTheOperatorsMonitoringOnly(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		s := newSite(t, db)
		visit := chatws.EnvelopeIDs{VisitSessionID: s.session}
		s.refused(s.viewer, chatws.MonitoringStart, "", visit, models.KindForbidden)
		s.ok(s.owner, chatws.MonitoringStart, "", visit)
		if !s.owner.Watches(s.session) {
			t.Fatal("the operator who started monitoring does not watch the session")
		}
		started := only(t, s.route(sitechat.NoticeMonitoringStart), chatws.MonitoringStart,
			chatws.Target{Operators: true, VisitSessionID: s.session})
		if started["monitoring_status"] != sitechat.MonitoringRequested {
			t.Fatalf("monitoring.start delivered as %v", started)
		}

		s.refused(s.visitor, chatws.ConsentAccepted, `{"subject":"call"}`, chatws.EnvelopeIDs{}, models.KindInvalid, "payload.subject")
		s.ok(s.visitor, chatws.ConsentAccepted, `{"subject":"monitoring"}`, chatws.EnvelopeIDs{})
		ack := s.ok(s.visitor, chatws.CursorMove, `{"x":10,"y":20}`, chatws.EnvelopeIDs{}).Ack.(map[string]any)
		if ack["frames"] != 1 {
			t.Fatalf("cursor.move ack %v, want one frame", ack)
		}
		frame := only(t, s.route(sitechat.NoticeMonitoringIncremental), chatws.CursorMove,
			chatws.Target{Operators: true, Watching: s.session})
		if frame["kind"] != "cursor" {
			t.Fatalf("frame delivered as %v", frame)
		}

		s.ok(s.owner, chatws.MonitoringStop, "", visit)
		if s.owner.Watches(s.session) {
			t.Fatal("the operator still watches the session after monitoring.stop")
		}
	})
}

func TestCallSignallingReachesOnlyTheOtherEnd(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		s := newSite(t, db)
		call := ackID(t, s.ok(s.owner, chatws.CallOffer, `{"media_kind":"video"}`, chatws.EnvelopeIDs{VisitSessionID: s.session}), "call_session_id")
		if !s.owner.Watches(call) {
			t.Fatal("the operator who offered the call does not watch it")
		}
		offered := only(t, s.route(sitechat.NoticeCallOffer), chatws.CallOffer, chatws.Target{Operators: true, VisitSessionID: s.session})
		if offered["status"] != string(sitechat.CallOffered) {
			t.Fatalf("call.offer delivered as %v", offered)
		}

		on := chatws.EnvelopeIDs{CallSessionID: call}
		r := s.ok(s.visitor, chatws.WebRTCOffer, `{"sdp":"v=0"}`, on)
		if r.Relay == nil || r.Relay.To != (chatws.Target{Operators: true, Watching: call}) || *r.Relay.Envelope.CallSessionID != call {
			t.Fatalf("visitor's offer: %+v, want it relayed to the operators in the call", r)
		}
		r = s.ok(s.owner, chatws.WebRTCAnswer, `{"sdp":"v=0"}`, on)
		if r.Relay == nil || r.Relay.To != (chatws.Target{VisitSessionID: s.session}) {
			t.Fatalf("operator's answer: %+v, want it relayed to the visit session", r)
		}
		s.refused(s.visitor, chatws.WebRTCICE, `{}`, chatws.EnvelopeIDs{}, models.KindInvalid, "call_session_id")
		s.refused(s.stranger, chatws.WebRTCICE, `{}`, on, models.KindNotFound)
	})
}

func TestAVisitorSocketEndsWithItsWidget(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		s := newSite(t, db)
		ctx := context.Background()
		s.ok(s.visitor, chatws.VisitorHeartbeat, "", chatws.EnvelopeIDs{})
		forged := &chatws.Client{Side: chatws.SideVisitor, Visit: s.visitor.Visit, VisitorToken: s.visitor.VisitorToken + "x"}
		both := []*chatws.Client{s.visitor, s.owner, forged}
		if errs := s.protocol.Recheck(ctx, both); errs[0] != nil || errs[1] != nil || !models.IsKind(errs[2], models.KindUnauthenticated) {
			t.Fatalf("recheck of an active widget's visitor, the owner and a forged token: %v", errs)
		}
		paused := sitechat.WidgetPaused
		if _, err := s.chat.PatchWidget(ctx, s.widget, sitechat.WidgetFields{Status: &paused}); err != nil {
			t.Fatal(err)
		}
		s.refused(s.visitor, chatws.VisitorHeartbeat, "", chatws.EnvelopeIDs{}, models.KindUnauthenticated, "visitor_token")
		if errs := s.protocol.Recheck(ctx, both); !models.IsKind(errs[0], models.KindUnauthenticated) || errs[1] != nil {
			t.Fatalf("recheck of a paused widget's visitor and the owner: %v, want the visitor's socket closed only", errs)
		}
	})
}

// TestARecheckInGoodStandingLogsNothing: every socket is rechecked every minute, so one in
// good standing must not log (it logged a failure to recheck, with no error, for each).
// Not in parallel with the other tests, as it swaps the default logger.
func TestARecheckInGoodStandingLogsNothing(t *testing.T) {
	s := newSite(t, dbtest.SQLite(t))
	var logged bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))
	err := s.protocol.Recheck(context.Background(), []*chatws.Client{s.visitor})[0]
	slog.SetDefault(prev)
	if err != nil {
		t.Fatalf("recheck of an active widget's visitor: %v", err)
	}
	if strings.Contains(logged.String(), "not rechecked") {
		t.Errorf("the recheck logged a failure: %s", logged.String())
	}
}

func TestTheVisitorLeavesUnlessActiveSinceTheLastSocketClosed(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		s := newSite(t, db)
		ctx := context.Background()
		left := func() bool {
			t.Helper()
			v, err := s.chat.Session(ctx, s.tenant.Company.ID, s.session)
			if err != nil {
				t.Fatal(err)
			}
			return v.LeftAt != nil
		}
		s.protocol.Left(ctx, s.visitor.Visit, time.Now().Add(-time.Hour))
		if left() {
			t.Fatal("a visitor active since the socket closed is marked as left")
		}
		s.protocol.Left(ctx, s.visitor.Visit, time.Now().Add(time.Second))
		if !left() {
			t.Fatal("a visitor gone for the grace period is not marked as left")
		}
		only(t, s.route(sitechat.NoticeVisitorLeft), chatws.VisitorLeft, chatws.Target{Operators: true})
		s.protocol.Arrived(ctx, s.visitor.Visit)
		if left() {
			t.Fatal("a visitor back on a socket is still marked as left")
		}
	})
}
