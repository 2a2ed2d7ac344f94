package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"agencyhub/models"
)

// Password rules.
const (
	MinPasswordLength = 12
	MaxPasswordLength = 256
)

// PasswordCost is the work of one argon2id password hash. Each hash records the cost it
// was made with, so the cost can change without breaking stored hashes.
type PasswordCost struct {
	MemoryKiB uint32
	Passes    uint32
}

// argon2id's fixed parameters: one lane, a 32-byte key, a 16-byte salt.
const (
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// checkPassword enforces the length rules; field is the request field to name on failure.
func checkPassword(password, field string) error {
	n := utf8.RuneCountInString(password)
	if n < MinPasswordLength || n > MaxPasswordLength {
		return models.Invalid("password_length", field)
	}
	return nil
}

// hashPassword returns the PHC-formatted argon2id hash of password at the given cost.
func hashPassword(password string, cost PasswordCost) string {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	key := argon2.IDKey([]byte(password), salt, cost.Passes, cost.MemoryKiB, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding.EncodeToString
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, cost.MemoryKiB, cost.Passes, argonThreads, b64(salt), b64(key))
}

// hashPassword hashes at the service's cost.
func (s *Service) hashPassword(password string) string {
	return hashPassword(password, s.Settings.PasswordCost)
}

// verifyUnknown spends what verifying a password costs, so that a login takes as long
// whether or not the account exists.
func (s *Service) verifyUnknown(password string) {
	s.dummyOnce.Do(func() { s.dummyHash = s.hashPassword("timing-equaliser-not-a-password") })
	verifyPassword(s.dummyHash, password)
}

// verifyPassword reports whether password matches a hash made by hashPassword, using the
// parameters recorded in the hash so they can be raised later without breaking old hashes.
func verifyPassword(encoded, password string) bool {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var memory, iterations uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &iterations, &threads); err != nil {
		return false
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	want, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, iterations, memory, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}
