package api

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/api/wshub"
	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/models/sitechat"
	"agencyhub/models/sitechat/chatws"
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
		httpx.WriteError(c, chatws.VisitorTokenError(err))
		return
	}
	s.chatProtocol.Follow(v.Widget.ProjectID, v.Widget.CompanyID)
	s.serveSocket(c, &wshub.Socket{
		Client: chatws.Client{
			Side:         chatws.SideVisitor,
			VisitorToken: token,
			Visit: chatws.Visit{
				CompanyID:      v.Widget.CompanyID,
				ProjectID:      v.Widget.ProjectID,
				ChatWidgetID:   v.Widget.ID,
				VisitorID:      v.Visitor.ID,
				VisitSessionID: v.Session.ID,
			},
		},
		Lang:      httpx.Lang(c),
		RequestID: httpx.RequestID(c),
	})
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
		if projects, err = s.Company.ReadableProjects(c, a.UserID); err != nil {
			httpx.WriteError(c, err)
			return
		}
	}
	sock := &wshub.Socket{
		Client:    chatws.Client{Side: chatws.SideOperator, UserID: a.UserID},
		Lang:      httpx.Lang(c),
		RequestID: httpx.RequestID(c),
	}
	for _, p := range projects {
		sock.Projects = append(sock.Projects, p.ID)
		s.chatProtocol.Follow(p.ID, p.CompanyID)
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

// siteChatViews lends the protocol the views the HTTP operations render (chatws.Views).
type siteChatViews struct{ s *Server }

func (v siteChatViews) Message(m sitechat.Message) any { return v.s.viewMessage(m) }

func (v siteChatViews) Call(c *sitechat.CallSession) any { return viewCall(c) }

func (v siteChatViews) Frame(f sitechat.Frame) any { return viewFrame(f) }

func (v siteChatViews) VisitSession(ctx context.Context, vs *sitechat.VisitSession) (any, error) {
	return v.s.viewVisitSession(viewContext(ctx), vs)
}

// viewContext lends ctx to the views written for handlers, which take the request's
// context as a *gin.Context.
func viewContext(ctx context.Context) *gin.Context {
	return &gin.Context{Request: (&http.Request{}).WithContext(ctx)}
}
