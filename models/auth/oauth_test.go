package auth

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"agencyhub/models"
)

func testService(t *testing.T) *Service {
	t.Helper()
	keys, err := models.DeriveKeys([]byte("test-master-key-test-master-key-0123456789"))
	if err != nil {
		t.Fatal(err)
	}
	return &Service{Keys: keys, Settings: Settings{NativeRedirectPrefixes: []string{"com.example.app:/oauth", "https://app.example.com/native/"}}}
}

func TestState(t *testing.T) {
	s := testService(t)
	id := models.NewID()
	expires := time.Date(2026, 11, 21, 9, 10, 0, 0, time.UTC)
	state := s.signState("idp_a", id, expires)
	t.Run("a state reads back as the sign-in and expiry it was made for", func(t *testing.T) {
		gotID, gotExpiry, ok := s.parseState("idp_a", state)
		if !ok || gotID != id || !gotExpiry.Equal(expires) {
			t.Fatalf("parseState = %v %v %v", gotID, gotExpiry, ok)
		}
	})
	t.Run("a state is refused on another provider's callback", func(t *testing.T) {
		if _, _, ok := s.parseState("idp_b", state); ok {
			t.Fatal("idp_a's state accepted for idp_b")
		}
	})
	t.Run("a changed id, expiry or signature is refused", func(t *testing.T) {
		parts := strings.Split(state, ".")
		for _, forged := range []string{
			models.NewID().String() + "." + parts[1] + "." + parts[2],
			parts[0] + "." + "9999999999" + "." + parts[2],
			parts[0] + "." + parts[1] + "." + strings.Repeat("A", len(parts[2])),
			parts[0] + "." + parts[1],
			"",
		} {
			if _, _, ok := s.parseState("idp_a", forged); ok {
				t.Errorf("forged state %q accepted", forged)
			}
		}
	})
	t.Run("a state signed by another key is refused", func(t *testing.T) {
		other := testService(t)
		other.Keys, _ = models.DeriveKeys([]byte("another-master-key-another-master-key-0123"))
		if _, _, ok := s.parseState("idp_a", other.signState("idp_a", id, expires)); ok {
			t.Fatal("a state of another key accepted")
		}
	})
	t.Run("the PKCE verifier and the browser binding are distinct, per sign-in secrets", func(t *testing.T) {
		pkce, browser := s.flowSecret("pkce", id), s.flowSecret("browser", id)
		if pkce == browser || pkce == s.flowSecret("pkce", models.NewID()) || len(pkce) != 43 {
			t.Fatalf("secrets %q %q", pkce, browser)
		}
	})
}

func TestNativeRedirectAllowed(t *testing.T) {
	s := testService(t)
	for uri, want := range map[string]bool{
		"com.example.app:/oauth":                     true,
		"com.example.app:/oauth/done":                true,
		"com.example.app:/oauth?x=1":                 true,
		"https://app.example.com/native/":            true,
		"https://app.example.com/native/cb":          true,
		"com.example.app:/oauthx":                    false,
		"com.example.app:/oauth/done#frag":           false,
		"https://app.example.com.evil.test/native/":  false,
		"https://app.example.com/nativex":            false,
		"com.example.other:/oauth":                   false,
		"/oauth":                                     false,
		"":                                           false,
		"https://app.example.com/native/../../admin": false,
		"https://app.example.com/native/%2e%2e/x":    false,
	} {
		if got := s.nativeRedirectAllowed(uri); got != want {
			t.Errorf("nativeRedirectAllowed(%q) = %v, want %v", uri, got, want)
		}
	}
}

func TestUserCodes(t *testing.T) {
	t.Run("user codes are eight letters of the alphabet", func(t *testing.T) {
		seen := map[string]bool{}
		for range 200 {
			code := newUserCode()
			if len(code) != userCodeLength || strings.Trim(code, userCodeAlphabet) != "" {
				t.Fatalf("user code %q", code)
			}
			seen[code] = true
		}
		if len(seen) < 199 {
			t.Fatalf("only %d distinct codes in 200", len(seen))
		}
	})
	t.Run("a typed code is read in any case, with or without the hyphen and spaces", func(t *testing.T) {
		for _, typed := range []string{"WDJB-MJHT", "wdjb-mjht", "wdjbmjht", " WDJB MJHT "} {
			if got := normalizeUserCode(typed); got != "WDJBMJHT" {
				t.Errorf("normalizeUserCode(%q) = %q", typed, got)
			}
		}
	})
}

func TestEmailVerifiedClaim(t *testing.T) {
	for raw, want := range map[string]bool{`true`: true, `"true"`: true, `false`: false, `"false"`: false, `null`: false, `1`: false} {
		var id providerIdentity
		if err := json.Unmarshal([]byte(`{"sub":"x","email_verified":`+raw+`}`), &id); err != nil {
			t.Fatal(err)
		}
		if bool(id.EmailVerified) != want {
			t.Errorf("email_verified %s read as %v", raw, id.EmailVerified)
		}
	}
}
