package auth

import (
	"context"
	"crypto/hmac"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"golang.org/x/oauth2"
	"gorm.io/gorm"

	"agencyhub/models"
)

// ProviderNames are the identity providers the interface knows; each is configured by the
// operator or absent.
var ProviderNames = []string{"idp_a", "idp_b", "idp_c"}

// ProviderConfig is one identity provider: an OAuth 2.0 authorization server (authorization
// code with PKCE, client authentication by HTTP Basic) with an OpenID Connect userinfo
// endpoint answering the claims sub, email, email_verified and name.
type ProviderConfig struct {
	// DisplayName names the provider to people, on the sign-in page's button.
	DisplayName                    string
	ClientID, ClientSecret         string
	AuthURL, TokenURL, UserInfoURL string
	// RedirectURL is our callback for this provider, as registered there.
	RedirectURL string
	Scopes      []string
}

const (
	// oauthFlowTTL is how long a sign-in may take from start to callback: the state's life.
	oauthFlowTTL = 10 * time.Minute
	// nativeCodeTTL is how long a native app has to exchange our one-time code.
	nativeCodeTTL = 2 * time.Minute
	// flowRetention is how long finished and abandoned sign-ins are kept before pruning.
	flowRetention = time.Hour
	// providerTimeout bounds the calls to a provider; providerBodyLimit caps its answers.
	providerTimeout   = 10 * time.Second
	providerBodyLimit = 1 << 20
)

