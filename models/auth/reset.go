package auth

import (
	"context"

	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/models/outbox"
)

// RequestPasswordReset mails a single-use reset token to the account with that e-mail, if
// there is one. It answers the same either way so it cannot be used to probe for accounts.
// Errors: invalid (email) for a malformed address only.
func (s *Service) RequestPasswordReset(ctx context.Context, email, lang string) error {
	email, err := normalizeEmail(email, "email")
	if err != nil {
		return err
	}
	u, err := s.UserByEmail(ctx, email)
	if models.IsKind(err, models.KindNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		token, err := s.issueUserToken(tx, u.ID, purposePasswordReset, s.Settings.ResetTTL)
		if err != nil {
			return err
		}
		m := mailText(lang, mailPasswordReset, s.Settings.AppURL+"/reset-password?token="+token)
		return outbox.Enqueue(ctx, tx, s.now(), u.Email, m.subject, m.body)
	})
}

// ConfirmPasswordReset sets a new password with a mailed reset token and ends all of the
// user's sessions. Following the mailed link proves the address, so a pending account is
// activated and its e-mail marked verified. Errors: invalid (token, new_password).
func (s *Service) ConfirmPasswordReset(ctx context.Context, token, newPassword string) error {
	if err := checkPassword(newPassword, "token"); err != nil {
		return models.Invalid("password_length", "token", "new_password")
	}
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := s.consumeUserToken(tx, token, purposePasswordReset, "token", "new_password")
		if err != nil {
			return err
		}
		now := s.now()
		err = tx.Model(&User{}).Where("id = ?", row.UserID).Updates(map[string]any{
			"password_hash": s.hashPassword(newPassword), "status": StatusActive,
			"email_verified_at": gorm.Expr("COALESCE(email_verified_at, ?)", now), "updated_at": now,
		}).Error
		if err != nil {
			return models.Internal("set password: %w", err)
		}
		// Other reset links mailed earlier die with this one.
		if err := tx.Model(&userToken{}).Where("user_id = ? AND purpose = ? AND used_at IS NULL", row.UserID, purposePasswordReset).
			Update("used_at", now).Error; err != nil {
			return models.Internal("expire reset tokens: %w", err)
		}
		if err := tx.Model(&Session{}).Where("user_id = ? AND revoked_at IS NULL", row.UserID).Update("revoked_at", now).Error; err != nil {
			return models.Internal("end sessions: %w", err)
		}
		return nil
	})
}
