package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/sitechat"
)

// presenceView is the specification's SiteChatPresenceResponse, plus the visitor token
// every later call carries in X-Visitor-Token, its expiry, and the anonymous id to keep
// (extensions).
type presenceView struct {
	VisitorID             uuid.UUID      `json:"visitor_id"`
	VisitSessionID        uuid.UUID      `json:"visit_session_id"`
	ChatWidgetID          uuid.UUID      `json:"chat_widget_id"`
	ProjectID             uuid.UUID      `json:"project_id"`
	ConversationID        uuid.UUID      `json:"conversation_id"`
	ConversationURL       string         `json:"conversation_url"`
	PanelURL              string         `json:"panel_url"`
	CallURL               string         `json:"call_url"`
	IsFirstVisit          bool           `json:"is_first_visit"`
	MonitoringStatus      string         `json:"monitoring_status"`
	OperatorInvited       bool           `json:"operator_invited"`
	VisitorStateSnapshot  map[string]any `json:"visitor_state_snapshot"`
	VisitorToken          string         `json:"visitor_token"`
	VisitorTokenExpiresAt time.Time      `json:"visitor_token_expires_at"`
	AnonymousID           string         `json:"anonymous_id"`
}

// siteChatPresence serves POST /api/v1/public/site-chat/presence (public, by public_key):
// creates or resumes the visitor of anonymous_id and its visit session, and answers the
// visitor token for every later call.
func (s *Server) siteChatPresence(c *gin.Context) {
	var req sitechat.PresenceInput
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	if err := s.limitPublic(c, req.PublicKey); err != nil {
		httpx.WriteError(c, err)
		return
	}
	p, err := s.SiteChat.Presence(c, req)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	session, err := s.viewVisitSession(c, p.Access.Session)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, presenceView{
		VisitorID:             session.VisitorID,
		VisitSessionID:        session.VisitSessionID,
		ChatWidgetID:          session.ChatWidgetID,
		ProjectID:             session.ProjectID,
		ConversationID:        session.ConversationID,
		ConversationURL:       session.ConversationURL,
		PanelURL:              session.PanelURL,
		CallURL:               session.CallURL,
		IsFirstVisit:          p.IsFirstVisit,
		MonitoringStatus:      session.MonitoringStatus,
		OperatorInvited:       session.OperatorInvited,
		VisitorStateSnapshot:  session.VisitorStateSnapshot,
		VisitorToken:          p.Token,
		VisitorTokenExpiresAt: p.TokenExpires,
		AnonymousID:           p.AnonymousID,
	})
}

// visitorIDs are the ids a public request body may name; each must be the token's.
type visitorIDs struct {
	PublicKey      string     `json:"public_key"`
	VisitorID      *uuid.UUID `json:"visitor_id"`
	VisitSessionID *uuid.UUID `json:"visit_session_id"`
}

func (v visitorIDs) names() (string, *uuid.UUID, *uuid.UUID) {
	return v.PublicKey, v.VisitorID, v.VisitSessionID
}

// eventBatchRequest is the specification's SiteChatEventBatch.
type eventBatchRequest struct {
	visitorIDs
	Events []sitechat.Event `json:"events"`
}

// eventBatchView says what a batch stored (extension): events accepted, frames stored and
// their sequences.
type eventBatchView struct {
	Accepted      int   `json:"accepted"`
	Frames        int   `json:"frames"`
	FirstSequence int64 `json:"first_sequence"`
	LastSequence  int64 `json:"last_sequence"`
}

// siteChatEvents serves POST /api/v1/public/site-chat/events (visitor token): a batch of
// at most 50 events; co-browse kinds become frames of the session.
func (s *Server) siteChatEvents(c *gin.Context) {
	var req eventBatchRequest
	v, ok := s.visitorCall(c, &req)
	if !ok {
		return
	}
	res, err := s.SiteChat.RecordEvents(c, v, req.Events)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusAccepted, eventBatchView{
		Accepted:      res.Accepted,
		Frames:        res.Frames,
		FirstSequence: res.FirstSequence,
		LastSequence:  res.LastSequence,
	})
}

