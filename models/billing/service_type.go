package billing

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/schemas"
)

// Scopes of a client service type: global ones come from schemas/billing/service_types.json
// and are read-only, company ones are seen in every project of the company, project ones in
// their project only.
const (
	ScopeGlobal  = "global"
	ScopeCompany = "company"
	ScopeProject = "project"
)

// ServiceTypeStatuses are the states of a client service type; archived and deleted ones
// are hidden from lists unless asked for, and new services cannot take them.
var ServiceTypeStatuses = []string{StatusActive, StatusArchived, StatusDeleted}

// maxServiceTypes caps the company and project service types of one company, so that the
// lists, which are not paged, stay short.
const maxServiceTypes = 500

// ServiceType is a kind of client service. A key is unique within a company across its
// company and project types (a unique index) and never repeats a global key, so a key names
// one type wherever the company's services are.
type ServiceType struct {
	ID          uuid.UUID `gorm:"primaryKey"`
	CompanyID   uuid.UUID
	ProjectID   *uuid.UUID
	Key         string `gorm:"column:service_type_key"`
	DisplayName string
	Description string
	SortOrder   int
	Status      string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

func (ServiceType) TableName() string { return "client_service_types" }

// Scope tells whether the type is global, a company's or a project's.
func (t *ServiceType) Scope() string {
	switch {
	case t.CompanyID == uuid.Nil:
		return ScopeGlobal
	case t.ProjectID == nil:
		return ScopeCompany
	}
	return ScopeProject
}

// globalTypes are the global service types by id, active and of no company.
var globalTypes = func() map[uuid.UUID]ServiceType {
	out := map[uuid.UUID]ServiceType{}
	for _, g := range schemas.GlobalServiceTypes {
		out[g.ID] = ServiceType{
			ID:          g.ID,
			Key:         g.Key,
			DisplayName: g.DisplayName,
			Description: g.Description,
			SortOrder:   g.SortOrder,
			Status:      StatusActive,
		}
	}
	return out
}()

func globalTypeByKey(key string) (ServiceType, bool) {
	for _, g := range globalTypes {
		if g.Key == key {
			return g, true
		}
	}
	return ServiceType{}, false
}

// ServiceTypeFields are the writable fields; in a patch nil means "leave alone".
type ServiceTypeFields struct {
	DisplayName, Description, Key, Status *string
	SortOrder                             *int
}

// keyFromName makes a key of the Latin letters and digits of a name ("Site audit" →
// site_audit), or of the type's id when the name has none (a Cyrillic name). A key a
// global type has (a type named "Hosting") gets the end of the type's id as a suffix
// (hosting_1a2b3c4d5e6f), so that naming a type never clashes with the global ones.
func keyFromName(name string, id uuid.UUID) string {
	key := keyOfLetters(name)
	suffix := strings.ReplaceAll(id.String(), "-", "")[20:]
	if key == "" {
		return "type_" + suffix
	}
	if _, taken := globalTypeByKey(key); taken {
		return key[:min(len(key), 64-len(suffix)-1)] + "_" + suffix
	}
	return key
}

func keyOfLetters(name string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' && b.Len() > 0:
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			gap = false
		default:
			gap = true
		}
	}
	return b.String()[:min(b.Len(), 64)]
}

func (t *ServiceType) validate() error {
	var bad fieldCheck
	bad.text("display_name", t.DisplayName, 1, 200)
	bad.text("description", t.Description, 0, 2000)
	bad.check("service_type_key", schemas.ServiceTypeKeyPattern.MatchString(t.Key))
	bad.check("status", slices.Contains(ServiceTypeStatuses, t.Status))
	bad.check("sort_order", t.SortOrder >= -1_000_000 && t.SortOrder <= 1_000_000)
	if err := bad.err("invalid_service_type"); err != nil {
		return err
	}
	if _, taken := globalTypeByKey(t.Key); taken {
		return models.Conflict("service_type_key_taken", "service_type_key")
	}
	return nil
}

func serviceTypeSaveError(err error) error {
	if models.IsUniqueViolation(err) {
		return models.Conflict("service_type_key_taken", "service_type_key")
	}
	return models.Internal("save service type: %w", err)
}

// CreateServiceType adds a type to a company, or to one of its projects when projectID is
// set. Without a key, one is made from the name.
// Errors: invalid (each bad field), conflict (service_type_key; too many types).
func (s *Service) CreateServiceType(ctx context.Context, companyID uuid.UUID, projectID *uuid.UUID,
	f ServiceTypeFields) (*ServiceType, error) {
	now := s.now()
	t := ServiceType{ID: models.NewID(), CompanyID: companyID, ProjectID: projectID, Status: StatusActive, CreatedAt: now, UpdatedAt: now}
	f.applyTo(&t)
	if f.Key == nil {
		t.Key = keyFromName(t.DisplayName, t.ID)
	}
	if err := t.validate(); err != nil {
		return nil, err
	}
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&ServiceType{}).Where("company_id = ?", companyID).Count(&n).Error; err != nil {
			return models.Internal("count service types: %w", err)
		}
		if n >= maxServiceTypes {
			return models.Conflict("too_many_service_types")
		}
		if err := tx.Create(&t).Error; err != nil {
			return serviceTypeSaveError(err)
		}
		return nil
	})
	if err != nil {
		return nil, models.AsError(err)
	}
	return &t, nil
}

