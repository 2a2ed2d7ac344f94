package api

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/api/wshub"
	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/models/sitechat"
	"agencyhub/web"
)

// siteChatWidgetScript serves GET /site-chat/widget.js: the widget, embedded in the binary.
// Sites load it on every page, so it is cacheable for a short while and revalidated by
// its ETag after that; a new release changes the ETag.
func (s *Server) siteChatWidgetScript(c *gin.Context) {
	h := c.Writer.Header()
	h.Set("ETag", web.WidgetETag)
	h.Set("Cache-Control", "public, max-age=300, stale-while-revalidate=86400")
	h.Set("X-Content-Type-Options", "nosniff")
	// Loaded by other sites' pages.
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	if etagMatches(c.GetHeader("If-None-Match"), web.WidgetETag) {
		c.Status(http.StatusNotModified)
		return
	}
	c.Data(http.StatusOK, "text/javascript; charset=utf-8", web.WidgetJS)
}

// etagMatches reads an If-None-Match list (RFC 9110: weak comparison, * matches).
func etagMatches(header, etag string) bool {
	for _, tag := range strings.Split(header, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == etag || tag == "*" {
			return true
		}
	}
	return false
}

// publicSiteChatPrefix is where the widget's calls go, from the pages of any site.
const publicSiteChatPrefix = "/api/v1/public/site-chat/"

// siteChatCORS lets the widget call the public site chat operations from the sites that
// embed it: any origin, without cookies (the visitor token travels in X-Visitor-Token),
// and answers their preflight requests. It runs before routing, as preflights match no
// route.
func siteChatCORS(c *gin.Context) {
	if !strings.HasPrefix(c.Request.URL.Path, publicSiteChatPrefix) {
		return
	}
	h := c.Writer.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", "Retry-After, X-Request-Id, X-App-Result, X-App-Validate, X-App-Action")
	if c.Request.Method == http.MethodOptions && c.GetHeader("Access-Control-Request-Method") != "" {
		h.Set("Access-Control-Allow-Methods", "GET, POST")
		h.Set("Access-Control-Allow-Headers", "Content-Type, X-Visitor-Token")
		h.Set("Access-Control-Max-Age", "600")
		c.AbortWithStatus(http.StatusNoContent)
	}
}

// siteChatPublicWebSocket serves GET /api/v1/public/site-chat/ws: the visitor socket of
// one visit session, opened with the visitor_token presence gave for it. A token that is
// missing, expired, forged, for another session or widget, or for a widget no longer
// active is refused before the upgrade (401).
func (s *Server) siteChatPublicWebSocket(c *gin.Context) {
	publicKey := c.Query("public_key")
	if publicKey == "" {
		httpx.WriteError(c, models.Invalid("invalid_body", "public_key"))
		return
	}
	sessionID, err := models.ParseID("visit_session_id", c.Query("visit_session_id"))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	token := c.Query("visitor_token")
	v, err := s.SiteChat.VerifyVisitorToken(c, token)
	if err == nil {
		err = v.Binds(publicKey, uuid.Nil, sessionID)
	}
	if err == nil {
		err = s.limitPublic(c, publicKey)
	}
	if err != nil {
		httpx.WriteError(c, socketCredential(err, "visitor_token"))
		return
	}
	s.chatSockets.companies.Store(v.Widget.ProjectID, v.Widget.CompanyID)
	sock := &wshub.Socket{Side: wshub.SideVisitor, Lang: httpx.Lang(c), RequestID: httpx.RequestID(c), State: token,
		Visit: wshub.Visit{CompanyID: v.Widget.CompanyID, ProjectID: v.Widget.ProjectID, ChatWidgetID: v.Widget.ID,
			VisitorID: v.Visitor.ID, VisitSessionID: v.Session.ID}}
	s.serveSocket(c, sock)
}

// socketCredential names the query parameter that carries a socket's credential in its
// refusal.
func socketCredential(err error, field string) error {
	if e := models.AsError(err); e.Kind == models.KindUnauthenticated {
		return models.Unauthenticated(e.Key, field)
	}
	return err
}

