package api_test

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"agencyhub/api"
	"agencyhub/migrations/dbtest"
)

// authStep runs one step of a scenario as a subtest, with the env reporting to it, so a
// failed request is blamed on the step that made it.
func authStep(t *testing.T, e *env, name string, fn func(t *testing.T)) {
	t.Helper()
	parent := e.t
	t.Run(name, func(t *testing.T) {
		e.t = t
		defer func() { e.t = parent }()
		fn(t)
	})
}

var authMailLink = regexp.MustCompile(`/(activate|reset-password)\?token=([A-Za-z0-9_-]+)`)

// authMailedToken reads the token of the newest mail to an address whose link leads to
// page ("activate" or "reset-password").
func authMailedToken(t *testing.T, db *dbtest.DB, to, page string) string {
	t.Helper()
	var bodies []string
	if err := db.Raw("SELECT text_body FROM mail_outbox WHERE to_address = ? ORDER BY id DESC", to).Scan(&bodies).Error; err != nil {
		t.Fatal(err)
	}
	for _, b := range bodies {
		if m := authMailLink.FindStringSubmatch(b); m != nil && m[1] == page {
			return m[2]
		}
	}
	t.Fatalf("no %s link mailed to %s among %d mails", page, to, len(bodies))
	return ""
}

// authMailCount is how many mails were queued to an address.
func authMailCount(t *testing.T, db *dbtest.DB, to string) int {
	t.Helper()
	var n int64
	if err := db.Raw("SELECT COUNT(*) FROM mail_outbox WHERE to_address = ?", to).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// authRegister registers an account with the shared test password.
func authRegister(t *testing.T, e *env, email string) *response {
	t.Helper()
	return e.do(req{method: "POST", path: "/api/v1/auth/register", body: map[string]any{"email": email, "password": password, "name": "Someone"}})
}

// authLogin signs in as a browser unless extra (name, value pairs) says otherwise.
func authLogin(e *env, email, pw string, extra ...string) *response {
	e.t.Helper()
	body := map[string]any{"email": email, "password": pw}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i]] = extra[i+1]
	}
	return e.do(req{method: "POST", path: "/api/v1/auth/login", body: body})
}

// authCookies picks the named cookies a response set, failing when one is missing.
func authCookies(t *testing.T, resp *response, names ...string) []*http.Cookie {
	t.Helper()
	out := make([]*http.Cookie, 0, len(names))
	for _, n := range names {
		c := resp.cookie(n)
		if c == nil || c.Value == "" {
			t.Fatalf("response did not set cookie %s; Set-Cookie: %v", n, resp.Header().Values("Set-Cookie"))
		}
		out = append(out, &http.Cookie{Name: c.Name, Value: c.Value})
	}
	return out
}

func authHasCookie(resp *response, name string) bool { return resp.cookie(name) != nil }

func TestRegister(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		register := func(body any) *response {
			return e.do(req{method: "POST", path: "/api/v1/auth/register", body: body})
		}
		authStep(t, e, "a new e-mail registers an active account when activation is off", func(t *testing.T) {
			r := register(map[string]any{"email": "ada@example.com", "password": password, "name": "Ada"}).expect(t, http.StatusCreated)
			if r.str("status") != "active" || r.str("email") != "ada@example.com" || r.str("user_id") == "" {
				t.Fatalf("register answered %s", r.Body)
			}
			if n := authMailCount(t, db, "ada@example.com"); n != 0 {
				t.Fatalf("%d mails queued without activation", n)
			}
		})
		authStep(t, e, "an e-mail already registered, in any case, is a conflict naming email", func(t *testing.T) {
			r := register(map[string]any{"email": "ada@example.com", "password": password, "name": "Ada"}).expect(t, http.StatusConflict, "email")
			if r.str("status") != "fix_required" {
				t.Fatalf("conflict answered %s", r.Body)
			}
			register(map[string]any{"email": "ADA@Example.COM", "password": password, "name": "Ada"}).expect(t, http.StatusConflict, "email")
		})
		authStep(t, e, "a password of 11 characters is refused naming password, saying how long it must be", func(t *testing.T) {
			r := register(map[string]any{"email": "bob@example.com", "password": "elevenchars", "name": "Bob"}).expect(t, http.StatusBadRequest, "password")
			if got := r.str("detail"); got != "Use at least 12 characters." {
				t.Fatalf("detail %q", got)
			}
			ru := e.do(req{method: "POST", path: "/api/v1/auth/register", header: map[string]string{"Accept-Language": "ru"},
				body: map[string]any{"email": "bob@example.com", "password": "elevenchars", "name": "Bob"}}).expect(t, http.StatusBadRequest, "password")
			if got := ru.str("detail"); got != "Нужно не меньше 12 символов." {
				t.Fatalf("detail in Russian %q", got)
			}
		})
		authStep(t, e, "a password of 12 characters is accepted", func(t *testing.T) {
			register(map[string]any{"email": "bob@example.com", "password": "twelve-chars", "name": "Bob"}).expect(t, http.StatusCreated)
		})
		authStep(t, e, "an unknown field is refused naming it", func(t *testing.T) {
			register(map[string]any{"email": "cy@example.com", "password": password, "name": "Cy", "role": "admin"}).expect(t, http.StatusBadRequest, "role")
		})
		authStep(t, e, "a name of the wrong type is refused naming name", func(t *testing.T) {
			register(map[string]any{"email": "cy@example.com", "password": password, "name": 5}).expect(t, http.StatusBadRequest, "name")
		})
		authStep(t, e, "missing fields are all named, each in the detail", func(t *testing.T) {
			r := register(map[string]any{}).expect(t, http.StatusBadRequest, "email", "name", "password")
			want := "email: This field is required. name: This field is required. password: This field is required."
			if got := r.str("detail"); got != want {
				t.Fatalf("detail %q, want %q", got, want)
			}
			register(map[string]any{"email": "cy@example.com"}).expect(t, http.StatusBadRequest, "name", "password")
		})
		authStep(t, e, "a malformed e-mail is refused naming email, saying what an address looks like", func(t *testing.T) {
			r := register(map[string]any{"email": "not-an-address", "password": password, "name": "Cy"}).expect(t, http.StatusBadRequest, "email")
			if got := r.str("detail"); got != "Enter an e-mail address, like name@example.com." {
				t.Fatalf("detail %q", got)
			}
		})
		authStep(t, e, "a name of only spaces is refused naming name", func(t *testing.T) {
			register(map[string]any{"email": "cy@example.com", "password": password, "name": "   "}).expect(t, http.StatusBadRequest, "name")
		})
		authStep(t, e, "malformed JSON is refused naming body", func(t *testing.T) {
			register(`{"email":`).expect(t, http.StatusBadRequest, "body")
		})
		authStep(t, e, "no refused attempt created an account", func(t *testing.T) {
			authLogin(e, "cy@example.com", password, "client_type", "api").expect(t, http.StatusUnauthorized, "email", "password")
		})
	})
}

