package auth

import (
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// UserIdentity links an account at an identity provider (provider + subject) to a user.
type UserIdentity struct {
	ID       uuid.UUID `gorm:"primaryKey"`
	UserID   uuid.UUID
	Provider string
	Subject  string
	// Email is the address the provider asserted when the identity was linked.
	Email     string
	CreatedAt time.Time
}

// signInAs decides which user a provider identity signs in as, linking or creating the
// account where that is safe:
//   - an identity seen before signs in as the user it is linked to;
//   - otherwise the provider must assert a verified e-mail;
//   - an account with that e-mail is linked only when its own e-mail is verified, so an
//     unverified registration (anyone can register any address) never captures the
//     address owner's provider sign-in; the owner proves the address first, by the
//     activation mail or a password reset;
//   - with no such account, an active account with a verified e-mail is created. It has a
//     random password nobody knows; a password reset gives it one.
//
// Errors: forbidden (provider_email_unverified), conflict (account_email_unverified,
// email_taken when the address was registered concurrently).
func (s *Service) signInAs(tx *gorm.DB, id *providerIdentity) (uuid.UUID, error) {
	var linked UserIdentity
	err := tx.Take(&linked, "provider = ? AND subject = ?", id.Provider, id.Subject).Error
	if err == nil {
		return linked.UserID, nil
	}
	if !models.IsNotFound(err) {
		return uuid.Nil, models.Internal("read identity: %w", err)
	}
	email, err := normalizeEmail(id.Email, "email")
	if err != nil || !bool(id.EmailVerified) {
		return uuid.Nil, models.Forbidden("provider_email_unverified")
	}
	now := s.now()
	var u User
	err = tx.Take(&u, "email = ?", email).Error
	switch {
	case err == nil && u.EmailVerifiedAt == nil:
		return uuid.Nil, models.Conflict("account_email_unverified")
	case models.IsNotFound(err):
		u = User{
			ID:           models.NewID(),
			Email:        email,
			Name:         providerName(id.Name, email),
			PasswordHash: s.hashPassword(models.RandomToken(32)),
			Status:       StatusActive,
			// The default language, until the person picks theirs in the profile.
			Lang:            Language(""),
			EmailVerifiedAt: &now,
			CreatedAt:       now,
			UpdatedAt:       now,
		}
		if err := tx.Create(&u).Error; err != nil {
			if models.IsUniqueViolation(err) {
				return uuid.Nil, models.Conflict("email_taken")
			}
			return uuid.Nil, models.Internal("create user: %w", err)
		}
	case err != nil:
		return uuid.Nil, models.Internal("read user: %w", err)
	}
	link := UserIdentity{ID: models.NewID(), UserID: u.ID, Provider: id.Provider, Subject: id.Subject, Email: email, CreatedAt: now}
	if err := tx.Create(&link).Error; err != nil {
		return uuid.Nil, models.Internal("link identity: %w", err)
	}
	return u.ID, nil
}

// providerName is the name a new account takes from its provider, or from its e-mail's
// local part when the provider gives none.
func providerName(name, email string) string {
	name = strings.TrimSpace(name)
	if name == "" {
		name, _, _ = strings.Cut(email, "@")
	}
	if r := []rune(name); len(r) > 200 {
		name = string(r[:200])
	}
	return name
}
