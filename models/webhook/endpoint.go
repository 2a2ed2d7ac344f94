package webhook

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/company"
)

// Auth types of an endpoint: what a request must carry to start a run.
const (
	AuthNone         = "none"
	AuthSharedSecret = "shared_secret"
	AuthBasic        = "basic"
	AuthHMACStandard = "hmac_standard"
)

// Endpoint statuses: a disabled endpoint answers 404 to senders, as if it did not exist.
const (
	StatusActive   = "active"
	StatusDisabled = "disabled"
)

// Content types an endpoint accepts: json takes only JSON bodies (415 otherwise); any also
// takes form-encoded and raw bodies.
const (
	ContentJSON = "json"
	ContentAny  = "any"
)

// Body size bounds of an endpoint: a request body above its max_body_bytes answers 413.
// The ceiling keeps a payload well inside what one Temporal workflow input may carry.
const (
	MaxBodyLimit   = 1 << 20
	DefaultMaxBody = MaxBodyLimit
)

// Rotation grace: how long the previous secret keeps verifying after rotate-secret.
const (
	DefaultGrace = 24 * time.Hour
	MaxGrace     = 7 * 24 * time.Hour
)

// secretPrefix marks a Standard Webhooks secret: whsec_ and the base64 of the HMAC key, the
// form the Standard Webhooks libraries take as they are.
const secretPrefix = "whsec_"

var (
	authTypes    = []string{AuthNone, AuthSharedSecret, AuthBasic, AuthHMACStandard}
	statuses     = []string{StatusActive, StatusDisabled}
	contentTypes = []string{ContentJSON, ContentAny}
)

// Endpoint makes one webhook.trigger of a workflow reachable at
// /hooks/{hook_key of its project}/{endpoint_key}.
type Endpoint struct {
	ID            uuid.UUID `gorm:"primaryKey"`
	CompanyID     uuid.UUID
	ProjectID     uuid.UUID
	WorkflowID    uuid.UUID
	EndpointKey   string
	Description   string
	AuthType      string
	Status        string
	ContentType   string
	MaxBodyBytes  int
	BasicUsername string
	// SecretSealed is the current secret, encrypted; PreviousSecretSealed the one it
	// replaced, which verifies until PreviousSecretExpiresAt.
	SecretSealed            string
	PreviousSecretSealed    string
	PreviousSecretExpiresAt *time.Time
	// Rejected requests are not stored; these tell the owner that a sender fails to
	// authenticate, and why (the Problem's message key).
	RejectedCount  int
	LastRejectedAt *time.Time
	LastRejection  string
	CreatedBy      uuid.UUID
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

func (Endpoint) TableName() string { return "webhook_endpoints" }

// Service implements webhook endpoints, their events and receipts.
type Service struct {
	DB        *gorm.DB
	Sealer    *models.Sealer
	Company   *company.Service
	Workflows *automation.Service
	// PublicURL is the base of the addresses senders use (endpoint url, receipt_url).
	PublicURL string
	// DuplicateWait is how long a duplicate delivery waits for the first one's answer
	// before it is answered 409.
	DuplicateWait time.Duration
	Now           func() time.Time
}

// NewService returns a service on the real clock, sealing secrets with the companies'
// sealer.
func NewService(db *gorm.DB, companies *company.Service, workflows *automation.Service, publicURL string) *Service {
	return &Service{
		DB: db, Sealer: companies.Sealer, Company: companies, Workflows: workflows,
		PublicURL: strings.TrimSuffix(publicURL, "/"), DuplicateWait: DefaultDuplicateWait,
		Now: func() time.Time { return time.Now().UTC() },
	}
}

func (s *Service) now() time.Time { return s.Now().UTC().Truncate(time.Microsecond) }

// newSecret makes a Standard Webhooks secret: whsec_ and 32 random bytes in base64.
func newSecret() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return secretPrefix + base64.StdEncoding.EncodeToString(b)
}

// MaskSecret shows the prefix and the first four characters after it, so that responses
// tell secrets (and so rotations) apart without revealing them.
func MaskSecret(secret string) string {
	rest, ok := strings.CutPrefix(secret, secretPrefix)
	if !ok {
		return models.Mask(secret)
	}
	return secretPrefix + models.Mask(rest)
}

// Settings are an endpoint's changeable fields; nil fields keep their value (or take the
// default on create).
type Settings struct {
	Description   *string
	AuthType      *string
	Status        *string
	ContentType   *string
	MaxBodyBytes  *int
	BasicUsername *string
}