// siteChatOperatorWebSocket serves GET /api/v1/site-chat/ws/operator: the socket of a
// signed-in user, following every project they may read (or the one ?project_id= names;
// another company's is 404). A browser signed in by cookie must open it from the
// application's origin: the cookie would otherwise let any site a user visits listen in.
func (s *Server) siteChatOperatorWebSocket(c *gin.Context) {
	if cookieSignedIn(c) && !s.sameOrigin(c) {
		httpx.WriteError(c, models.Forbidden("socket_origin_not_allowed"))
		return
	}
	a := actor(c)
	var projects []company.Project
	if raw := c.Query("project_id"); raw != "" {
		id, err := models.ParseID("project_id", raw)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		p, _, err := s.Company.ProjectAccess(c, a.UserID, id)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		projects = []company.Project{*p}
	} else {
		var err error
		if projects, err = s.readableProjects(c, a.UserID); err != nil {
			httpx.WriteError(c, err)
			return
		}
	}
	sock := &wshub.Socket{Side: wshub.SideOperator, UserID: a.UserID, Lang: httpx.Lang(c), RequestID: httpx.RequestID(c)}
	for _, p := range projects {
		sock.Projects = append(sock.Projects, p.ID)
		s.chatSockets.companies.Store(p.ID, p.CompanyID)
	}
	s.serveSocket(c, sock)
}

// serveSocket hands the request to the hub; a request that is no WebSocket handshake is
// answered by the upgrader (400).
func (s *Server) serveSocket(c *gin.Context, sock *wshub.Socket) {
	if err := s.chatHub.Serve(c.Writer, c.Request, sock); err != nil && !c.Writer.Written() {
		httpx.WriteError(c, models.Invalid("websocket_upgrade_required", "Upgrade"))
	}
}

// SocketCounts answers how many site chat sockets of each side this server has let in.
func (s *Server) SocketCounts() (visitors, operators int) { return s.chatHub.Counts() }

// cookieSignedIn tells whether authenticate took the caller from the app_access cookie.
func cookieSignedIn(c *gin.Context) bool {
	_, bearer := bearerToken(c)
	return c.GetHeader(headerAPIKey) == "" && !bearer
}

// sameOrigin accepts a request without Origin (not a browser) and one whose Origin is the
// public URL's or the request's own host.
func (s *Server) sameOrigin(c *gin.Context) bool {
	origin := c.GetHeader("Origin")
	if origin == "" {
		return true
	}
	o, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if public, err := url.Parse(s.PublicURL); err == nil && o.Scheme == public.Scheme && o.Host == public.Host {
		return true
	}
	return o.Host == c.Request.Host
}

// readableProjects lists every project of every company the user belongs to: each role
// may read its company's projects.
func (s *Server) readableProjects(ctx context.Context, userID uuid.UUID) ([]company.Project, error) {
	var out []company.Project
	err := eachPage(func(page models.PageRequest) (string, error) {
		companies, next, err := s.Company.List(ctx, userID, page)
		for _, a := range companies {
			if !a.Role.Can(company.PermRead) {
				continue
			}
			perr := eachPage(func(page models.PageRequest) (string, error) {
				projects, next, err := s.Company.Projects(ctx, a.Company.ID, page)
				out = append(out, projects...)
				return next, err
			})
			if perr != nil {
				return "", perr
			}
		}
		return next, err
	})
	return out, err
}

// eachPage calls list for every page, from the first until one has no next cursor.
func eachPage(list func(models.PageRequest) (string, error)) error {
	page := models.PageRequest{Limit: models.MaxPageLimit}
	for {
		next, err := list(page)
		if err != nil || next == "" {
			return err
		}
		page.Cursor = next
	}
}

// siteChatSockets is the site chat behind the sockets (wshub.Handler): what each envelope
// does, and which records a notice stands for.
type siteChatSockets struct {
	s *Server
	// relayed remembers, per visit session, the last co-browse sequence sent to its
	// watchers, so that a notice passes on every frame stored since.
	mu      sync.Mutex
	relayed map[uuid.UUID]int64
	// companies caches the company of each project a notice may come from.
	companies sync.Map
}

var _ wshub.Handler = (*siteChatSockets)(nil)

// frameTypes maps the visitor's co-browse envelope types to SiteCobrowseFrame kinds, and
// back for what watchers receive.
var frameTypes = map[wshub.Type]string{
	wshub.MonitoringSnapshot: sitechat.FrameSnapshot, wshub.MonitoringIncremental: sitechat.FrameMutation,
	wshub.CursorMove: "cursor", wshub.TouchMove: "touch", wshub.Click: "click", wshub.Scroll: "scroll",
	wshub.Viewport: "viewport", wshub.PageNavigate: "navigation",
}