func TestActivation(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db, func(s *api.Server) { s.Auth.Settings.RequireActivation = true })
		activate := func(token string) *response {
			return e.do(req{method: "POST", path: "/api/v1/auth/activate", body: map[string]any{"token": token}})
		}
		var token string
		authStep(t, e, "registering answers pending_activation and mails an activation link", func(t *testing.T) {
			r := authRegister(t, e, "ada@example.com").expect(t, http.StatusCreated)
			if r.str("status") != "pending_activation" {
				t.Fatalf("register answered %s", r.Body)
			}
			var subject string
			db.Raw("SELECT subject FROM mail_outbox WHERE to_address = ?", "ada@example.com").Scan(&subject)
			if subject != "Activate your account" {
				t.Fatalf("activation mail subject = %q", subject)
			}
			token = authMailedToken(t, db, "ada@example.com", "activate")
		})
		authStep(t, e, "signing in before activation is forbidden even with the right password", func(t *testing.T) {
			r := authLogin(e, "ada@example.com", password, "client_type", "api").expect(t, http.StatusForbidden)
			if r.str("status") != "error" || authHasCookie(r, "app_access") {
				t.Fatalf("login before activation answered %s", r.Body)
			}
		})
		authStep(t, e, "a wrong password on a pending account is still a bad credential", func(t *testing.T) {
			authLogin(e, "ada@example.com", "wrong-password-here").expect(t, http.StatusUnauthorized, "email", "password")
		})
		authStep(t, e, "the mailed token activates the account", func(t *testing.T) {
			r := activate(token).expect(t, http.StatusOK)
			if r.str("status") != "activated" {
				t.Fatalf("activate answered %s", r.Body)
			}
			authLogin(e, "ada@example.com", password, "client_type", "api").expect(t, http.StatusOK)
		})
		authStep(t, e, "the same token again is refused naming token", func(t *testing.T) {
			activate(token).expect(t, http.StatusBadRequest, "token")
		})
		authStep(t, e, "a garbage token is refused naming token", func(t *testing.T) {
			activate("not-a-real-token").expect(t, http.StatusBadRequest, "token")
		})
		authStep(t, e, "an empty or missing token is refused naming token", func(t *testing.T) {
			activate("").expect(t, http.StatusBadRequest, "token")
			e.do(req{method: "POST", path: "/api/v1/auth/activate", body: map[string]any{}}).expect(t, http.StatusBadRequest, "token")
		})
		authStep(t, e, "the activation mail follows Accept-Language", func(t *testing.T) {
			e.do(req{method: "POST", path: "/api/v1/auth/register", header: map[string]string{"Accept-Language": "ru"},
				body: map[string]any{"email": "ivan@example.com", "password": password, "name": "Иван"}}).expect(t, http.StatusCreated)
			var subject string
			db.Raw("SELECT subject FROM mail_outbox WHERE to_address = ?", "ivan@example.com").Scan(&subject)
			if subject != "Активируйте учётную запись" {
				t.Fatalf("activation mail subject = %q", subject)
			}
		})
		authStep(t, e, "a password reset proves the address and activates a pending account", func(t *testing.T) {
			authRegister(t, e, "resetter@example.com").expect(t, http.StatusCreated)
			e.do(req{method: "POST", path: "/api/v1/auth/password-reset/request", body: map[string]any{"email": "resetter@example.com"}}).
				expect(t, http.StatusAccepted)
			reset := authMailedToken(t, db, "resetter@example.com", "reset-password")
			e.do(req{method: "POST", path: "/api/v1/auth/password-reset/confirm", body: map[string]any{"token": reset, "new_password": "chosen-after-reset"}}).
				expect(t, http.StatusOK)
			authLogin(e, "resetter@example.com", "chosen-after-reset", "client_type", "api").expect(t, http.StatusOK)
		})
		authStep(t, e, "a token older than 48 hours is refused and the account stays pending", func(t *testing.T) {
			authRegister(t, e, "late@example.com").expect(t, http.StatusCreated)
			late := authMailedToken(t, db, "late@example.com", "activate")
			e.advance(49 * time.Hour)
			activate(late).expect(t, http.StatusBadRequest, "token")
			authLogin(e, "late@example.com", password, "client_type", "api").expect(t, http.StatusForbidden)
		})
	})
}

func TestLogin(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		u := e.signUp("Ada")
		authStep(t, e, "a wrong password and an unknown e-mail answer the same 401", func(t *testing.T) {
			wrong := authLogin(e, u.email, "not-the-password").expect(t, http.StatusUnauthorized, "email", "password")
			unknown := authLogin(e, "nobody@example.com", password).expect(t, http.StatusUnauthorized, "email", "password")
			if wrong.str("request_id") == unknown.str("request_id") {
				t.Fatalf("two requests share the request id %q", wrong.str("request_id"))
			}
			delete(wrong.json, "request_id")
			delete(unknown.json, "request_id")
			for k, v := range wrong.json {
				if unknown.json[k] != v {
					t.Errorf("%s differs: wrong password %v, unknown e-mail %v", k, v, unknown.json[k])
				}
			}
			if wrong.str("status") != "fix_required" {
				t.Errorf("Problem.status = %q", wrong.str("status"))
			}
			if authHasCookie(wrong, "app_access") || authHasCookie(unknown, "app_access") {
				t.Error("a failed sign-in set cookies")
			}
		})
		authStep(t, e, "the e-mail is matched whatever its case", func(t *testing.T) {
			authLogin(e, "ADA@example.com", password, "client_type", "api").expect(t, http.StatusOK)
		})
		authStep(t, e, "a browser sign-in sets HttpOnly session cookies and a readable CSRF cookie", func(t *testing.T) {
			r := authLogin(e, u.email, password).expect(t, http.StatusOK)
			if _, ok := r.json["refresh_token"]; ok {
				t.Fatalf("browser login put the refresh token in the body: %s", r.Body)
			}
			if r.str("token_type") != "Bearer" || r.str("access_token") == "" || r.str("csrf_token") == "" {
				t.Fatalf("login answered %s", r.Body)
			}
			expiresIn, _ := r.json["expires_in"].(float64)
			if expiresIn != 900 {
				t.Errorf("expires_in = %v, want 900 (15 minutes)", r.json["expires_in"])
			}
			access, refresh, csrf := r.cookie("app_access"), r.cookie("app_refresh"), r.cookie("app_csrf")
			if access == nil || refresh == nil || csrf == nil {
				t.Fatalf("cookies set: %v", r.Header().Values("Set-Cookie"))
			}
			if !access.HttpOnly || !refresh.HttpOnly || csrf.HttpOnly {
				t.Errorf("HttpOnly: app_access %v, app_refresh %v, app_csrf %v; want true, true, false", access.HttpOnly, refresh.HttpOnly, csrf.HttpOnly)
			}
			if access.Path != "/" || refresh.Path != "/api/v1/auth" || csrf.Path != "/" {
				t.Errorf("paths: app_access %q, app_refresh %q, app_csrf %q", access.Path, refresh.Path, csrf.Path)
			}
			if access.Value != r.str("access_token") || csrf.Value != r.str("csrf_token") {
				t.Errorf("cookies do not carry the tokens of the body")
			}
			if access.MaxAge != 900 {
				t.Errorf("app_access Max-Age = %d, want 900 like expires_in", access.MaxAge)
			}
			if want := int((30 * 24 * time.Hour).Seconds()); refresh.MaxAge != want || csrf.MaxAge != want {
				t.Errorf("Max-Age: app_refresh %d, app_csrf %d; want %d (the refresh lifetime)", refresh.MaxAge, csrf.MaxAge, want)
			}
		})
		authStep(t, e, "an API client gets the refresh token in the body and no cookies", func(t *testing.T) {
			r := authLogin(e, u.email, password, "client_type", "api").expect(t, http.StatusOK)
			if r.str("refresh_token") == "" {
				t.Fatalf("api login answered %s", r.Body)
			}
			if c := r.Result().Cookies(); len(c) != 0 {
				t.Fatalf("api login set cookies %v", c)
			}
		})
		authStep(t, e, "an unknown client type is refused naming client_type", func(t *testing.T) {
			authLogin(e, u.email, password, "client_type", "toaster").expect(t, http.StatusBadRequest, "client_type")
		})
		authStep(t, e, "a request without credentials is refused naming access_token", func(t *testing.T) {
			e.do(req{method: "GET", path: "/api/v1/auth/me"}).expect(t, http.StatusUnauthorized, "access_token")
			e.do(req{method: "GET", path: "/api/v1/auth/me", token: "not.a.jwt"}).expect(t, http.StatusUnauthorized, "access_token")
			e.do(req{method: "GET", path: "/api/v1/auth/me", cookies: []*http.Cookie{{Name: "app_access", Value: "not.a.jwt"}}}).
				expect(t, http.StatusUnauthorized, "access_token")
		})
		authStep(t, e, "an access token with a forged signature is refused", func(t *testing.T) {
			parts := strings.Split(u.token, ".")
			if len(parts) != 3 {
				t.Fatalf("access token is not a JWT: %q", u.token)
			}
			forged := parts[0] + "." + parts[1] + ".c2lnbmVkLWJ5LXNvbWVvbmUtZWxzZQ"
			e.do(req{method: "GET", path: "/api/v1/auth/me", token: forged}).expect(t, http.StatusUnauthorized, "access_token")
		})
		authStep(t, e, "an access token stops working after 15 minutes", func(t *testing.T) {
			r := authLogin(e, u.email, password, "client_type", "api").expect(t, http.StatusOK)
			e.advance(15*time.Minute + time.Second)
			e.do(req{method: "GET", path: "/api/v1/auth/me", token: r.str("access_token")}).expect(t, http.StatusUnauthorized, "access_token")
		})
		authStep(t, e, "logging out ends the session and clears the cookies", func(t *testing.T) {
			r := authLogin(e, u.email, password, "client_type", "api").expect(t, http.StatusOK)
			out := e.do(req{method: "POST", path: "/api/v1/auth/logout", token: r.str("access_token")}).expect(t, http.StatusNoContent)
			if c := out.cookie("app_access"); c == nil || c.MaxAge >= 0 {
				t.Errorf("logout did not clear app_access: %v", out.Header().Values("Set-Cookie"))
			}
			e.do(req{method: "GET", path: "/api/v1/auth/me", token: r.str("access_token")}).expect(t, http.StatusUnauthorized, "access_token")
			e.do(req{method: "POST", path: "/api/v1/auth/refresh", body: map[string]any{"refresh_token": r.str("refresh_token")}}).
				expect(t, http.StatusUnauthorized, "refresh_token")
		})
	})
}

