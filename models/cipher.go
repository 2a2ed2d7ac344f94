package models

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
)

// Keys are the service's secrets, each derived from the one configured master key so that
// a token signature can never be replayed as a ciphertext key or the other way round.
type Keys struct {
	// TokenSigning signs access tokens (HS256) and CSRF tokens.
	TokenSigning []byte
	// Sealer encrypts secrets at rest.
	Sealer *Sealer
	// FileLinks signs the expiring download links of stored files.
	FileLinks []byte
	// ApprovalLinks signs the decide links of approvals (automation.ApprovalLinks).
	ApprovalLinks []byte
}

// DeriveKeys derives the purpose keys from a master key of at least 32 bytes.
func DeriveKeys(master []byte) (*Keys, error) {
	if len(master) < 32 {
		return nil, errors.New("secret key must be at least 32 bytes")
	}
	derive := func(purpose string) []byte {
		k, err := hkdf.Key(sha256.New, master, nil, purpose, 32)
		if err != nil {
			panic(err) // only fails for lengths HKDF cannot produce
		}
		return k
	}
	sealer, err := NewSealer(derive("agencyhub secrets at rest v1"))
	if err != nil {
		return nil, err
	}
	return &Keys{TokenSigning: derive("agencyhub token signing v1"), Sealer: sealer, FileLinks: derive("agencyhub file links v1"),
		ApprovalLinks: derive("agencyhub approval links v1")}, nil
}

// Sealer encrypts secrets stored in the database with AES-256-GCM.
type Sealer struct{ aead cipher.AEAD }

// NewSealer builds a sealer from a 32-byte key.
func NewSealer(key []byte) (*Sealer, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

// Seal encrypts plaintext; the result is base64 of nonce || ciphertext.
func (s *Sealer) Seal(plaintext string) string {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return base64.StdEncoding.EncodeToString(s.aead.Seal(nonce, nonce, []byte(plaintext), nil))
}

// Open decrypts what Seal produced.
func (s *Sealer) Open(sealed string) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(sealed)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return "", errors.New("sealed value is malformed")
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], nil)
	if err != nil {
		return "", fmt.Errorf("open sealed value: %w", err)
	}
	return string(plain), nil
}

// Mask shows the first four characters of a secret and hides the rest, for responses that
// must identify a secret without revealing it.
func Mask(secret string) string {
	const shown = 4
	if len(secret) <= shown {
		return "****"
	}
	return secret[:shown] + "****"
}