// apply checks the settings and writes them onto e. Errors: invalid, naming every bad field.
func (st Settings) apply(e *Endpoint) error {
	var bad []string
	if st.Description != nil {
		d := strings.TrimSpace(*st.Description)
		if utf8.RuneCountInString(d) > 500 {
			bad = append(bad, "description")
		}
		e.Description = d
	}
	if st.AuthType != nil {
		if !slices.Contains(authTypes, *st.AuthType) {
			bad = append(bad, "auth_type")
		}
		e.AuthType = *st.AuthType
	}
	if st.Status != nil {
		if !slices.Contains(statuses, *st.Status) {
			bad = append(bad, "status")
		}
		e.Status = *st.Status
	}
	if st.ContentType != nil {
		if !slices.Contains(contentTypes, *st.ContentType) {
			bad = append(bad, "content_type")
		}
		e.ContentType = *st.ContentType
	}
	if st.MaxBodyBytes != nil {
		if *st.MaxBodyBytes < 1 || *st.MaxBodyBytes > MaxBodyLimit {
			bad = append(bad, "max_body_bytes")
		}
		e.MaxBodyBytes = *st.MaxBodyBytes
	}
	if st.BasicUsername != nil {
		// A colon ends the user name in HTTP Basic, so it cannot be part of one.
		if u := *st.BasicUsername; len(u) > 200 || strings.ContainsAny(u, ":\r\n") {
			bad = append(bad, "basic_username")
		}
		e.BasicUsername = *st.BasicUsername
	}
	if len(bad) > 0 {
		return models.Invalid("invalid_webhook_endpoint", bad...)
	}
	return nil
}

// TriggerFor finds the graph's webhook.trigger whose endpoint_key is key.
func TriggerFor(g automation.Graph, key string) (automation.Action, bool) {
	for _, a := range g.Actions {
		if a.ActionTypeKey == automation.TypeWebhook {
			if k, _ := a.Config["endpoint_key"].(string); k == key && key != "" {
				return a, true
			}
		}
	}
	return automation.Action{}, false
}

// trigger finds the workflow's webhook.trigger for key in its current version, else in its
// draft, so an endpoint can be made while the workflow is being built.
func (s *Service) trigger(ctx context.Context, w *automation.Workflow, key string) (automation.Action, bool, error) {
	if w.CurrentVersionID != nil {
		v, err := s.Workflows.CurrentVersion(ctx, w)
		if err != nil {
			return automation.Action{}, false, err
		}
		if a, ok := TriggerFor(v.Graph(), key); ok {
			return a, true, nil
		}
	}
	a, ok := TriggerFor(w.Draft().Graph, key)
	return a, ok, nil
}

// Create adds an endpoint for the workflow's webhook.trigger whose endpoint_key is key (in
// the current version or the draft). auth_type defaults to the trigger's; the secret is
// returned only now. Errors: invalid (no such trigger, settings), conflict (the project
// already has an endpoint with this key).
func (s *Service) Create(ctx context.Context, w *automation.Workflow, userID uuid.UUID, key string,
	st Settings) (*Endpoint, string, error) {
	trigger, ok, err := s.trigger(ctx, w, key)
	if err != nil {
		return nil, "", err
	}
	if !ok {
		return nil, "", models.Invalid("webhook_trigger_missing", "endpoint_key")
	}
	now := s.now()
	secret := newSecret()
	e := &Endpoint{
		ID: models.NewID(), CompanyID: w.CompanyID, ProjectID: w.ProjectID, WorkflowID: w.ID, EndpointKey: key,
		AuthType: AuthHMACStandard, Status: StatusActive, ContentType: ContentJSON, MaxBodyBytes: DefaultMaxBody,
		SecretSealed: s.Sealer.Seal(secret), CreatedBy: userID, CreatedAt: now, UpdatedAt: now,
	}
	if t, _ := trigger.Config["auth_type"].(string); slices.Contains(authTypes, t) {
		e.AuthType = t
	}
	if err := st.apply(e); err != nil {
		return nil, "", err
	}
	err = s.DB.WithContext(ctx).Create(e).Error
	if models.IsUniqueViolation(err) {
		return nil, "", models.Conflict("endpoint_key_taken", "endpoint_key")
	}
	if err != nil {
		return nil, "", models.Internal("create webhook endpoint: %w", err)
	}
	return e, secret, nil
}

// EndpointAccess returns an endpoint and the caller's standing in its company.
// Errors: not_found.
func (s *Service) EndpointAccess(ctx context.Context, userID, id uuid.UUID) (*Endpoint, *company.Access, error) {
	return company.LoadOwned(ctx, s.Company, userID, id, "webhook_endpoint_not_found", func(e *Endpoint) uuid.UUID { return e.CompanyID })
}

// List returns a workflow's endpoints in creation order.
func (s *Service) List(ctx context.Context, workflowID uuid.UUID, page models.PageRequest) ([]Endpoint, string, error) {
	var rows []Endpoint
	if err := page.Apply(s.DB.WithContext(ctx).Where("workflow_id = ?", workflowID), "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list webhook endpoints: %w", err)
	}
	items, next := models.Page(page, rows, func(e Endpoint) uuid.UUID { return e.ID })
	return items, next, nil
}