// authFailLogin signs in with a wrong password, from a forwarded address when one is given.
func authFailLogin(e *env, email, from string) *response {
	e.t.Helper()
	r := req{method: "POST", path: "/api/v1/auth/login", body: map[string]any{"email": email, "password": "not-the-password", "client_type": "api"}}
	if from != "" {
		r.header = map[string]string{"X-Forwarded-For": from}
	}
	return e.do(r)
}

// authLoginFrom signs in with the right password, from a forwarded address when one is given.
func authLoginFrom(e *env, email, from string) *response {
	e.t.Helper()
	r := req{method: "POST", path: "/api/v1/auth/login", body: map[string]any{"email": email, "password": password, "client_type": "api"}}
	if from != "" {
		r.header = map[string]string{"X-Forwarded-For": from}
	}
	return e.do(r)
}

// authRetryAfter is the wait a 429 asks for.
func authRetryAfter(t *testing.T, r *response) time.Duration {
	t.Helper()
	s, err := strconv.Atoi(r.Header().Get("Retry-After"))
	if err != nil || s <= 0 {
		t.Fatalf("Retry-After = %q, want a positive number of seconds", r.Header().Get("Retry-After"))
	}
	if r.str("status") != "error" {
		t.Fatalf("429 Problem.status = %q", r.str("status"))
	}
	return time.Duration(s) * time.Second
}

func TestLoginLimiter(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		u := e.signUp("Ada")
		authStep(t, e, "after 5 failures from one address the 6th attempt is refused even with the right password", func(t *testing.T) {
			for i := range 5 {
				authFailLogin(e, u.email, "").expect(t, http.StatusUnauthorized, "email", "password")
				if i < 4 {
					e.advance(10 * time.Second)
				}
			}
			r := authLoginFrom(e, u.email, "").expect(t, http.StatusTooManyRequests)
			wait := authRetryAfter(t, r)
			if wait != 15*time.Minute-40*time.Second+time.Second {
				t.Errorf("Retry-After = %v, want the time until the oldest failure leaves the 15-minute window", wait)
			}
		})
		authStep(t, e, "a forged X-Forwarded-For does not escape the limit when no proxy is trusted", func(t *testing.T) {
			authLoginFrom(e, u.email, "198.51.100.7").expect(t, http.StatusTooManyRequests)
		})
		authStep(t, e, "the limit still holds just before Retry-After runs out", func(t *testing.T) {
			r := authLoginFrom(e, u.email, "").expect(t, http.StatusTooManyRequests)
			e.advance(authRetryAfter(t, r) - 2*time.Second)
			authLoginFrom(e, u.email, "").expect(t, http.StatusTooManyRequests)
		})
		authStep(t, e, "once Retry-After has passed the right password signs in again", func(t *testing.T) {
			r := authLoginFrom(e, u.email, "").expect(t, http.StatusTooManyRequests)
			e.advance(authRetryAfter(t, r))
			authLoginFrom(e, u.email, "").expect(t, http.StatusOK)
		})
		authStep(t, e, "a successful sign-in forgets the address's earlier failures", func(t *testing.T) {
			for range 4 {
				authFailLogin(e, u.email, "").expect(t, http.StatusUnauthorized)
			}
			authLoginFrom(e, u.email, "").expect(t, http.StatusOK)
			for range 5 {
				authFailLogin(e, u.email, "").expect(t, http.StatusUnauthorized)
			}
			authLoginFrom(e, u.email, "").expect(t, http.StatusTooManyRequests)
		})
	})
}

// TestLoginLimiterBehindProxy varies the client address through a trusted proxy to show
// which limits follow the address and which the account. (One ForEachDialect per test: a
// second one names its SQLite directory "sqlite#01", and the '#' cuts the file URI short.)
func TestLoginLimiterBehindProxy(t *testing.T) {
	const proxy = "192.0.2.1" // the address httptest requests come from
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db, func(s *api.Server) { s.TrustedProxies = []string{proxy} })
		u := e.signUp("Ada")
		authStep(t, e, "failures from one address do not lock the owner out from another", func(t *testing.T) {
			for range 5 {
				authFailLogin(e, u.email, "203.0.113.66").expect(t, http.StatusUnauthorized)
			}
			authLoginFrom(e, u.email, "203.0.113.66").expect(t, http.StatusTooManyRequests)
			authLoginFrom(e, u.email, "198.51.100.10").expect(t, http.StatusOK)
		})
		authStep(t, e, "20 failures on one account within a minute from several addresses close it to every address", func(t *testing.T) {
			e.advance(15 * time.Minute)
			v := e.signUp("Bea")
			for a := range 5 {
				for range 4 {
					authFailLogin(e, v.email, "203.0.113."+strconv.Itoa(10+a)).expect(t, http.StatusUnauthorized)
				}
			}
			r := authLoginFrom(e, v.email, "198.51.100.20").expect(t, http.StatusTooManyRequests)
			if wait := authRetryAfter(t, r); wait > time.Minute+time.Second {
				t.Errorf("Retry-After = %v, want at most the one-minute account window", wait)
			}
			authLoginFrom(e, u.email, "198.51.100.20").expect(t, http.StatusOK)
			e.advance(time.Minute + time.Second)
			authLoginFrom(e, v.email, "198.51.100.20").expect(t, http.StatusOK)
		})
		authStep(t, e, "50 failures from one address over many accounts close that address to every account", func(t *testing.T) {
			e.advance(15 * time.Minute)
			const spray = "203.0.113.200"
			for acct := range 10 {
				for range 5 {
					authFailLogin(e, "target"+strconv.Itoa(acct)+"@example.com", spray).expect(t, http.StatusUnauthorized)
				}
			}
			r := authLoginFrom(e, u.email, spray).expect(t, http.StatusTooManyRequests)
			authRetryAfter(t, r)
			authLoginFrom(e, u.email, "198.51.100.30").expect(t, http.StatusOK)
			e.advance(15*time.Minute + time.Second)
			authLoginFrom(e, u.email, spray).expect(t, http.StatusOK)
		})
	})
}

