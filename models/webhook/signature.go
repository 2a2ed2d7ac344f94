package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"agencyhub/models"
)

// Headers a sender authenticates with.
const (
	HeaderID          = "webhook-id"
	HeaderTimestamp   = "webhook-timestamp"
	HeaderSignature   = "webhook-signature"
	HeaderSecret      = "X-Webhook-Secret"
	HeaderAuthorize   = "Authorization"
	HeaderIdempotency = "Idempotency-Key"
)

// Tolerance is how far a webhook-timestamp may be from our clock, either way.
const Tolerance = 5 * time.Minute

// maxSignatures bounds the work one request can ask for: each listed signature is checked
// against each valid secret.
const maxSignatures = 8

// Sign computes a Standard Webhooks signature header value (v1,<base64 HMAC-SHA256 of
// "id.timestamp.body">) with a secret as rotate-secret hands it out (whsec_<base64 key>).
func Sign(secret, id string, timestamp int64, body []byte) string {
	return "v1," + base64.StdEncoding.EncodeToString(mac(hmacKey(secret), id, strconv.FormatInt(timestamp, 10), body))
}

// hmacKey is the HMAC key of a secret: the bytes its base64 part encodes; nil when it is
// not a Standard Webhooks secret.
func hmacKey(secret string) []byte {
	rest, ok := strings.CutPrefix(secret, secretPrefix)
	if !ok {
		return nil
	}
	key, err := base64.StdEncoding.DecodeString(rest)
	if err != nil || len(key) == 0 {
		return nil
	}
	return key
}

func mac(key []byte, id, timestamp string, body []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id))
	m.Write([]byte{'.'})
	m.Write([]byte(timestamp))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// credentialHeader is the header a request of an auth type proves itself with, named by
// 401 answers.
func credentialHeader(authType string) string {
	switch authType {
	case AuthSharedSecret:
		return HeaderSecret
	case AuthBasic:
		return HeaderAuthorize
	default:
		return HeaderSignature
	}
}

// Verify checks that a request satisfies an auth type with one of secrets, at now.
// Comparisons take constant time. An auth type that needs a secret fails when secrets is
// empty (fail closed). Errors: unauthenticated, naming the header to fix.
func Verify(authType, basicUsername string, secrets []string, h http.Header, body []byte, now time.Time) error {
	if authType == AuthNone {
		return nil
	}
	if len(secrets) == 0 {
		return models.Unauthenticated("webhook_secret_unavailable", credentialHeader(authType))
	}
	switch authType {
	case AuthHMACStandard:
		return verifyStandard(secrets, h, body, now)
	case AuthSharedSecret:
		if given := h.Get(HeaderSecret); given == "" || !matchesAny(given, secrets) {
			return models.Unauthenticated("webhook_secret_invalid", HeaderSecret)
		}
		return nil
	case AuthBasic:
		user, password, ok := (&http.Request{Header: h}).BasicAuth()
		userOK := basicUsername == "" || equal(user, basicUsername)
		if !ok || !matchesAny(password, secrets) || !userOK {
			return models.Unauthenticated("webhook_basic_invalid", HeaderAuthorize)
		}
		return nil
	}
	return models.Unauthenticated("webhook_secret_unavailable", credentialHeader(authType))
}

func verifyStandard(secrets []string, h http.Header, body []byte, now time.Time) error {
	id, ts, sigs := h.Get(HeaderID), h.Get(HeaderTimestamp), h.Get(HeaderSignature)
	var missing []string
	for _, f := range []struct{ name, value string }{{HeaderID, id}, {HeaderTimestamp, ts}, {HeaderSignature, sigs}} {
		if f.value == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return models.Unauthenticated("webhook_headers_missing", missing...)
	}
	sent, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return models.Unauthenticated("webhook_timestamp_invalid", HeaderTimestamp)
	}
	if d := now.Sub(time.Unix(sent, 0)); d > Tolerance || d < -Tolerance {
		return models.Unauthenticated("webhook_timestamp_invalid", HeaderTimestamp)
	}
	var keys [][]byte
	for _, s := range secrets {
		if k := hmacKey(s); k != nil {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return models.Unauthenticated("webhook_secret_unavailable", HeaderSignature)
	}
	expected := make([][]byte, len(keys))
	for i, k := range keys {
		expected[i] = mac(k, id, ts, body)
	}
	for i, sig := range strings.Fields(sigs) {
		if i == maxSignatures {
			break
		}
		version, value, ok := strings.Cut(sig, ",")
		if !ok || version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(value)
		if err != nil {
			continue
		}
		for _, want := range expected {
			if hmac.Equal(got, want) {
				return nil
			}
		}
	}
	return models.Unauthenticated("webhook_signature_invalid", HeaderSignature)
}

// matchesAny compares given with every secret, each in constant time.
func matchesAny(given string, secrets []string) bool {
	ok := false
	for _, s := range secrets {
		if equal(given, s) {
			ok = true
		}
	}
	return ok
}

// equal compares two strings in time independent of their content and lengths: it
// compares their digests.
func equal(a, b string) bool {
	x, y := sha256.Sum256([]byte(a)), sha256.Sum256([]byte(b))
	return subtle.ConstantTimeCompare(x[:], y[:]) == 1
}

// Authenticate verifies a request against the endpoint's secrets. A refusal is counted on
// the endpoint (the request itself is not stored). Errors: unauthenticated.
func (s *Service) Authenticate(ctx context.Context, e *Endpoint, h http.Header, body []byte) error {
	err := Verify(e.AuthType, e.BasicUsername, s.secrets(e), h, body, s.now())
	if err == nil {
		return nil
	}
	reason := models.AsError(err).Key
	now := s.now()
	if uerr := s.DB.WithContext(context.WithoutCancel(ctx)).Model(&Endpoint{}).Where("id = ?", e.ID).Updates(map[string]any{
		"rejected_count": gorm.Expr("rejected_count + 1"), "last_rejected_at": now, "last_rejection": reason,
	}).Error; uerr != nil {
		return models.Internal("count a rejected webhook: %w", uerr)
	}
	return err
}
