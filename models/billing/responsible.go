package billing

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// ResponsibleRoles are what a member may be responsible for at a client.
var ResponsibleRoles = []string{"account_manager", "project_manager", "accountant", "sales_manager"}

// Responsible is a company member answering for a client in a role. A member holds a role at
// a client once (a unique index), and may hold several roles.
type Responsible struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	ClientID  uuid.UUID
	UserID    uuid.UUID
	Role      string
	CreatedAt time.Time
	UpdatedAt time.Time
}

func (Responsible) TableName() string { return "client_responsibles" }

// ResponsibleView is a responsible with the member's e-mail and name.
type ResponsibleView struct {
	Responsible
	Email string
	Name  string
}

// ResponsibleFields are the writable fields; in a patch nil means "leave alone".
type ResponsibleFields struct {
	UserID *uuid.UUID
	Role   *string
}

// responsibleViews selects a client's responsibles as ResponsibleView rows.
func responsibleViews(db *gorm.DB, clientID uuid.UUID) *gorm.DB {
	return db.Table("client_responsibles").
		Select("client_responsibles.*, users.email, users.name").
		Joins("JOIN users ON users.id = client_responsibles.user_id").
		Where("client_responsibles.client_id = ?", clientID)
}

// checkResponsible refuses an unknown role and a user who is not a member of the company.
func checkResponsible(tx *gorm.DB, r *Responsible) error {
	if !slices.Contains(ResponsibleRoles, r.Role) {
		return models.Invalid("invalid_responsible_role", "role")
	}
	var members int64
	if err := tx.Table("company_members").Where("company_id = ? AND user_id = ?", r.CompanyID, r.UserID).Count(&members).Error; err != nil {
		return models.Internal("check member: %w", err)
	}
	if members == 0 {
		return models.Invalid("responsible_not_a_member", "user_id")
	}
	return nil
}

// responsibleSaveError maps a write: the same member in the same role twice is a conflict.
func responsibleSaveError(err error) error {
	if models.IsUniqueViolation(err) {
		return models.Conflict("responsible_taken", "user_id", "role")
	}
	return models.Internal("save responsible: %w", err)
}

// CreateResponsible makes a company member responsible for a client.
// Errors: invalid (user_id, role), conflict (already in that role).
func (s *Service) CreateResponsible(ctx context.Context, client *Client, f ResponsibleFields) (*ResponsibleView, error) {
	now := s.now()
	r := Responsible{
		ID:        models.NewID(),
		CompanyID: client.CompanyID,
		ClientID:  client.ID,
		UserID:    *f.UserID,
		Role:      *f.Role,
		CreatedAt: now,
		UpdatedAt: now,
	}
	db := s.DB.WithContext(ctx)
	if err := checkResponsible(db, &r); err != nil {
		return nil, err
	}
	if err := db.Create(&r).Error; err != nil {
		return nil, responsibleSaveError(err)
	}
	return s.responsibleView(ctx, &r)
}

func (s *Service) responsibleView(ctx context.Context, r *Responsible) (*ResponsibleView, error) {
	var v ResponsibleView
	err := responsibleViews(s.DB.WithContext(ctx), r.ClientID).Where("client_responsibles.id = ?", r.ID).Take(&v).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("client_responsible_not_found")
	}
	if err != nil {
		return nil, models.Internal("read responsible: %w", err)
	}
	return &v, nil
}

// ResponsibleOf reads a responsible of a client. Errors: not_found.
func (s *Service) ResponsibleOf(ctx context.Context, client *Client, id uuid.UUID) (*ResponsibleView, error) {
	return s.responsibleView(ctx, &Responsible{ID: id, ClientID: client.ID})
}

// Responsibles lists a client's responsibles.
func (s *Service) Responsibles(ctx context.Context, client *Client, page models.PageRequest) ([]ResponsibleView, string, error) {
	var rows []ResponsibleView
	if err := page.Apply(responsibleViews(s.DB.WithContext(ctx), client.ID), "client_responsibles.id").Scan(&rows).Error; err != nil {
		return nil, "", models.Internal("list responsibles: %w", err)
	}
	items, next := models.Page(page, rows, func(r ResponsibleView) uuid.UUID { return r.ID })
	return items, next, nil
}

// PatchResponsible changes the member or the role.
// Errors: invalid (user_id, role), conflict (already in that role), not_found.
func (s *Service) PatchResponsible(ctx context.Context, r *ResponsibleView, f ResponsibleFields) (*ResponsibleView, error) {
	out := r.Responsible
	if f.UserID != nil {
		out.UserID = *f.UserID
	}
	if f.Role != nil {
		out.Role = *f.Role
	}
	out.UpdatedAt = s.now()
	db := s.DB.WithContext(ctx)
	if err := checkResponsible(db, &out); err != nil {
		return nil, err
	}
	err := db.Model(&Responsible{ID: out.ID}).Where("client_id = ?", out.ClientID).
		Updates(map[string]any{"user_id": out.UserID, "role": out.Role, "updated_at": out.UpdatedAt}).Error
	if err != nil {
		return nil, responsibleSaveError(err)
	}
	return s.responsibleView(ctx, &out)
}

// DeleteResponsible removes a responsible.
func (s *Service) DeleteResponsible(ctx context.Context, r *ResponsibleView) error {
	if err := s.DB.WithContext(ctx).Where("client_id = ?", r.ClientID).Delete(&Responsible{ID: r.ID}).Error; err != nil {
		return models.Internal("delete responsible: %w", err)
	}
	return nil
}