func TestCSRF(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		u := e.signUp("Ada")
		a := authLogin(e, u.email, password).expect(t, http.StatusOK)
		cookies := authCookies(t, a, "app_access", "app_csrf")
		csrf := a.str("csrf_token")
		patch := func(cookies []*http.Cookie, header map[string]string, name string) *response {
			return e.do(req{method: "PATCH", path: "/api/v1/auth/profile", cookies: cookies, header: header, body: map[string]any{"name": name}})
		}
		authStep(t, e, "a safe request authenticated by cookie needs no CSRF token", func(t *testing.T) {
			r := e.do(req{method: "GET", path: "/api/v1/auth/me", cookies: cookies[:1]}).expect(t, http.StatusOK)
			if r.str("user_id") != u.id {
				t.Fatalf("me answered %s", r.Body)
			}
		})
		authStep(t, e, "an unsafe request by cookie without X-CSRF-Token is forbidden and changes nothing", func(t *testing.T) {
			r := patch(cookies, nil, "Mallory").expect(t, http.StatusForbidden)
			if r.str("status") != "error" {
				t.Fatalf("csrf failure answered %s", r.Body)
			}
			me := e.do(req{method: "GET", path: "/api/v1/auth/me", token: u.token}).expect(t, http.StatusOK)
			if me.str("name") != "Ada" {
				t.Fatalf("name changed to %q without a CSRF token", me.str("name"))
			}
		})
		authStep(t, e, "the header equal to the app_csrf cookie lets it through", func(t *testing.T) {
			r := patch(cookies, map[string]string{"X-CSRF-Token": csrf}, "Ada L").expect(t, http.StatusOK)
			if r.str("name") != "Ada L" {
				t.Fatalf("profile patch answered %s", r.Body)
			}
		})
		authStep(t, e, "a header that differs from the cookie is forbidden", func(t *testing.T) {
			patch(cookies, map[string]string{"X-CSRF-Token": csrf + "x"}, "Mallory").expect(t, http.StatusForbidden)
		})
		authStep(t, e, "a header without the app_csrf cookie is forbidden", func(t *testing.T) {
			patch(cookies[:1], map[string]string{"X-CSRF-Token": csrf}, "Mallory").expect(t, http.StatusForbidden)
		})
		authStep(t, e, "a CSRF token issued for another session is forbidden", func(t *testing.T) {
			other := authLogin(e, u.email, password).expect(t, http.StatusOK)
			foreign := other.str("csrf_token")
			mixed := []*http.Cookie{cookies[0], {Name: "app_csrf", Value: foreign}}
			patch(mixed, map[string]string{"X-CSRF-Token": foreign}, "Mallory").expect(t, http.StatusForbidden)
		})
		authStep(t, e, "a bearer token needs no CSRF token", func(t *testing.T) {
			e.do(req{method: "PATCH", path: "/api/v1/auth/profile", token: u.token, body: map[string]any{"name": "Ada"}}).expect(t, http.StatusOK)
		})
		authStep(t, e, "GET auth/csrf issues a fresh token and cookie that work", func(t *testing.T) {
			r := e.do(req{method: "GET", path: "/api/v1/auth/csrf", cookies: cookies[:1]}).expect(t, http.StatusOK)
			fresh := r.str("csrf_token")
			c := r.cookie("app_csrf")
			if fresh == "" || fresh == csrf || c == nil || c.Value != fresh || c.HttpOnly || c.Path != "/" || c.MaxAge <= 0 {
				t.Fatalf("csrf answered %s with Set-Cookie %v", r.Body, r.Header().Values("Set-Cookie"))
			}
			withFresh := []*http.Cookie{cookies[0], {Name: "app_csrf", Value: fresh}}
			patch(withFresh, map[string]string{"X-CSRF-Token": fresh}, "Ada Fresh").expect(t, http.StatusOK)
		})
		authStep(t, e, "GET auth/csrf needs a session", func(t *testing.T) {
			e.do(req{method: "GET", path: "/api/v1/auth/csrf"}).expect(t, http.StatusUnauthorized, "access_token")
		})
		authStep(t, e, "logging out by cookie needs the CSRF token too", func(t *testing.T) {
			e.do(req{method: "POST", path: "/api/v1/auth/logout", cookies: cookies}).expect(t, http.StatusForbidden)
			e.do(req{method: "GET", path: "/api/v1/auth/me", cookies: cookies[:1]}).expect(t, http.StatusOK)
			e.do(req{method: "POST", path: "/api/v1/auth/logout", cookies: cookies, header: map[string]string{"X-CSRF-Token": csrf}}).
				expect(t, http.StatusNoContent)
			e.do(req{method: "GET", path: "/api/v1/auth/me", cookies: cookies[:1]}).expect(t, http.StatusUnauthorized, "access_token")
		})
	})
}

func TestRefresh(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		u := e.signUp("Ada")
		login := authLogin(e, u.email, password).expect(t, http.StatusOK)
		access, refresh := authCookies(t, login, "app_access")[0], authCookies(t, login, "app_refresh")[0]
		all := authCookies(t, login, "app_access", "app_refresh", "app_csrf")
		refreshPost := func(cookies []*http.Cookie, csrf string) *response {
			r := req{method: "POST", path: "/api/v1/auth/refresh", cookies: cookies}
			if csrf != "" {
				r.header = map[string]string{"X-CSRF-Token": csrf}
			}
			return e.do(r)
		}
		var csrf string
		var rotated *response
		authStep(t, e, "a cookie refresh without the CSRF header is forbidden", func(t *testing.T) {
			refreshPost(all, "").expect(t, http.StatusForbidden)
		})
		authStep(t, e, "GET auth/refresh/csrf with only the refresh cookie gives a token and its cookie", func(t *testing.T) {
			r := e.do(req{method: "GET", path: "/api/v1/auth/refresh/csrf", cookies: []*http.Cookie{refresh}}).expect(t, http.StatusOK)
			csrf = r.str("csrf_token")
			if c := r.cookie("app_csrf"); csrf == "" || c == nil || c.Value != csrf || c.HttpOnly {
				t.Fatalf("refresh/csrf answered %s with Set-Cookie %v", r.Body, r.Header().Values("Set-Cookie"))
			}
		})
		authStep(t, e, "GET auth/refresh/csrf without the refresh cookie is refused naming refresh_token", func(t *testing.T) {
			e.do(req{method: "GET", path: "/api/v1/auth/refresh/csrf"}).expect(t, http.StatusUnauthorized, "refresh_token")
			e.do(req{method: "GET", path: "/api/v1/auth/refresh/csrf", cookies: []*http.Cookie{{Name: "app_refresh", Value: "forged"}}}).
				expect(t, http.StatusUnauthorized, "refresh_token")
		})
		authStep(t, e, "the cookie refresh with that token rotates every cookie", func(t *testing.T) {
			e.advance(5 * time.Minute)
			rotated = refreshPost([]*http.Cookie{refresh, {Name: "app_csrf", Value: csrf}}, csrf).expect(t, http.StatusOK)
			if _, ok := rotated.json["refresh_token"]; ok {
				t.Fatalf("cookie refresh put the refresh token in the body: %s", rotated.Body)
			}
			newAccess, newRefresh, newCSRF := rotated.cookie("app_access"), rotated.cookie("app_refresh"), rotated.cookie("app_csrf")
			if newAccess == nil || newRefresh == nil || newCSRF == nil {
				t.Fatalf("refresh set %v", rotated.Header().Values("Set-Cookie"))
			}
			if newAccess.Value == access.Value || newRefresh.Value == refresh.Value || newAccess.Value != rotated.str("access_token") || newCSRF.Value != rotated.str("csrf_token") {
				t.Errorf("cookies were not rotated to the body's tokens")
			}
			if !newAccess.HttpOnly || !newRefresh.HttpOnly || newCSRF.HttpOnly || newRefresh.Path != "/api/v1/auth" || newAccess.MaxAge <= 0 || newRefresh.MaxAge <= 0 {
				t.Errorf("rotated cookie attributes: %v", rotated.Header().Values("Set-Cookie"))
			}
			e.do(req{method: "GET", path: "/api/v1/auth/me", cookies: authCookies(t, rotated, "app_access")}).expect(t, http.StatusOK)
		})
		authStep(t, e, "presenting the spent refresh cookie again ends the session", func(t *testing.T) {
			refreshPost([]*http.Cookie{refresh, {Name: "app_csrf", Value: csrf}}, csrf).expect(t, http.StatusUnauthorized, "refresh_token")
			e.do(req{method: "GET", path: "/api/v1/auth/me", cookies: authCookies(t, rotated, "app_access")}).expect(t, http.StatusUnauthorized, "access_token")
			next := rotated.str("csrf_token")
			refreshPost([]*http.Cookie{authCookies(t, rotated, "app_refresh")[0], {Name: "app_csrf", Value: next}}, next).
				expect(t, http.StatusUnauthorized, "refresh_token")
		})
		authStep(t, e, "a refresh cookie of another session does not match the CSRF token", func(t *testing.T) {
			one := authLogin(e, u.email, password).expect(t, http.StatusOK)
			two := authLogin(e, u.email, password).expect(t, http.StatusOK)
			token := two.str("csrf_token")
			refreshPost([]*http.Cookie{authCookies(t, one, "app_refresh")[0], {Name: "app_csrf", Value: token}}, token).expect(t, http.StatusForbidden)
		})
	})
}