var frameKindTypes = func() map[string]wshub.Type {
	out := map[string]wshub.Type{"diagnostic": wshub.MonitoringIncremental}
	for t, k := range frameTypes {
		out[k] = t
	}
	return out
}()

// Receive dispatches an envelope to the side that sent it.
func (h *siteChatSockets) Receive(ctx context.Context, sock *wshub.Socket, e wshub.Envelope) (any, error) {
	if sock.Side == wshub.SideVisitor {
		// The token is checked again for every envelope, so that a paused widget or an
		// expired token stops the socket (unauthenticated closes it).
		v, err := h.s.SiteChat.VerifyVisitorToken(ctx, sock.State.(string))
		if err != nil {
			return nil, socketCredential(err, "visitor_token")
		}
		return h.fromVisitor(ctx, sock, v, e)
	}
	return h.fromOperator(ctx, sock, e)
}

// payload decodes an envelope's payload into dst; absent is the zero value.
func payload(e wshub.Envelope, dst any) error {
	if len(e.Payload) == 0 {
		return nil
	}
	if err := json.Unmarshal(e.Payload, dst); err != nil {
		return models.Invalid("invalid_envelope", "payload")
	}
	return nil
}

// visitorMessage is the payload of a visitor's chat.message.
type visitorMessage struct {
	Body           string `json:"body"`
	AuthorName     string `json:"author_name"`
	VisitorContact string `json:"visitor_contact"`
}

// callPayload is the payload of the call moves: SiteChatCallInput's fields.
type callPayload struct {
	MediaKind                string `json:"media_kind"`
	RecordingEnabled         bool   `json:"recording_enabled"`
	RecordingConsentAccepted bool   `json:"recording_consent_accepted"`
	PrivacyConsentAccepted   bool   `json:"privacy_consent_accepted"`
	EndReason                string `json:"end_reason"`
}

func (p callPayload) input(conversationID *uuid.UUID) sitechat.CallInput {
	return sitechat.CallInput{ConversationID: conversationID, MediaKind: p.MediaKind, RecordingEnabled: p.RecordingEnabled,
		RecordingConsentAccepted: p.RecordingConsentAccepted, PrivacyConsentAccepted: p.PrivacyConsentAccepted, EndReason: p.EndReason}
}

func (h *siteChatSockets) fromVisitor(ctx context.Context, sock *wshub.Socket, v *sitechat.VisitorAccess, e wshub.Envelope) (any, error) {
	switch e.Type {
	case wshub.VisitorHeartbeat:
		return nil, h.s.SiteChat.TouchSession(ctx, v)
	case wshub.PresenceUpdate:
		var in sitechat.PresenceInput
		if err := payload(e, &in); err != nil {
			return nil, err
		}
		in.PublicKey, in.VisitSessionID, in.AnonymousID = v.Widget.PublicKey, &v.Session.ID, v.Visitor.AnonymousID
		_, err := h.s.SiteChat.Presence(ctx, in)
		return nil, err
	case wshub.EventBatch:
		var in struct {
			Events []sitechat.Event `json:"events"`
		}
		if err := payload(e, &in); err != nil {
			return nil, err
		}
		return h.recordEvents(ctx, v, in.Events)
	case wshub.ChatMessage:
		var in visitorMessage
		if err := payload(e, &in); err != nil {
			return nil, err
		}
		m, conv, err := h.s.SiteChat.PostVisitorMessage(ctx, v, sitechat.MessageInput{Body: in.Body, AuthorName: in.AuthorName, VisitorContact: in.VisitorContact})
		if err != nil {
			return nil, err
		}
		return map[string]uuid.UUID{"message_id": m.ID, "conversation_id": conv.ID}, nil
	case wshub.ChatTyping:
		return nil, h.relay(ctx, v.Widget.ProjectID, wshub.Target{Operators: true}, e, visitIDs(v.Session))
	case wshub.InviteSeen, wshub.InviteAccepted, wshub.InviteDeclined:
		return nil, h.s.SiteChat.AnswerInvite(ctx, v, strings.TrimPrefix(string(e.Type), "invite."))
	case wshub.ConsentAccepted, wshub.ConsentDeclined:
		var in struct {
			Subject string `json:"subject"`
		}
		if err := payload(e, &in); err != nil {
			return nil, err
		}
		if in.Subject != "" && in.Subject != "monitoring" {
			// A call's consents travel with call.accept (privacy_consent_accepted,
			// recording_consent_accepted).
			return nil, models.Invalid("invalid_envelope", "payload.subject")
		}
		return nil, h.s.SiteChat.AnswerMonitoring(ctx, v, e.Type == wshub.ConsentAccepted)
	case wshub.CallRequest:
		var in callPayload
		if err := payload(e, &in); err != nil {
			return nil, err
		}
		call, err := h.s.SiteChat.RequestCall(ctx, v, in.input(e.ConversationID))
		if err != nil {
			return nil, err
		}
		return map[string]uuid.UUID{"call_session_id": call.ID}, nil
	case wshub.CallAccept, wshub.CallReject, wshub.CallCancel, wshub.CallEnd:
		call, err := h.visitorCall(ctx, v, e)
		if err != nil {
			return nil, err
		}
		return nil, h.moveCall(ctx, call, sitechat.VisitorParty(), e)
	case wshub.WebRTCOffer, wshub.WebRTCAnswer, wshub.WebRTCICE:
		call, err := h.visitorCall(ctx, v, e)
		if err != nil {
			return nil, err
		}
		if err := h.s.SiteChat.SignalCall(ctx, call); err != nil {
			return nil, err
		}
		return nil, h.relay(ctx, call.ProjectID, wshub.Target{Operators: true, Watching: call.ID}, e, callIDs(call))
	}
	// The co-browse types: stored as frames, passed on live to the watchers.
	return h.recordEvents(ctx, v, []sitechat.Event{{EventType: "cobrowse." + frameTypes[e.Type], OccurredAt: &e.SentAt, Payload: e.Payload}})
}

