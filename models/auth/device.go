package auth

import (
	"context"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// Device credentials read "ahd_<secret>"; only a hash is stored.
const deviceCredentialScheme = "ahd_"

// deviceCredential is the long-lived credential of a native or desktop session. It has no
// state of its own: it works exactly as long as its session is live.
type deviceCredential struct {
	SessionID  uuid.UUID `gorm:"primaryKey"`
	SecretHash string
	CreatedAt  time.Time
}

func (deviceCredential) TableName() string { return "device_credentials" }

// DeviceGrant is what a native or desktop app gets: an access token and, at sign-in, the
// device credential that gets it new ones.
type DeviceGrant struct {
	SessionID       uuid.UUID
	AccessToken     string
	AccessExpiresAt time.Time
	// DeviceCredential is set at sign-in only; refreshing keeps the same credential.
	DeviceCredential string
}

// openDeviceSession starts a session for a native or desktop app, inside the caller's
// transaction, with a device credential in place of a refresh token.
func (s *Service) openDeviceSession(tx *gorm.DB, userID uuid.UUID, c Client) (*DeviceGrant, error) {
	sess, err := s.createSession(tx, userID, c)
	if err != nil {
		return nil, err
	}
	credential := deviceCredentialScheme + models.RandomToken(32)
	if err := tx.Create(&deviceCredential{
		SessionID:  sess.ID,
		SecretHash: models.HashToken(credential),
		CreatedAt:  sess.CreatedAt,
	}).Error; err != nil {
		return nil, models.Internal("store device credential: %w", err)
	}
	access, expires, err := s.signAccessToken(userID, sess.ID, sess.CreatedAt)
	if err != nil {
		return nil, err
	}
	return &DeviceGrant{SessionID: sess.ID, AccessToken: access, AccessExpiresAt: expires, DeviceCredential: credential}, nil
}

var errInvalidDeviceCredential = models.Unauthenticated("invalid_device_credential", "device_credential")

// RefreshDevice trades a device credential for a new access token and extends its session
// as a refresh does. The credential is not rotated: it stays valid until its session ends
// (logout, session deletion, password reset, or RefreshTTL without use).
// Errors: unauthenticated (device_credential).
func (s *Service) RefreshDevice(ctx context.Context, credential string) (*DeviceGrant, error) {
	var grant *DeviceGrant
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now := s.now()
		var row deviceCredential
		err := tx.Take(&row, "secret_hash = ?", models.HashToken(credential)).Error
		if models.IsNotFound(err) {
			return errInvalidDeviceCredential
		}
		if err != nil {
			return models.Internal("read device credential: %w", err)
		}
		sess, err := liveSession(tx, row.SessionID, now)
		if models.IsKind(err, models.KindUnauthenticated) {
			return errInvalidDeviceCredential
		}
		if err != nil {
			return err
		}
		if err := tx.Model(sess).Updates(map[string]any{"expires_at": now.Add(s.Settings.RefreshTTL), "last_seen_at": now}).Error; err != nil {
			return models.Internal("extend session: %w", err)
		}
		access, expires, err := s.signAccessToken(sess.UserID, sess.ID, now)
		grant = &DeviceGrant{SessionID: sess.ID, AccessToken: access, AccessExpiresAt: expires}
		return err
	})
	if err != nil {
		return nil, err
	}
	return grant, nil
}
