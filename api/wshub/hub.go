package wshub

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/websocket"
	"github.com/olahol/melody"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/sitechat/chatws"
	"agencyhub/platform/realtime"
)

// Config tunes the hub; DefaultConfig is what the service runs with.
type Config struct {
	// Recheck is how often every socket's standing is checked again (Handler.Recheck): a
	// socket is let in once, and must not outlive its credential or its user's access.
	Recheck time.Duration
	// LeaveGrace is how long a visit session may stay without a socket before the visitor
	// is marked as left: long enough for a page load or a reconnect.
	LeaveGrace time.Duration
	// RouteBuffer is how many notices may wait in each of a room's routing lanes (see
	// route). A lane that falls further behind tells the sockets its notices are for to
	// read again, as a bus that missed notices does.
	RouteBuffer int
	// SendBuffer is how many envelopes may wait for a socket. A socket that falls further
	// behind is disconnected (its client reconnects and re-reads), so that one slow reader
	// never holds up the others nor silently misses a message.
	SendBuffer int
	// PingPeriod, PongWait and WriteWait keep dead connections from lingering: the server
	// pings, a client that does not answer within PongWait or takes longer than WriteWait
	// to take a write is dropped.
	PingPeriod, PongWait, WriteWait time.Duration
	// MaxVisitorMessage and MaxOperatorMessage bound one received envelope; a visitor
	// sends co-browse snapshots, an operator only short envelopes.
	MaxVisitorMessage, MaxOperatorMessage int64
}

// DefaultConfig is the production tuning.
func DefaultConfig() Config {
	return Config{
		Recheck:            time.Minute,
		LeaveGrace:         30 * time.Second,
		RouteBuffer:        256,
		SendBuffer:         256,
		PingPeriod:         25 * time.Second,
		PongWait:           60 * time.Second,
		WriteWait:          10 * time.Second,
		MaxVisitorMessage:  2 << 20,
		MaxOperatorMessage: 256 << 10,
	}
}

// Handler is the protocol behind the sockets (chatws.Protocol): what an envelope does,
// which sockets a notice concerns, what a visitor's arrival and departure change.
type Handler interface {
	// Receive acts on an envelope c may send; the reply's ack is the payload of the ack
	// envelope, its relay is passed on first, and err is answered as an error envelope.
	Receive(ctx context.Context, c *chatws.Client, e chatws.Envelope) (chatws.Reply, error)
	// Route answers what a notice published under a project's topic is to deliver.
	Route(ctx context.Context, projectID uuid.UUID, notice json.RawMessage) ([]chatws.Delivery, error)
	// VisitSessionOf answers the visit session a notice is about, uuid.Nil for none: the
	// hub routes one visit session's notices one after another, in the order they came,
	// and different sessions' side by side.
	VisitSessionOf(notice json.RawMessage) uuid.UUID
	// Arrived runs when a visit session gets a socket on this instance.
	Arrived(ctx context.Context, v chatws.Visit)
	// Recheck answers, for each client, an error when its socket may no longer stay open:
	// the hub then closes it.
	Recheck(ctx context.Context, clients []*chatws.Client) []error
	// Left runs when a visit session has had no socket on this instance since since, for
	// the grace period: the visitor may have reconnected elsewhere, which Left checks.
	Left(ctx context.Context, v chatws.Visit, since time.Time)
}

// Socket is one connected client: who it is to the protocol, and its connection.
type Socket struct {
	chatws.Client
	// Lang and RequestID are those of the upgrade request; error envelopes use them.
	Lang, RequestID string

	session *melody.Session
	conn    net.Conn
}

// projects answers the rooms the socket is in.
func (s *Socket) projects() []uuid.UUID {
	if s.Side == chatws.SideVisitor {
		return []uuid.UUID{s.Visit.ProjectID}
	}
	return s.Projects
}

// room holds a project's sockets on this instance and its subscription to the project's
// topics.
type room struct {
	operators map[*Socket]struct{}
	visits    map[uuid.UUID]map[*Socket]struct{}
	sub       *realtime.Subscription
}

func (r *room) empty() bool { return len(r.operators) == 0 && len(r.visits) == 0 }

