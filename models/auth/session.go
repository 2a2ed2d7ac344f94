package auth

import (
	"context"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// Client types of sessions.
const (
	ClientBrowser = "browser"
	ClientAPI     = "api"
	// Native and desktop apps hold a device credential instead of a refresh token.
	ClientNative  = "native"
	ClientDesktop = "desktop"
)

// lastSeenResolution bounds how often a session's last_seen_at is written.
const lastSeenResolution = time.Minute

// Session is one signed-in client of a user.
type Session struct {
	ID          uuid.UUID `gorm:"primaryKey"`
	UserID      uuid.UUID
	ClientType  string
	DeviceLabel string
	IPAddress   string
	CreatedAt   time.Time
	LastSeenAt  time.Time
	ExpiresAt   time.Time
	RevokedAt   *time.Time
}

type refreshToken struct {
	TokenHash string `gorm:"primaryKey"`
	SessionID uuid.UUID
	CreatedAt time.Time
	RotatedAt *time.Time
}

func (refreshToken) TableName() string { return "refresh_tokens" }

// Grant is what a sign-in or refresh hands the client.
type Grant struct {
	SessionID        uuid.UUID
	AccessToken      string
	AccessExpiresAt  time.Time
	RefreshToken     string
	RefreshExpiresAt time.Time
	CSRFToken        string
}

// Actor is the authenticated caller of a request.
type Actor struct {
	UserID uuid.UUID
	// SessionID is set when the caller presented an access token; uuid.Nil for API keys.
	SessionID uuid.UUID
	// APIKeyID is set when the caller presented an API key.
	APIKeyID uuid.UUID
}

// Client describes where a sign-in comes from.
type Client struct {
	Type        string
	DeviceLabel string
	IPAddress   string
}

// LoginInput is an e-mail and password sign-in.
type LoginInput struct {
	Email, Password string
	Client          Client
}

// Login checks a password and opens a session. Failed attempts are limited per account and
// per client address (see limiter.go). Errors: unauthenticated (email, password),
// rate_limited, forbidden (account not activated).
func (s *Service) Login(ctx context.Context, in LoginInput) (*Grant, error) {
	email, err := normalizeEmail(in.Email, "email")
	if err != nil {
		return nil, models.Unauthenticated("bad_credentials", "email", "password")
	}
	if err := s.checkLoginAllowed(ctx, email, in.Client.IPAddress); err != nil {
		return nil, err
	}
	u, err := s.UserByEmail(ctx, email)
	if err != nil && !models.IsKind(err, models.KindNotFound) {
		return nil, err
	}
	if u == nil {
		s.verifyUnknown(in.Password)
	}
	if u == nil || !verifyPassword(u.PasswordHash, in.Password) {
		if err := s.recordLoginFailure(ctx, email, in.Client.IPAddress); err != nil {
			return nil, err
		}
		return nil, models.Unauthenticated("bad_credentials", "email", "password")
	}
	if err := s.clearLoginFailures(ctx, email, in.Client.IPAddress); err != nil {
		return nil, err
	}
	if u.Status != StatusActive {
		return nil, models.Forbidden("account_not_activated")
	}
	return s.OpenSession(ctx, u.ID, in.Client)
}

// OpenSession starts a session for a user who has proven who they are.
func (s *Service) OpenSession(ctx context.Context, userID uuid.UUID, c Client) (*Grant, error) {
	var grant *Grant
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		grant, err = s.openSession(tx, userID, c)
		return err
	})
	return grant, err
}

// openSession is OpenSession inside the caller's transaction.
func (s *Service) openSession(tx *gorm.DB, userID uuid.UUID, c Client) (*Grant, error) {
	sess, err := s.createSession(tx, userID, c)
	if err != nil {
		return nil, err
	}
	return s.grant(tx, sess, sess.CreatedAt)
}

// createSession stores a new live session of the user.
func (s *Service) createSession(tx *gorm.DB, userID uuid.UUID, c Client) (*Session, error) {
	now := s.now()
	sess := &Session{
		ID: models.NewID(), UserID: userID, ClientType: c.Type, DeviceLabel: c.DeviceLabel,
		IPAddress: c.IPAddress, CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(s.Settings.RefreshTTL),
	}
	if err := tx.Create(sess).Error; err != nil {
		return nil, models.Internal("create session: %w", err)
	}
	return sess, nil
}

// grant issues a new refresh token for the session and an access token to go with it.
func (s *Service) grant(tx *gorm.DB, sess *Session, now time.Time) (*Grant, error) {
	refresh := models.RandomToken(32)
	if err := tx.Create(&refreshToken{TokenHash: models.HashToken(refresh), SessionID: sess.ID, CreatedAt: now}).Error; err != nil {
		return nil, models.Internal("store refresh token: %w", err)
	}
	access, accessExpires, err := s.signAccessToken(sess.UserID, sess.ID, now)
	if err != nil {
		return nil, err
	}
	return &Grant{
		SessionID: sess.ID, AccessToken: access, AccessExpiresAt: accessExpires,
		RefreshToken: refresh, RefreshExpiresAt: sess.ExpiresAt, CSRFToken: s.CSRFToken(sess.ID),
	}, nil
}

var errInvalidRefreshToken = models.Unauthenticated("invalid_refresh_token", "refresh_token")