// Patch changes an endpoint's settings. Errors: invalid.
func (s *Service) Patch(ctx context.Context, e *Endpoint, st Settings) (*Endpoint, error) {
	out := *e
	if err := st.apply(&out); err != nil {
		return nil, err
	}
	out.UpdatedAt = s.now()
	err := s.DB.WithContext(ctx).Model(&Endpoint{ID: e.ID}).Where("company_id = ?", e.CompanyID).Updates(map[string]any{
		"description": out.Description, "auth_type": out.AuthType, "status": out.Status, "content_type": out.ContentType,
		"max_body_bytes": out.MaxBodyBytes, "basic_username": out.BasicUsername, "updated_at": out.UpdatedAt,
	}).Error
	if err != nil {
		return nil, models.Internal("update webhook endpoint: %w", err)
	}
	return &out, nil
}

// RotateSecret replaces the secret and returns the new one, shown only now. The replaced
// secret keeps verifying for grace (zero ends it at once); a secret replaced earlier stops
// at once, so at most two are ever valid.
func (s *Service) RotateSecret(ctx context.Context, e *Endpoint, grace time.Duration) (*Endpoint, string, error) {
	out := *e
	now := s.now()
	secret := newSecret()
	out.SecretSealed = s.Sealer.Seal(secret)
	out.PreviousSecretSealed, out.PreviousSecretExpiresAt = "", nil
	if grace > 0 {
		until := now.Add(grace)
		out.PreviousSecretSealed, out.PreviousSecretExpiresAt = e.SecretSealed, &until
	}
	out.UpdatedAt = now
	err := s.DB.WithContext(ctx).Model(&Endpoint{ID: e.ID}).Where("company_id = ?", e.CompanyID).Updates(map[string]any{
		"secret_sealed": out.SecretSealed, "previous_secret_sealed": out.PreviousSecretSealed,
		"previous_secret_expires_at": out.PreviousSecretExpiresAt, "updated_at": now,
	}).Error
	if err != nil {
		return nil, "", models.Internal("rotate webhook secret: %w", err)
	}
	return &out, secret, nil
}

// MaskedSecret is the endpoint's current secret masked; empty when it cannot be opened.
func (s *Service) MaskedSecret(e *Endpoint) string {
	secret, err := s.Sealer.Open(e.SecretSealed)
	if err != nil {
		return ""
	}
	return MaskSecret(secret)
}

// PreviousSecretValidUntil is when the previous secret stops verifying; nil when there is
// none, or it already stopped.
func (s *Service) PreviousSecretValidUntil(e *Endpoint) *time.Time {
	if e.PreviousSecretSealed == "" || e.PreviousSecretExpiresAt == nil || !s.now().Before(*e.PreviousSecretExpiresAt) {
		return nil
	}
	return e.PreviousSecretExpiresAt
}

// secrets are the secrets a request may prove: the current one, and the previous one
// during its grace period. A secret that does not open is left out, so an endpoint whose
// secrets are all unreadable verifies nothing.
func (s *Service) secrets(e *Endpoint) []string {
	var out []string
	if secret, err := s.Sealer.Open(e.SecretSealed); err == nil && secret != "" {
		out = append(out, secret)
	}
	if s.PreviousSecretValidUntil(e) != nil {
		if secret, err := s.Sealer.Open(e.PreviousSecretSealed); err == nil && secret != "" {
			out = append(out, secret)
		}
	}
	return out
}

// URL is the address senders post to.
func (s *Service) URL(hookKey string, e *Endpoint) string {
	return s.PublicURL + "/hooks/" + hookKey + "/" + e.EndpointKey
}

// HookKey reads the hook_key of a project, the first path key of its endpoints.
func (s *Service) HookKey(ctx context.Context, companyID, projectID uuid.UUID) (string, error) {
	var key string
	err := s.DB.WithContext(ctx).Model(&company.Project{}).Where("id = ? AND company_id = ?", projectID, companyID).
		Select("hook_key").Scan(&key).Error
	if err != nil {
		return "", models.Internal("read hook key: %w", err)
	}
	return key, nil
}

// SamplePayload is the sample_payload_json of the endpoint's trigger (current version,
// else draft), the body the snippets send; empty when there is none.
func (s *Service) SamplePayload(ctx context.Context, e *Endpoint) (map[string]any, error) {
	w, err := s.workflow(ctx, e)
	if err != nil {
		return nil, err
	}
	a, _, err := s.trigger(ctx, w, e.EndpointKey)
	if err != nil {
		return nil, err
	}
	sample := a.SamplePayload()
	if sample == nil {
		sample = map[string]any{}
	}
	return sample, nil
}

func (s *Service) workflow(ctx context.Context, e *Endpoint) (*automation.Workflow, error) {
	var w automation.Workflow
	if err := s.DB.WithContext(ctx).Take(&w, "id = ? AND company_id = ?", e.WorkflowID, e.CompanyID).Error; err != nil {
		return nil, models.Internal("read workflow of webhook endpoint %s: %w", e.ID, err)
	}
	return &w, nil
}