// Hub runs the two socket channels of site chat on this instance.
type Hub struct {
	cfg      Config
	bus      realtime.Bus
	handler  Handler
	topic    func(projectID uuid.UUID) string
	log      *slog.Logger
	ctx      context.Context
	stop     context.CancelFunc
	visitor  *melody.Melody
	operator *melody.Melody

	mu     sync.RWMutex
	rooms  map[uuid.UUID]*room
	leaves map[uuid.UUID]*time.Timer
	closed bool
	// sockets counts the sockets in rooms, by side.
	sockets map[chatws.Side]int
	// routing counts the rooms' routing goroutines, which Close waits for.
	routing sync.WaitGroup
}

// relayTopic carries envelopes that are relayed, not stored (typing, WebRTC signalling),
// to the instances holding the sockets they are for.
func relayTopic(projectID uuid.UUID) string { return "chat-relay:" + projectID.String() }

// New starts a hub; topic names the bus topic of a project's domain notices.
func New(cfg Config, bus realtime.Bus, handler Handler, topic func(projectID uuid.UUID) string, log *slog.Logger) *Hub {
	ctx, stop := context.WithCancel(context.Background())
	h := &Hub{
		cfg: cfg, bus: bus, handler: handler, topic: topic, log: log, ctx: ctx, stop: stop,
		rooms: make(map[uuid.UUID]*room), leaves: make(map[uuid.UUID]*time.Timer), sockets: map[chatws.Side]int{},
	}
	h.visitor = h.newMelody(cfg.MaxVisitorMessage)
	h.operator = h.newMelody(cfg.MaxOperatorMessage)
	h.routing.Go(h.recheck)
	return h
}

// recheckBatch is how many sockets the handler checks at once.
const recheckBatch = 100

// recheck asks the handler, once every Recheck for each socket, whether it may stay, and
// closes those that may not. The checks are spread over the period a batch at a time, so
// that thousands of sockets never query the database at once; a socket that joins during
// a period is checked in the next.
func (h *Hub) recheck() {
	for {
		start := time.Now()
		sockets := h.everySocket()
		for first := 0; first < len(sockets); first += recheckBatch {
			if !h.sleepUntil(start.Add(h.cfg.Recheck * time.Duration(first) / time.Duration(len(sockets)))) {
				return
			}
			batch := sockets[first:min(first+recheckBatch, len(sockets))]
			clients := make([]*chatws.Client, len(batch))
			for i, s := range batch {
				clients[i] = &s.Client
			}
			for i, err := range h.handler.Recheck(h.ctx, clients) {
				if s := batch[i]; err != nil && h.ctx.Err() == nil {
					h.log.Info("site chat socket closed: its standing changed", "socket_id", s.ID, "side", s.Side, "err", err)
					s.session.Close()
				}
			}
		}
		if !h.sleepUntil(start.Add(h.cfg.Recheck)) {
			return
		}
	}
}

// everySocket answers the sockets in rooms, each once.
func (h *Hub) everySocket() []*Socket {
	h.mu.RLock()
	defer h.mu.RUnlock()
	var sockets []*Socket
	seen := map[*Socket]bool{}
	for _, r := range h.rooms {
		for s := range r.operators {
			if !seen[s] {
				seen[s] = true
				sockets = append(sockets, s)
			}
		}
		for _, v := range r.visits {
			for s := range v {
				sockets = append(sockets, s)
			}
		}
	}
	return sockets
}

// sleepUntil answers false, at once, when the hub closes first.
func (h *Hub) sleepUntil(t time.Time) bool {
	wait := time.NewTimer(time.Until(t))
	defer wait.Stop()
	select {
	case <-h.ctx.Done():
		return false
	case <-wait.C:
		return true
	}
}

func (h *Hub) newMelody(maxMessage int64) *melody.Melody {
	m := melody.New()
	m.Config.MessageBufferSize = h.cfg.SendBuffer
	m.Config.PingPeriod, m.Config.PongWait, m.Config.WriteWait = h.cfg.PingPeriod, h.cfg.PongWait, h.cfg.WriteWait
	m.Config.MaxMessageSize = maxMessage
	// The handlers check the origin before they upgrade, where they know how the caller
	// signed in.
	m.Upgrader.CheckOrigin = func(*http.Request) bool { return true }
	m.HandleConnect(h.connected)
	m.HandleDisconnect(h.disconnected)
	m.HandleMessage(h.received)
	m.HandleError(h.failed)
	return m
}