func (h *siteChatSockets) recordEvents(ctx context.Context, v *sitechat.VisitorAccess, events []sitechat.Event) (any, error) {
	r, err := h.s.SiteChat.RecordEvents(ctx, v, events)
	if err != nil {
		return nil, err
	}
	return map[string]any{"accepted": r.Accepted, "frames": r.Frames, "first_sequence": r.FirstSequence, "last_sequence": r.LastSequence}, nil
}

func (h *siteChatSockets) visitorCall(ctx context.Context, v *sitechat.VisitorAccess, e wshub.Envelope) (*sitechat.CallSession, error) {
	if e.CallSessionID == nil {
		return nil, models.Invalid("invalid_envelope", "call_session_id")
	}
	return h.s.SiteChat.VisitorCall(ctx, v, *e.CallSessionID)
}

// moveCall applies a call.accept, reject, cancel or end; cancel is the caller hanging up
// before an answer, which EndCall records as cancelled.
func (h *siteChatSockets) moveCall(ctx context.Context, call *sitechat.CallSession, by sitechat.Party, e wshub.Envelope) error {
	var in callPayload
	if err := payload(e, &in); err != nil {
		return err
	}
	var err error
	switch e.Type {
	case wshub.CallAccept:
		_, err = h.s.SiteChat.AcceptCall(ctx, call, by, in.input(nil))
	case wshub.CallReject:
		_, err = h.s.SiteChat.RejectCall(ctx, call, by, in.EndReason)
	default:
		_, err = h.s.SiteChat.EndCall(ctx, call, by, in.EndReason)
	}
	return err
}

