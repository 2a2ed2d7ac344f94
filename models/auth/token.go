package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"agencyhub/models"
)

// Access tokens are HS256 JWTs for this audience; no other algorithm is accepted.
const (
	tokenIssuer   = "agencyhub"
	tokenAudience = "agencyhub-api"
)

type accessClaims struct {
	SessionID string `json:"sid"`
	jwt.RegisteredClaims
}

func (s *Service) signAccessToken(userID, sessionID uuid.UUID, now time.Time) (string, time.Time, error) {
	expires := now.Add(s.Settings.AccessTTL)
	claims := accessClaims{
		SessionID: sessionID.String(),
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    tokenIssuer,
			Subject:   userID.String(),
			Audience:  jwt.ClaimStrings{tokenAudience},
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(expires),
			ID:        models.RandomToken(12),
		},
	}
	signed, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.Keys.TokenSigning)
	if err != nil {
		return "", time.Time{}, models.Internal("sign access token: %w", err)
	}
	return signed, expires, nil
}

// parseAccessToken checks signature, algorithm, audience, issuer and lifetime and returns
// the user and session the token names.
func (s *Service) parseAccessToken(raw string) (userID, sessionID uuid.UUID, err error) {
	var claims accessClaims
	_, err = jwt.ParseWithClaims(raw, &claims, func(*jwt.Token) (any, error) { return s.Keys.TokenSigning, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithAudience(tokenAudience),
		jwt.WithIssuer(tokenIssuer),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithTimeFunc(s.Now),
	)
	if err != nil {
		return uuid.Nil, uuid.Nil, errInvalidAccessToken
	}
	userID, err1 := uuid.Parse(claims.Subject)
	sessionID, err2 := uuid.Parse(claims.SessionID)
	if err1 != nil || err2 != nil {
		return uuid.Nil, uuid.Nil, errInvalidAccessToken
	}
	return userID, sessionID, nil
}

var errInvalidAccessToken = models.Unauthenticated("invalid_access_token", "access_token")

// CSRFToken issues a double-submit token bound to a session: a random nonce and its HMAC
// with the session id, so a token planted from another session never verifies.
func (s *Service) CSRFToken(sessionID uuid.UUID) string {
	nonce := models.RandomToken(16)
	return nonce + "." + s.csrfMAC(sessionID, nonce)
}

// VerifyCSRF reports whether token was issued by CSRFToken for the session.
func (s *Service) VerifyCSRF(sessionID uuid.UUID, token string) bool {
	nonce, mac, ok := strings.Cut(token, ".")
	return ok && hmac.Equal([]byte(mac), []byte(s.csrfMAC(sessionID, nonce)))
}

func (s *Service) csrfMAC(sessionID uuid.UUID, nonce string) string {
	return s.mac("csrf|" + sessionID.String() + "|" + nonce)
}

// mac signs a message with the token key. Every message starts with its purpose, so a
// signature made for one purpose never verifies for another.
func (s *Service) mac(message string) string {
	h := hmac.New(sha256.New, s.Keys.TokenSigning)
	h.Write([]byte(message))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}