func TestRefreshRotation(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		u := e.signUp("Ada")
		other := authLogin(e, u.email, password, "client_type", "api").expect(t, http.StatusOK)
		refresh := func(token string) *response {
			return e.do(req{method: "POST", path: "/api/v1/auth/refresh", body: map[string]any{"refresh_token": token}})
		}
		var next *response
		authStep(t, e, "a refresh token rotates into a new pair", func(t *testing.T) {
			e.advance(time.Minute)
			next = refresh(u.refresh).expect(t, http.StatusOK)
			if next.str("refresh_token") == "" || next.str("refresh_token") == u.refresh || next.str("access_token") == u.token {
				t.Fatalf("refresh answered %s", next.Body)
			}
			if c := next.Result().Cookies(); len(c) != 0 {
				t.Fatalf("a body refresh set cookies %v", c)
			}
			e.do(req{method: "GET", path: "/api/v1/auth/me", token: next.str("access_token")}).expect(t, http.StatusOK)
		})
		authStep(t, e, "the spent token used again is refused naming refresh_token", func(t *testing.T) {
			refresh(u.refresh).expect(t, http.StatusUnauthorized, "refresh_token")
		})
		authStep(t, e, "that reuse revoked the session: its access token and newest refresh token stop working", func(t *testing.T) {
			e.do(req{method: "GET", path: "/api/v1/auth/me", token: next.str("access_token")}).expect(t, http.StatusUnauthorized, "access_token")
			refresh(next.str("refresh_token")).expect(t, http.StatusUnauthorized, "refresh_token")
		})
		authStep(t, e, "the user's other sessions are untouched", func(t *testing.T) {
			e.do(req{method: "GET", path: "/api/v1/auth/me", token: other.str("access_token")}).expect(t, http.StatusOK)
			refresh(other.str("refresh_token")).expect(t, http.StatusOK)
		})
		authStep(t, e, "an unknown, empty or mistyped refresh token is refused", func(t *testing.T) {
			refresh("never-issued").expect(t, http.StatusUnauthorized, "refresh_token")
			e.do(req{method: "POST", path: "/api/v1/auth/refresh", body: map[string]any{"refresh_token": 7}}).expect(t, http.StatusBadRequest, "refresh_token")
			e.do(req{method: "POST", path: "/api/v1/auth/refresh"}).expect(t, http.StatusUnauthorized, "refresh_token")
		})
		authStep(t, e, "a session unused for the refresh lifetime expires", func(t *testing.T) {
			fresh := authLogin(e, u.email, password, "client_type", "api").expect(t, http.StatusOK)
			e.advance(30*24*time.Hour + time.Second)
			refresh(fresh.str("refresh_token")).expect(t, http.StatusUnauthorized, "refresh_token")
		})
	})
}

func TestSessions(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		u := e.signUp("Ada")
		second := authLogin(e, u.email, password, "client_type", "api", "device_label", "Laptop").expect(t, http.StatusOK)
		list := func(token, query string) *response {
			return e.do(req{method: "GET", path: "/api/v1/auth/sessions" + query, token: token})
		}
		var otherID string
		authStep(t, e, "two sign-ins list two sessions of which exactly one is current", func(t *testing.T) {
			items := list(u.token, "").expect(t, http.StatusOK).items()
			if len(items) != 2 {
				t.Fatalf("sessions = %v", items)
			}
			current := 0
			for _, it := range items {
				if it["is_current"] == true {
					current++
				} else {
					otherID, _ = it["session_id"].(string)
					if it["device_label"] != "Laptop" || it["client_type"] != "api" || it["ip_address"] != "192.0.2.1" {
						t.Errorf("other session = %v", it)
					}
				}
			}
			if current != 1 || otherID == "" {
				t.Fatalf("sessions = %v", items)
			}
		})
		authStep(t, e, "limit=1 pages through the sessions with next_cursor", func(t *testing.T) {
			first := list(u.token, "?limit=1").expect(t, http.StatusOK)
			cursor := first.str("next_cursor")
			if len(first.items()) != 1 || cursor == "" {
				t.Fatalf("first page = %s", first.Body)
			}
			page2 := list(u.token, "?limit=1&cursor="+cursor).expect(t, http.StatusOK)
			if len(page2.items()) != 1 || page2.str("next_cursor") != "" || page2.items()[0]["session_id"] == first.items()[0]["session_id"] {
				t.Fatalf("second page = %s after %s", page2.Body, first.Body)
			}
		})
		authStep(t, e, "a bad limit or cursor is refused naming it", func(t *testing.T) {
			for _, q := range []string{"?limit=0", "?limit=abc", "?limit=201", "?limit=-1"} {
				list(u.token, q).expect(t, http.StatusBadRequest, "limit")
			}
			list(u.token, "?cursor=%25%25").expect(t, http.StatusBadRequest, "cursor")
		})
		authStep(t, e, "deleting a session of another user is not found and leaves it alive", func(t *testing.T) {
			v := e.signUp("Bea")
			vID, _ := list(v.token, "").expect(t, http.StatusOK).items()[0]["session_id"].(string)
			e.do(req{method: "DELETE", path: "/api/v1/auth/sessions/" + vID, token: u.token}).expect(t, http.StatusNotFound)
			e.do(req{method: "GET", path: "/api/v1/auth/me", token: v.token}).expect(t, http.StatusOK)
		})
		authStep(t, e, "a session id that is not a UUID is refused naming session_id", func(t *testing.T) {
			e.do(req{method: "DELETE", path: "/api/v1/auth/sessions/not-a-uuid", token: u.token}).expect(t, http.StatusBadRequest, "session_id")
		})
		authStep(t, e, "deleting the other session ends it at once", func(t *testing.T) {
			e.do(req{method: "DELETE", path: "/api/v1/auth/sessions/" + otherID, token: u.token}).expect(t, http.StatusNoContent)
			e.do(req{method: "GET", path: "/api/v1/auth/me", token: second.str("access_token")}).expect(t, http.StatusUnauthorized, "access_token")
			e.do(req{method: "POST", path: "/api/v1/auth/refresh", body: map[string]any{"refresh_token": second.str("refresh_token")}}).
				expect(t, http.StatusUnauthorized, "refresh_token")
			items := list(u.token, "").expect(t, http.StatusOK).items()
			if len(items) != 1 || items[0]["is_current"] != true {
				t.Fatalf("sessions after delete = %v", items)
			}
		})
		authStep(t, e, "deleting it again is not found", func(t *testing.T) {
			e.do(req{method: "DELETE", path: "/api/v1/auth/sessions/" + otherID, token: u.token}).expect(t, http.StatusNotFound)
		})
		authStep(t, e, "deleting the current session signs the caller out", func(t *testing.T) {
			items := list(u.token, "").expect(t, http.StatusOK).items()
			id, _ := items[0]["session_id"].(string)
			e.do(req{method: "DELETE", path: "/api/v1/auth/sessions/" + id, token: u.token}).expect(t, http.StatusNoContent)
			list(u.token, "").expect(t, http.StatusUnauthorized, "access_token")
		})
	})
}

