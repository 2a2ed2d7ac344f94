package auth

import (
	"context"
	"time"

	"github.com/google/uuid"

	"agencyhub/models"
)

// Failed-login limits. A client address may fail 5 times per account and 50 times over all
// accounts in 15 minutes; an account may fail 20 times per minute from all addresses
// together. The account-wide window is short on purpose: an attacker spraying one account
// from many addresses can hold it shut for at most a minute at a time, while its owner's own
// address keeps its separate, larger allowance.
const (
	addressWindow             = 15 * time.Minute
	maxFailuresPerAccountAddr = 5
	maxFailuresPerAddress     = 50
	accountWindow             = time.Minute
	maxFailuresPerAccount     = 20
)

type loginFailure struct {
	ID            uuid.UUID `gorm:"primaryKey"`
	Email         string
	ClientAddress string
	CreatedAt     time.Time
}

func (loginFailure) TableName() string { return "login_failures" }

// checkLoginAllowed answers rate_limited, with the seconds until the oldest counted failure
// leaves its window, when any limit is reached.
func (s *Service) checkLoginAllowed(ctx context.Context, email, addr string) error {
	now := s.now()
	limits := []struct {
		window time.Duration
		max    int
		cond   string
		args   []any
	}{
		{addressWindow, maxFailuresPerAccountAddr, "email = ? AND client_address = ?", []any{email, addr}},
		{addressWindow, maxFailuresPerAddress, "client_address = ?", []any{addr}},
		{accountWindow, maxFailuresPerAccount, "email = ?", []any{email}},
	}
	for _, l := range limits {
		var recent []time.Time
		err := s.DB.WithContext(ctx).Model(&loginFailure{}).Where(l.cond, l.args...).
			Where("created_at > ?", now.Add(-l.window)).Order("created_at DESC").Limit(l.max).
			Pluck("created_at", &recent).Error
		if err != nil {
			return models.Internal("count login failures: %w", err)
		}
		if len(recent) >= l.max {
			oldest := recent[len(recent)-1]
			wait := int(oldest.Add(l.window).Sub(now).Seconds()) + 1
			return models.RateLimited("too_many_login_attempts", wait)
		}
	}
	return nil
}

func (s *Service) recordLoginFailure(ctx context.Context, email, addr string) error {
	now := s.now()
	db := s.DB.WithContext(ctx)
	if err := db.Create(&loginFailure{ID: models.NewID(), Email: email, ClientAddress: addr, CreatedAt: now}).Error; err != nil {
		return models.Internal("record login failure: %w", err)
	}
	// Rows older than the longest window count for nothing.
	if err := db.Where("created_at < ?", now.Add(-addressWindow)).Delete(&loginFailure{}).Error; err != nil {
		return models.Internal("prune login failures: %w", err)
	}
	return nil
}

// clearLoginFailures forgets an address's failures on an account once it signs in.
func (s *Service) clearLoginFailures(ctx context.Context, email, addr string) error {
	err := s.DB.WithContext(ctx).Where("email = ? AND client_address = ?", email, addr).Delete(&loginFailure{}).Error
	if err != nil {
		return models.Internal("clear login failures: %w", err)
	}
	return nil
}
