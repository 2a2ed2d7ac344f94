package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/auth"
)

type registerRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
	Name     string `json:"name"`
}

type registerResponse struct {
	UserID uuid.UUID `json:"user_id"`
	Email  string    `json:"email"`
	Status string    `json:"status"`
}

// authRegister serves POST /api/v1/auth/register.
func (s *Server) authRegister(c *gin.Context) {
	var req registerRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	u, err := s.Auth.Register(c, auth.RegisterInput{Email: req.Email, Password: req.Password, Name: req.Name, Lang: httpx.Lang(c)})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, registerResponse{UserID: u.ID, Email: u.Email, Status: u.Status})
}

type tokenRequest struct {
	Token string `json:"token"`
}

type statusResponse struct {
	Status string `json:"status"`
}

// authActivate serves POST /api/v1/auth/activate.
func (s *Server) authActivate(c *gin.Context) {
	var req tokenRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	if err := s.Auth.Activate(c, req.Token); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, statusResponse{Status: "activated"})
}

type loginRequest struct {
	Email       string `json:"email"`
	Password    string `json:"password"`
	ClientType  string `json:"client_type"`
	DeviceLabel string `json:"device_label"`
}

// grantResponse answers login and refresh. RefreshToken is only in the body for clients
// that do not keep it in the HttpOnly cookie.
type grantResponse struct {
	AccessToken      string    `json:"access_token"`
	TokenType        string    `json:"token_type"`
	ExpiresIn        int       `json:"expires_in"`
	CSRFToken        string    `json:"csrf_token"`
	AccessExpiresAt  time.Time `json:"access_expires_at"`
	RefreshExpiresAt time.Time `json:"refresh_expires_at"`
	RefreshToken     string    `json:"refresh_token,omitempty"`
}

// renderGrant answers a grant: browsers get the session cookies, API clients the refresh
// token in the body.
func (s *Server) renderGrant(c *gin.Context, g *auth.Grant, browser bool) {
	resp := grantResponse{
		AccessToken: g.AccessToken, TokenType: "Bearer",
		ExpiresIn: int(g.AccessExpiresAt.Sub(s.Now()).Round(time.Second).Seconds()),
		CSRFToken: g.CSRFToken, AccessExpiresAt: g.AccessExpiresAt, RefreshExpiresAt: g.RefreshExpiresAt,
	}
	if browser {
		s.setSessionCookies(c, g)
	} else {
		resp.RefreshToken = g.RefreshToken
	}
	c.JSON(http.StatusOK, resp)
}

// authLogin serves POST /api/v1/auth/login.
func (s *Server) authLogin(c *gin.Context) {
	var req loginRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	if req.ClientType == "" {
		req.ClientType = auth.ClientBrowser
	}
	g, err := s.Auth.Login(c, auth.LoginInput{Email: req.Email, Password: req.Password, Client: clientOf(c, req.ClientType, req.DeviceLabel)})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderGrant(c, g, req.ClientType == auth.ClientBrowser)
}

// clientOf describes the signing-in client.
func clientOf(c *gin.Context, clientType, deviceLabel string) auth.Client {
	return auth.Client{Type: clientType, DeviceLabel: deviceLabelOf(c, deviceLabel), IPAddress: c.ClientIP()}
}

// deviceLabelOf is the name a session is listed under: the one given, else the User-Agent.
func deviceLabelOf(c *gin.Context, deviceLabel string) string {
	if deviceLabel == "" {
		deviceLabel = c.Request.UserAgent()
	}
	if r := []rune(deviceLabel); len(r) > 200 {
		deviceLabel = string(r[:200])
	}
	return deviceLabel
}

type refreshRequest struct {
	RefreshToken string `json:"refresh_token"`
}

// authRefresh serves POST /api/v1/auth/refresh. A refresh_token in the body is the API
// client form; without it the app_refresh cookie is used, and then the request must carry
// the CSRF token (see authRefreshCSRF).
func (s *Server) authRefresh(c *gin.Context) {
	var req refreshRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	browser := req.RefreshToken == ""
	if browser {
		sess, err := s.refreshCookieSession(c)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		if !s.csrfMatches(c, &auth.Actor{SessionID: sess.ID}) {
			httpx.WriteError(c, models.Forbidden("csrf_failed"))
			return
		}
		req.RefreshToken, _ = c.Cookie(cookieRefresh)
	}
	g, err := s.Auth.Refresh(c, req.RefreshToken)
	if err != nil {
		if browser {
			s.clearSessionCookies(c)
		}
		httpx.WriteError(c, err)
		return
	}
	s.renderGrant(c, g, browser)
}

func (s *Server) refreshCookieSession(c *gin.Context) (*auth.Session, error) {
	token, err := c.Cookie(cookieRefresh)
	if err != nil || token == "" {
		return nil, models.Unauthenticated("invalid_refresh_token", "refresh_token")
	}
	return s.Auth.SessionForRefreshToken(c, token)
}

type csrfResponse struct {
	CSRFToken string `json:"csrf_token"`
}

func (s *Server) renderCSRF(c *gin.Context, sessionID uuid.UUID) {
	token := s.Auth.CSRFToken(sessionID)
	s.setCookie(c, cookieCSRF, token, "/", s.Now().Add(s.Auth.Settings.RefreshTTL), false)
	c.JSON(http.StatusOK, csrfResponse{CSRFToken: token})
}

// authRefreshCSRF serves GET /api/v1/auth/refresh/csrf: a browser whose access token has
// expired gets a CSRF token for its refresh cookie's session, to send with the refresh.
func (s *Server) authRefreshCSRF(c *gin.Context) {
	sess, err := s.refreshCookieSession(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderCSRF(c, sess.ID)
}

// authCSRF serves GET /api/v1/auth/csrf.
func (s *Server) authCSRF(c *gin.Context) {
	if requireSession(c) {
		s.renderCSRF(c, actor(c).SessionID)
	}
}

// authLogout serves POST /api/v1/auth/logout.
func (s *Server) authLogout(c *gin.Context) {
	if !requireSession(c) {
		return
	}
	if err := s.Auth.Logout(c, actor(c).SessionID); err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.clearSessionCookies(c)
	c.Status(http.StatusNoContent)
}

type emailRequest struct {
	Email string `json:"email"`
}

// authPasswordResetRequest serves POST /api/v1/auth/password-reset/request (extension).
func (s *Server) authPasswordResetRequest(c *gin.Context) {
	var req emailRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	if err := s.Auth.RequestPasswordReset(c, req.Email, httpx.Lang(c)); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusAccepted, resetRequestedResponse{Status: "reset_requested", MailConfigured: s.Auth.SendsMail()})
}

type resetRequestedResponse struct {
	Status         string `json:"status"`
	MailConfigured bool   `json:"mail_configured"`
}

type passwordResetConfirmRequest struct {
	Token       string `json:"token"`
	NewPassword string `json:"new_password"`
}

// authPasswordResetConfirm serves POST /api/v1/auth/password-reset/confirm.
func (s *Server) authPasswordResetConfirm(c *gin.Context) {
	var req passwordResetConfirmRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	if err := s.Auth.ConfirmPasswordReset(c, req.Token, req.NewPassword); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, statusResponse{Status: "password_updated"})
}
