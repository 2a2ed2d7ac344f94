package chatws

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/auth"
	"agencyhub/models/company"
	"agencyhub/models/sitechat"
)

// Views renders the records envelopes carry as the contract's schemas, as the API renders
// them over HTTP: the API owns the wire types (SiteChatMessage, SiteChatCallSession,
// SiteVisitorSession, SiteCobrowseFrame) and lends them to the protocol.
type Views interface {
	Message(m sitechat.Message) any
	Call(c *sitechat.CallSession) any
	VisitSession(ctx context.Context, v *sitechat.VisitSession) (any, error)
	Frame(f sitechat.Frame) any
}

// Protocol is the site chat behind the sockets: what each envelope does, and which
// sockets each notice reaches. Every move goes through the site chat service's loaders,
// so an id alone never reaches another visitor's or another company's data.
type Protocol struct {
	siteChat *sitechat.Service
	users    *auth.Service
	views    Views
	// relayed remembers, per visit session, the last co-browse sequence sent to its
	// watchers, so that a notice passes on every frame stored since.
	mu      sync.Mutex
	relayed map[uuid.UUID]int64
	// companies holds the company of each project a notice may come from (Follow).
	companies sync.Map
}

// New returns the protocol of siteChat; users names operators on their messages.
func New(siteChat *sitechat.Service, users *auth.Service, views Views) *Protocol {
	return &Protocol{siteChat: siteChat, users: users, views: views, relayed: map[uuid.UUID]int64{}}
}

// Follow records the company of a project a socket follows, as the socket is let in:
// Route re-reads what the project's notices name in that company.
func (p *Protocol) Follow(projectID, companyID uuid.UUID) {
	p.companies.Store(projectID, companyID)
}

// VisitorTokenError names visitor_token, the query parameter that carries a visitor
// socket's credential, in a refusal of that credential.
func VisitorTokenError(err error) error {
	if e := models.AsError(err); e.Kind == models.KindUnauthenticated {
		return models.Unauthenticated(e.Key, "visitor_token")
	}
	return err
}

// Receive acts on an envelope c may send (the transport checked the side) and answers
// its ack and relay. Errors: as the site chat's moves; unauthenticated (visitor_token)
// once a visitor's token no longer holds, which closes the socket.
func (p *Protocol) Receive(ctx context.Context, c *Client, e Envelope) (Reply, error) {
	if c.Side == SideVisitor {
		// The token is checked again for every envelope, so that a paused widget or an
		// expired token stops the socket.
		v, err := p.siteChat.VerifyVisitorToken(ctx, c.VisitorToken)
		if err != nil {
			return Reply{}, VisitorTokenError(err)
		}
		return p.fromVisitor(ctx, v, e)
	}
	return p.fromOperator(ctx, c, e)
}

// payload decodes an envelope's payload into dst; absent is the zero value.
func payload(e Envelope, dst any) error {
	if len(e.Payload) == 0 {
		return nil
	}
	if err := json.Unmarshal(e.Payload, dst); err != nil {
		return models.Invalid("invalid_envelope", "payload")
	}
	return nil
}

// relay passes e on to target in a project's room, stamped with the ids of what it
// concerns and the server's time.
func relay(projectID uuid.UUID, to Target, e Envelope, ids EnvelopeIDs) Reply {
	out := Envelope{ID: e.ID, Type: e.Type, SentAt: time.Now().UTC(), Payload: e.Payload}
	out.IDs(ids)
	return Reply{Relay: &Relay{ProjectID: projectID, Delivery: Delivery{To: to, Envelope: out}}}
}

// Arrived records that a visit session got a socket: the visit is active (and back, if
// it had left).
func (p *Protocol) Arrived(ctx context.Context, visit Visit) {
	v, err := p.siteChat.SocketVisit(ctx, visit.CompanyID, visit.VisitSessionID)
	if err == nil {
		err = p.siteChat.TouchSession(ctx, v)
	}
	if err != nil && ctx.Err() == nil {
		slog.Warn("site chat visitor arrival not recorded", "visit_session_id", visit.VisitSessionID, "err", err)
	}
}

// Recheck answers, for each client, why its socket may no longer stay, or nil: a visitor
// socket stays while its token holds (not expired, the widget still active), an operator
// socket while its user may still read every project it follows. The visitors' tokens are
// checked together, and each user's projects read once. A failure to check (the database
// down) keeps the socket: only a refusal closes it.
func (p *Protocol) Recheck(ctx context.Context, clients []*Client) []error {
	errs := make([]error, len(clients))
	var tokens []string
	var visitors []int
	readable := map[uuid.UUID][]company.Project{}
	for i, c := range clients {
		if c.Side == SideVisitor {
			tokens = append(tokens, c.VisitorToken)
			visitors = append(visitors, i)
			continue
		}
		projects, read := readable[c.UserID]
		if !read {
			var err error
			if projects, err = p.siteChat.Companies.ReadableProjects(ctx, c.UserID); err != nil {
				errs[i] = err
				continue
			}
			readable[c.UserID] = projects
		}
		errs[i] = follows(projects, c.Projects)
	}
	for j, err := range p.siteChat.CheckVisitorTokens(ctx, tokens) {
		errs[visitors[j]] = err
	}
	for i, err := range errs {
		if err != nil && models.AsError(err).Kind == models.KindInternal {
			slog.Warn("site chat socket not rechecked", "socket_id", clients[i].ID, "err", err)
			errs[i] = nil
		}
	}
	return errs
}

// follows answers not found unless every project of projectIDs is readable.
func follows(readable []company.Project, projectIDs []uuid.UUID) error {
	for _, id := range projectIDs {
		if !slices.ContainsFunc(readable, func(r company.Project) bool { return r.ID == id }) {
			return models.NotFound("project_not_found")
		}
	}
	return nil
}

// Left marks the visitor as left unless the session was active since its last socket
// closed here, which means the visitor came back through another instance.
func (p *Protocol) Left(ctx context.Context, visit Visit, since time.Time) {
	v, err := p.siteChat.SocketVisit(ctx, visit.CompanyID, visit.VisitSessionID)
	if err == nil && v.Session.LastActivityAt.Before(since) {
		err = p.siteChat.MarkVisitorLeft(ctx, v)
	}
	if err != nil && ctx.Err() == nil {
		slog.Warn("site chat visitor departure not recorded", "visit_session_id", visit.VisitSessionID, "err", err)
	}
}