// newProviderClient is the HTTP client for providers' token and userinfo endpoints. Those
// never redirect; following one would send the code or token somewhere unconfigured.
func newProviderClient() *http.Client {
	return &http.Client{
		Timeout:       providerTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// oauthFlow is one identity-provider sign-in from start to callback and, for a native app,
// on to the exchange of our one-time code.
type oauthFlow struct {
	ID       uuid.UUID `gorm:"primaryKey"`
	Provider string
	// NativeRedirectURI and NativeCodeChallenge are the app's deep link and PKCE challenge;
	// both empty for a browser sign-in.
	NativeRedirectURI   string
	NativeCodeChallenge string
	DeviceLabel         string
	ExpiresAt           time.Time
	CompletedAt         *time.Time
	// UserID, ExchangeCodeHash and ExchangeExpiresAt are set by a native sign-in's callback.
	UserID            *uuid.UUID
	ExchangeCodeHash  *string
	ExchangeExpiresAt *time.Time
	ExchangedAt       *time.Time
	CreatedAt         time.Time
}

func (oauthFlow) TableName() string { return "oauth_flows" }

func (f *oauthFlow) native() bool { return f.NativeRedirectURI != "" }

var (
	errUnsupportedProvider = models.Invalid("unsupported_provider", "provider")
	errInvalidCallback     = models.Invalid("invalid_oauth_callback", "code", "state")
	errInvalidExchange     = models.Invalid("invalid_native_exchange", "code", "code_verifier", "state")
)

// ConfiguredProvider is an identity provider people can sign in with here.
type ConfiguredProvider struct {
	Provider, DisplayName string
}

// ConfiguredProviders are the providers configured on this server, in ProviderNames order.
func (s *Service) ConfiguredProviders() []ConfiguredProvider {
	out := []ConfiguredProvider{}
	for _, name := range ProviderNames {
		if p, ok := s.Settings.Providers[name]; ok {
			out = append(out, ConfiguredProvider{Provider: name, DisplayName: p.DisplayName})
		}
	}
	return out
}

// oauthConfig is the OAuth client of a configured provider. Errors: invalid (provider).
func (s *Service) oauthConfig(provider string) (*oauth2.Config, ProviderConfig, error) {
	p, ok := s.Settings.Providers[provider]
	if !ok {
		return nil, p, errUnsupportedProvider
	}
	return &oauth2.Config{
		ClientID: p.ClientID, ClientSecret: p.ClientSecret, RedirectURL: p.RedirectURL, Scopes: p.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: p.AuthURL, TokenURL: p.TokenURL, AuthStyle: oauth2.AuthStyleInHeader},
	}, p, nil
}

// OAuthStart begins a sign-in at an identity provider. A native app also gives the deep
// link to return to and the S256 PKCE challenge of a verifier it keeps; a browser gives
// neither.
type OAuthStart struct {
	Provider                                              string
	NativeRedirectURI, CodeChallenge, CodeChallengeMethod string
	// DeviceLabel names the session the sign-in will open.
	DeviceLabel string
}

// OAuthStarted is where to send the user and the state the callback must bring back.
type OAuthStarted struct {
	AuthURL, State string
	// BrowserBinding ties a browser sign-in to the browser that started it (a cookie the
	// callback must present); empty for native apps, whose exchange needs their verifier.
	BrowserBinding string
	ExpiresAt      time.Time
}

// pkceChallenge is an S256 challenge: base64url of a SHA-256 digest, unpadded.
var pkceChallenge = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// StartOAuth records a sign-in and returns the provider's authorization URL. It carries a
// signed state that expires with the sign-in and the S256 challenge of a PKCE verifier
// derived from the sign-in's id, so no secret is stored.
// Errors: invalid (provider), invalid (redirect_uri), invalid (code_challenge,
// code_challenge_method).
func (s *Service) StartOAuth(ctx context.Context, in OAuthStart) (*OAuthStarted, error) {
	cfg, _, err := s.oauthConfig(in.Provider)
	if err != nil {
		return nil, err
	}
	if in.NativeRedirectURI != "" || in.CodeChallenge != "" || in.CodeChallengeMethod != "" {
		if !s.nativeRedirectAllowed(in.NativeRedirectURI) {
			return nil, models.Invalid("redirect_uri_not_allowed", "redirect_uri")
		}
		if in.CodeChallengeMethod != "S256" || !pkceChallenge.MatchString(in.CodeChallenge) {
			return nil, models.Invalid("invalid_code_challenge", "code_challenge", "code_challenge_method")
		}
	}
	now := s.now()
	f := oauthFlow{
		ID: models.NewID(), Provider: in.Provider, NativeRedirectURI: in.NativeRedirectURI,
		NativeCodeChallenge: in.CodeChallenge, DeviceLabel: in.DeviceLabel,
		ExpiresAt: now.Add(oauthFlowTTL), CreatedAt: now,
	}
	err = s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("expires_at < ?", now.Add(-flowRetention)).Delete(&oauthFlow{}).Error; err != nil {
			return models.Internal("prune sign-ins: %w", err)
		}
		if err := tx.Create(&f).Error; err != nil {
			return models.Internal("store sign-in: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	state := s.signState(f.Provider, f.ID, f.ExpiresAt)
	out := &OAuthStarted{
		AuthURL:   cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(s.flowSecret("pkce", f.ID))),
		State:     state,
		ExpiresAt: f.ExpiresAt,
	}
	if !f.native() {
		out.BrowserBinding = s.flowSecret("browser", f.ID)
	}
	return out, nil
}

// nativeRedirectAllowed reports whether a deep link equals a configured prefix or
// continues it after a "/" or "?", so a prefix never matches a longer host name; dot
// segments, which would climb out of the prefix, are refused.
func (s *Service) nativeRedirectAllowed(uri string) bool {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme == "" || strings.Contains(uri, "#") {
		return false
	}
	segments := strings.Split(u.Path, "/")
	if slices.Contains(segments, "..") || slices.Contains(segments, ".") {
		return false
	}
	for _, p := range s.Settings.NativeRedirectPrefixes {
		if uri == p || strings.HasPrefix(uri, strings.TrimSuffix(p, "/")+"/") || strings.HasPrefix(uri, p+"?") {
			return true
		}
	}
	return false
}

// signState makes a sign-in's state: its id and expiry, signed together with the provider
// so it is only accepted on that provider's callback.
func (s *Service) signState(provider string, id uuid.UUID, expires time.Time) string {
	payload := id.String() + "." + strconv.FormatInt(expires.Unix(), 10)
	return payload + "." + s.mac("oauth-state|"+provider+"|"+payload)
}

// parseState checks a state's signature and returns the sign-in it names and its expiry.
func (s *Service) parseState(provider, state string) (uuid.UUID, time.Time, bool) {
	cut := strings.LastIndexByte(state, '.')
	if cut < 0 {
		return uuid.Nil, time.Time{}, false
	}
	payload, sig := state[:cut], state[cut+1:]
	if !hmac.Equal([]byte(sig), []byte(s.mac("oauth-state|"+provider+"|"+payload))) {
		return uuid.Nil, time.Time{}, false
	}
	rawID, rawExpiry, _ := strings.Cut(payload, ".")
	id, err1 := uuid.Parse(rawID)
	expiry, err2 := strconv.ParseInt(rawExpiry, 10, 64)
	if err1 != nil || err2 != nil {
		return uuid.Nil, time.Time{}, false
	}
	return id, time.Unix(expiry, 0).UTC(), true
}

// flowSecret derives a secret of one sign-in for a purpose: the PKCE verifier we send the
// provider ("pkce"), the browser binding cookie ("browser").
func (s *Service) flowSecret(purpose string, id uuid.UUID) string {
	return s.mac("oauth-" + purpose + "|" + id.String())
}

// OAuthCallback is the provider's redirect back to us.
type OAuthCallback struct {
	Provider, Code, State string
	// BrowserBinding is the cookie start set; a browser sign-in requires it.
	BrowserBinding string
	IPAddress      string
}

// OAuthSignIn is where a completed callback leads.
type OAuthSignIn struct {
	// Grant is the new browser session; nil after a native app's sign-in.
	Grant *Grant
	// Redirect is where the browser goes next: the app after a browser sign-in, or the
	// native app's deep link carrying our one-time code and the state.
	Redirect string
}

// CompleteOAuth finishes a sign-in: it checks the state, exchanges the code at the provider
// (with the PKCE verifier), reads the provider's userinfo, and maps the identity to a user
// (see signInAs). A browser sign-in then opens a browser session; a native app's sign-in
// issues a one-time exchange code for the app's deep link instead. The state is spent in
// the same transaction that stores the outcome, so a provider failure stores nothing and
// a state works once.
// Errors: invalid (provider), invalid (code, state), forbidden (provider_email_unverified),
// conflict (account_email_unverified), unavailable (identity_provider_unavailable).
func (s *Service) CompleteOAuth(ctx context.Context, in OAuthCallback) (*OAuthSignIn, error) {
	cfg, p, err := s.oauthConfig(in.Provider)
	if err != nil {
		return nil, err
	}
	f, err := s.pendingFlow(ctx, in)
	if err != nil {
		return nil, err
	}
	id, err := s.fetchIdentity(ctx, in.Provider, cfg, p.UserInfoURL, in.Code, s.flowSecret("pkce", f.ID))
	if err != nil {
		return nil, err
	}
	var out *OAuthSignIn
	err = s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now := s.now()
		spent := tx.Model(&oauthFlow{}).Where("id = ? AND completed_at IS NULL AND expires_at > ?", f.ID, now).
			Update("completed_at", now)
		if spent.Error != nil {
			return models.Internal("spend sign-in state: %w", spent.Error)
		}
		if spent.RowsAffected == 0 { // a concurrent callback spent it first
			return errInvalidCallback
		}
		userID, err := s.signInAs(tx, id)
		if err != nil {
			return err
		}
		if f.native() {
			redirect, err := s.issueExchangeCode(tx, f, userID, in.State)
			out = &OAuthSignIn{Redirect: redirect}
			return err
		}
		grant, err := s.openSession(tx, userID, Client{Type: ClientBrowser, DeviceLabel: f.DeviceLabel, IPAddress: in.IPAddress})
		out = &OAuthSignIn{Grant: grant, Redirect: s.Settings.SignInRedirectURL}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// pendingFlow returns the unfinished sign-in a callback's state names, after checking the
// state's signature and expiry, that a code came with it, and for a browser sign-in the
// binding cookie. Errors: invalid (code, state).
func (s *Service) pendingFlow(ctx context.Context, in OAuthCallback) (*oauthFlow, error) {
	id, expires, ok := s.parseState(in.Provider, in.State)
	if !ok || in.Code == "" || !expires.After(s.now()) {
		return nil, errInvalidCallback
	}
	var f oauthFlow
	err := s.DB.WithContext(ctx).Take(&f, "id = ? AND completed_at IS NULL", id).Error
	if models.IsNotFound(err) {
		return nil, errInvalidCallback
	}
	if err != nil {
		return nil, models.Internal("read sign-in: %w", err)
	}
	if !f.native() && !hmac.Equal([]byte(in.BrowserBinding), []byte(s.flowSecret("browser", f.ID))) {
		return nil, errInvalidCallback
	}
	return &f, nil
}

// issueExchangeCode gives a native app's sign-in its one-time code and returns the deep
// link that carries it, with the state, back to the app.
func (s *Service) issueExchangeCode(tx *gorm.DB, f *oauthFlow, userID uuid.UUID, state string) (string, error) {
	code := models.RandomToken(32)
	expires := s.now().Add(nativeCodeTTL)
	err := tx.Model(&oauthFlow{}).Where("id = ?", f.ID).
		Updates(map[string]any{"user_id": userID, "exchange_code_hash": models.HashToken(code), "exchange_expires_at": expires}).Error
	if err != nil {
		return "", models.Internal("store exchange code: %w", err)
	}
	u, err := url.Parse(f.NativeRedirectURI)
	if err != nil {
		return "", models.Internal("stored deep link: %w", err)
	}
	q := u.Query()
	q.Set("code", code)
	q.Set("state", state)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// providerIdentity is what a provider's userinfo says about the signed-in person.
type providerIdentity struct {
	Provider      string    `json:"-"`
	Subject       string    `json:"sub"`
	Email         string    `json:"email"`
	EmailVerified claimBool `json:"email_verified"`
	Name          string    `json:"name"`
}

// claimBool reads a boolean claim that some providers send as the string "true".
type claimBool bool

func (b *claimBool) UnmarshalJSON(data []byte) error {
	*b = claimBool(string(data) == "true" || string(data) == `"true"`)
	return nil
}

// fetchIdentity exchanges the code at the provider and reads its userinfo. A code or
// verifier the provider refuses is the caller's to fix; a provider that fails or does not
// answer in time is unavailable. Errors: invalid (code, state), unavailable.
func (s *Service) fetchIdentity(ctx context.Context, provider string, cfg *oauth2.Config,
	userInfoURL, code, verifier string) (*providerIdentity, error) {
	ctx, cancel := context.WithTimeout(ctx, providerTimeout)
	defer cancel()
	tok, err := cfg.Exchange(context.WithValue(ctx, oauth2.HTTPClient, s.ProviderClient), code, oauth2.VerifierOption(verifier))
	if codeRefused(err) {
		return nil, errInvalidCallback
	}
	if err != nil {
		return nil, providerUnavailable(ctx, provider, fmt.Errorf("token exchange: %w", err))
	}
	id, err := s.readUserInfo(ctx, tok, userInfoURL)
	if err != nil {
		return nil, providerUnavailable(ctx, provider, fmt.Errorf("userinfo: %w", err))
	}
	id.Provider = provider
	return id, nil
}

// codeRefused tells a provider refusing the code (a 4xx answer, or an OAuth error in a 2xx
// one) from a provider failing.
func codeRefused(err error) bool {
	var r *oauth2.RetrieveError
	if !errors.As(err, &r) || r.Response == nil {
		return false
	}
	status := r.Response.StatusCode
	return status/100 == 4 || (status/100 == 2 && r.ErrorCode != "")
}

// readUserInfo asks the provider who the token belongs to.
func (s *Service) readUserInfo(ctx context.Context, tok *oauth2.Token, userInfoURL string) (*providerIdentity, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, userInfoURL, nil)
	if err != nil {
		return nil, err
	}
	tok.SetAuthHeader(req)
	req.Header.Set("Accept", "application/json")
	resp, err := s.ProviderClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("answered %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, providerBodyLimit+1))
	if err != nil {
		return nil, err
	}
	if len(body) > providerBodyLimit {
		return nil, errors.New("answer exceeds the size limit")
	}
	var id providerIdentity
	if err := json.Unmarshal(body, &id); err != nil {
		return nil, err
	}
	if id.Subject == "" {
		return nil, errors.New("no sub claim")
	}
	return &id, nil
}

// providerUnavailable reports a provider failure; the cause is logged for the operator,
// since the Problem the user sees does not carry it.
func providerUnavailable(ctx context.Context, provider string, cause error) error {
	slog.WarnContext(ctx, "identity provider failed", "provider", provider, "err", cause)
	return models.Unavailable("identity_provider_unavailable", cause)
}

// NativeExchange is a native app trading our one-time code, with the PKCE verifier of the
// challenge it started with, for its session.
type NativeExchange struct {
	Code, CodeVerifier, State string
	IPAddress                 string
}

// ExchangeNativeCode opens a native session for the user a native app's sign-in mapped to.
// The code works once and for nativeCodeTTL; the state must be the sign-in's and the
// verifier must match its challenge (a wrong one does not spend the code, so a stolen deep
// link cannot be used to lock the app out). Errors: invalid (code, code_verifier, state).
func (s *Service) ExchangeNativeCode(ctx context.Context, in NativeExchange) (*DeviceGrant, error) {
	var grant *DeviceGrant
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now := s.now()
		var f oauthFlow
		err := tx.Take(&f, "exchange_code_hash = ? AND exchanged_at IS NULL AND exchange_expires_at > ?", models.HashToken(in.Code), now).Error
		if models.IsNotFound(err) {
			return errInvalidExchange
		}
		if err != nil {
			return models.Internal("read exchange code: %w", err)
		}
		id, _, ok := s.parseState(f.Provider, in.State)
		challenge := oauth2.S256ChallengeFromVerifier(in.CodeVerifier)
		if !ok || id != f.ID || subtle.ConstantTimeCompare([]byte(challenge), []byte(f.NativeCodeChallenge)) != 1 {
			return errInvalidExchange
		}
		spent := tx.Model(&oauthFlow{}).Where("id = ? AND exchanged_at IS NULL", f.ID).Update("exchanged_at", now)
		if spent.Error != nil {
			return models.Internal("spend exchange code: %w", spent.Error)
		}
		if spent.RowsAffected == 0 {
			return errInvalidExchange
		}
		grant, err = s.openDeviceSession(tx, *f.UserID, Client{Type: ClientNative, DeviceLabel: f.DeviceLabel, IPAddress: in.IPAddress})
		return err
	})
	if err != nil {
		return nil, err
	}
	return grant, nil
}
