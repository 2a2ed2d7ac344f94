package auth

import (
	"context"
	"crypto/subtle"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"agencyhub/models"
)

// API keys read "ahk_<prefix>_<secret>". The prefix identifies the key (it is shown in
// lists); only a hash of the whole key is stored.
const apiKeyScheme = "ahk_"

// APIKey is a long-lived credential that acts as its user.
type APIKey struct {
	ID         uuid.UUID `gorm:"primaryKey"`
	UserID     uuid.UUID
	Name       string
	Prefix     string
	SecretHash string
	CreatedAt  time.Time
	LastUsedAt *time.Time
	ExpiresAt  *time.Time
	RevokedAt  *time.Time
}

// MaskedKey identifies a key without revealing it.
func (k APIKey) MaskedKey() string { return apiKeyScheme + k.Prefix + "_****" }

// CreateAPIKey creates a key; the returned secret is the only time the full key is shown.
// Errors: invalid (name, expires_at).
func (s *Service) CreateAPIKey(ctx context.Context, userID uuid.UUID, name string, expiresAt *time.Time) (*APIKey, string, error) {
	name = strings.TrimSpace(name)
	if n := utf8.RuneCountInString(name); n < 1 || n > 100 {
		return nil, "", models.Invalid("invalid_name", "name")
	}
	now := s.now()
	if expiresAt != nil && !expiresAt.After(now) {
		return nil, "", models.Invalid("expiry_in_past", "expires_at")
	}
	prefix := strings.NewReplacer("-", "x", "_", "y").Replace(models.RandomToken(9))
	secret := apiKeyScheme + prefix + "_" + models.RandomToken(32)
	k := &APIKey{
		ID: models.NewID(), UserID: userID, Name: name, Prefix: prefix,
		SecretHash: models.HashToken(secret), CreatedAt: now, ExpiresAt: expiresAt,
	}
	if err := s.DB.WithContext(ctx).Create(k).Error; err != nil {
		return nil, "", models.Internal("create api key: %w", err)
	}
	return k, secret, nil
}

// APIKeys lists a user's keys, the revoked ones too: a key that stops working leaves a
// record of when.
func (s *Service) APIKeys(ctx context.Context, userID uuid.UUID, page models.PageRequest) ([]APIKey, string, error) {
	var rows []APIKey
	q := s.DB.WithContext(ctx).Where("user_id = ?", userID)
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list api keys: %w", err)
	}
	items, next := models.Page(page, rows, func(k APIKey) uuid.UUID { return k.ID })
	return items, next, nil
}

// RevokeAPIKey revokes one of the user's keys; it stops working at once. Errors: not_found.
func (s *Service) RevokeAPIKey(ctx context.Context, userID, keyID uuid.UUID) error {
	res := s.DB.WithContext(ctx).Model(&APIKey{}).Where("id = ? AND user_id = ? AND revoked_at IS NULL", keyID, userID).
		Update("revoked_at", s.now())
	if res.Error != nil {
		return models.Internal("revoke api key: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return models.NotFound("api_key_not_found")
	}
	return nil
}

var errInvalidAPIKey = models.Unauthenticated("invalid_api_key", "api_key")

// AuthenticateAPIKey resolves a presented key to its actor and records its use.
// Errors: unauthenticated (api_key).
func (s *Service) AuthenticateAPIKey(ctx context.Context, key string) (*Actor, error) {
	rest, ok := strings.CutPrefix(key, apiKeyScheme)
	prefix, _, ok2 := strings.Cut(rest, "_")
	if !ok || !ok2 {
		return nil, errInvalidAPIKey
	}
	now := s.now()
	var k APIKey
	err := s.DB.WithContext(ctx).
		Joins("JOIN users ON users.id = api_keys.user_id AND users.status = ?", StatusActive).
		Take(&k, "api_keys.prefix = ? AND api_keys.revoked_at IS NULL", prefix).Error
	if models.IsNotFound(err) {
		return nil, errInvalidAPIKey
	}
	if err != nil {
		return nil, models.Internal("read api key: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(k.SecretHash), []byte(models.HashToken(key))) != 1 ||
		(k.ExpiresAt != nil && !k.ExpiresAt.After(now)) {
		return nil, errInvalidAPIKey
	}
	if k.LastUsedAt == nil || now.Sub(*k.LastUsedAt) >= lastSeenResolution {
		if err := s.DB.WithContext(ctx).Model(&k).Update("last_used_at", now).Error; err != nil {
			return nil, models.Internal("record api key use: %w", err)
		}
	}
	return &Actor{UserID: k.UserID, APIKeyID: k.ID}, nil
}