// ErrClosed is what Serve answers once the hub is closed.
var ErrClosed = errors.New("wshub: closed")

// Serve upgrades the request to a socket and serves it until it closes. The caller has
// authenticated it and filled s's side and identity.
func (h *Hub) Serve(w http.ResponseWriter, r *http.Request, s *Socket) error {
	h.mu.RLock()
	closed := h.closed
	h.mu.RUnlock()
	if closed {
		return ErrClosed
	}
	s.ID = models.NewID()
	m := h.operator
	if s.Side == chatws.SideVisitor {
		m = h.visitor
	}
	rec := &hijackRecorder{ResponseWriter: w}
	return m.HandleRequestWithKeys(rec, r, map[string]any{socketKey: s, hijackKey: rec})
}

const (
	socketKey = "wshub.socket"
	hijackKey = "wshub.hijack"
)

func socketOf(session *melody.Session) *Socket { return session.MustGet(socketKey).(*Socket) }

// hijackRecorder keeps the connection the upgrade takes over, so that a socket that falls
// behind can be cut at once: melody can only queue a close behind the writes it is
// already late with.
type hijackRecorder struct {
	http.ResponseWriter
	conn net.Conn
}

func (w *hijackRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, rw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	w.conn = conn
	return conn, rw, err
}

func (w *hijackRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (h *Hub) connected(session *melody.Session) {
	s := socketOf(session)
	s.session = session
	s.conn = session.MustGet(hijackKey).(*hijackRecorder).conn
	session.UnSet(hijackKey)
	arrived := h.join(s)
	if arrived {
		h.handler.Arrived(h.ctx, s.Visit)
	}
}

func (h *Hub) disconnected(session *melody.Session) {
	h.leave(socketOf(session))
}

// failed cuts a socket whose send buffer is full; other errors end the socket by
// themselves.
func (h *Hub) failed(session *melody.Session, err error) {
	if errors.Is(err, melody.ErrMessageBufferFull) {
		s := socketOf(session)
		h.log.Warn("site chat socket dropped: it does not keep up", "socket_id", s.ID, "side", s.Side)
		s.conn.Close()
	}
}

// join adds s to the rooms of its projects, opening the rooms it is the first in, and
// answers whether it is the first socket of its visit session here.
func (h *Hub) join(s *Socket) (arrived bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sockets[s.Side]++
	for _, p := range s.projects() {
		r := h.rooms[p]
		if r == nil {
			r = &room{operators: map[*Socket]struct{}{}, visits: map[uuid.UUID]map[*Socket]struct{}{}}
			r.sub = h.bus.Subscribe(h.topic(p), relayTopic(p))
			h.rooms[p] = r
			h.routing.Add(1)
			go h.route(p, r.sub)
		}
		if s.Side == chatws.SideOperator {
			r.operators[s] = struct{}{}
			continue
		}
		v := s.Visit.VisitSessionID
		if r.visits[v] == nil {
			r.visits[v] = map[*Socket]struct{}{}
			arrived = true
			if t := h.leaves[v]; t != nil {
				// Back within the grace period: the visitor never left.
				t.Stop()
				delete(h.leaves, v)
				arrived = false
			}
		}
		r.visits[v][s] = struct{}{}
	}
	return arrived
}

// leave removes s from its rooms, closes the rooms it was the last in, and starts the
// grace period of a visit session that has no socket left.
func (h *Hub) leave(s *Socket) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sockets[s.Side]--
	for _, p := range s.projects() {
		r := h.rooms[p]
		if r == nil {
			continue
		}
		delete(r.operators, s)
		if s.Side == chatws.SideVisitor {
			v := s.Visit.VisitSessionID
			delete(r.visits[v], s)
			if len(r.visits[v]) == 0 {
				delete(r.visits, v)
				if !h.closed {
					h.startGrace(s.Visit)
				}
			}
		}
		if r.empty() {
			r.sub.Close()
			delete(h.rooms, p)
		}
	}
}