func (h *siteChatSockets) fromOperator(ctx context.Context, sock *wshub.Socket, e wshub.Envelope) (any, error) {
	switch e.Type {
	case wshub.ChatMessage, wshub.ChatTyping:
		conv, err := h.operatorConversation(ctx, sock, e)
		if err != nil {
			return nil, err
		}
		if e.Type == wshub.ChatTyping {
			if conv.VisitSessionID == nil {
				return nil, nil
			}
			return nil, h.relay(ctx, conv.ProjectID, wshub.Target{VisitSessionID: *conv.VisitSessionID}, e,
				wshub.EnvelopeIDs{ConversationID: conv.ID, VisitSessionID: *conv.VisitSessionID, VisitorID: conv.VisitorID, ChatWidgetID: conv.ChatWidgetID, ProjectID: conv.ProjectID})
		}
		var in struct {
			Body string `json:"body"`
		}
		if err := payload(e, &in); err != nil {
			return nil, err
		}
		u, err := h.s.Auth.User(ctx, sock.UserID)
		if err != nil {
			return nil, err
		}
		m, err := h.s.SiteChat.PostOperatorMessage(ctx, conv, sock.UserID, u.Name, sitechat.MessageInput{Body: in.Body})
		if err != nil {
			return nil, err
		}
		return map[string]uuid.UUID{"message_id": m.ID, "conversation_id": conv.ID}, nil
	case wshub.OperatorInvite, wshub.MonitoringStart, wshub.MonitoringStop, wshub.CallOffer:
		return h.onVisitSession(ctx, sock, e)
	}
	// The call moves and the WebRTC signalling.
	if e.CallSessionID == nil {
		return nil, models.Invalid("invalid_envelope", "call_session_id")
	}
	call, a, err := h.s.SiteChat.CallAccess(ctx, sock.UserID, *e.CallSessionID)
	if err == nil && !a.Role.Can(company.PermWork) {
		err = models.Forbidden("role_too_low")
	}
	if err != nil {
		return nil, err
	}
	h.s.chatHub.Watch(sock, call.ID)
	switch e.Type {
	case wshub.WebRTCOffer, wshub.WebRTCAnswer, wshub.WebRTCICE:
		if err := h.s.SiteChat.SignalCall(ctx, call); err != nil {
			return nil, err
		}
		return nil, h.relay(ctx, call.ProjectID, wshub.Target{VisitSessionID: call.VisitSessionID}, e, callIDs(call))
	}
	return nil, h.moveCall(ctx, call, sitechat.OperatorParty(sock.UserID), e)
}

// operatorConversation loads the conversation an operator's envelope names, requiring the
// work permission in its company; one of a company the operator is not in is not found.
func (h *siteChatSockets) operatorConversation(ctx context.Context, sock *wshub.Socket, e wshub.Envelope) (*sitechat.Conversation, error) {
	if e.ConversationID == nil {
		return nil, models.Invalid("invalid_envelope", "conversation_id")
	}
	conv, a, err := h.s.SiteChat.ConversationAccess(ctx, sock.UserID, *e.ConversationID)
	if err == nil && !a.Role.Can(company.PermWork) {
		err = models.Forbidden("role_too_low")
	}
	return conv, err
}

// onVisitSession runs the operator's moves on a visit session: invitation, monitoring,
// call offer. A socket that starts monitoring watches the session's frames until it stops
// it; starting again what is already requested or active still makes it watch.
func (h *siteChatSockets) onVisitSession(ctx context.Context, sock *wshub.Socket, e wshub.Envelope) (any, error) {
	if e.VisitSessionID == nil {
		return nil, models.Invalid("invalid_envelope", "visit_session_id")
	}
	v, a, err := h.s.SiteChat.SessionAccess(ctx, sock.UserID, *e.VisitSessionID)
	if err == nil && !a.Role.Can(company.PermWork) {
		err = models.Forbidden("role_too_low")
	}
	if err != nil {
		return nil, err
	}
	switch e.Type {
	case wshub.OperatorInvite:
		var in struct {
			Force    bool   `json:"force"`
			Message  string `json:"message"`
			Template string `json:"template"`
		}
		if err := payload(e, &in); err != nil {
			return nil, err
		}
		w, _, err := h.s.SiteChat.WidgetAccess(ctx, sock.UserID, v.ChatWidgetID)
		if err != nil {
			return nil, err
		}
		_, err = h.s.SiteChat.Invite(ctx, w, v, sitechat.InviteInput{Force: in.Force, Message: in.Message, Template: in.Template})
		return nil, err
	case wshub.MonitoringStart:
		h.s.chatHub.Watch(sock, v.ID)
		_, err := h.s.SiteChat.StartMonitoring(ctx, v)
		if models.IsKind(err, models.KindConflict) && (v.MonitoringStatus == sitechat.MonitoringRequested || v.MonitoringStatus == sitechat.MonitoringActive) {
			return nil, nil
		}
		return nil, err
	case wshub.MonitoringStop:
		h.s.chatHub.Unwatch(sock, v.ID)
		_, err := h.s.SiteChat.StopMonitoring(ctx, v)
		return nil, err
	}
	var in callPayload
	if err := payload(e, &in); err != nil {
		return nil, err
	}
	call, err := h.s.SiteChat.OfferCall(ctx, v, sock.UserID, in.input(e.ConversationID))
	if err != nil {
		return nil, err
	}
	h.s.chatHub.Watch(sock, call.ID)
	return map[string]uuid.UUID{"call_session_id": call.ID}, nil
}

