package company

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// Company is a tenant.
type Company struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	Slug      string
	Name      string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Member is a user's membership in a company.
type Member struct {
	CompanyID uuid.UUID `gorm:"primaryKey"`
	UserID    uuid.UUID `gorm:"primaryKey"`
	Role      Role
	CreatedAt time.Time
}

func (Member) TableName() string { return "company_members" }

// Access is a caller's standing in one company: what they may do there.
type Access struct {
	Company Company
	Role    Role
}

// Service implements tenancy.
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

func checkCompanyName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if n := utf8.RuneCountInString(name); n < 1 || n > 200 {
		return "", models.Invalid("invalid_name", "name")
	}
	return name, nil
}

var slugPattern = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`)

// Create makes a company with the caller as its owner. A caller with no active company
// gets this one as active. Errors: invalid (name).
func (s *Service) Create(ctx context.Context, userID uuid.UUID, name string) (*Access, error) {
	name, err := checkCompanyName(name)
	if err != nil {
		return nil, err
	}
	now := s.now()
	c := Company{ID: models.NewID(), Name: name, CreatedAt: now, UpdatedAt: now}
	// A concurrent create can take the free slug between the check and the insert; the
	// unique index refuses the later insert, which then starts over and picks another slug.
	for attempt := 1; ; attempt++ {
		err = s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			slug, err := uniqueSlug(tx, slugify(name))
			if err != nil {
				return err
			}
			c.Slug = slug
			if err := tx.Create(&c).Error; err != nil {
				return models.Internal("create company: %w", err)
			}
			if err := tx.Create(&Member{CompanyID: c.ID, UserID: userID, Role: RoleOwner, CreatedAt: now}).Error; err != nil {
				return models.Internal("add owner: %w", err)
			}
			return s.activateIfNone(tx, userID, c.ID)
		})
		if attempt == 5 || !models.IsUniqueViolation(err) {
			break
		}
	}
	if err != nil {
		return nil, models.AsError(err)
	}
	return &Access{Company: c, Role: RoleOwner}, nil
}

// uniqueSlug returns base, or base with a short random suffix when base is taken.
func uniqueSlug(tx *gorm.DB, base string) (string, error) {
	slug := base
	for range 5 {
		var n int64
		if err := tx.Model(&Company{}).Where("slug = ?", slug).Count(&n).Error; err != nil {
			return "", models.Internal("check slug: %w", err)
		}
		if n == 0 {
			return slug, nil
		}
		slug = fmt.Sprintf("%s-%04x", base, rand.IntN(1<<16))
	}
	return "", models.Internal("no free slug for %q", base)
}

// Access returns the caller's standing in a company. A company the caller is not a member
// of is reported as not found, never as forbidden. Errors: not_found.
func (s *Service) Access(ctx context.Context, userID, companyID uuid.UUID) (*Access, error) {
	var row struct {
		Company
		Role Role
	}
	err := s.DB.WithContext(ctx).Table("companies").
		Select("companies.*, company_members.role").
		Joins("JOIN company_members ON company_members.company_id = companies.id AND company_members.user_id = ?", userID).
		Where("companies.id = ?", companyID).Take(&row).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("company_not_found")
	}
	if err != nil {
		return nil, models.Internal("read company access: %w", err)
	}
	return &Access{Company: row.Company, Role: row.Role}, nil
}

// LoadOwned reads a company-owned row by id with the caller's standing in its company. A
// missing row and a row of a company the caller is not in are the same not_found (under
// notFoundKey), so other tenants' rows cannot be detected. Errors: not_found.
func LoadOwned[T any](ctx context.Context, s *Service, userID, id uuid.UUID, notFoundKey string,
	companyOf func(*T) uuid.UUID) (*T, *Access, error) {
	var row T
	err := s.DB.WithContext(ctx).Take(&row, "id = ?", id).Error
	if models.IsNotFound(err) {
		return nil, nil, models.NotFound(notFoundKey)
	}
	if err != nil {
		return nil, nil, models.Internal("read %T: %w", row, err)
	}
	a, err := s.Access(ctx, userID, companyOf(&row))
	if models.IsKind(err, models.KindNotFound) {
		return nil, nil, models.NotFound(notFoundKey)
	}
	if err != nil {
		return nil, nil, err
	}
	return &row, a, nil
}

// List returns the companies the caller belongs to, with the caller's role in each.
func (s *Service) List(ctx context.Context, userID uuid.UUID, page models.PageRequest) ([]Access, string, error) {
	var rows []struct {
		Company
		Role Role
	}
	q := s.DB.WithContext(ctx).Table("companies").
		Select("companies.*, company_members.role").
		Joins("JOIN company_members ON company_members.company_id = companies.id AND company_members.user_id = ?", userID)
	if err := page.Apply(q, "companies.id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list companies: %w", err)
	}
	out := make([]Access, len(rows))
	for i, r := range rows {
		out[i] = Access{Company: r.Company, Role: r.Role}
	}
	items, next := models.Page(page, out, func(a Access) uuid.UUID { return a.Company.ID })
	return items, next, nil
}

// CompanyPatch changes a company; nil fields are left alone.
type CompanyPatch struct {
	Name *string
	Slug *string
}

// Patch changes a company's name or slug. Errors: invalid (name, slug), conflict (slug).
func (s *Service) Patch(ctx context.Context, a *Access, p CompanyPatch) (*Access, error) {
	c := a.Company
	if p.Name != nil {
		name, err := checkCompanyName(*p.Name)
		if err != nil {
			return nil, err
		}
		c.Name = name
	}
	if p.Slug != nil {
		if !slugPattern.MatchString(*p.Slug) {
			return nil, models.Invalid("invalid_slug", "slug")
		}
		c.Slug = *p.Slug
	}
	c.UpdatedAt = s.now()
	err := s.DB.WithContext(ctx).Model(&Company{ID: c.ID}).
		Updates(map[string]any{"name": c.Name, "slug": c.Slug, "updated_at": c.UpdatedAt}).Error
	if models.IsUniqueViolation(err) {
		return nil, models.Conflict("slug_taken", "slug")
	}
	if err != nil {
		return nil, models.Internal("update company: %w", err)
	}
	return &Access{Company: c, Role: a.Role}, nil
}