// startGrace marks the visitor as left unless a socket of the visit session joins within
// the grace period. Called with h.mu held.
func (h *Hub) startGrace(v chatws.Visit) {
	since := time.Now()
	var t *time.Timer
	t = time.AfterFunc(h.cfg.LeaveGrace, func() {
		h.mu.Lock()
		current := h.leaves[v.VisitSessionID] == t
		if current {
			delete(h.leaves, v.VisitSessionID)
		}
		h.mu.Unlock()
		if current {
			h.handler.Left(h.ctx, v, since)
		}
	})
	h.leaves[v.VisitSessionID] = t
}

// routeLanes is how many of a room's notices may be routed at once. Routing a notice
// re-reads from the database what it names, a round trip to another process on
// PostgreSQL, so one at a time falls behind a busy project's notices.
const routeLanes = 8

// laneOf answers the lane of a visit session's notices. Version 7 ids start with their
// time; their last bytes are random.
func laneOf(visitSessionID uuid.UUID) int {
	return int(binary.BigEndian.Uint64(visitSessionID[8:]) % routeLanes)
}

// route delivers what the bus says about a project until the room closes its
// subscription: it hands each notice and relay to the lane of its visit session, where it
// waits behind that lane's earlier ones. What the room cannot deliver (the bus missed
// notices, or a lane is full) it tells the sockets concerned to read again (readAgain).
func (h *Hub) route(projectID uuid.UUID, sub *realtime.Subscription) {
	defer h.routing.Done()
	var lanes [routeLanes]chan func()
	var working sync.WaitGroup
	for i := range lanes {
		lanes[i] = make(chan func(), h.cfg.RouteBuffer)
		working.Go(func() {
			for deliver := range lanes[i] {
				deliver()
			}
		})
	}
	defer func() {
		for _, lane := range lanes {
			close(lane)
		}
		working.Wait()
	}()
	relays := relayTopic(projectID)
	for {
		var m realtime.Message
		select {
		case <-sub.Missed():
			h.readAgain(projectID, uuid.Nil)
			continue
		case received, open := <-sub.C():
			if !open {
				return
			}
			m = received
		}
		var visit uuid.UUID
		var deliver func()
		if m.Topic == relays {
			d, err := decodeRelay(m.Data)
			if err != nil {
				h.log.Warn("site chat relay skipped", "project_id", projectID, "err", err)
				continue
			}
			if d.Envelope.VisitSessionID != nil {
				visit = *d.Envelope.VisitSessionID
			}
			deliver = func() { h.deliver(projectID, d) }
		} else {
			visit = h.handler.VisitSessionOf(m.Data)
			deliver = func() { h.routeNotice(projectID, m.Data) }
		}
		select {
		case lanes[laneOf(visit)] <- deliver:
		default:
			h.readAgain(projectID, visit)
		}
	}
}

// routeNotice delivers what the handler answers a notice is to deliver.
func (h *Hub) routeNotice(projectID uuid.UUID, notice json.RawMessage) {
	deliveries, err := h.handler.Route(h.ctx, projectID, notice)
	if err != nil {
		if h.ctx.Err() == nil {
			h.log.Error("site chat notice not delivered", "project_id", projectID, "notice", string(notice), "err", err)
		}
		return
	}
	for _, d := range deliveries {
		h.deliver(projectID, d)
	}
}

// readAgainClose is the close frame of a socket that may have missed envelopes: its client
// reconnects and reads again what it shows, as after any reconnect.
var readAgainClose = melody.FormatCloseMessage(websocket.CloseTryAgainLater, "missed notices: read again")

// readAgain closes the project's sockets on this instance that may have missed a notice of
// the visit session (the operators' and the session's own), or of any session when it is
// uuid.Nil. What was written to them before goes out first.
func (h *Hub) readAgain(projectID, visitSessionID uuid.UUID) {
	var sockets []*Socket
	h.mu.RLock()
	if r := h.rooms[projectID]; r != nil {
		for s := range r.operators {
			sockets = append(sockets, s)
		}
		for v, visit := range r.visits {
			if visitSessionID == uuid.Nil || v == visitSessionID {
				for s := range visit {
					sockets = append(sockets, s)
				}
			}
		}
	}
	h.mu.RUnlock()
	h.log.Warn("site chat sockets told to read again: notices were missed", "project_id", projectID,
		"visit_session_id", visitSessionID, "sockets", len(sockets))
	for _, s := range sockets {
		s.session.CloseWithMsg(readAgainClose)
	}
}