// siteChatPublicConversationCreate serves POST /api/v1/public/site-chat/conversations
// (visitor token): opens the conversation the visit reserved (201), or answers the
// visitor's open one (200).
func (s *Server) siteChatPublicConversationCreate(c *gin.Context) {
	var req visitorIDs
	v, ok := s.visitorCall(c, &req)
	if !ok {
		return
	}
	conv, created, err := s.SiteChat.OpenConversation(c, v)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	view, err := s.viewConversation(c, conv)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(httpx.CreatedOrOK(created), view)
}

// siteChatMessageInput is the specification's SiteChatMessageInput.
type siteChatMessageInput struct {
	visitorIDs
	Body           string     `json:"body"`
	AuthorName     string     `json:"author_name"`
	VisitorContact string     `json:"visitor_contact"`
	ConversationID *uuid.UUID `json:"conversation_id"`
}

func (in siteChatMessageInput) domain() sitechat.MessageInput {
	return sitechat.MessageInput{Body: in.Body, AuthorName: in.AuthorName, VisitorContact: in.VisitorContact}
}

// siteChatPublicMessageCreate serves POST /api/v1/public/site-chat/messages (visitor
// token): the visitor's message, into their open conversation (opened on the first one).
// A conversation_id must be that conversation.
func (s *Server) siteChatPublicMessageCreate(c *gin.Context) {
	var req siteChatMessageInput
	v, ok := s.visitorCall(c, &req)
	if !ok {
		return
	}
	if !s.visitorsConversation(c, v, req.ConversationID) {
		return
	}
	m, _, err := s.SiteChat.PostVisitorMessage(c, v, req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, s.viewMessage(*m))
}

// visitorsConversation checks that a conversation_id of a visitor's body (nil: none) is
// the visitor's; it writes the error and answers false otherwise.
func (s *Server) visitorsConversation(c *gin.Context, v *sitechat.VisitorAccess, id *uuid.UUID) bool {
	if id == nil {
		return true
	}
	if _, err := s.SiteChat.VisitorConversation(c, v, *id); err != nil {
		httpx.WriteError(c, err)
		return false
	}
	return true
}

// publicConversation loads the conversation of :conversation_id for the visitor whose
// token the request carries: unknown is 404, another visitor's 401.
func (s *Server) publicConversation(c *gin.Context) (*sitechat.Conversation, bool) {
	id, err := httpx.PathID(c, "conversation_id")
	if err != nil {
		httpx.WriteError(c, err)
		return nil, false
	}
	conv, _, err := s.SiteChat.PublicConversation(c, id, func() (*sitechat.VisitorAccess, error) { return s.verifyVisitor(c) })
	if err != nil {
		httpx.WriteError(c, err)
		return nil, false
	}
	return conv, true
}

// siteChatPublicMessageList serves GET
// /api/v1/public/site-chat/conversations/{conversation_id}/messages (visitor token): the
// visitor's own conversation, oldest first.
func (s *Server) siteChatPublicMessageList(c *gin.Context) {
	conv, ok := s.publicConversation(c)
	if !ok {
		return
	}
	s.serveMessages(c, conv)
}

func (s *Server) serveMessages(c *gin.Context, conv *sitechat.Conversation) {
	servePage(c, func(page models.PageRequest) ([]sitechat.Message, string, error) {
		return s.SiteChat.Messages(c, conv, page)
	}, each(s.viewMessage))
}

// siteChatPublicAttachmentCreate serves POST
// /api/v1/public/site-chat/conversations/{conversation_id}/attachments (visitor token): a
// file the visitor sends, as a message of theirs.
func (s *Server) siteChatPublicAttachmentCreate(c *gin.Context) {
	conv, ok := s.publicConversation(c)
	if !ok {
		return
	}
	visitor, err := s.SiteChat.ConversationView(c, conv)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	name := visitor.VisitorName
	if name == "" {
		name = "Visitor"
	}
	s.uploadAttachment(c, conv, sitechat.AuthorVisitor, nil, name)
}

