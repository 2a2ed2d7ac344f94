package integration

import (
	"context"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// ProviderPartyLookup is the one party lookup provider protocol there is, named as the
// specification names the company-registry lookup provider.
const ProviderPartyLookup = "party_lookup"

// Scopes of party lookup settings, and what EffectivePartyLookup answers when neither
// applies.
const (
	ScopeCompany = "company"
	ScopeProject = "project"
	ScopeNone    = "none"
)

// PartyLookupIntegration is the registry provider a company, or one of its projects, looks
// parties up with. ProjectID is nil for the company's own settings. A disabled one is kept
// with its token but not used: a project's falls back to the company's.
type PartyLookupIntegration struct {
	ID         uuid.UUID `gorm:"primaryKey"`
	CompanyID  uuid.UUID
	ProjectID  *uuid.UUID
	Provider   string
	APIBaseURL string `gorm:"column:api_base_url"`
	Enabled    bool
	// TokenSealed is the provider's API token, encrypted; TokenMasked is what answers show.
	TokenSealed string
	TokenMasked string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Scope tells whose settings these are: ScopeCompany or ScopeProject.
func (p *PartyLookupIntegration) Scope() string {
	if p.ProjectID != nil {
		return ScopeProject
	}
	return ScopeCompany
}

// PartyLookupInput is what a save takes. A nil Token keeps the stored one; a nil Enabled
// means true.
type PartyLookupInput struct {
	Provider   string
	APIBaseURL string
	Token      *string
	Enabled    *bool
}

// maxPartyLookupURL and maxPartyLookupToken bound the settings.
const (
	maxPartyLookupURL   = 2000
	maxPartyLookupToken = 1000
)

// checkBaseURL accepts an absolute http or https URL without credentials, query or
// fragment: the client appends the method's path to it.
func checkBaseURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && len(raw) <= maxPartyLookupURL && (u.Scheme == "http" || u.Scheme == "https") &&
		u.Host != "" && u.User == nil && u.RawQuery == "" && u.Fragment == ""
}

// partyLookupScope narrows a query to the company's own settings or a project's.
func partyLookupScope(companyID uuid.UUID, projectID *uuid.UUID) (string, []any) {
	if projectID == nil {
		return "company_id = ? AND project_id IS NULL", []any{companyID}
	}
	return "company_id = ? AND project_id = ?", []any{companyID, *projectID}
}

// PartyLookupOf reads the company's own settings (projectID nil) or a project's; nil when
// there are none.
func (s *Service) PartyLookupOf(ctx context.Context, companyID uuid.UUID, projectID *uuid.UUID) (*PartyLookupIntegration, error) {
	where, args := partyLookupScope(companyID, projectID)
	var rows []PartyLookupIntegration
	if err := s.DB.WithContext(ctx).Where(where, args...).Limit(1).Find(&rows).Error; err != nil {
		return nil, models.Internal("read party lookup integration: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return &rows[0], nil
}

// SavePartyLookup creates or replaces the company's own settings (projectID nil) or a
// project's. Without a token it changes stored settings and keeps their token; settings
// that do not exist yet need one. Errors: invalid (provider, api_base_url, token).
func (s *Service) SavePartyLookup(ctx context.Context, companyID uuid.UUID, projectID *uuid.UUID, in PartyLookupInput) error {
	var bad []string
	if in.Provider != ProviderPartyLookup {
		bad = append(bad, "provider")
	}
	baseURL := strings.TrimRight(strings.TrimSpace(in.APIBaseURL), "/")
	if !checkBaseURL(baseURL) {
		bad = append(bad, "api_base_url")
	}
	if in.Token != nil {
		if n := utf8.RuneCountInString(*in.Token); n < 1 || n > maxPartyLookupToken || strings.TrimSpace(*in.Token) != *in.Token {
			bad = append(bad, "token")
		}
	}
	if len(bad) > 0 {
		return models.Invalid("invalid_party_lookup", bad...)
	}
	now := s.now()
	p := PartyLookupIntegration{
		ID: models.NewID(), CompanyID: companyID, ProjectID: projectID, Provider: in.Provider, APIBaseURL: baseURL,
		Enabled: in.Enabled == nil || *in.Enabled, CreatedAt: now, UpdatedAt: now,
	}
	db := s.DB.WithContext(ctx)
	if in.Token == nil {
		where, args := partyLookupScope(companyID, projectID)
		res := db.Model(&PartyLookupIntegration{}).Where(where, args...).
			Updates(map[string]any{"provider": p.Provider, "api_base_url": p.APIBaseURL, "enabled": p.Enabled, "updated_at": now})
		if res.Error != nil {
			return models.Internal("update party lookup integration: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return models.Invalid("party_lookup_token_required", "token")
		}
		return nil
	}
	p.TokenSealed, p.TokenMasked = s.Sealer.Seal(*in.Token), maskSecret(*in.Token)
	// One row per scope, kept by a partial unique index of each scope; a concurrent first
	// save becomes an update instead of failing.
	column, scope := "company_id", "project_id IS NULL"
	if projectID != nil {
		column, scope = "project_id", "project_id IS NOT NULL"
	}
	upsert := clause.OnConflict{
		Columns: []clause.Column{{Name: column}}, TargetWhere: clause.Where{Exprs: []clause.Expression{clause.Expr{SQL: scope}}},
		DoUpdates: clause.AssignmentColumns([]string{"provider", "api_base_url", "enabled", "token_sealed", "token_masked", "updated_at"}),
	}
	if err := db.Clauses(upsert).Create(&p).Error; err != nil {
		return models.Internal("save party lookup integration: %w", err)
	}
	return nil
}

// EffectivePartyLookup finds the settings a lookup uses: the project's when projectID names
// one with enabled settings, else the company's when enabled, else nil. Errors: invalid
// (project_id: not a project of the company).
func (s *Service) EffectivePartyLookup(ctx context.Context, companyID uuid.UUID, projectID *uuid.UUID) (*PartyLookupIntegration, error) {
	if projectID != nil {
		var n int64
		if err := s.DB.WithContext(ctx).Table("projects").Where("id = ? AND company_id = ?", *projectID, companyID).Count(&n).Error; err != nil {
			return nil, models.Internal("read project: %w", err)
		}
		if n == 0 {
			return nil, models.Invalid("party_lookup_project_unknown", "project_id")
		}
		p, err := s.PartyLookupOf(ctx, companyID, projectID)
		if err != nil || p != nil && p.Enabled {
			return p, err
		}
	}
	p, err := s.PartyLookupOf(ctx, companyID, nil)
	if err != nil || p == nil || !p.Enabled {
		return nil, err
	}
	return p, nil
}

// PartyLookupToken decrypts the token of settings. Errors: internal.
func (s *Service) PartyLookupToken(p *PartyLookupIntegration) (string, error) {
	token, err := s.Sealer.Open(p.TokenSealed)
	if err != nil {
		return "", models.Internal("open party lookup token %s: %w", p.ID, err)
	}
	return token, nil
}
