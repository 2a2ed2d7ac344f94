package relay

import (
	"context"
	"crypto/subtle"
	"regexp"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/models/integration"
)

// Modes of a relay: updates arrive by the messenger's webhook delivery (and API callers),
// or the server polls the bot API for them.
const (
	ModeWebhook = "webhook"
	ModePolling = "polling"
)

// SecretHeader carries a relay's webhook secret on POST /messenger_a/relay/{relay_key}; the
// messenger's webhook settings (its "secret token") must send it.
const SecretHeader = "X-Bot-Api-Secret-Token"

// KeyPattern is what a relay key may look like: keys we issue are 32 URL-safe characters.
// Anything else is malformed before any lookup.
var KeyPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{16,128}$`)

// Relay is the messenger relay of one messenger_a.bot integration. RelayKey is the path key
// of its endpoints: an address, like a project's hook_key, not a credential (the public
// endpoint also needs the webhook secret, the API endpoints a member's session).
type Relay struct {
	ActionDependencyID  uuid.UUID `gorm:"primaryKey"`
	CompanyID           uuid.UUID
	ProjectID           uuid.UUID
	RelayKey            string
	WebhookSecretSealed string
	WebhookSecretMasked string
	Mode                string
	// PollOffset is the next update id getUpdates asks for: the last one stored, plus one.
	PollOffset int64
	// The poll lease: the instance polling this bot and until when; nobody else polls it
	// before the lease runs out.
	PollLeaseOwner string
	PollLeaseUntil *time.Time
	// PollError is the last polling failure, cleared by the next success.
	PollError string
	PolledAt  *time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
}

func (Relay) TableName() string { return "messenger_relays" }

// Service implements the relay's storage.
type Service struct {
	DB     *gorm.DB
	Sealer *models.Sealer
	Now    func() time.Time
}

// NewService returns a service on the real clock.
func NewService(db *gorm.DB, sealer *models.Sealer) *Service {
	return &Service{DB: db, Sealer: sealer, Now: func() time.Time { return time.Now().UTC() }}
}

func (s *Service) now() time.Time { return s.Now().UTC().Truncate(time.Microsecond) }

// newWebhookSecret is 256 random bits; the messenger sends it back on every delivery.
func newWebhookSecret() string { return models.RandomToken(32) }

// Of returns the relay of a messenger_a.bot integration. Errors: invalid
// (action_dependency_id: the integration is of another type), not_found (relay_not_set_up:
// it has no relay yet).
func (s *Service) Of(ctx context.Context, d *integration.ActionDependency) (*Relay, error) {
	if d.DependencyTypeKey != integration.TypeMessengerABot {
		return nil, models.Invalid("relay_not_messenger_a_bot", "action_dependency_id")
	}
	r, err := s.of(ctx, d)
	if models.IsKind(err, models.KindNotFound) {
		return nil, models.NotFound("relay_not_set_up")
	}
	return r, err
}

// Ensure returns the relay of a messenger_a.bot integration, creating it (with a new key and
// webhook secret, in webhook mode) the first time. Errors: invalid (action_dependency_id: the
// integration is of another type).
func (s *Service) Ensure(ctx context.Context, d *integration.ActionDependency) (*Relay, error) {
	r, err := s.Of(ctx, d)
	if !models.IsKind(err, models.KindNotFound) {
		return r, err
	}
	now := s.now()
	secret := newWebhookSecret()
	r = &Relay{
		ActionDependencyID: d.ID, CompanyID: d.CompanyID, ProjectID: d.ProjectID, RelayKey: models.RandomToken(24),
		WebhookSecretSealed: s.Sealer.Seal(secret), WebhookSecretMasked: models.Mask(secret), Mode: ModeWebhook,
		CreatedAt: now, UpdatedAt: now,
	}
	err = s.DB.WithContext(ctx).Create(r).Error
	if models.IsUniqueViolation(err) {
		return s.of(ctx, d) // created by a concurrent request
	}
	if err != nil {
		return nil, models.Internal("create relay: %w", err)
	}
	return r, nil
}

func (s *Service) of(ctx context.Context, d *integration.ActionDependency) (*Relay, error) {
	var r Relay
	err := s.DB.WithContext(ctx).Take(
		&r, "action_dependency_id = ? AND company_id = ? AND project_id = ?",
		d.ID, d.CompanyID, d.ProjectID,
	).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("relay_not_found")
	}
	if err != nil {
		return nil, models.Internal("read relay: %w", err)
	}
	return &r, nil
}

// RotateWebhookSecret gives the integration's relay a new webhook secret and answers it; it
// is not shown again, and the old one stops working at once. The relay key stays.
// Errors: invalid (action_dependency_id).
func (s *Service) RotateWebhookSecret(ctx context.Context, d *integration.ActionDependency) (*Relay, string, error) {
	r, err := s.Ensure(ctx, d)
	if err != nil {
		return nil, "", err
	}
	secret := newWebhookSecret()
	r.WebhookSecretSealed, r.WebhookSecretMasked, r.UpdatedAt = s.Sealer.Seal(secret), models.Mask(secret), s.now()
	if err := s.update(ctx, r, "webhook_secret_sealed", "webhook_secret_masked", "updated_at"); err != nil {
		return nil, "", err
	}
	return r, secret, nil
}

// SetPolling switches the integration's relay to polling (enabled) or back to webhook mode.
// Turning polling on clears the last polling error; the offset is kept, so no update is
// fetched twice. Errors: invalid (action_dependency_id).
func (s *Service) SetPolling(ctx context.Context, d *integration.ActionDependency, enabled bool) (*Relay, error) {
	r, err := s.Ensure(ctx, d)
	if err != nil {
		return nil, err
	}
	r.Mode, r.UpdatedAt = ModeWebhook, s.now()
	columns := []string{"mode", "updated_at"}
	if enabled {
		r.Mode, r.PollError = ModePolling, ""
		columns = append(columns, "poll_error")
	}
	if err := s.update(ctx, r, columns...); err != nil {
		return nil, err
	}
	return r, nil
}

func (s *Service) update(ctx context.Context, r *Relay, columns ...string) error {
	err := s.DB.WithContext(ctx).Model(&Relay{}).
		Where("action_dependency_id = ? AND company_id = ? AND project_id = ?", r.ActionDependencyID, r.CompanyID, r.ProjectID).
		Select(columns).Updates(r).Error
	if err != nil {
		return models.Internal("update relay: %w", err)
	}
	return nil
}

// ByKey finds the relay of an active integration by its key. A malformed key is invalid
// (relay_key); an unknown one, and one whose integration is disabled, are not found.
func (s *Service) ByKey(ctx context.Context, key string) (*Relay, error) {
	if !KeyPattern.MatchString(key) {
		return nil, models.Invalid("invalid_relay_key", "relay_key")
	}
	var r Relay
	err := s.DB.WithContext(ctx).
		Joins(
			"JOIN action_dependencies ON action_dependencies.id = messenger_relays.action_dependency_id AND action_dependencies.status = ?",
			integration.StatusActive,
		).
		Take(&r, "messenger_relays.relay_key = ?", key).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("relay_not_found")
	}
	if err != nil {
		return nil, models.Internal("read relay: %w", err)
	}
	return &r, nil
}

// Authenticate finds the relay of key and checks the webhook secret the caller sent, in
// constant time. Errors: invalid (relay_key), not_found (unknown key), unauthenticated
// (a missing or wrong secret; the answer does not say which).
func (s *Service) Authenticate(ctx context.Context, key, secret string) (*Relay, error) {
	r, err := s.ByKey(ctx, key)
	if err != nil {
		return nil, err
	}
	want, err := s.Sealer.Open(r.WebhookSecretSealed)
	if err != nil {
		return nil, models.Internal("open webhook secret of relay %s: %w", r.ActionDependencyID, err)
	}
	if subtle.ConstantTimeCompare([]byte(secret), []byte(want)) != 1 {
		return nil, models.Unauthenticated("invalid_relay_secret", SecretHeader)
	}
	return r, nil
}