// siteChatCallInput is the specification's SiteChatCallInput.
type siteChatCallInput struct {
	visitorIDs
	ConversationID           *uuid.UUID `json:"conversation_id"`
	MediaKind                string     `json:"media_kind"`
	RecordingEnabled         bool       `json:"recording_enabled"`
	RecordingConsentAccepted bool       `json:"recording_consent_accepted"`
	PrivacyConsentAccepted   bool       `json:"privacy_consent_accepted"`
	EndReason                string     `json:"end_reason"`
}

func (in siteChatCallInput) domain() sitechat.CallInput {
	return sitechat.CallInput{ConversationID: in.ConversationID, MediaKind: in.MediaKind, RecordingEnabled: in.RecordingEnabled,
		RecordingConsentAccepted: in.RecordingConsentAccepted, PrivacyConsentAccepted: in.PrivacyConsentAccepted, EndReason: in.EndReason}
}

// siteChatPublicCallRequest serves POST /api/v1/public/site-chat/calls/request (visitor
// token): the visitor asks an operator to call, having accepted the privacy terms.
func (s *Server) siteChatPublicCallRequest(c *gin.Context) {
	var req siteChatCallInput
	v, ok := s.visitorCall(c, &req)
	if !ok {
		return
	}
	if !s.visitorsConversation(c, v, req.ConversationID) {
		return
	}
	call, err := s.SiteChat.RequestCall(c, v, req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewCall(call))
}

// publicCallMove is the shape of the visitor's call answers: bind, load the call of
// :call_session_id for the token's visit session (unknown 404, another's 401), move it.
func (s *Server) publicCallMove(c *gin.Context,
	move func(call *sitechat.CallSession, in sitechat.CallInput) (*sitechat.CallSession, error)) {
	id, err := httpx.PathID(c, "call_session_id")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	var req siteChatCallInput
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	call, v, err := s.SiteChat.PublicCall(c, id, func() (*sitechat.VisitorAccess, error) { return s.verifyVisitor(c) })
	if err == nil {
		key, visitorID, sessionID := req.names()
		err = v.Binds(key, deref(visitorID), deref(sessionID))
	}
	if err == nil {
		call, err = move(call, req.domain())
	}
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewCall(call))
}

// siteChatPublicCallAccept serves POST /api/v1/public/site-chat/calls/{call_session_id}/accept
// (visitor token): the visitor answers an operator's call with their consents.
func (s *Server) siteChatPublicCallAccept(c *gin.Context) {
	s.publicCallMove(c, func(call *sitechat.CallSession, in sitechat.CallInput) (*sitechat.CallSession, error) {
		return s.SiteChat.AcceptCall(c, call, sitechat.VisitorParty(), in)
	})
}

// siteChatPublicCallReject serves POST /api/v1/public/site-chat/calls/{call_session_id}/reject
// (visitor token).
func (s *Server) siteChatPublicCallReject(c *gin.Context) {
	s.publicCallMove(c, func(call *sitechat.CallSession, in sitechat.CallInput) (*sitechat.CallSession, error) {
		return s.SiteChat.RejectCall(c, call, sitechat.VisitorParty(), in.EndReason)
	})
}

// siteChatPublicCallEnd serves POST /api/v1/public/site-chat/calls/{call_session_id}/end
// (visitor token): hangs up, or cancels the visitor's own request before an answer.
func (s *Server) siteChatPublicCallEnd(c *gin.Context) {
	s.publicCallMove(c, func(call *sitechat.CallSession, in sitechat.CallInput) (*sitechat.CallSession, error) {
		return s.SiteChat.EndCall(c, call, sitechat.VisitorParty(), in.EndReason)
	})
}

// siteChatPublicVoiceConfig serves GET /api/v1/public/site-chat/voice-config (visitor
// token): ICE servers for the visitor's calls, TURN credentials named after the session.
func (s *Server) siteChatPublicVoiceConfig(c *gin.Context) {
	v, ok := s.visitorCall(c, nil)
	if !ok {
		return
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, viewVoiceConfig(s.SiteChat.VoiceConfig("visitor-"+v.Session.ID.String())))
}
