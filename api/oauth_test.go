package api_test

import (
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"agencyhub/api"
	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/auth"
)

// oauthProvider is an identity provider on a local server speaking OAuth 2.0 as the real
// ones do: /authorize signs in whoever the test names and redirects back with a code;
// /token checks the client's credentials, the redirect URI and the PKCE verifier, and lets
// each code work once; /userinfo answers the claims of the signed-in person.
type oauthProvider struct {
	srv                  *httptest.Server
	clientID, secret     string
	mu                   sync.Mutex
	next                 map[string]any            // claims of whoever signs in next
	codes                map[string]*oauthCode     // issued codes
	tokens               map[string]map[string]any // access token -> claims
	failing              bool                      // the token endpoint answers 503
	tokenCalls, infoHits int
}

type oauthCode struct {
	challenge, redirectURI string
	claims                 map[string]any
	used                   bool
}

func newOAuthProvider(t *testing.T, name string) *oauthProvider {
	t.Helper()
	p := &oauthProvider{clientID: "agencyhub-" + name, secret: "secret-of-" + name, codes: map[string]*oauthCode{}, tokens: map[string]map[string]any{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /authorize", p.authorize)
	mux.HandleFunc("POST /token", p.token)
	mux.HandleFunc("GET /userinfo", p.userinfo)
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

// config is how the service is configured for this provider under a name.
func (p *oauthProvider) config(name string) auth.ProviderConfig {
	return auth.ProviderConfig{
		ClientID: p.clientID, ClientSecret: p.secret,
		AuthURL: p.srv.URL + "/authorize", TokenURL: p.srv.URL + "/token", UserInfoURL: p.srv.URL + "/userinfo",
		RedirectURL: "http://api.test/api/v1/auth/oauth/" + name + "/callback",
		Scopes:      []string{"openid", "email", "profile"},
	}
}

func (p *oauthProvider) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("response_type") != "code" || q.Get("client_id") != p.clientID || q.Get("code_challenge_method") != "S256" ||
		q.Get("code_challenge") == "" || q.Get("state") == "" || q.Get("scope") != "openid email profile" {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	code := models.RandomToken(16)
	p.codes[code] = &oauthCode{challenge: q.Get("code_challenge"), redirectURI: q.Get("redirect_uri"), claims: p.next}
	p.mu.Unlock()
	back, _ := url.Parse(q.Get("redirect_uri"))
	v := back.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (p *oauthProvider) token(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tokenCalls++
	if p.failing {
		http.Error(w, `{"error":"temporarily_unavailable"}`, http.StatusServiceUnavailable)
		return
	}
	refuse := func(status int, code string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]string{"error": code})
	}
	id, secret, ok := r.BasicAuth()
	if !ok || id != url.QueryEscape(p.clientID) || secret != url.QueryEscape(p.secret) {
		refuse(http.StatusUnauthorized, "invalid_client")
		return
	}
	c := p.codes[r.PostFormValue("code")]
	verifier := r.PostFormValue("code_verifier")
	if r.PostFormValue("grant_type") != "authorization_code" || c == nil || c.used || c.redirectURI != r.PostFormValue("redirect_uri") ||
		subtle.ConstantTimeCompare([]byte(oauth2.S256ChallengeFromVerifier(verifier)), []byte(c.challenge)) != 1 {
		refuse(http.StatusBadRequest, "invalid_grant")
		return
	}
	c.used = true
	access := models.RandomToken(16)
	p.tokens[access] = c.claims
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": 3600})
}

func (p *oauthProvider) userinfo(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.infoHits++
	claims, ok := p.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
	if !ok {
		http.Error(w, "unknown token", http.StatusUnauthorized)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(claims)
}

// signIn plays the user at the provider: claims sign in at authURL, and the provider's
// redirect back to our callback is returned as the path to call on the API.
func (p *oauthProvider) signIn(t *testing.T, authURL string, claims map[string]any) string {
	t.Helper()
	p.mu.Lock()
	p.next = claims
	p.mu.Unlock()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	back := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusFound || !strings.HasPrefix(back, "http://api.test/api/v1/auth/oauth/") {
		t.Fatalf("provider answered %d, Location %q", resp.StatusCode, back)
	}
	return strings.TrimPrefix(back, "http://api.test")
}

// oauthCount counts the rows of a table.
func oauthCount(t *testing.T, db *dbtest.DB, table string) int64 {
	t.Helper()
	var n int64
	if err := db.Table(table).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

const (
	oauthBrowser  = "Mozilla/5.0 (test browser)"
	oauthAppURL   = "http://app.test/welcome"
	oauthDeepLink = "com.example.agencyhub:/oauth"
)

// oauthEnv configures idp_a on a working provider and idp_c on one whose server is down;
// idp_b stays unconfigured.
func oauthEnv(t *testing.T, db *dbtest.DB) (*env, *oauthProvider) {
	t.Helper()
	idp := newOAuthProvider(t, "idp_a")
	down := newOAuthProvider(t, "idp_c")
	down.srv.Close()
	e := newEnv(t, db, func(s *api.Server) {
		s.Auth.Settings.Providers = map[string]auth.ProviderConfig{"idp_a": idp.config("idp_a"), "idp_c": down.config("idp_c")}
		s.Auth.Settings.SignInRedirectURL = oauthAppURL
		s.Auth.Settings.NativeRedirectPrefixes = []string{oauthDeepLink}
	})
	return e, idp
}

// oauthStart starts a browser sign-in as an API client would and returns auth_url, state
// and the app_oauth cookie.
func oauthStart(t *testing.T, e *env, provider string) (authURL, state string, binding *http.Cookie) {
	t.Helper()
	r := e.do(req{method: "GET", path: "/api/v1/auth/oauth/" + provider + "/start", header: map[string]string{"Accept": "application/json", "User-Agent": oauthBrowser}}).
		expect(t, http.StatusOK)
	return r.str("auth_url"), r.str("state"), authCookies(t, r, "app_oauth")[0]
}

// oauthCallback calls the callback as the browser holding binding (nil: no cookie).
func oauthCallback(e *env, path string, binding *http.Cookie, header map[string]string) *response {
	e.t.Helper()
	r := req{method: "GET", path: path, header: header}
	if binding != nil {
		r.cookies = []*http.Cookie{binding}
	}
	return e.do(r)
}

func ada() map[string]any {
	return map[string]any{"sub": "ada-1", "email": "Ada@Example.com", "email_verified": true, "name": "Ada Lovelace"}
}

func TestOAuthBrowserSignIn(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e, idp := oauthEnv(t, db)
		var adaID string
		authStep(t, e, "an unknown provider or one not configured answers 400 naming provider", func(t *testing.T) {
			for _, path := range []string{"/api/v1/auth/oauth/idp_b/start", "/api/v1/auth/oauth/idp_z/start", "/api/v1/auth/oauth/idp_b/callback?code=x&state=y"} {
				r := e.do(req{method: "GET", path: path}).expect(t, http.StatusBadRequest, "provider")
				if r.str("status") != "fix_required" {
					t.Fatalf("%s answered %s", path, r.Body)
				}
			}
		})
		authStep(t, e, "a browser is redirected to the provider with a PKCE challenge and a state, and gets app_oauth", func(t *testing.T) {
			r := e.do(req{method: "GET", path: "/api/v1/auth/oauth/idp_a/start", header: map[string]string{"Accept": "text/html,*/*"}}).expect(t, http.StatusFound)
			loc, err := url.Parse(r.Header().Get("Location"))
			if err != nil || !strings.HasPrefix(loc.String(), idp.srv.URL+"/authorize?") {
				t.Fatalf("Location %q", r.Header().Get("Location"))
			}
			q := loc.Query()
			if q.Get("client_id") != idp.clientID || q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43 ||
				q.Get("state") == "" || q.Get("redirect_uri") != "http://api.test/api/v1/auth/oauth/idp_a/callback" {
				t.Fatalf("authorization request %v", q)
			}
			c := r.cookie("app_oauth")
			if c == nil || !c.HttpOnly || c.Path != "/api/v1/auth/oauth" || c.MaxAge != 600 {
				t.Fatalf("app_oauth cookie: %v", r.Header().Values("Set-Cookie"))
			}
		})
		authStep(t, e, "an API client gets auth_url and state as JSON, by Accept or by response=json", func(t *testing.T) {
			byAccept := e.do(req{method: "GET", path: "/api/v1/auth/oauth/idp_a/start", header: map[string]string{"Accept": "application/json"}}).expect(t, http.StatusOK)
			byQuery := e.do(req{method: "GET", path: "/api/v1/auth/oauth/idp_a/start?response=json"}).expect(t, http.StatusOK)
			for _, r := range []*response{byAccept, byQuery} {
				if !strings.HasPrefix(r.str("auth_url"), idp.srv.URL+"/authorize?") || !strings.Contains(r.str("auth_url"), url.QueryEscape(r.str("state"))) {
					t.Fatalf("start answered %s", r.Body)
				}
			}
		})
		var spent string
		var spentBinding *http.Cookie
		authStep(t, e, "a first sign-in with a verified e-mail creates an active, verified account and signs the browser in", func(t *testing.T) {
			authURL, _, binding := oauthStart(t, e, "idp_a")
			spent, spentBinding = idp.signIn(t, authURL, ada()), binding
			r := oauthCallback(e, spent, binding, map[string]string{"User-Agent": oauthBrowser}).expect(t, http.StatusFound)
			if loc := r.Header().Get("Location"); loc != oauthAppURL {
				t.Fatalf("redirected to %q, want the app", loc)
			}
			cookies := authCookies(t, r, "app_access", "app_refresh", "app_csrf")
			if c := r.cookie("app_oauth"); c == nil || c.MaxAge >= 0 {
				t.Errorf("the callback did not clear app_oauth: %v", r.Header().Values("Set-Cookie"))
			}
			me := e.do(req{method: "GET", path: "/api/v1/auth/me", cookies: cookies}).expect(t, http.StatusOK)
			if me.str("email") != "ada@example.com" || me.json["name"] != "Ada Lovelace" {
				t.Fatalf("me: %s", me.Body)
			}
			adaID = me.str("user_id")
			var u auth.User
			if err := db.Take(&u, "id = ?", adaID).Error; err != nil || u.Status != auth.StatusActive || u.EmailVerifiedAt == nil {
				t.Fatalf("stored account %+v, err %v", u, err)
			}
			sessions := e.do(req{method: "GET", path: "/api/v1/auth/sessions", cookies: cookies}).expect(t, http.StatusOK).items()
			if len(sessions) != 1 || sessions[0]["client_type"] != "browser" || sessions[0]["device_label"] != oauthBrowser || sessions[0]["is_current"] != true {
				t.Fatalf("sessions %v", sessions)
			}
		})
		authStep(t, e, "the same callback again is refused naming code and state", func(t *testing.T) {
			calls := idp.tokenCalls
			oauthCallback(e, spent, spentBinding, nil).expect(t, http.StatusBadRequest, "code", "state")
			if idp.tokenCalls != calls {
				t.Error("a spent state still reached the provider")
			}
		})
		authStep(t, e, "the same identity signs in again as the same account; a JSON client gets callback_processed", func(t *testing.T) {
			authURL, _, binding := oauthStart(t, e, "idp_a")
			claims := ada()
			claims["email"] = "ada.new@example.com" // the identity, not the address, names the account
			r := oauthCallback(e, idp.signIn(t, authURL, claims), binding, map[string]string{"Accept": "application/json"}).expect(t, http.StatusOK)
			if r.str("status") != "callback_processed" {
				t.Fatalf("callback answered %s", r.Body)
			}
			me := e.do(req{method: "GET", path: "/api/v1/auth/me", cookies: authCookies(t, r, "app_access")}).expect(t, http.StatusOK)
			if me.str("user_id") != adaID || me.str("email") != "ada@example.com" {
				t.Fatalf("me: %s", me.Body)
			}
			if n := oauthCount(t, db, "user_identities"); n != 1 {
				t.Fatalf("%d identities stored, want 1", n)
			}
		})
		authStep(t, e, "a callback in a browser without the start's cookie is refused and spends nothing", func(t *testing.T) {
			authURL, _, binding := oauthStart(t, e, "idp_a")
			back := idp.signIn(t, authURL, ada())
			oauthCallback(e, back, nil, nil).expect(t, http.StatusBadRequest, "code", "state")
			oauthCallback(e, back, &http.Cookie{Name: "app_oauth", Value: "planted"}, nil).expect(t, http.StatusBadRequest, "code", "state")
			oauthCallback(e, back, binding, nil).expect(t, http.StatusFound)
		})
		authStep(t, e, "a forged state, or one of another provider, is refused", func(t *testing.T) {
			authURL, state, binding := oauthStart(t, e, "idp_a")
			back := idp.signIn(t, authURL, ada())
			forged := strings.Replace(back, url.QueryEscape(state), url.QueryEscape(state[:len(state)-2]+"xx"), 1)
			oauthCallback(e, forged, binding, nil).expect(t, http.StatusBadRequest, "code", "state")
			elsewhere := strings.Replace(back, "/idp_a/", "/idp_c/", 1)
			oauthCallback(e, elsewhere, binding, nil).expect(t, http.StatusBadRequest, "code", "state")
			oauthCallback(e, "/api/v1/auth/oauth/idp_a/callback?state="+url.QueryEscape(state), binding, nil).expect(t, http.StatusBadRequest, "code", "state")
		})
		authStep(t, e, "a state older than ten minutes is refused", func(t *testing.T) {
			authURL, _, binding := oauthStart(t, e, "idp_a")
			back := idp.signIn(t, authURL, ada())
			e.advance(10*time.Minute + time.Second)
			oauthCallback(e, back, binding, nil).expect(t, http.StatusBadRequest, "code", "state")
		})
		authStep(t, e, "a code the provider already redeemed is refused naming code and state", func(t *testing.T) {
			_, state, binding := oauthStart(t, e, "idp_a")
			reused := "/api/v1/auth/oauth/idp_a/callback?" + url.Values{"code": {codeOf(t, spent)}, "state": {state}}.Encode()
			sessions := oauthCount(t, db, "sessions")
			oauthCallback(e, reused, binding, nil).expect(t, http.StatusBadRequest, "code", "state")
			if n := oauthCount(t, db, "sessions"); n != sessions {
				t.Fatalf("sessions %d -> %d", sessions, n)
			}
		})
		authStep(t, e, "a provider that does not assert a verified e-mail signs nobody in", func(t *testing.T) {
			authURL, _, binding := oauthStart(t, e, "idp_a")
			claims := map[string]any{"sub": "mallory-1", "email": "mallory@example.com", "email_verified": false}
			r := oauthCallback(e, idp.signIn(t, authURL, claims), binding, nil).expect(t, http.StatusForbidden)
			if r.str("status") != "error" || authHasCookie(r, "app_access") {
				t.Fatalf("callback answered %s", r.Body)
			}
			var n int64
			db.Table("users").Where("email = ?", "mallory@example.com").Count(&n)
			if n != 0 {
				t.Fatal("an account was created for an unverified e-mail")
			}
		})
		authStep(t, e, "a verified e-mail does not capture an unverified registration of the same address", func(t *testing.T) {
			authRegister(t, e, "grace@example.com").expect(t, http.StatusCreated)
			users, identities := oauthCount(t, db, "users"), oauthCount(t, db, "user_identities")
			authURL, _, binding := oauthStart(t, e, "idp_a")
			claims := map[string]any{"sub": "grace-1", "email": "grace@example.com", "email_verified": true}
			r := oauthCallback(e, idp.signIn(t, authURL, claims), binding, nil).expect(t, http.StatusConflict)
			if r.str("status") != "fix_required" || authHasCookie(r, "app_access") {
				t.Fatalf("callback answered %s", r.Body)
			}
			if oauthCount(t, db, "users") != users || oauthCount(t, db, "user_identities") != identities {
				t.Fatal("the refused sign-in stored an account or an identity")
			}
		})
		authStep(t, e, "once the owner proves the address by a password reset, the provider is linked to that account", func(t *testing.T) {
			e.do(req{method: "POST", path: "/api/v1/auth/password-reset/request", body: map[string]any{"email": "grace@example.com"}}).expect(t, http.StatusAccepted)
			token := authMailedToken(t, db, "grace@example.com", "reset-password")
			e.do(req{method: "POST", path: "/api/v1/auth/password-reset/confirm", body: map[string]any{"token": token, "new_password": "graces-own-passphrase"}}).expect(t, http.StatusOK)
			authURL, _, binding := oauthStart(t, e, "idp_a")
			claims := map[string]any{"sub": "grace-1", "email": "grace@example.com", "email_verified": "true"}
			r := oauthCallback(e, idp.signIn(t, authURL, claims), binding, nil).expect(t, http.StatusFound)
			me := e.do(req{method: "GET", path: "/api/v1/auth/me", cookies: authCookies(t, r, "app_access")}).expect(t, http.StatusOK)
			login := authLogin(e, "grace@example.com", "graces-own-passphrase", "client_type", "api").expect(t, http.StatusOK)
			mine := e.do(req{method: "GET", path: "/api/v1/auth/me", token: login.str("access_token")}).expect(t, http.StatusOK)
			if me.str("user_id") != mine.str("user_id") {
				t.Fatalf("provider signed in as %s, the registered account is %s", me.str("user_id"), mine.str("user_id"))
			}
		})
		authStep(t, e, "an account the provider created has no password anyone knows, and gets one by a reset", func(t *testing.T) {
			authLogin(e, "ada@example.com", password, "client_type", "api").expect(t, http.StatusUnauthorized, "email", "password")
			e.do(req{method: "POST", path: "/api/v1/auth/password-reset/request", body: map[string]any{"email": "ada@example.com"}}).expect(t, http.StatusAccepted)
			token := authMailedToken(t, db, "ada@example.com", "reset-password")
			e.do(req{method: "POST", path: "/api/v1/auth/password-reset/confirm", body: map[string]any{"token": token, "new_password": "adas-chosen-passphrase"}}).expect(t, http.StatusOK)
			authLogin(e, "ada@example.com", "adas-chosen-passphrase", "client_type", "api").expect(t, http.StatusOK)
		})
		authStep(t, e, "a provider that is down answers 503 and stores nothing", func(t *testing.T) {
			_, state, binding := oauthStart(t, e, "idp_c")
			users, sessions, identities := oauthCount(t, db, "users"), oauthCount(t, db, "sessions"), oauthCount(t, db, "user_identities")
			callback := "/api/v1/auth/oauth/idp_c/callback?" + url.Values{"code": {"any-code"}, "state": {state}}.Encode()
			r := oauthCallback(e, callback, binding, nil).expect(t, http.StatusServiceUnavailable)
			if r.str("status") != "error" || authHasCookie(r, "app_access") {
				t.Fatalf("callback answered %s", r.Body)
			}
			if oauthCount(t, db, "users") != users || oauthCount(t, db, "sessions") != sessions || oauthCount(t, db, "user_identities") != identities {
				t.Fatal("a failed sign-in stored something")
			}
		})
		authStep(t, e, "a provider failing at its token endpoint answers 503, and the sign-in can be retried", func(t *testing.T) {
			authURL, _, binding := oauthStart(t, e, "idp_a")
			back := idp.signIn(t, authURL, ada())
			idp.failing = true
			oauthCallback(e, back, binding, nil).expect(t, http.StatusServiceUnavailable)
			idp.failing = false
			oauthCallback(e, back, binding, nil).expect(t, http.StatusFound)
		})
	})
}

// codeOf reads the code of a callback path.
func codeOf(t *testing.T, callback string) string {
	t.Helper()
	u, err := url.Parse(callback)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("code")
}

// oauthNativeStart starts a native app's sign-in and returns auth_url and state.
func oauthNativeStart(t *testing.T, e *env, verifier string) (string, string) {
	t.Helper()
	q := url.Values{
		"redirect_uri": {oauthDeepLink + "/done"}, "code_challenge": {oauth2.S256ChallengeFromVerifier(verifier)},
		"code_challenge_method": {"S256"}, "device_label": {"Ada's phone"}, "response": {"json"},
	}
	r := e.do(req{method: "GET", path: "/api/v1/auth/oauth/idp_a/start?" + q.Encode()}).expect(t, http.StatusOK)
	if authHasCookie(r, "app_oauth") {
		t.Fatal("a native start set the browser binding cookie")
	}
	return r.str("auth_url"), r.str("state")
}

// oauthDeepLinkOf signs in at the provider and follows the callback, which must redirect
// to the app's deep link; it returns the code and state the link carries.
func oauthDeepLinkOf(t *testing.T, e *env, idp *oauthProvider, authURL string) (string, string) {
	t.Helper()
	r := oauthCallback(e, idp.signIn(t, authURL, ada()), nil, map[string]string{"User-Agent": oauthBrowser}).expect(t, http.StatusFound)
	link, err := url.Parse(r.Header().Get("Location"))
	if err != nil || !strings.HasPrefix(link.String(), oauthDeepLink+"/done?") {
		t.Fatalf("callback redirected to %q", r.Header().Get("Location"))
	}
	if authHasCookie(r, "app_access") {
		t.Fatal("a native sign-in set browser session cookies")
	}
	return link.Query().Get("code"), link.Query().Get("state")
}

func oauthExchange(e *env, code, verifier, state string) *response {
	e.t.Helper()
	return e.do(req{method: "POST", path: "/api/v1/auth/native/exchange", body: map[string]any{"code": code, "code_verifier": verifier, "state": state}})
}

func TestNativeSignIn(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e, idp := oauthEnv(t, db)
		verifier := oauth2.GenerateVerifier()
		challenge := oauth2.S256ChallengeFromVerifier(verifier)
		start := func(q url.Values) *response {
			return e.do(req{method: "GET", path: "/api/v1/auth/oauth/idp_a/start?response=json&" + q.Encode()})
		}
		authStep(t, e, "a deep link that is not allowed is refused naming redirect_uri", func(t *testing.T) {
			for _, link := range []string{"evil.app:/oauth", oauthDeepLink + "evil", oauthDeepLink + "#x", ""} {
				start(url.Values{"redirect_uri": {link}, "code_challenge": {challenge}, "code_challenge_method": {"S256"}}).
					expect(t, http.StatusBadRequest, "redirect_uri")
			}
		})
		authStep(t, e, "a challenge that is not S256 is refused naming it", func(t *testing.T) {
			start(url.Values{"redirect_uri": {oauthDeepLink}, "code_challenge": {challenge}, "code_challenge_method": {"plain"}}).
				expect(t, http.StatusBadRequest, "code_challenge_method")
			start(url.Values{"redirect_uri": {oauthDeepLink}, "code_challenge_method": {"S256"}}).
				expect(t, http.StatusBadRequest, "code_challenge", "code_challenge_method")
		})
		var code, state, credential, sessionID string
		authStep(t, e, "the callback of a native sign-in redirects to the deep link with a one-time code and the state", func(t *testing.T) {
			authURL, started := oauthNativeStart(t, e, verifier)
			code, state = oauthDeepLinkOf(t, e, idp, authURL)
			if code == "" || state != started {
				t.Fatalf("deep link carries code %q, state %q (started with %q)", code, state, started)
			}
		})
		authStep(t, e, "a wrong verifier is refused naming code, code_verifier and state", func(t *testing.T) {
			oauthExchange(e, code, oauth2.GenerateVerifier(), state).expect(t, http.StatusBadRequest, "code", "code_verifier", "state")
		})
		authStep(t, e, "the code, state and verifier give an access token and a device credential of a native session", func(t *testing.T) {
			r := oauthExchange(e, code, verifier, state).expect(t, http.StatusOK)
			credential = r.str("device_credential")
			if r.str("token_type") != "Bearer" || r.json["expires_in"] != float64(900) || !strings.HasPrefix(credential, "ahd_") {
				t.Fatalf("exchange answered %s", r.Body)
			}
			me := e.do(req{method: "GET", path: "/api/v1/auth/me", token: r.str("access_token")}).expect(t, http.StatusOK)
			if me.str("email") != "ada@example.com" {
				t.Fatalf("me: %s", me.Body)
			}
			sessions := e.do(req{method: "GET", path: "/api/v1/auth/sessions", token: r.str("access_token")}).expect(t, http.StatusOK).items()
			if len(sessions) != 1 || sessions[0]["client_type"] != "native" || sessions[0]["device_label"] != "Ada's phone" {
				t.Fatalf("sessions %v", sessions)
			}
			sessionID = sessions[0]["session_id"].(string)
		})
		authStep(t, e, "the code works once", func(t *testing.T) {
			oauthExchange(e, code, verifier, state).expect(t, http.StatusBadRequest, "code", "code_verifier", "state")
		})
		authStep(t, e, "the device credential gets a new access token and keeps the session alive", func(t *testing.T) {
			e.advance(29 * 24 * time.Hour)
			r := e.do(req{method: "POST", path: "/api/v1/auth/device/refresh", body: map[string]any{"device_credential": credential}}).expect(t, http.StatusOK)
			if _, ok := r.json["device_credential"]; ok || r.json["expires_in"] != float64(900) {
				t.Fatalf("refresh answered %s", r.Body)
			}
			e.advance(29 * 24 * time.Hour) // past the first 30 days: the refresh extended the session
			r = e.do(req{method: "POST", path: "/api/v1/auth/device/refresh", body: map[string]any{"device_credential": credential}}).expect(t, http.StatusOK)
			e.do(req{method: "GET", path: "/api/v1/auth/me", token: r.str("access_token")}).expect(t, http.StatusOK)
		})
		authStep(t, e, "a code older than two minutes is refused", func(t *testing.T) {
			authURL, _ := oauthNativeStart(t, e, verifier)
			late, lateState := oauthDeepLinkOf(t, e, idp, authURL)
			e.advance(2*time.Minute + time.Second)
			oauthExchange(e, late, verifier, lateState).expect(t, http.StatusBadRequest, "code", "code_verifier", "state")
		})
		authStep(t, e, "a code is refused with the state of another sign-in", func(t *testing.T) {
			first, _ := oauthNativeStart(t, e, verifier)
			second, _ := oauthNativeStart(t, e, verifier)
			firstCode, _ := oauthDeepLinkOf(t, e, idp, first)
			_, secondState := oauthDeepLinkOf(t, e, idp, second)
			oauthExchange(e, firstCode, verifier, secondState).expect(t, http.StatusBadRequest, "code", "code_verifier", "state")
		})
		authStep(t, e, "ending the session revokes the device credential", func(t *testing.T) {
			r := e.do(req{method: "POST", path: "/api/v1/auth/device/refresh", body: map[string]any{"device_credential": credential}}).expect(t, http.StatusOK)
			e.do(req{method: "DELETE", path: "/api/v1/auth/sessions/" + sessionID, token: r.str("access_token")}).expect(t, http.StatusNoContent)
			e.do(req{method: "POST", path: "/api/v1/auth/device/refresh", body: map[string]any{"device_credential": credential}}).
				expect(t, http.StatusUnauthorized, "device_credential")
			e.do(req{method: "POST", path: "/api/v1/auth/device/refresh", body: map[string]any{"device_credential": "ahd_made-up"}}).
				expect(t, http.StatusUnauthorized, "device_credential")
		})
	})
}
