package company

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"agencyhub/models"
)

// Project belongs to a company and receives inbound webhooks at /hooks/{hook_key}/...
type Project struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	Name      string
	HookKey   string
	// HookSecretSealed is the webhook signing secret, encrypted at rest.
	HookSecretSealed string
	// BillingHorizonDays is how many days ahead the billing cycle bills the project's
	// services (DefaultBillingHorizonDays for a new project).
	BillingHorizonDays int
	CreatedAt          time.Time
	UpdatedAt          time.Time
}

// Bounds of Project.BillingHorizonDays: a week by default; 0 bills on the due date.
const (
	DefaultBillingHorizonDays = 7
	MaxBillingHorizonDays     = 90
)

// HookSecret decrypts the project's webhook secret.
func (s *Service) HookSecret(p *Project) (string, error) {
	secret, err := s.Sealer.Open(p.HookSecretSealed)
	if err != nil {
		return "", models.Internal("open hook secret of project %s: %w", p.ID, err)
	}
	return secret, nil
}

func checkProjectName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if n := utf8.RuneCountInString(name); n < 1 || n > 200 {
		return "", models.Invalid("invalid_name", "name")
	}
	return name, nil
}

// newHookSecret makes a webhook secret. It has no fixed prefix: responses identify a secret
// by its first characters (models.Mask), and a prefix would make every mask the same.
func newHookSecret() string { return models.RandomToken(32) }

// CreateProject adds a project to a company; the returned secret is shown only now.
// Errors: invalid (name).
func (s *Service) CreateProject(ctx context.Context, companyID uuid.UUID, name string) (*Project, string, error) {
	name, err := checkProjectName(name)
	if err != nil {
		return nil, "", err
	}
	now := s.now()
	secret := newHookSecret()
	p := &Project{
		ID: models.NewID(), CompanyID: companyID, Name: name, HookKey: models.RandomToken(18),
		HookSecretSealed: s.Sealer.Seal(secret), BillingHorizonDays: DefaultBillingHorizonDays, CreatedAt: now, UpdatedAt: now,
	}
	if err := s.DB.WithContext(ctx).Create(p).Error; err != nil {
		return nil, "", models.Internal("create project: %w", err)
	}
	return p, secret, nil
}

// ProjectAccess returns a project and the caller's standing in its company.
// Errors: not_found.
func (s *Service) ProjectAccess(ctx context.Context, userID, projectID uuid.UUID) (*Project, *Access, error) {
	return LoadOwned(ctx, s, userID, projectID, "project_not_found", func(p *Project) uuid.UUID { return p.CompanyID })
}

// Projects lists a company's projects.
func (s *Service) Projects(ctx context.Context, companyID uuid.UUID, page models.PageRequest) ([]Project, string, error) {
	var rows []Project
	q := s.DB.WithContext(ctx).Where("company_id = ?", companyID)
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list projects: %w", err)
	}
	items, next := models.Page(page, rows, func(p Project) uuid.UUID { return p.ID })
	return items, next, nil
}

// ReadableProjects lists every project of every company the user belongs to: each role
// may read its company's projects.
func (s *Service) ReadableProjects(ctx context.Context, userID uuid.UUID) ([]Project, error) {
	var out []Project
	err := eachPage(func(page models.PageRequest) (string, error) {
		companies, next, err := s.List(ctx, userID, page)
		for _, a := range companies {
			if !a.Role.Can(PermRead) {
				continue
			}
			perr := eachPage(func(page models.PageRequest) (string, error) {
				projects, next, err := s.Projects(ctx, a.Company.ID, page)
				out = append(out, projects...)
				return next, err
			})
			if perr != nil {
				return "", perr
			}
		}
		return next, err
	})
	return out, err
}

// eachPage calls list for every page, from the first until one has no next cursor.
func eachPage(list func(models.PageRequest) (string, error)) error {
	page := models.PageRequest{Limit: models.MaxPageLimit}
	for {
		next, err := list(page)
		if err != nil || next == "" {
			return err
		}
		page.Cursor = next
	}
}

// ProjectPatch changes a project; nil fields are left alone.
type ProjectPatch struct {
	Name               *string
	BillingHorizonDays *int
}

// PatchProject applies a patch. Errors: invalid (name, billing_horizon_days).
func (s *Service) PatchProject(ctx context.Context, p *Project, patch ProjectPatch) (*Project, error) {
	out := *p
	if patch.Name != nil {
		name, err := checkProjectName(*patch.Name)
		if err != nil {
			return nil, err
		}
		out.Name = name
	}
	if days := patch.BillingHorizonDays; days != nil {
		if *days < 0 || *days > MaxBillingHorizonDays {
			return nil, models.Invalid("invalid_billing_horizon", "billing_horizon_days")
		}
		out.BillingHorizonDays = *days
	}
	out.UpdatedAt = s.now()
	err := s.DB.WithContext(ctx).Model(&Project{ID: p.ID}).Where("company_id = ?", p.CompanyID).
		Updates(map[string]any{"name": out.Name, "billing_horizon_days": out.BillingHorizonDays, "updated_at": out.UpdatedAt}).Error
	if err != nil {
		return nil, models.Internal("update project: %w", err)
	}
	return &out, nil
}

// RotateHookSecret replaces the project's webhook secret and returns the new one, shown
// only now; the old one stops verifying at once.
func (s *Service) RotateHookSecret(ctx context.Context, p *Project) (*Project, string, error) {
	out := *p
	secret := newHookSecret()
	out.HookSecretSealed = s.Sealer.Seal(secret)
	out.UpdatedAt = s.now()
	err := s.DB.WithContext(ctx).Model(&Project{ID: p.ID}).Where("company_id = ?", p.CompanyID).
		Updates(map[string]any{"hook_secret_sealed": out.HookSecretSealed, "updated_at": out.UpdatedAt}).Error
	if err != nil {
		return nil, "", models.Internal("rotate hook secret: %w", err)
	}
	return &out, secret, nil
}
