package webhook_test

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"agencyhub/models"
	"agencyhub/models/webhook"
)

// The example of the Standard Webhooks specification (and of the libraries implementing
// it): this secret signs this message as this signature.
const (
	specSecret    = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	specID        = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	specTimestamp = 1614265330
	specBody      = `{"test": 2432232314}`
	specSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func TestSignMatchesTheStandardWebhooksExample(t *testing.T) {
	if got := webhook.Sign(specSecret, specID, specTimestamp, []byte(specBody)); got != specSignature {
		t.Fatalf("Sign = %s, want %s", got, specSignature)
	}
}

func headers(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func TestVerify(t *testing.T) {
	at := time.Unix(specTimestamp, 0)
	ts := strconv.Itoa(specTimestamp)
	other := "whsec_" + base64.StdEncoding.EncodeToString([]byte("another key of thirty-two bytes!"))
	otherSig := webhook.Sign(other, specID, specTimestamp, []byte(specBody))
	basic := func(user, password string) string {
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
	}
	for _, tc := range []struct {
		name     string
		authType string
		user     string
		secrets  []string
		h        http.Header
		body     string
		now      time.Time
		validate string // "" when accepted
	}{
		{"hmac_standard accepts the specification's example", webhook.AuthHMACStandard, "", []string{specSecret},
			headers("webhook-id", specID, "webhook-timestamp", ts, "webhook-signature", specSignature), specBody, at, ""},
		{"hmac_standard accepts a matching signature among several", webhook.AuthHMACStandard, "", []string{specSecret},
			headers("webhook-id", specID, "webhook-timestamp", ts, "webhook-signature", "v2,zzz "+otherSig+" "+specSignature), specBody, at, ""},
		{"hmac_standard accepts the previous secret during a rotation", webhook.AuthHMACStandard, "", []string{other, specSecret},
			headers("webhook-id", specID, "webhook-timestamp", ts, "webhook-signature", specSignature), specBody, at, ""},
		{"hmac_standard accepts a timestamp five minutes behind", webhook.AuthHMACStandard, "", []string{specSecret},
			headers("webhook-id", specID, "webhook-timestamp", ts, "webhook-signature", specSignature), specBody, at.Add(webhook.Tolerance), ""},
		{"hmac_standard refuses a timestamp more than five minutes behind", webhook.AuthHMACStandard, "", []string{specSecret},
			headers("webhook-id", specID, "webhook-timestamp", ts, "webhook-signature", specSignature), specBody, at.Add(webhook.Tolerance + time.Second), "webhook-timestamp"},
		{"hmac_standard refuses a timestamp more than five minutes ahead", webhook.AuthHMACStandard, "", []string{specSecret},
			headers("webhook-id", specID, "webhook-timestamp", ts, "webhook-signature", specSignature), specBody, at.Add(-webhook.Tolerance - time.Second), "webhook-timestamp"},
		{"hmac_standard refuses another body", webhook.AuthHMACStandard, "", []string{specSecret},
			headers("webhook-id", specID, "webhook-timestamp", ts, "webhook-signature", specSignature), `{"test": 1}`, at, "webhook-signature"},
		{"hmac_standard refuses another message id", webhook.AuthHMACStandard, "", []string{specSecret},
			headers("webhook-id", "msg_other", "webhook-timestamp", ts, "webhook-signature", specSignature), specBody, at, "webhook-signature"},
		{"hmac_standard refuses another secret's signature", webhook.AuthHMACStandard, "", []string{specSecret},
			headers("webhook-id", specID, "webhook-timestamp", ts, "webhook-signature", otherSig), specBody, at, "webhook-signature"},
		{"hmac_standard refuses a signature without its version", webhook.AuthHMACStandard, "", []string{specSecret},
			headers("webhook-id", specID, "webhook-timestamp", ts, "webhook-signature", strings.TrimPrefix(specSignature, "v1,")), specBody, at, "webhook-signature"},
		{"hmac_standard names the missing headers", webhook.AuthHMACStandard, "", []string{specSecret},
			headers("webhook-timestamp", ts), specBody, at, "webhook-id,webhook-signature"},
		{"hmac_standard fails closed without a secret", webhook.AuthHMACStandard, "", nil,
			headers("webhook-id", specID, "webhook-timestamp", ts, "webhook-signature", specSignature), specBody, at, "webhook-signature"},
		{"hmac_standard fails closed with a secret that is not whsec_", webhook.AuthHMACStandard, "", []string{"plain"},
			headers("webhook-id", specID, "webhook-timestamp", ts, "webhook-signature", specSignature), specBody, at, "webhook-signature"},
		{"shared_secret accepts the secret", webhook.AuthSharedSecret, "", []string{specSecret},
			headers("X-Webhook-Secret", specSecret), specBody, at, ""},
		{"shared_secret refuses a prefix of the secret", webhook.AuthSharedSecret, "", []string{specSecret},
			headers("X-Webhook-Secret", specSecret[:10]), specBody, at, "X-Webhook-Secret"},
		{"shared_secret refuses a missing header", webhook.AuthSharedSecret, "", []string{specSecret},
			headers(), specBody, at, "X-Webhook-Secret"},
		{"shared_secret fails closed without a secret", webhook.AuthSharedSecret, "", nil,
			headers("X-Webhook-Secret", ""), specBody, at, "X-Webhook-Secret"},
		{"basic accepts any user name when none is set", webhook.AuthBasic, "", []string{specSecret},
			headers("Authorization", basic("anyone", specSecret)), specBody, at, ""},
		{"basic accepts the set user name", webhook.AuthBasic, "shop", []string{specSecret},
			headers("Authorization", basic("shop", specSecret)), specBody, at, ""},
		{"basic refuses another user name", webhook.AuthBasic, "shop", []string{specSecret},
			headers("Authorization", basic("shops", specSecret)), specBody, at, "Authorization"},
		{"basic refuses a wrong password", webhook.AuthBasic, "", []string{specSecret},
			headers("Authorization", basic("shop", "guess")), specBody, at, "Authorization"},
		{"basic refuses a bearer token", webhook.AuthBasic, "", []string{specSecret},
			headers("Authorization", "Bearer "+specSecret), specBody, at, "Authorization"},
		{"none accepts anything", webhook.AuthNone, "", nil, headers(), specBody, at, ""},
		{"an unknown auth type fails closed", "hmac", "", []string{specSecret}, headers(), specBody, at, "webhook-signature"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := webhook.Verify(tc.authType, tc.user, tc.secrets, tc.h, []byte(tc.body), tc.now)
			if tc.validate == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			e := models.AsError(err)
			if err == nil || e.Kind != models.KindUnauthenticated || strings.Join(e.Fields, ",") != tc.validate {
				t.Fatalf("error = %v, want unauthenticated naming %s", err, tc.validate)
			}
		})
	}
}

func TestMaskSecretKeepsThePrefixAndFourCharacters(t *testing.T) {
	if got := webhook.MaskSecret(specSecret); got != "whsec_MfKQ****" {
		t.Fatalf("MaskSecret = %s", got)
	}
}