func TestPasswordReset(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		u := e.signUp("Ada")
		browser := authLogin(e, u.email, password).expect(t, http.StatusOK)
		const newPassword = "a-brand-new-passphrase"
		request := func(email string) *response {
			return e.do(req{method: "POST", path: "/api/v1/auth/password-reset/request", body: map[string]any{"email": email}})
		}
		confirm := func(token, pw string) *response {
			return e.do(req{method: "POST", path: "/api/v1/auth/password-reset/confirm", body: map[string]any{"token": token, "new_password": pw}})
		}
		var token string
		authStep(t, e, "a request for an unknown and a known e-mail answer alike, and only the known one is mailed", func(t *testing.T) {
			unknown := request("nobody@example.com").expect(t, http.StatusAccepted)
			known := request(u.email).expect(t, http.StatusAccepted)
			if unknown.Body.String() != known.Body.String() || known.str("status") != "reset_requested" {
				t.Fatalf("unknown answered %s, known %s", unknown.Body, known.Body)
			}
			if n := authMailCount(t, db, "nobody@example.com"); n != 0 {
				t.Fatalf("%d mails queued for an unknown e-mail", n)
			}
			if n := authMailCount(t, db, u.email); n != 1 {
				t.Fatalf("%d mails queued for the account, want 1", n)
			}
			token = authMailedToken(t, db, u.email, "reset-password")
		})
		authStep(t, e, "the answer says, for any e-mail alike, that this server sends no mail", func(t *testing.T) {
			if r := request("nobody@example.com").expect(t, http.StatusAccepted); r.json["mail_configured"] != false {
				t.Fatalf("without mail delivery answered %s", r.Body)
			}
			e.server.Auth.Settings.RequireActivation = true
			defer func() { e.server.Auth.Settings.RequireActivation = false }()
			if r := request("nobody@example.com").expect(t, http.StatusAccepted); r.json["mail_configured"] != true {
				t.Fatalf("with mail delivery answered %s", r.Body)
			}
		})
		authStep(t, e, "a malformed e-mail is refused naming email", func(t *testing.T) {
			request("not-an-address").expect(t, http.StatusBadRequest, "email")
		})
		authStep(t, e, "a new password that is too short is refused and does not spend the token", func(t *testing.T) {
			confirm(token, "short").expect(t, http.StatusBadRequest, "token", "new_password")
			confirm(token, "elevenchars").expect(t, http.StatusBadRequest, "token", "new_password")
		})
		authStep(t, e, "the mailed token sets the new password and ends every session", func(t *testing.T) {
			r := confirm(token, newPassword).expect(t, http.StatusOK)
			if r.str("status") != "password_updated" {
				t.Fatalf("confirm answered %s", r.Body)
			}
			e.do(req{method: "GET", path: "/api/v1/auth/me", token: u.token}).expect(t, http.StatusUnauthorized, "access_token")
			e.do(req{method: "GET", path: "/api/v1/auth/me", cookies: authCookies(t, browser, "app_access")}).expect(t, http.StatusUnauthorized, "access_token")
			e.do(req{method: "POST", path: "/api/v1/auth/refresh", body: map[string]any{"refresh_token": u.refresh}}).expect(t, http.StatusUnauthorized, "refresh_token")
		})
		authStep(t, e, "the old password fails and the new one signs in", func(t *testing.T) {
			authLogin(e, u.email, password, "client_type", "api").expect(t, http.StatusUnauthorized, "email", "password")
			authLogin(e, u.email, newPassword, "client_type", "api").expect(t, http.StatusOK)
		})
		authStep(t, e, "the token used again is refused naming token and new_password", func(t *testing.T) {
			confirm(token, "yet-another-passphrase").expect(t, http.StatusBadRequest, "token", "new_password")
			authLogin(e, u.email, newPassword, "client_type", "api").expect(t, http.StatusOK)
		})
		authStep(t, e, "a garbage or missing token is refused naming token and new_password", func(t *testing.T) {
			confirm("not-a-real-token", "yet-another-passphrase").expect(t, http.StatusBadRequest, "token", "new_password")
			e.do(req{method: "POST", path: "/api/v1/auth/password-reset/confirm", body: map[string]any{}}).expect(t, http.StatusBadRequest, "token", "new_password")
		})
		authStep(t, e, "an earlier link dies when a later one is used", func(t *testing.T) {
			request(u.email).expect(t, http.StatusAccepted)
			first := authMailedToken(t, db, u.email, "reset-password")
			request(u.email).expect(t, http.StatusAccepted)
			second := authMailedToken(t, db, u.email, "reset-password")
			if first == second {
				t.Fatal("two requests mailed the same token")
			}
			confirm(second, "second-link-passphrase").expect(t, http.StatusOK)
			confirm(first, "first-link-passphrase").expect(t, http.StatusBadRequest, "token", "new_password")
		})
		authStep(t, e, "a token older than an hour is refused", func(t *testing.T) {
			request(u.email).expect(t, http.StatusAccepted)
			late := authMailedToken(t, db, u.email, "reset-password")
			e.advance(time.Hour + time.Second)
			confirm(late, "too-late-passphrase").expect(t, http.StatusBadRequest, "token", "new_password")
			authLogin(e, u.email, "second-link-passphrase", "client_type", "api").expect(t, http.StatusOK)
		})
	})
}