// relay passes e on to target, stamped with the ids of what it concerns and the server's
// time.
func (h *siteChatSockets) relay(ctx context.Context, projectID uuid.UUID, to wshub.Target, e wshub.Envelope, ids wshub.EnvelopeIDs) error {
	out := wshub.Envelope{ID: e.ID, Type: e.Type, SentAt: time.Now().UTC(), Payload: e.Payload}
	out.IDs(ids)
	return h.s.chatHub.Relay(ctx, projectID, wshub.Delivery{To: to, Envelope: out})
}

func visitIDs(v *sitechat.VisitSession) wshub.EnvelopeIDs {
	return wshub.EnvelopeIDs{ConversationID: v.ConversationID, VisitSessionID: v.ID, VisitorID: v.VisitorID, ChatWidgetID: v.ChatWidgetID, ProjectID: v.ProjectID}
}

func callIDs(c *sitechat.CallSession) wshub.EnvelopeIDs {
	ids := wshub.EnvelopeIDs{VisitSessionID: c.VisitSessionID, VisitorID: c.VisitorID, ChatWidgetID: c.ChatWidgetID, ProjectID: c.ProjectID, CallSessionID: c.ID}
	if c.ConversationID != nil {
		ids.ConversationID = *c.ConversationID
	}
	return ids
}

// Arrived records the visitor's heartbeat: the visit is active (and back, if it had left).
func (h *siteChatSockets) Arrived(ctx context.Context, visit wshub.Visit) {
	v, err := h.visitorAccess(ctx, visit)
	if err == nil {
		err = h.s.SiteChat.TouchSession(ctx, v)
	}
	if err != nil && ctx.Err() == nil {
		slog.Warn("site chat visitor arrival not recorded", "visit_session_id", visit.VisitSessionID, "err", err)
	}
}

// Recheck keeps a visitor socket while its token holds (not expired, the widget still
// active) and an operator socket while its user may still read every project it follows.
// A failure to check (the database down) keeps the socket: only a refusal closes it.
func (h *siteChatSockets) Recheck(ctx context.Context, sock *wshub.Socket) error {
	err := h.standing(ctx, sock)
	if models.AsError(err).Kind == models.KindInternal {
		slog.Warn("site chat socket not rechecked", "socket_id", sock.ID, "err", err)
		return nil
	}
	return err
}

func (h *siteChatSockets) standing(ctx context.Context, sock *wshub.Socket) error {
	if sock.Side == wshub.SideVisitor {
		_, err := h.s.SiteChat.VerifyVisitorToken(ctx, sock.State.(string))
		return err
	}
	readable, err := h.s.readableProjects(ctx, sock.UserID)
	if err != nil {
		return err
	}
	for _, p := range sock.Projects {
		if !slices.ContainsFunc(readable, func(r company.Project) bool { return r.ID == p }) {
			return models.NotFound("project_not_found")
		}
	}
	return nil
}

// Left marks the visitor as left unless the session was active since its last socket
// closed here, which means the visitor came back through another instance.
func (h *siteChatSockets) Left(ctx context.Context, visit wshub.Visit, since time.Time) {
	v, err := h.visitorAccess(ctx, visit)
	if err == nil && v.Session.LastActivityAt.Before(since) {
		err = h.s.SiteChat.MarkVisitorLeft(ctx, v)
	}
	if err != nil && ctx.Err() == nil {
		slog.Warn("site chat visitor departure not recorded", "visit_session_id", visit.VisitSessionID, "err", err)
	}
}

// visitorAccess reads what a visit's socket stands for afresh.
func (h *siteChatSockets) visitorAccess(ctx context.Context, visit wshub.Visit) (*sitechat.VisitorAccess, error) {
	return h.s.SiteChat.SocketVisit(ctx, visit.CompanyID, visit.VisitSessionID)
}

