package api

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/auth"
)

// Credentials on requests, and the cookies browsers get.
const (
	headerAPIKey = "X-API-Key"
	headerCSRF   = "X-CSRF-Token"

	cookieAccess  = "app_access"
	cookieRefresh = "app_refresh"
	cookieCSRF    = "app_csrf"
	// The refresh cookie is only ever sent to the auth routes that use it.
	refreshCookiePath = "/api/v1/auth"
)

// authenticate resolves the caller from, in this order, an API key (X-API-Key), a bearer
// access token, or the app_access cookie. Cookie-authenticated unsafe requests must carry
// the CSRF token in X-CSRF-Token equal to the app_csrf cookie and issued for the session.
func (s *Server) authenticate(c *gin.Context) {
	var (
		a   *auth.Actor
		err error
	)
	if key := c.GetHeader(headerAPIKey); key != "" {
		a, err = s.Auth.AuthenticateAPIKey(c, key)
	} else if token, ok := bearerToken(c); ok {
		a, err = s.Auth.Authenticate(c, token)
	} else if cookie, cerr := c.Cookie(cookieAccess); cerr == nil && cookie != "" {
		a, err = s.Auth.Authenticate(c, cookie)
		if err == nil && !safeMethod(c.Request.Method) && !s.csrfMatches(c, a) {
			err = models.Forbidden("csrf_failed")
		}
	} else {
		err = models.Unauthenticated("invalid_access_token", "access_token")
	}
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Set(actorKey, a)
}

func bearerToken(c *gin.Context) (string, bool) {
	scheme, token, ok := strings.Cut(c.GetHeader("Authorization"), " ")
	return token, ok && strings.EqualFold(scheme, "Bearer") && token != ""
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// csrfMatches is the double-submit check: header equals cookie, and the token was issued
// for this session.
func (s *Server) csrfMatches(c *gin.Context, a *auth.Actor) bool {
	header := c.GetHeader(headerCSRF)
	cookie, err := c.Cookie(cookieCSRF)
	return err == nil && header != "" &&
		subtle.ConstantTimeCompare([]byte(header), []byte(cookie)) == 1 &&
		s.Auth.VerifyCSRF(a.SessionID, header)
}

// requireSession rejects API-key callers of operations that act on a session.
func requireSession(c *gin.Context) bool {
	if actor(c).SessionID == uuid.Nil {
		httpx.WriteError(c, models.Invalid("session_required", "access_token"))
		return false
	}
	return true
}

func (s *Server) setCookie(c *gin.Context, name, value, path string, expires time.Time, httpOnly bool) {
	// The server's clock, not the wall clock: the cookie must live exactly as long as the
	// token it carries, whose expiry that clock set.
	maxAge := int(expires.Sub(s.Now()).Seconds())
	if value == "" {
		maxAge = -1
	}
	http.SetCookie(c.Writer, &http.Cookie{
		Name: name, Value: value, Path: path, MaxAge: maxAge, HttpOnly: httpOnly,
		Secure: s.Cookies.Secure, SameSite: s.Cookies.SameSite,
	})
}

// setSessionCookies hands a browser its grant: the access and refresh tokens HttpOnly, the
// CSRF token readable by the page's script.
func (s *Server) setSessionCookies(c *gin.Context, g *auth.Grant) {
	s.setCookie(c, cookieAccess, g.AccessToken, "/", g.AccessExpiresAt, true)
	s.setCookie(c, cookieRefresh, g.RefreshToken, refreshCookiePath, g.RefreshExpiresAt, true)
	s.setCookie(c, cookieCSRF, g.CSRFToken, "/", g.RefreshExpiresAt, false)
}

func (s *Server) clearSessionCookies(c *gin.Context) {
	s.setCookie(c, cookieAccess, "", "/", time.Time{}, true)
	s.setCookie(c, cookieRefresh, "", refreshCookiePath, time.Time{}, true)
	s.setCookie(c, cookieCSRF, "", "/", time.Time{}, false)
}