func TestAPIKeys(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		u := e.signUp("Ada")
		create := func(body any) *response {
			return e.do(req{method: "POST", path: "/api/v1/auth/api-keys", token: u.token, body: body})
		}
		list := func() *response {
			return e.do(req{method: "GET", path: "/api/v1/auth/api-keys", token: u.token}).expect(e.t, http.StatusOK)
		}
		var key, keyID string
		authStep(t, e, "creating a key shows it once", func(t *testing.T) {
			r := create(map[string]any{"name": "CI deploys"}).expect(t, http.StatusOK)
			key, keyID = r.str("key"), r.str("api_key_id")
			if !strings.HasPrefix(key, "ahk_") || keyID == "" || r.json["last_used_at"] != nil || r.str("masked_key") == "" || r.str("name") != "CI deploys" {
				t.Fatalf("create answered %s", r.Body)
			}
		})
		authStep(t, e, "the list shows the masked key, never the key, and no use yet", func(t *testing.T) {
			r := list()
			items := r.items()
			if len(items) != 1 || items[0]["api_key_id"] != keyID || items[0]["last_used_at"] != nil {
				t.Fatalf("list = %s", r.Body)
			}
			if _, ok := items[0]["key"]; ok {
				t.Fatalf("the list shows the key: %s", r.Body)
			}
			// The secret may itself hold "_"; it is what follows the masked key's prefix.
			masked, _ := items[0]["masked_key"].(string)
			secret := strings.TrimPrefix(key, strings.TrimSuffix(masked, "****"))
			if secret == key || len(secret) < 32 {
				t.Fatalf("the masked key %q is not the key's prefix: %s", masked, key)
			}
			if strings.Contains(r.Body.String(), secret) || masked == key || strings.Contains(masked, secret) {
				t.Fatalf("the list reveals the secret: %s", r.Body)
			}
		})
		authStep(t, e, "the key in X-API-Key acts as its user and its use is recorded", func(t *testing.T) {
			e.advance(time.Minute)
			me := e.do(req{method: "GET", path: "/api/v1/auth/me", apiKey: key}).expect(t, http.StatusOK)
			if me.str("user_id") != u.id {
				t.Fatalf("me by key answered %s", me.Body)
			}
			used, _ := list().items()[0]["last_used_at"].(string)
			at, err := time.Parse(time.RFC3339, used)
			if err != nil || !at.Equal(e.now) {
				t.Fatalf("last_used_at = %q, want %s", used, e.now.Format(time.RFC3339))
			}
		})
		authStep(t, e, "an unsafe request by key needs no CSRF token", func(t *testing.T) {
			e.do(req{method: "PATCH", path: "/api/v1/auth/profile", apiKey: key, body: map[string]any{"name": "Ada by key"}}).expect(t, http.StatusOK)
		})
		authStep(t, e, "a key cannot log out, having no session", func(t *testing.T) {
			e.do(req{method: "POST", path: "/api/v1/auth/logout", apiKey: key}).expect(t, http.StatusBadRequest, "access_token")
			e.do(req{method: "GET", path: "/api/v1/auth/csrf", apiKey: key}).expect(t, http.StatusBadRequest, "access_token")
		})
		authStep(t, e, "a key with a wrong secret or unknown prefix is refused naming api_key", func(t *testing.T) {
			tampered := key[:len(key)-1] + "A"
			if strings.HasSuffix(key, "A") {
				tampered = key[:len(key)-1] + "B"
			}
			e.do(req{method: "GET", path: "/api/v1/auth/me", apiKey: tampered}).expect(t, http.StatusUnauthorized, "api_key")
			e.do(req{method: "GET", path: "/api/v1/auth/me", apiKey: "ahk_unknown_secret"}).expect(t, http.StatusUnauthorized, "api_key")
			e.do(req{method: "GET", path: "/api/v1/auth/me", apiKey: "garbage"}).expect(t, http.StatusUnauthorized, "api_key")
		})
		authStep(t, e, "another user cannot revoke the key", func(t *testing.T) {
			v := e.signUp("Bea")
			e.do(req{method: "DELETE", path: "/api/v1/auth/api-keys/" + keyID, token: v.token}).expect(t, http.StatusNotFound)
			e.do(req{method: "GET", path: "/api/v1/auth/me", apiKey: key}).expect(t, http.StatusOK)
		})
		authStep(t, e, "revoking the key stops it at once", func(t *testing.T) {
			r := e.do(req{method: "DELETE", path: "/api/v1/auth/api-keys/" + keyID, token: u.token}).expect(t, http.StatusOK)
			if r.str("status") != "revoked" || r.str("api_key_id") != keyID {
				t.Fatalf("delete answered %s", r.Body)
			}
			e.do(req{method: "GET", path: "/api/v1/auth/me", apiKey: key}).expect(t, http.StatusUnauthorized, "api_key")
			items := list().items()
			if len(items) != 1 {
				t.Fatalf("the revoked key is not listed: %v", items)
			}
			revoked, _ := items[0]["revoked_at"].(string)
			if at, err := time.Parse(time.RFC3339, revoked); err != nil || !at.Equal(e.now) {
				t.Fatalf("revoked_at = %q, want %s", revoked, e.now.Format(time.RFC3339))
			}
			e.do(req{method: "DELETE", path: "/api/v1/auth/api-keys/" + keyID, token: u.token}).expect(t, http.StatusNotFound)
		})
		authStep(t, e, "an api_key_id that is not a UUID is refused naming it", func(t *testing.T) {
			e.do(req{method: "DELETE", path: "/api/v1/auth/api-keys/nope", token: u.token}).expect(t, http.StatusBadRequest, "api_key_id")
		})
		authStep(t, e, "an expiry in the past is refused naming expires_at", func(t *testing.T) {
			create(map[string]any{"name": "old", "expires_at": e.now.Add(-time.Hour).Format(time.RFC3339)}).expect(t, http.StatusBadRequest, "expires_at")
			create(map[string]any{"name": "old", "expires_at": "yesterday"}).expect(t, http.StatusBadRequest, "expires_at")
		})
		authStep(t, e, "a bad name is refused naming name", func(t *testing.T) {
			create(map[string]any{}).expect(t, http.StatusBadRequest, "name")
			create(map[string]any{"name": "   "}).expect(t, http.StatusBadRequest, "name")
		})
		authStep(t, e, "a key stops working when it expires", func(t *testing.T) {
			r := create(map[string]any{"name": "short-lived", "expires_at": e.now.Add(time.Hour).Format(time.RFC3339)}).expect(t, http.StatusOK)
			e.do(req{method: "GET", path: "/api/v1/auth/me", apiKey: r.str("key")}).expect(t, http.StatusOK)
			e.advance(time.Hour)
			e.do(req{method: "GET", path: "/api/v1/auth/me", apiKey: r.str("key")}).expect(t, http.StatusUnauthorized, "api_key")
		})
	})
}

func TestProfile(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		u := e.signUp("Ada")
		patch := func(body any) *response {
			return e.do(req{method: "PATCH", path: "/api/v1/auth/profile", token: u.token, body: body})
		}
		me := func() *response {
			return e.do(req{method: "GET", path: "/api/v1/auth/me", token: u.token}).expect(e.t, http.StatusOK)
		}
		authStep(t, e, "a new name is answered and shown by auth/me", func(t *testing.T) {
			r := patch(map[string]any{"name": "  Ada King  "}).expect(t, http.StatusOK)
			if r.str("name") != "Ada King" || r.str("user_id") != u.id || r.str("email") != u.email {
				t.Fatalf("profile patch answered %s", r.Body)
			}
			if got := me().str("name"); got != "Ada King" {
				t.Fatalf("me shows name %q", got)
			}
		})
		authStep(t, e, "an empty name is refused naming name and changes nothing", func(t *testing.T) {
			patch(map[string]any{"name": ""}).expect(t, http.StatusBadRequest, "name")
			patch(map[string]any{"name": "   "}).expect(t, http.StatusBadRequest, "name")
			patch(map[string]any{"name": strings.Repeat("a", 201)}).expect(t, http.StatusBadRequest, "name")
			patch(map[string]any{"name": nil}).expect(t, http.StatusBadRequest, "name")
			if got := me().str("name"); got != "Ada King" {
				t.Fatalf("me shows name %q", got)
			}
		})
		authStep(t, e, "an unknown field is refused naming it", func(t *testing.T) {
			patch(map[string]any{"email": "eve@example.com"}).expect(t, http.StatusBadRequest, "email")
			if got := me().str("email"); got != u.email {
				t.Fatalf("me shows e-mail %q", got)
			}
		})
		authStep(t, e, "an empty patch changes nothing", func(t *testing.T) {
			if r := patch(map[string]any{}).expect(t, http.StatusOK); r.str("name") != "Ada King" {
				t.Fatalf("empty patch answered %s", r.Body)
			}
		})
		authStep(t, e, "the account reads the language it registered in until the profile changes it", func(t *testing.T) {
			if got := me().str("language"); got != "en" {
				t.Fatalf("me shows language %q, want en", got)
			}
			e.do(req{method: "POST", path: "/api/v1/auth/register", header: map[string]string{"Accept-Language": "ru"},
				body: map[string]any{"email": "boris@example.com", "password": password, "name": "Boris"}}).expect(t, http.StatusCreated)
			boris := e.do(req{method: "POST", path: "/api/v1/auth/login",
				body: map[string]any{"email": "boris@example.com", "password": password, "client_type": "api"}}).expect(t, http.StatusOK)
			borisMe := e.do(req{method: "GET", path: "/api/v1/auth/me", token: boris.str("access_token")}).expect(t, http.StatusOK)
			if got := borisMe.str("language"); got != "ru" {
				t.Fatalf("an account registered in Russian reads %q", got)
			}
			if r := patch(map[string]any{"language": "ru"}).expect(t, http.StatusOK); r.str("language") != "ru" || me().str("language") != "ru" {
				t.Fatalf("language patch answered %s", r.Body)
			}
			patch(map[string]any{"language": "de"}).expect(t, http.StatusBadRequest, "language")
			if got := me().str("language"); got != "ru" {
				t.Fatalf("me shows language %q after a refused patch", got)
			}
		})
	})
}

