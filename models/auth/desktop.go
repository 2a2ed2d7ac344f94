package auth

import (
	"context"
	"crypto/rand"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// Desktop sign-in follows OAuth 2.0 device authorization (RFC 8628): the app gets a device
// code to poll with and a short user code for the user to approve in a signed-in browser.
const (
	desktopTTL      = 10 * time.Minute
	desktopInterval = 5 * time.Second
	// desktopSlowDown is how much the poll interval grows each time the app polls too soon.
	desktopSlowDown = 5 * time.Second
	// userCodeAlphabet has no vowels (no words) and no look-alike digits; eight letters
	// give 20^8 ≈ 2.6e10 codes.
	userCodeAlphabet = "BCDFGHJKLMNPQRSTVWXZ"
	userCodeLength   = 8
)

// Statuses of a desktop sign-in, and the answers of a poll.
const (
	DesktopPending  = "pending"
	DesktopSlowDown = "slow_down"
	DesktopApproved = "approved"
	DesktopDenied   = "denied"
	DesktopExpired  = "expired"
	// desktopCompleted is an approved sign-in whose tokens were handed out.
	desktopCompleted = "completed"
)

// DesktopAuthorization is a desktop app's sign-in request.
type DesktopAuthorization struct {
	ID              uuid.UUID `gorm:"primaryKey"`
	DeviceCodeHash  string
	UserCode        string
	DeviceLabel     string
	Status          string
	UserID          *uuid.UUID
	IntervalSeconds int
	LastPolledAt    *time.Time
	ExpiresAt       time.Time
	DecidedAt       *time.Time
	CreatedAt       time.Time
}

// DesktopStart is what a desktop app shows and polls with.
type DesktopStart struct {
	DeviceCode string
	// UserCode is displayed as XXXX-XXXX.
	UserCode                                 string
	VerificationURI, VerificationURIComplete string
	ExpiresAt                                time.Time
	Interval                                 time.Duration
}

// StartDesktopSignIn records a desktop app's sign-in request. The user approves it at the
// web app's /device page (AppURL), which calls DecideDesktopSignIn.
func (s *Service) StartDesktopSignIn(ctx context.Context, deviceLabel string) (*DesktopStart, error) {
	now := s.now()
	deviceCode := models.RandomToken(32)
	a := DesktopAuthorization{
		ID: models.NewID(), DeviceCodeHash: models.HashToken(deviceCode), DeviceLabel: deviceLabel, Status: DesktopPending,
		IntervalSeconds: int(desktopInterval.Seconds()), ExpiresAt: now.Add(desktopTTL), CreatedAt: now,
	}
	db := s.DB.WithContext(ctx)
	if err := db.Where("expires_at < ?", now.Add(-flowRetention)).Delete(&DesktopAuthorization{}).Error; err != nil {
		return nil, models.Internal("prune desktop sign-ins: %w", err)
	}
	// A user code may collide with a stored one; a fresh code is drawn then.
	for attempt := 1; ; attempt++ {
		a.UserCode = newUserCode()
		err := db.Create(&a).Error
		if err == nil {
			break
		}
		if !models.IsUniqueViolation(err) || attempt == 3 {
			return nil, models.Internal("store desktop sign-in: %w", err)
		}
	}
	display := a.UserCode[:4] + "-" + a.UserCode[4:]
	page := strings.TrimRight(s.Settings.AppURL, "/") + "/device"
	return &DesktopStart{
		DeviceCode: deviceCode, UserCode: display,
		VerificationURI: page, VerificationURIComplete: page + "?user_code=" + display,
		ExpiresAt: a.ExpiresAt, Interval: desktopInterval,
	}, nil
}

// newUserCode draws a user code uniformly from the alphabet.
func newUserCode() string {
	var b strings.Builder
	buf := make([]byte, 1)
	for b.Len() < userCodeLength {
		if _, err := rand.Read(buf); err != nil {
			panic("crypto/rand failed: " + err.Error())
		}
		// 240 is the largest multiple of 20 below 256: rejecting the rest keeps it uniform.
		if buf[0] < 240 {
			b.WriteByte(userCodeAlphabet[int(buf[0])%len(userCodeAlphabet)])
		}
	}
	return b.String()
}

// normalizeUserCode accepts a user code as people type it: any case, with or without the
// hyphen and spaces.
func normalizeUserCode(code string) string {
	return strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(code))
}

