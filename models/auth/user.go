package auth

import (
	"context"
	"net/mail"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/models/outbox"
)

// User statuses.
const (
	StatusActive            = "active"
	StatusPendingActivation = "pending_activation"
)

// Token purposes of user_tokens rows.
const (
	purposeActivation    = "activation"
	purposePasswordReset = "password_reset"
)

// User is an account.
type User struct {
	ID              uuid.UUID `gorm:"primaryKey"`
	Email           string
	Name            string
	PasswordHash    string
	Status          string
	EmailVerifiedAt *time.Time
	CreatedAt       time.Time
	UpdatedAt       time.Time
	// Lang is the language the product writes to the user in (desktop notices): one of
	// Languages.
	Lang string
}

type userToken struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	UserID    uuid.UUID
	Purpose   string
	TokenHash string
	ExpiresAt time.Time
	UsedAt    *time.Time
	CreatedAt time.Time
}

func (userToken) TableName() string { return "user_tokens" }

// RegisterInput is a new account.
type RegisterInput struct {
	Email, Password, Name string
	// Lang is the language of the activation mail, and the account's (see Language).
	Lang string
}

// normalizeEmail checks an address and returns its canonical (trimmed, lower-case) form.
func normalizeEmail(raw, field string) (string, error) {
	email := strings.ToLower(strings.TrimSpace(raw))
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || len(email) > 254 {
		return "", models.Invalid("invalid_email", field)
	}
	return email, nil
}

func checkName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if n := utf8.RuneCountInString(name); n < 1 || n > 200 {
		return "", models.Invalid("invalid_name", "name")
	}
	return name, nil
}

// Register creates an account. When activation is required the account is pending and an
// activation token is mailed; otherwise it is active at once (its e-mail stays unverified).
// Errors: invalid (email, password, name), conflict (email already registered).
func (s *Service) Register(ctx context.Context, in RegisterInput) (*User, error) {
	email, err := normalizeEmail(in.Email, "email")
	if err != nil {
		return nil, err
	}
	if err := checkPassword(in.Password, "password"); err != nil {
		return nil, err
	}
	name, err := checkName(in.Name)
	if err != nil {
		return nil, err
	}
	now := s.now()
	u := &User{
		ID: models.NewID(), Email: email, Name: name, PasswordHash: s.hashPassword(in.Password),
		Status: StatusActive, Lang: Language(in.Lang), CreatedAt: now, UpdatedAt: now,
	}
	if s.Settings.RequireActivation {
		u.Status = StatusPendingActivation
	}
	err = s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(u).Error; err != nil {
			if models.IsUniqueViolation(err) {
				return models.Conflict("email_taken", "email")
			}
			return models.Internal("create user: %w", err)
		}
		if !s.Settings.RequireActivation {
			return nil
		}
		token, err := s.issueUserToken(tx, u.ID, purposeActivation, s.Settings.ActivationTTL)
		if err != nil {
			return err
		}
		m := mailText(in.Lang, mailActivation, s.Settings.AppURL+"/activate?token="+token)
		return outbox.Enqueue(ctx, tx, now, u.Email, m.subject, m.body)
	})
	if err != nil {
		return nil, models.AsError(err)
	}
	return u, nil
}

func (s *Service) issueUserToken(tx *gorm.DB, userID uuid.UUID, purpose string, ttl time.Duration) (string, error) {
	token := models.RandomToken(32)
	now := s.now()
	row := userToken{
		ID: models.NewID(), UserID: userID, Purpose: purpose, TokenHash: models.HashToken(token),
		ExpiresAt: now.Add(ttl), CreatedAt: now,
	}
	if err := tx.Create(&row).Error; err != nil {
		return "", models.Internal("store %s token: %w", purpose, err)
	}
	return token, nil
}

// consumeUserToken marks a live token of the purpose used and returns its row; anything
// else (unknown, used, expired, wrong purpose) is reported as invalid for fields.
func (s *Service) consumeUserToken(tx *gorm.DB, token, purpose string, fields ...string) (*userToken, error) {
	now := s.now()
	var row userToken
	err := tx.Where("token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?", models.HashToken(token), purpose, now).
		Take(&row).Error
	if models.IsNotFound(err) {
		return nil, models.Invalid("invalid_token", fields...)
	}
	if err != nil {
		return nil, models.Internal("read %s token: %w", purpose, err)
	}
	res := tx.Model(&userToken{}).Where("id = ? AND used_at IS NULL", row.ID).Update("used_at", now)
	if res.Error != nil {
		return nil, models.Internal("use %s token: %w", purpose, res.Error)
	}
	if res.RowsAffected == 0 { // a concurrent request used it first
		return nil, models.Invalid("invalid_token", fields...)
	}
	return &row, nil
}

// Activate activates the account a mailed activation token belongs to and marks its e-mail
// verified. Errors: invalid (token).
func (s *Service) Activate(ctx context.Context, token string) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := s.consumeUserToken(tx, token, purposeActivation, "token")
		if err != nil {
			return err
		}
		now := s.now()
		return tx.Model(&User{}).Where("id = ?", row.UserID).
			Updates(map[string]any{"status": StatusActive, "email_verified_at": now, "updated_at": now}).Error
	})
}

// User returns an account. Errors: not_found.
func (s *Service) User(ctx context.Context, id uuid.UUID) (*User, error) {
	var u User
	err := s.DB.WithContext(ctx).Take(&u, "id = ?", id).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("user_not_found")
	}
	if err != nil {
		return nil, models.Internal("read user: %w", err)
	}
	return &u, nil
}

// UserByEmail returns the account registered with an e-mail. Errors: not_found.
func (s *Service) UserByEmail(ctx context.Context, email string) (*User, error) {
	var u User
	err := s.DB.WithContext(ctx).Take(&u, "email = ?", strings.ToLower(strings.TrimSpace(email))).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("user_not_found")
	}
	if err != nil {
		return nil, models.Internal("read user: %w", err)
	}
	return &u, nil
}

// ProfilePatch changes the caller's profile; nil fields are left alone.
type ProfilePatch struct {
	Name *string
	// Lang is one of Languages.
	Lang *string
}

// UpdateProfile applies a profile patch. Errors: invalid (name, language).
func (s *Service) UpdateProfile(ctx context.Context, userID uuid.UUID, p ProfilePatch) (*User, error) {
	updates := map[string]any{"updated_at": s.now()}
	if p.Name != nil {
		name, err := checkName(*p.Name)
		if err != nil {
			return nil, err
		}
		updates["name"] = name
	}
	if p.Lang != nil {
		if !slices.Contains(Languages, *p.Lang) {
			return nil, models.Invalid("invalid_language", "language")
		}
		updates["lang"] = *p.Lang
	}
	if err := s.DB.WithContext(ctx).Model(&User{}).Where("id = ?", userID).Updates(updates).Error; err != nil {
		return nil, models.Internal("update profile: %w", err)
	}
	return s.User(ctx, userID)
}
