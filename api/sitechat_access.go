package api

import (
	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/models/sitechat"
)

const (
	chatWidgetKey   = "api.site_chat_widget"
	visitSessionKey = "api.visit_session"
	conversationKey = "api.site_chat_conversation"
	callSessionKey  = "api.site_chat_call"
)

func chatWidget(c *gin.Context) *sitechat.Widget { return c.MustGet(chatWidgetKey).(*sitechat.Widget) }
func visitSession(c *gin.Context) *sitechat.VisitSession {
	return c.MustGet(visitSessionKey).(*sitechat.VisitSession)
}
func conversation(c *gin.Context) *sitechat.Conversation {
	return c.MustGet(conversationKey).(*sitechat.Conversation)
}
func callSession(c *gin.Context) *sitechat.CallSession {
	return c.MustGet(callSessionKey).(*sitechat.CallSession)
}

// inChatWidget loads the widget of :chat_widget_id and the caller's role in its company.
func (s *Server) inChatWidget(perm company.Permission) gin.HandlerFunc {
	return inResource("chat_widget_id", chatWidgetKey, perm, s.SiteChat.WidgetAccess)
}

// inVisitSession loads the visit session of :visit_session_id and the caller's role.
func (s *Server) inVisitSession(perm company.Permission) gin.HandlerFunc {
	return inResource("visit_session_id", visitSessionKey, perm, s.SiteChat.SessionAccess)
}

// inConversation loads the conversation of :conversation_id and the caller's role.
func (s *Server) inConversation(perm company.Permission) gin.HandlerFunc {
	return inResource("conversation_id", conversationKey, perm, s.SiteChat.ConversationAccess)
}

// inCallSession loads the call of :call_session_id and the caller's role.
func (s *Server) inCallSession(perm company.Permission) gin.HandlerFunc {
	return inResource("call_session_id", callSessionKey, perm, s.SiteChat.CallAccess)
}

// visitorTokenHeader carries the visitor token presence answered on every later public call.
const visitorTokenHeader = "X-Visitor-Token"

// verifyVisitor verifies the request's visitor token and takes one call from the rate
// limit of the client address on the token's widget. Errors: unauthenticated
// (X-Visitor-Token), rate_limited.
func (s *Server) verifyVisitor(c *gin.Context) (*sitechat.VisitorAccess, error) {
	v, err := s.SiteChat.VerifyVisitorToken(c, c.GetHeader(visitorTokenHeader))
	if err != nil {
		return nil, err
	}
	if err := s.limitPublic(c, v.Widget.PublicKey); err != nil {
		return nil, err
	}
	return v, nil
}

// limitPublic takes one call from the bucket of the client address on the widget of
// publicKey. Errors: rate_limited (Retry-After).
func (s *Server) limitPublic(c *gin.Context, publicKey string) error {
	if s.SiteChatLimiter == nil {
		return nil
	}
	if ok, wait := s.SiteChatLimiter.Allow(c.ClientIP(), publicKey); !ok {
		return models.RateLimited("site_chat_rate_limited", wait)
	}
	return nil
}

// visitorBody is a public request body that may name the widget, visitor and session;
// whatever it names must be the token's.
type visitorBody interface {
	names() (publicKey string, visitorID, visitSessionID *uuid.UUID)
}

// visitorCall is the shape of the public handlers that act as the token's visitor: bind
// the body into req (nil: no body), verify the visitor, and check that the ids the body
// names are the token's own. It writes the error and answers false on any failure.
func (s *Server) visitorCall(c *gin.Context, req visitorBody) (*sitechat.VisitorAccess, bool) {
	if req != nil {
		if err := httpx.Bind(c, req); err != nil {
			httpx.WriteError(c, err)
			return nil, false
		}
	}
	v, err := s.verifyVisitor(c)
	if err == nil && req != nil {
		key, visitorID, sessionID := req.names()
		err = v.Binds(key, deref(visitorID), deref(sessionID))
	}
	if err != nil {
		httpx.WriteError(c, err)
		return nil, false
	}
	return v, true
}

func deref(id *uuid.UUID) uuid.UUID {
	if id == nil {
		return uuid.Nil
	}
	return *id
}
