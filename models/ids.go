package models

import (
	"crypto/rand"
	"encoding/base64"

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

// ParseID parses a path or body identifier; anything that is not a UUID is reported as
// invalid for the named field.
func ParseID(field, s string) (uuid.UUID, error) {
	id, err := uuid.Parse(s)
	if err != nil {
		return uuid.Nil, Invalid("invalid_id", field)
	}
	return id, nil
}