func (f ServiceTypeFields) applyTo(t *ServiceType) {
	setText(&t.DisplayName, f.DisplayName)
	setText(&t.Description, f.Description)
	setText(&t.Key, f.Key)
	setText(&t.Status, f.Status)
	if f.SortOrder != nil {
		t.SortOrder = *f.SortOrder
	}
}

// ServiceTypes lists the types seen in a company (projectID nil: global and company ones) or
// in a project of it (global, company and the project's), in sort order, then by name.
func (s *Service) ServiceTypes(ctx context.Context, companyID uuid.UUID, projectID *uuid.UUID, statuses []string) ([]ServiceType, error) {
	var out []ServiceType
	for _, g := range schemas.GlobalServiceTypes {
		if t := globalTypes[g.ID]; slices.Contains(statuses, t.Status) {
			out = append(out, t)
		}
	}
	var rows []ServiceType
	q := s.DB.WithContext(ctx).Where("company_id = ? AND status IN ?", companyID, statuses)
	if projectID == nil {
		q = q.Where("project_id IS NULL")
	} else {
		q = q.Where("project_id IS NULL OR project_id = ?", *projectID)
	}
	if err := q.Find(&rows).Error; err != nil {
		return nil, models.Internal("list service types: %w", err)
	}
	out = append(out, rows...)
	slices.SortStableFunc(out, func(a, b ServiceType) int {
		if a.SortOrder != b.SortOrder {
			return a.SortOrder - b.SortOrder
		}
		return strings.Compare(a.DisplayName, b.DisplayName)
	})
	return out, nil
}

// ServiceTypeIn reads a global type or a type of a company: with projectID, only one seen
// in that project (not another project's). Errors: not_found.
func (s *Service) ServiceTypeIn(ctx context.Context, companyID uuid.UUID, projectID *uuid.UUID, id uuid.UUID) (*ServiceType, error) {
	return serviceTypeIn(s.DB.WithContext(ctx), companyID, projectID, id)
}

func serviceTypeIn(db *gorm.DB, companyID uuid.UUID, projectID *uuid.UUID, id uuid.UUID) (*ServiceType, error) {
	if g, ok := globalTypes[id]; ok {
		return &g, nil
	}
	var t ServiceType
	err := db.Take(&t, "id = ? AND company_id = ?", id, companyID).Error
	if err == nil && t.ProjectID != nil && projectID != nil && *t.ProjectID != *projectID {
		err = gorm.ErrRecordNotFound
	}
	if models.IsNotFound(err) {
		return nil, models.NotFound("client_service_type_not_found")
	}
	if err != nil {
		return nil, models.Internal("read service type: %w", err)
	}
	return &t, nil
}

// PatchServiceType changes a type of the scope it is changed in: the company's own types at
// the company, a project's own types at the project. Global types are read-only.
// Errors: invalid (each bad field), conflict (read-only or of another scope; service_type_key).
func (s *Service) PatchServiceType(ctx context.Context, t *ServiceType, scope string, f ServiceTypeFields) (*ServiceType, error) {
	if err := changeableIn(t, scope); err != nil {
		return nil, err
	}
	out := *t
	f.applyTo(&out)
	if err := out.validate(); err != nil {
		return nil, err
	}
	out.UpdatedAt = s.now()
	err := s.DB.WithContext(ctx).Model(&ServiceType{ID: t.ID}).Where("company_id = ?", t.CompanyID).
		Updates(map[string]any{"display_name": out.DisplayName, "description": out.Description, "service_type_key": out.Key,
			"sort_order": out.SortOrder, "status": out.Status, "updated_at": out.UpdatedAt}).Error
	if err != nil {
		return nil, serviceTypeSaveError(err)
	}
	return &out, nil
}

// ArchiveServiceType archives a type of the scope it is archived in; services that have it
// keep it. Errors: conflict (read-only or of another scope).
func (s *Service) ArchiveServiceType(ctx context.Context, t *ServiceType, scope string) error {
	if err := changeableIn(t, scope); err != nil {
		return err
	}
	err := s.DB.WithContext(ctx).Model(&ServiceType{ID: t.ID}).Where("company_id = ?", t.CompanyID).
		Updates(map[string]any{"status": StatusArchived, "updated_at": s.now()}).Error
	if err != nil {
		return models.Internal("archive service type: %w", err)
	}
	return nil
}

func changeableIn(t *ServiceType, scope string) error {
	switch t.Scope() {
	case scope:
		return nil
	case ScopeGlobal:
		return models.Conflict("service_type_read_only", "client_service_type_id")
	}
	return models.Conflict("service_type_other_scope", "client_service_type_id")
}
