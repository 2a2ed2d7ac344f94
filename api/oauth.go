package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
	"agencyhub/models/auth"
)

// The cookie that ties a browser's identity-provider sign-in to that browser until its
// callback; it is only sent to the OAuth routes.
const (
	cookieOAuth     = "app_oauth"
	oauthCookiePath = "/api/v1/auth/oauth"
)

// wantsJSON tells API clients from browsers on the operations that may redirect: JSON when
// the query has response=json or Accept names application/json before text/html or */*;
// a redirect otherwise (browsers, and clients that send no Accept).
func wantsJSON(c *gin.Context) bool {
	return c.Query("response") == "json" || c.NegotiateFormat(gin.MIMEHTML, gin.MIMEJSON) == gin.MIMEJSON
}

// setOAuthCookie sets (or, with an empty value, clears) the browser binding cookie. It
// must come back on the provider's cross-site redirect to the callback, which SameSite
// strict would prevent, so strict is relaxed to lax for this cookie alone.
func (s *Server) setOAuthCookie(c *gin.Context, value string, expires time.Time) {
	sameSite := s.Cookies.SameSite
	if sameSite == http.SameSiteStrictMode {
		sameSite = http.SameSiteLaxMode
	}
	maxAge := int(expires.Sub(s.Now()).Seconds())
	if value == "" {
		maxAge = -1
	}
	http.SetCookie(c.Writer, &http.Cookie{
		Name: cookieOAuth, Value: value, Path: oauthCookiePath, MaxAge: maxAge, HttpOnly: true,
		Secure: s.Cookies.Secure, SameSite: sameSite,
	})
}

type oauthStartResponse struct {
	AuthURL string `json:"auth_url"`
	State   string `json:"state"`
}

// authOAuthStart serves GET /api/v1/auth/oauth/{provider}/start (preview). A native app
// passes redirect_uri, code_challenge and code_challenge_method; a browser passes neither
// and gets the app_oauth cookie its callback must bring back. API clients (wantsJSON) get
// {auth_url, state}, others a 302 to auth_url. Errors: invalid (provider; redirect_uri;
// code_challenge, code_challenge_method).
func (s *Server) authOAuthStart(c *gin.Context) {
	started, err := s.Auth.StartOAuth(c, auth.OAuthStart{
		Provider: c.Param("provider"), NativeRedirectURI: c.Query("redirect_uri"),
		CodeChallenge: c.Query("code_challenge"), CodeChallengeMethod: c.Query("code_challenge_method"),
		DeviceLabel: deviceLabelOf(c, c.Query("device_label")),
	})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	if started.BrowserBinding != "" {
		s.setOAuthCookie(c, started.BrowserBinding, started.ExpiresAt)
	}
	if wantsJSON(c) {
		c.JSON(http.StatusOK, oauthStartResponse{AuthURL: started.AuthURL, State: started.State})
		return
	}
	c.Redirect(http.StatusFound, started.AuthURL)
}

// authOAuthCallback serves GET /api/v1/auth/oauth/{provider}/callback (preview), where the
// provider sends the user back with code and state. A browser sign-in gets the session
// cookies, as a browser login does, and a 302 to the app, or 200 callback_processed when it
// asks for JSON; a native app's sign-in is redirected to the app's deep link with our
// one-time code. Errors: invalid (provider), invalid (code, state), forbidden
// (provider_email_unverified), conflict (account_email_unverified), unavailable.
func (s *Server) authOAuthCallback(c *gin.Context) {
	binding, _ := c.Cookie(cookieOAuth)
	signIn, err := s.Auth.CompleteOAuth(c, auth.OAuthCallback{
		Provider: c.Param("provider"), Code: c.Query("code"), State: c.Query("state"),
		BrowserBinding: binding, IPAddress: c.ClientIP(),
	})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	if signIn.Grant != nil {
		s.setOAuthCookie(c, "", time.Time{})
		s.setSessionCookies(c, signIn.Grant)
		if wantsJSON(c) {
			c.JSON(http.StatusOK, statusResponse{Status: "callback_processed"})
			return
		}
	}
	c.Redirect(http.StatusFound, signIn.Redirect)
}

type nativeExchangeRequest struct {
	Code         string `json:"code"`
	CodeVerifier string `json:"code_verifier"`
	State        string `json:"state"`
}

// deviceGrantResponse answers native exchange, desktop poll and device refresh; the device
// credential is only in the sign-in answers.
type deviceGrantResponse struct {
	AccessToken      string `json:"access_token"`
	TokenType        string `json:"token_type"`
	ExpiresIn        int    `json:"expires_in"`
	DeviceCredential string `json:"device_credential,omitempty"`
}

func (s *Server) viewDeviceGrant(g *auth.DeviceGrant) *deviceGrantResponse {
	return &deviceGrantResponse{
		AccessToken: g.AccessToken, TokenType: "Bearer",
		ExpiresIn:        int(g.AccessExpiresAt.Sub(s.Now()).Round(time.Second).Seconds()),
		DeviceCredential: g.DeviceCredential,
	}
}

// authNativeExchange serves POST /api/v1/auth/native/exchange (preview): a native app
// trades the one-time code from its deep link, the state and its PKCE verifier for an
// access token and a device credential. Errors: invalid (code, code_verifier, state).
func (s *Server) authNativeExchange(c *gin.Context) {
	var req nativeExchangeRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	g, err := s.Auth.ExchangeNativeCode(c, auth.NativeExchange{
		Code:         req.Code,
		CodeVerifier: req.CodeVerifier,
		State:        req.State,
		IPAddress:    c.ClientIP(),
	})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, s.viewDeviceGrant(g))
}

type deviceRefreshRequest struct {
	DeviceCredential string `json:"device_credential"`
}

// authDeviceRefresh serves POST /api/v1/auth/device/refresh (extension): a native or
// desktop app trades its device credential for a new access token.
// Errors: unauthenticated (device_credential).
func (s *Server) authDeviceRefresh(c *gin.Context) {
	var req deviceRefreshRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	g, err := s.Auth.RefreshDevice(c, req.DeviceCredential)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, s.viewDeviceGrant(g))
}

type identityProviderView struct {
	Provider    string `json:"provider"`
	DisplayName string `json:"display_name"`
}

// authProviders serves GET /api/v1/auth/providers: the identity providers a sign-in page
// offers.
func (s *Server) authProviders(c *gin.Context) {
	configured := s.Auth.ConfiguredProviders()
	items := make([]identityProviderView, len(configured))
	for i, p := range configured {
		items[i] = identityProviderView(p)
	}
	c.JSON(http.StatusOK, struct {
		Items []identityProviderView `json:"items"`
	}{items})
}
