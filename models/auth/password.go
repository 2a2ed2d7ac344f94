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

// argon2id parameters: OWASP's minimum recommendation (19 MiB, 2 passes, 1 lane), which
// keeps a login under ~50 ms on the 2-core machines this runs on.
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
)

// checkPassword enforces the length rules; field is the request field to name on failure.
func checkPassword(password, field string) error {
	n := utf8.RuneCountInString(password)
	if n < MinPasswordLength || n > MaxPasswordLength {
		return models.Invalid("password_length", field)
	}
	return nil
}

// hashPassword returns the PHC-formatted argon2id hash of password.
func hashPassword(password string) string {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding.EncodeToString
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemoryKiB, argonTime, argonThreads, b64(salt), b64(key))
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

// dummyHash is verified against when an e-mail is unknown, so a login takes as long whether
// or not the account exists.
var dummyHash = hashPassword("timing-equaliser-not-a-password")