// Route re-reads what a notice names and answers the envelopes for the sockets it
// concerns: messages and call moves for the project's operators and the visit session's
// sockets, presence and invitation answers for the operators, invitations and monitoring
// requests for the visitor too, co-browse frames for the operators watching the session.
func (h *siteChatSockets) Route(ctx context.Context, projectID uuid.UUID, data json.RawMessage) ([]wshub.Delivery, error) {
	n, err := sitechat.ParseNotice(data)
	if err != nil {
		return nil, err
	}
	companyID, err := h.companyOf(projectID)
	if err != nil {
		return nil, err
	}
	both := wshub.Target{Operators: true, VisitSessionID: n.VisitSessionID}
	switch n.Type {
	case sitechat.NoticeChatMessage:
		m, err := h.s.SiteChat.Message(ctx, companyID, n.MessageID)
		if err != nil {
			return nil, err
		}
		return envelope(wshub.ChatMessage, both, h.s.viewMessage(*m), noticeIDs(n))
	case sitechat.NoticeMonitoringSnapshot, sitechat.NoticeMonitoringIncremental:
		return h.frames(ctx, companyID, n)
	case sitechat.NoticeCallRequest, sitechat.NoticeCallOffer, sitechat.NoticeCallAccept, sitechat.NoticeCallReject, sitechat.NoticeCallCancel, sitechat.NoticeCallEnd:
		call, err := h.s.SiteChat.SocketCall(ctx, companyID, n.CallSessionID)
		if err != nil {
			return nil, err
		}
		return envelope(wshub.Type(n.Type), both, viewCall(call), callIDs(call))
	}
	v, err := h.s.SiteChat.Session(ctx, companyID, n.VisitSessionID)
	if err != nil {
		return nil, err
	}
	view, err := h.s.viewVisitSession(viewContext(ctx), v)
	if err != nil {
		return nil, err
	}
	to := wshub.Target{Operators: true}
	switch n.Type {
	case sitechat.NoticeOperatorInvite, sitechat.NoticeMonitoringStart, sitechat.NoticeMonitoringStop:
		// The visitor's widget shows the invitation (invite_message, invite_force) and asks
		// for consent to monitoring.
		to = both
	}
	return envelope(wshub.Type(n.Type), to, view, visitIDs(v))
}

// viewContext lends ctx to the views written for handlers, which take the request's
// context as a *gin.Context.
func viewContext(ctx context.Context) *gin.Context {
	return &gin.Context{Request: (&http.Request{}).WithContext(ctx)}
}

// frames answers the co-browse frames stored since the last ones passed on, for the
// operators watching the session. An instance that has passed on none of the session's
// frames yet starts with the batch the notice announces (at most a batch's worth).
func (h *siteChatSockets) frames(ctx context.Context, companyID uuid.UUID, n sitechat.Notice) ([]wshub.Delivery, error) {
	v, err := h.s.SiteChat.Session(ctx, companyID, n.VisitSessionID)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	after, seen := h.relayed[v.ID]
	if !seen || after >= n.Sequence {
		after = max(0, n.Sequence-sitechat.MaxEventsPerBatch)
	}
	h.mu.Unlock()
	frames, _, err := h.s.SiteChat.Frames(ctx, v, after, sitechat.MaxEventsPerBatch)
	if err != nil {
		return nil, err
	}
	var out []wshub.Delivery
	for _, f := range frames {
		d, err := envelope(frameKindTypes[f.Kind], wshub.Target{Operators: true, Watching: v.ID}, viewFrame(f), visitIDs(v))
		if err != nil {
			return nil, err
		}
		out = append(out, d...)
		after = max(after, f.Sequence)
	}
	h.mu.Lock()
	h.relayed[v.ID] = after
	h.mu.Unlock()
	return out, nil
}

// envelope is one delivery of a server envelope.
func envelope(t wshub.Type, to wshub.Target, payload any, ids wshub.EnvelopeIDs) ([]wshub.Delivery, error) {
	e, err := wshub.NewEnvelope(t, payload)
	if err != nil {
		return nil, err
	}
	e.IDs(ids)
	return []wshub.Delivery{{To: to, Envelope: e}}, nil
}

func noticeIDs(n sitechat.Notice) wshub.EnvelopeIDs {
	return wshub.EnvelopeIDs{ConversationID: n.ConversationID, VisitSessionID: n.VisitSessionID, VisitorID: n.VisitorID,
		ChatWidgetID: n.ChatWidgetID, ProjectID: n.ProjectID, CallSessionID: n.CallSessionID}
}

// companyOf answers the company of a project whose room is open here: its sockets
// stored it when they were let in.
func (h *siteChatSockets) companyOf(projectID uuid.UUID) (uuid.UUID, error) {
	if c, ok := h.companies.Load(projectID); ok {
		return c.(uuid.UUID), nil
	}
	return uuid.Nil, models.Internal("site chat notice of project %s, which no socket here follows", projectID)
}
