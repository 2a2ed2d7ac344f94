package models

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"

	"github.com/google/uuid"
)

// NewID returns a time-ordered UUID (v7), so primary keys sort by creation.
func NewID() uuid.UUID { return uuid.Must(uuid.NewV7()) }

// RandomToken returns n random bytes, URL-safe base64 encoded without padding: the form of
// every secret the service hands out (session refresh tokens, API keys, hook secrets).
func RandomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// HashToken is how every random token is stored: tokens carry 256 bits of entropy, so a
// fast hash suffices and lookups stay indexable.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// ParseID parses a path or body identifier; anything that is not a UUID is reported as
// invalid for the named field.
func ParseID(field, s string) (uuid.UUID, error) {
	id, err := uuid.Parse(s)
	if err != nil {
		return uuid.Nil, Invalid("invalid_id", field)
	}
	return id, nil
}