// Refresh rotates a refresh token: the presented one is spent and a new pair is issued,
// extending the session. A spent token presented again means it leaked, so the whole
// session is revoked. Errors: unauthenticated (refresh_token).
func (s *Service) Refresh(ctx context.Context, token string) (*Grant, error) {
	var grant *Grant
	var reusedIn uuid.UUID
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now := s.now()
		var row refreshToken
		err := tx.Take(&row, "token_hash = ?", models.HashToken(token)).Error
		if models.IsNotFound(err) {
			return errInvalidRefreshToken
		}
		if err != nil {
			return models.Internal("read refresh token: %w", err)
		}
		sess, err := liveSession(tx, row.SessionID, now)
		if err != nil {
			return err
		}
		spent := tx.Model(&refreshToken{}).Where("token_hash = ? AND rotated_at IS NULL", row.TokenHash).Update("rotated_at", now)
		if spent.Error != nil {
			return models.Internal("rotate refresh token: %w", spent.Error)
		}
		if spent.RowsAffected == 0 {
			reusedIn = sess.ID
			return errInvalidRefreshToken
		}
		sess.ExpiresAt = now.Add(s.Settings.RefreshTTL)
		sess.LastSeenAt = now
		if err := tx.Model(sess).Updates(map[string]any{"expires_at": sess.ExpiresAt, "last_seen_at": now}).Error; err != nil {
			return models.Internal("extend session: %w", err)
		}
		grant, err = s.grant(tx, sess, now)
		return err
	})
	if reusedIn != uuid.Nil {
		// Revoked outside the failed transaction so the revocation is not rolled back with it.
		if rerr := s.revoke(ctx, "id = ?", reusedIn); rerr != nil {
			return nil, rerr
		}
	}
	return grant, err
}

// SessionForRefreshToken returns the live session a refresh token belongs to, without
// spending the token (for issuing a CSRF token before a cookie refresh). A spent token is
// reuse, as in Refresh, and revokes its session: browsers present their refresh token here
// first, so without this a stolen cookie refreshed by the thief would never be detected.
// Errors: unauthenticated (refresh_token).
func (s *Service) SessionForRefreshToken(ctx context.Context, token string) (*Session, error) {
	var row refreshToken
	err := s.DB.WithContext(ctx).Take(&row, "token_hash = ?", models.HashToken(token)).Error
	if models.IsNotFound(err) {
		return nil, errInvalidRefreshToken
	}
	if err != nil {
		return nil, models.Internal("read refresh token: %w", err)
	}
	if row.RotatedAt != nil {
		if err := s.revoke(ctx, "id = ?", row.SessionID); err != nil {
			return nil, err
		}
		return nil, errInvalidRefreshToken
	}
	sess, err := liveSession(s.DB.WithContext(ctx), row.SessionID, s.now())
	if models.IsKind(err, models.KindUnauthenticated) {
		return nil, errInvalidRefreshToken
	}
	return sess, err
}

func liveSession(tx *gorm.DB, id uuid.UUID, now time.Time) (*Session, error) {
	var sess Session
	err := tx.Take(&sess, "id = ? AND revoked_at IS NULL AND expires_at > ?", id, now).Error
	if models.IsNotFound(err) {
		return nil, errInvalidRefreshToken
	}
	if err != nil {
		return nil, models.Internal("read session: %w", err)
	}
	return &sess, nil
}

// Authenticate resolves an access token to its actor. The token must be valid and its
// session live, so logging out or deleting a session takes effect at once.
// Errors: unauthenticated (access_token).
func (s *Service) Authenticate(ctx context.Context, accessToken string) (*Actor, error) {
	userID, sessionID, err := s.parseAccessToken(accessToken)
	if err != nil {
		return nil, err
	}
	now := s.now()
	var sess Session
	err = s.DB.WithContext(ctx).
		Joins("JOIN users ON users.id = sessions.user_id AND users.status = ?", StatusActive).
		Take(&sess, "sessions.id = ? AND sessions.user_id = ? AND sessions.revoked_at IS NULL AND sessions.expires_at > ?",
			sessionID, userID, now).Error
	if models.IsNotFound(err) {
		return nil, errInvalidAccessToken
	}
	if err != nil {
		return nil, models.Internal("read session: %w", err)
	}
	if now.Sub(sess.LastSeenAt) >= lastSeenResolution {
		if err := s.DB.WithContext(ctx).Model(&sess).Update("last_seen_at", now).Error; err != nil {
			return nil, models.Internal("touch session: %w", err)
		}
	}
	return &Actor{UserID: userID, SessionID: sessionID}, nil
}

// Sessions lists a user's live sessions.
func (s *Service) Sessions(ctx context.Context, userID uuid.UUID, page models.PageRequest) ([]Session, string, error) {
	var rows []Session
	q := s.DB.WithContext(ctx).Where("user_id = ? AND revoked_at IS NULL AND expires_at > ?", userID, s.now())
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list sessions: %w", err)
	}
	items, next := models.Page(page, rows, func(s Session) uuid.UUID { return s.ID })
	return items, next, nil
}

// Logout ends the caller's session.
func (s *Service) Logout(ctx context.Context, sessionID uuid.UUID) error {
	return s.revoke(ctx, "id = ?", sessionID)
}

// RevokeSession ends one of the user's sessions. Errors: not_found.
func (s *Service) RevokeSession(ctx context.Context, userID, sessionID uuid.UUID) error {
	var n int64
	err := s.DB.WithContext(ctx).Model(&Session{}).
		Where("id = ? AND user_id = ? AND revoked_at IS NULL", sessionID, userID).Count(&n).Error
	if err != nil {
		return models.Internal("read session: %w", err)
	}
	if n == 0 {
		return models.NotFound("session_not_found")
	}
	return s.revoke(ctx, "id = ?", sessionID)
}

// revoke ends every live session matching the condition.
func (s *Service) revoke(ctx context.Context, cond string, args ...any) error {
	err := s.DB.WithContext(ctx).Model(&Session{}).Where("revoked_at IS NULL").Where(cond, args...).
		Update("revoked_at", s.now()).Error
	if err != nil {
		return models.Internal("revoke sessions: %w", err)
	}
	return nil
}
