package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"agencyhub/api"
	"agencyhub/migrations/dbtest"
)

var desktopUserCode = regexp.MustCompile(`^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$`)

func desktopStart(t *testing.T, e *env, label string) *response {
	t.Helper()
	r := e.do(req{method: "POST", path: "/api/v1/desktop/auth/start", body: map[string]any{"device_label": label}}).expect(t, http.StatusOK)
	if !desktopUserCode.MatchString(r.str("user_code")) || r.str("device_code") == "" {
		t.Fatalf("start answered %s", r.Body)
	}
	return r
}

func desktopPoll(e *env, deviceCode string) *response {
	e.t.Helper()
	return e.do(req{method: "POST", path: "/api/v1/desktop/auth/poll", body: map[string]any{"device_code": deviceCode}})
}

// desktopPollExpect polls and checks the status and, while pending, the interval.
func desktopPollExpect(t *testing.T, e *env, deviceCode, status string, interval int) *response {
	t.Helper()
	r := desktopPoll(e, deviceCode).expect(t, http.StatusOK)
	if r.str("status") != status || (interval > 0 && r.json["interval"] != float64(interval)) {
		t.Fatalf("poll answered %s, want status %s interval %d", r.Body, status, interval)
	}
	return r
}

func TestDesktopSignIn(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db, func(s *api.Server) { s.Auth.Settings.AppURL = "http://app.test" })
		ada := e.signUp("Ada")
		browser := authLogin(e, ada.email, password).expect(t, http.StatusOK)
		cookies := authCookies(t, browser, "app_access", "app_csrf")
		decide := func(op, code string, csrf bool) *response {
			r := req{method: "POST", path: "/api/v1/desktop/auth/" + op, cookies: cookies, body: map[string]any{"user_code": code}}
			if csrf {
				r.header = map[string]string{"X-CSRF-Token": browser.str("csrf_token")}
			}
			return e.do(r)
		}
		var deviceCode, userCode, credential string
		authStep(t, e, "start answers a device code, a user code and where to approve it", func(t *testing.T) {
			r := desktopStart(t, e, "Ada's laptop")
			deviceCode, userCode = r.str("device_code"), r.str("user_code")
			if r.str("verification_uri") != "http://app.test/device" || r.str("verification_uri_complete") != "http://app.test/device?user_code="+userCode ||
				r.json["expires_in"] != float64(600) || r.json["interval"] != float64(5) {
				t.Fatalf("start answered %s", r.Body)
			}
		})
		authStep(t, e, "polling sooner than the interval answers slow_down with a longer interval", func(t *testing.T) {
			e.advance(time.Second)
			desktopPollExpect(t, e, deviceCode, "slow_down", 10)
		})
		authStep(t, e, "polling at the interval answers pending", func(t *testing.T) {
			e.advance(10 * time.Second)
			desktopPollExpect(t, e, deviceCode, "pending", 10)
		})
		authStep(t, e, "an unknown device code is refused naming device_code", func(t *testing.T) {
			desktopPoll(e, "not-a-device-code").expect(t, http.StatusBadRequest, "device_code")
		})
		authStep(t, e, "approving needs a signed-in session and, by cookie, the CSRF token", func(t *testing.T) {
			e.do(req{method: "POST", path: "/api/v1/desktop/auth/approve", body: map[string]any{"user_code": userCode}}).
				expect(t, http.StatusUnauthorized, "access_token")
			key := e.do(req{method: "POST", path: "/api/v1/auth/api-keys", token: ada.token, body: map[string]any{"name": "ci"}}).expect(t, http.StatusOK)
			e.do(req{method: "POST", path: "/api/v1/desktop/auth/approve", apiKey: key.str("key"), body: map[string]any{"user_code": userCode}}).
				expect(t, http.StatusBadRequest, "access_token")
			decide("approve", userCode, false).expect(t, http.StatusForbidden)
			e.advance(10 * time.Second)
			desktopPollExpect(t, e, deviceCode, "pending", 10)
		})
		authStep(t, e, "a code nobody issued is refused naming user_code", func(t *testing.T) {
			decide("approve", "BBBB-BBBB", true).expect(t, http.StatusBadRequest, "user_code")
		})
		authStep(t, e, "the user approves the code as typed, in any case and without the hyphen", func(t *testing.T) {
			typed := strings.ToLower(strings.ReplaceAll(userCode, "-", ""))
			r := decide("approve", typed, true).expect(t, http.StatusOK)
			if r.str("status") != "approved" || r.str("device_label") != "Ada's laptop" {
				t.Fatalf("approve answered %s", r.Body)
			}
		})
		authStep(t, e, "a decided code cannot be decided again", func(t *testing.T) {
			decide("deny", userCode, true).expect(t, http.StatusBadRequest, "user_code")
		})
		authStep(t, e, "the next poll signs the desktop in as the approving user, in a desktop session", func(t *testing.T) {
			e.advance(10 * time.Second)
			r := desktopPollExpect(t, e, deviceCode, "approved", 0)
			credential = r.str("device_credential")
			if r.str("token_type") != "Bearer" || r.json["expires_in"] != float64(900) || !strings.HasPrefix(credential, "ahd_") {
				t.Fatalf("poll answered %s", r.Body)
			}
			me := e.do(req{method: "GET", path: "/api/v1/auth/me", token: r.str("access_token")}).expect(t, http.StatusOK)
			if me.str("user_id") != ada.id {
				t.Fatalf("desktop signed in as %s, want %s", me.str("user_id"), ada.id)
			}
			var desktop []map[string]any
			for _, s := range e.do(req{method: "GET", path: "/api/v1/auth/sessions", token: ada.token}).expect(t, http.StatusOK).items() {
				if s["client_type"] == "desktop" {
					desktop = append(desktop, s)
				}
			}
			if len(desktop) != 1 || desktop[0]["device_label"] != "Ada's laptop" {
				t.Fatalf("desktop sessions %v", desktop)
			}
		})
		authStep(t, e, "the tokens are handed out once", func(t *testing.T) {
			e.advance(10 * time.Second)
			desktopPoll(e, deviceCode).expect(t, http.StatusBadRequest, "device_code")
		})
		authStep(t, e, "a denied sign-in answers denied and gives no tokens", func(t *testing.T) {
			r := desktopStart(t, e, "Unknown laptop")
			denied := decide("deny", r.str("user_code"), true).expect(t, http.StatusOK)
			if denied.str("status") != "denied" || denied.str("device_label") != "Unknown laptop" {
				t.Fatalf("deny answered %s", denied.Body)
			}
			e.advance(5 * time.Second)
			poll := desktopPollExpect(t, e, r.str("device_code"), "denied", 0)
			if _, ok := poll.json["access_token"]; ok {
				t.Fatalf("a denied poll answered %s", poll.Body)
			}
		})
		authStep(t, e, "an unanswered sign-in expires after ten minutes and can no longer be approved", func(t *testing.T) {
			r := desktopStart(t, e, "Slow laptop")
			e.advance(10 * time.Minute)
			desktopPollExpect(t, e, r.str("device_code"), "expired", 0)
			decide("approve", r.str("user_code"), true).expect(t, http.StatusBadRequest, "user_code")
		})
		authStep(t, e, "without a device label the User-Agent names the session", func(t *testing.T) {
			r := e.do(req{method: "POST", path: "/api/v1/desktop/auth/start", header: map[string]string{"User-Agent": "AgencyDesk/2.1"}}).expect(t, http.StatusOK)
			approved := decide("approve", r.str("user_code"), true).expect(t, http.StatusOK)
			if approved.str("device_label") != "AgencyDesk/2.1" {
				t.Fatalf("approve answered %s", approved.Body)
			}
		})
		authStep(t, e, "the desktop renews its access token with the device credential until the session is revoked", func(t *testing.T) {
			e.advance(time.Hour)
			r := e.do(req{method: "POST", path: "/api/v1/auth/device/refresh", body: map[string]any{"device_credential": credential}}).expect(t, http.StatusOK)
			e.do(req{method: "POST", path: "/api/v1/auth/logout", token: r.str("access_token")}).expect(t, http.StatusNoContent)
			e.do(req{method: "POST", path: "/api/v1/auth/device/refresh", body: map[string]any{"device_credential": credential}}).
				expect(t, http.StatusUnauthorized, "device_credential")
		})
	})
}