var errInvalidUserCode = models.Invalid("invalid_user_code", "user_code")

// DecideDesktopSignIn records a signed-in user's answer to the desktop sign-in showing
// userCode: approving signs the desktop app in as that user at its next poll, denying
// refuses it. Errors: invalid (user_code) for an unknown, expired or decided code.
func (s *Service) DecideDesktopSignIn(ctx context.Context, userID uuid.UUID, userCode string, approve bool) (*DesktopAuthorization, error) {
	status := DesktopDenied
	if approve {
		status = DesktopApproved
	}
	var a DesktopAuthorization
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now := s.now()
		err := tx.Take(&a, "user_code = ? AND status = ? AND expires_at > ?", normalizeUserCode(userCode), DesktopPending, now).Error
		if models.IsNotFound(err) {
			return errInvalidUserCode
		}
		if err != nil {
			return models.Internal("read desktop sign-in: %w", err)
		}
		decided := tx.Model(&a).Where("status = ?", DesktopPending).
			Updates(map[string]any{"status": status, "user_id": userID, "decided_at": now})
		if decided.Error != nil {
			return models.Internal("decide desktop sign-in: %w", decided.Error)
		}
		if decided.RowsAffected == 0 {
			return errInvalidUserCode
		}
		a.Status = status
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// DesktopPoll is the answer to a desktop app's poll. Interval is set while pending; Grant
// once approved.
type DesktopPoll struct {
	Status   string
	Interval time.Duration
	Grant    *DeviceGrant
}

var errInvalidDeviceCode = models.Invalid("invalid_device_code", "device_code")

// PollDesktopSignIn tells a desktop app where its sign-in stands: pending, slow_down (it
// polled sooner than the interval after its start or previous poll, and the interval grows
// by 5 s), denied, expired, or approved with the tokens of a new desktop session. Tokens are
// handed out once; the device code is unknown after that. Errors: invalid (device_code).
func (s *Service) PollDesktopSignIn(ctx context.Context, deviceCode, ipAddress string) (*DesktopPoll, error) {
	var out *DesktopPoll
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now := s.now()
		var a DesktopAuthorization
		err := tx.Take(&a, "device_code_hash = ? AND status <> ?", models.HashToken(deviceCode), desktopCompleted).Error
		if models.IsNotFound(err) {
			return errInvalidDeviceCode
		}
		if err != nil {
			return models.Internal("read desktop sign-in: %w", err)
		}
		switch {
		case !now.Before(a.ExpiresAt):
			out = &DesktopPoll{Status: DesktopExpired}
		case a.Status == DesktopDenied:
			out = &DesktopPoll{Status: DesktopDenied}
		case a.Status == DesktopApproved:
			handed := tx.Model(&a).Where("status = ?", DesktopApproved).Update("status", desktopCompleted)
			if handed.Error != nil {
				return models.Internal("complete desktop sign-in: %w", handed.Error)
			}
			if handed.RowsAffected == 0 { // a concurrent poll took the tokens
				return errInvalidDeviceCode
			}
			grant, err := s.openDeviceSession(tx, *a.UserID, Client{Type: ClientDesktop, DeviceLabel: a.DeviceLabel, IPAddress: ipAddress})
			out = &DesktopPoll{Status: DesktopApproved, Grant: grant}
			return err
		default:
			out = &DesktopPoll{Status: DesktopPending, Interval: time.Duration(a.IntervalSeconds) * time.Second}
			since := a.CreatedAt
			if a.LastPolledAt != nil {
				since = *a.LastPolledAt
			}
			if now.Sub(since) < out.Interval {
				out.Status, out.Interval = DesktopSlowDown, out.Interval+desktopSlowDown
			}
			err := tx.Model(&a).Updates(map[string]any{"last_polled_at": now, "interval_seconds": int(out.Interval.Seconds())}).Error
			if err != nil {
				return models.Internal("record desktop poll: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