func TestWorkspaceContext(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		u, v := e.signUp("Ada"), e.signUp("Bea")
		get := func() *response {
			return e.do(req{method: "GET", path: "/api/v1/auth/workspace-context", token: u.token}).expect(e.t, http.StatusOK)
		}
		put := func(body any) *response {
			return e.do(req{method: "PUT", path: "/api/v1/auth/workspace-context", token: u.token, body: body})
		}
		is := func(t *testing.T, r *response, company, project string) {
			t.Helper()
			if r.str("user_id") != u.id || r.str("active_company_id") != company || r.str("active_project_id") != project {
				t.Fatalf("workspace = %s, want company %q project %q", r.Body, company, project)
			}
		}
		authStep(t, e, "a new user has no company and no project selected", func(t *testing.T) {
			is(t, get(), "", "")
			if me := e.do(req{method: "GET", path: "/api/v1/auth/me", token: u.token}).expect(t, http.StatusOK); me.json["current_company_id"] != nil {
				t.Fatalf("me answered %s", me.Body)
			}
		})
		first := e.companyOf(u, "First")
		second := e.companyOf(u, "Second")
		p2 := e.projectIn(u, second, "Site")
		e.projectIn(u, second, "Shop")
		foreign := e.companyOf(v, "Foreign")
		foreignProject := e.projectIn(v, foreign, "Theirs")
		authStep(t, e, "the first company created becomes the active one", func(t *testing.T) {
			is(t, get(), first, "")
		})
		authStep(t, e, "a company the user is not a member of is refused and nothing changes", func(t *testing.T) {
			put(map[string]any{"active_company_id": foreign}).expect(t, http.StatusBadRequest, "active_company_id")
			is(t, get(), first, "")
		})
		authStep(t, e, "another user's project is refused and nothing changes", func(t *testing.T) {
			put(map[string]any{"active_project_id": foreignProject}).expect(t, http.StatusBadRequest, "active_project_id")
			is(t, get(), first, "")
		})
		authStep(t, e, "an unknown company or project id is refused naming it", func(t *testing.T) {
			put(map[string]any{"active_company_id": "01900000-0000-7000-8000-000000000000"}).expect(t, http.StatusBadRequest, "active_company_id")
			put(map[string]any{"active_project_id": "01900000-0000-7000-8000-000000000000"}).expect(t, http.StatusBadRequest, "active_project_id")
		})
		authStep(t, e, "selecting a project selects its company too", func(t *testing.T) {
			is(t, put(map[string]any{"active_project_id": p2}).expect(t, http.StatusOK), second, p2)
			is(t, get(), second, p2)
			if me := e.do(req{method: "GET", path: "/api/v1/auth/me", token: u.token}).expect(t, http.StatusOK); me.str("current_company_id") != second {
				t.Fatalf("me answered %s", me.Body)
			}
		})
		authStep(t, e, "a project with a company it does not belong to is refused", func(t *testing.T) {
			put(map[string]any{"active_company_id": first, "active_project_id": p2}).expect(t, http.StatusBadRequest, "active_company_id", "active_project_id")
			is(t, get(), second, p2)
		})
		authStep(t, e, "an absent field stays as it is", func(t *testing.T) {
			is(t, put(map[string]any{}).expect(t, http.StatusOK), second, p2)
		})
		authStep(t, e, "null clears the project alone", func(t *testing.T) {
			is(t, put(map[string]any{"active_project_id": nil}).expect(t, http.StatusOK), second, "")
		})
		authStep(t, e, "switching to another company clears a project of the old one", func(t *testing.T) {
			put(map[string]any{"active_project_id": p2}).expect(t, http.StatusOK)
			is(t, put(map[string]any{"active_company_id": first}).expect(t, http.StatusOK), first, "")
		})
		authStep(t, e, "null for the company clears both", func(t *testing.T) {
			put(map[string]any{"active_project_id": p2}).expect(t, http.StatusOK)
			is(t, put(map[string]any{"active_company_id": nil}).expect(t, http.StatusOK), "", "")
			is(t, get(), "", "")
		})
		authStep(t, e, "a company with one project reads with that project active, until it has two", func(t *testing.T) {
			third := e.companyOf(u, "Third")
			only := e.projectIn(u, third, "Only")
			is(t, put(map[string]any{"active_company_id": third}).expect(t, http.StatusOK), third, only)
			is(t, get(), third, only)
			e.projectIn(u, third, "Another")
			is(t, get(), third, "")
			is(t, put(map[string]any{"active_company_id": nil}).expect(t, http.StatusOK), "", "")
		})
		authStep(t, e, "an id that is not a UUID is refused naming the field", func(t *testing.T) {
			put(map[string]any{"active_company_id": "nope"}).expect(t, http.StatusBadRequest, "active_company_id")
			put(map[string]any{"active_project_id": 42}).expect(t, http.StatusBadRequest, "active_project_id")
			put(map[string]any{"active_space_id": first}).expect(t, http.StatusBadRequest, "active_space_id")
			is(t, get(), "", "")
		})
		authStep(t, e, "each user has a context of their own", func(t *testing.T) {
			r := e.do(req{method: "GET", path: "/api/v1/auth/workspace-context", token: v.token}).expect(t, http.StatusOK)
			if r.str("user_id") != v.id || r.str("active_company_id") != foreign {
				t.Fatalf("other user's workspace = %s", r.Body)
			}
		})
	})
}

func TestAuthHeaders(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		authStep(t, e, "Accept-Language ru answers a 401 in Russian", func(t *testing.T) {
			r := e.do(req{method: "GET", path: "/api/v1/auth/me", header: map[string]string{"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}}).
				expect(t, http.StatusUnauthorized, "access_token")
			if got := r.Header().Get("Content-Language"); got != "ru" {
				t.Fatalf("Content-Language = %q", got)
			}
			if r.str("title") != "Требуется вход" {
				t.Fatalf("title = %q", r.str("title"))
			}
		})
		authStep(t, e, "without Accept-Language the answer is English", func(t *testing.T) {
			r := e.do(req{method: "GET", path: "/api/v1/auth/me"}).expect(t, http.StatusUnauthorized, "access_token")
			if r.Header().Get("Content-Language") != "en" || r.str("title") != "Sign-in required" {
				t.Fatalf("Content-Language %q, title %q", r.Header().Get("Content-Language"), r.str("title"))
			}
		})
		authStep(t, e, "a sane incoming X-Request-Id is echoed and is the Problem's request_id", func(t *testing.T) {
			const id = "client-req-0001"
			r := e.do(req{method: "GET", path: "/api/v1/auth/me", header: map[string]string{"X-Request-Id": id}}).expect(t, http.StatusUnauthorized)
			if r.Header().Get("X-Request-Id") != id || r.str("request_id") != id {
				t.Fatalf("X-Request-Id %q, request_id %q", r.Header().Get("X-Request-Id"), r.str("request_id"))
			}
		})
		authStep(t, e, "an insane incoming X-Request-Id is replaced", func(t *testing.T) {
			const id = "bad id <script>"
			r := e.do(req{method: "GET", path: "/api/v1/auth/me", header: map[string]string{"X-Request-Id": id}}).expect(t, http.StatusUnauthorized)
			if got := r.Header().Get("X-Request-Id"); got == id || got == "" {
				t.Fatalf("X-Request-Id = %q", got)
			}
		})
	})
}