// deliver writes d to the sockets of this instance it targets. A write never waits: a
// socket whose buffer is full is cut (see failed).
func (h *Hub) deliver(projectID uuid.UUID, d chatws.Delivery) {
	b, err := json.Marshal(d.Envelope)
	if err != nil {
		h.log.Error("site chat envelope not encoded", "type", d.Envelope.Type, "err", err)
		return
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	r := h.rooms[projectID]
	if r == nil {
		return
	}
	if d.To.Operators {
		for s := range r.operators {
			if d.To.UserID != uuid.Nil && s.UserID != d.To.UserID {
				continue
			}
			if d.To.Watching != uuid.Nil && !s.Watches(d.To.Watching) {
				continue
			}
			s.session.Write(b)
		}
	}
	if d.To.VisitSessionID != uuid.Nil {
		for s := range r.visits[d.To.VisitSessionID] {
			s.session.Write(b)
		}
	}
}

// relay hands r to the sockets it targets on every instance, through the bus. Errors:
// invalid (payload, when too large for the bus even compressed).
func (h *Hub) relay(ctx context.Context, r *chatws.Relay) error {
	data, err := encodeRelay(r.Delivery)
	if err != nil {
		return err
	}
	if err := h.bus.Publish(ctx, relayTopic(r.ProjectID), data); err != nil {
		return models.Internal("relay %s: %w", r.Envelope.Type, err)
	}
	return nil
}

// received answers every envelope with ack or error, in the order they came.
func (h *Hub) received(session *melody.Session, raw []byte) {
	s := socketOf(session)
	e, err := chatws.Decode(raw)
	if err == nil && !s.Side.MaySend(e.Type) {
		err = models.Invalid("envelope_type_not_allowed", "type")
	}
	var r chatws.Reply
	if err == nil {
		r, err = h.handler.Receive(h.ctx, &s.Client, e)
	}
	if err == nil && r.Relay != nil {
		err = h.relay(h.ctx, r.Relay)
	}
	reply, rerr := h.answer(s, e.ID, r.Ack, err)
	if rerr != nil {
		h.log.Error("site chat answer not encoded", "socket_id", s.ID, "err", rerr)
		return
	}
	session.Write(reply)
	if models.IsKind(err, models.KindUnauthenticated) {
		// The socket's credential no longer holds (an expired token, a paused widget): the
		// client must sign in again before anything else.
		session.Close()
	}
}

// answer is the ack or error envelope for the envelope id (a fresh id when the client's
// could not be read).
func (h *Hub) answer(s *Socket, id string, ack any, err error) ([]byte, error) {
	t, payload := chatws.Ack, ack
	if err != nil {
		status, problem := httpx.ProblemFor(s.Lang, s.RequestID, err)
		if status == http.StatusInternalServerError {
			h.log.Error("site chat envelope failed", "socket_id", s.ID, "request_id", s.RequestID, "envelope_id", id, "err", err)
		}
		t, payload = chatws.Error, problem
	}
	e, eerr := chatws.NewEnvelope(t, payload)
	if eerr != nil {
		return nil, eerr
	}
	if id != "" {
		e.ID = id
	}
	return json.Marshal(e)
}

// Counts answers how many sockets of each side this instance serves, counting those that
// have joined their rooms (and so receive what is published from now on).
func (h *Hub) Counts() (visitors, operators int) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.sockets[chatws.SideVisitor], h.sockets[chatws.SideOperator]
}

// Close disconnects every socket and stops routing; pending grace periods are dropped,
// since the visitors' sockets will reconnect to another instance. It may be called once.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	for v, t := range h.leaves {
		t.Stop()
		delete(h.leaves, v)
	}
	h.mu.Unlock()
	h.stop()
	h.visitor.Close()
	h.operator.Close()
	// The sockets leave their rooms as their read loops end; a room's subscription closes
	// with its last socket, and the bus's Close ends those that remain.
	h.mu.Lock()
	for p, r := range h.rooms {
		r.sub.Close()
		delete(h.rooms, p)
	}
	h.mu.Unlock()
	h.routing.Wait()
}
