package company

import (
	"context"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// WorkspaceContext is a user's active company and project; nil when none is selected.
type WorkspaceContext struct {
	UserID          uuid.UUID `gorm:"primaryKey"`
	ActiveCompanyID *uuid.UUID
	ActiveProjectID *uuid.UUID
	UpdatedAt       time.Time
}

// OptionalID is a patch field: absent (Set false), cleared (Set, ID nil) or set to ID.
type OptionalID struct {
	Set bool
	ID  *uuid.UUID
}

// WorkspacePatch changes the workspace context.
type WorkspacePatch struct {
	ActiveCompanyID OptionalID
	ActiveProjectID OptionalID
}

// Workspace returns a user's context. A company or project the user no longer belongs to
// reads as unset; an active company with one project and none selected reads with that
// project active, as there is nothing to choose.
func (s *Service) Workspace(ctx context.Context, userID uuid.UUID) (*WorkspaceContext, error) {
	wc, err := s.storedWorkspace(ctx, userID)
	if err != nil {
		return nil, err
	}
	return s.withOnlyProject(ctx, wc)
}

// storedWorkspace is the context as stored, less a company the user has left.
func (s *Service) storedWorkspace(ctx context.Context, userID uuid.UUID) (*WorkspaceContext, error) {
	wc := WorkspaceContext{UserID: userID}
	err := s.DB.WithContext(ctx).Take(&wc, "user_id = ?", userID).Error
	if err != nil && !models.IsNotFound(err) {
		return nil, models.Internal("read workspace context: %w", err)
	}
	if wc.ActiveCompanyID != nil {
		if _, err := s.Access(ctx, userID, *wc.ActiveCompanyID); err != nil {
			if !models.IsKind(err, models.KindNotFound) {
				return nil, err
			}
			wc.ActiveCompanyID, wc.ActiveProjectID = nil, nil
		}
	}
	return &wc, nil
}

// withOnlyProject reads the active company's one project as active when none is: a reading,
// not stored, so the context follows when the company gains a second project.
func (s *Service) withOnlyProject(ctx context.Context, wc *WorkspaceContext) (*WorkspaceContext, error) {
	if wc.ActiveCompanyID == nil || wc.ActiveProjectID != nil {
		return wc, nil
	}
	var ids []uuid.UUID
	if err := s.DB.WithContext(ctx).Model(&Project{}).Where("company_id = ?", *wc.ActiveCompanyID).Limit(2).Pluck("id", &ids).Error; err != nil {
		return nil, models.Internal("read the company's projects: %w", err)
	}
	if len(ids) == 1 {
		wc.ActiveProjectID = &ids[0]
	}
	return wc, nil
}

// PutWorkspace applies a patch and answers the context as Workspace reads it. Setting a
// project also selects its company; changing the company alone clears a project of another
// company. A company or project the user does
// not belong to is invalid input. Errors: invalid (active_company_id, active_project_id).
func (s *Service) PutWorkspace(ctx context.Context, userID uuid.UUID, p WorkspacePatch) (*WorkspaceContext, error) {
	wc, err := s.storedWorkspace(ctx, userID)
	if err != nil {
		return nil, err
	}
	if p.ActiveCompanyID.Set {
		wc.ActiveCompanyID = p.ActiveCompanyID.ID
		if wc.ActiveCompanyID != nil {
			if _, err := s.Access(ctx, userID, *wc.ActiveCompanyID); err != nil {
				return nil, notMember(err, "active_company_id")
			}
		}
	}
	switch {
	case p.ActiveProjectID.Set && p.ActiveProjectID.ID != nil:
		project, _, err := s.ProjectAccess(ctx, userID, *p.ActiveProjectID.ID)
		if err != nil {
			return nil, notMember(err, "active_project_id")
		}
		if p.ActiveCompanyID.Set && (wc.ActiveCompanyID == nil || *wc.ActiveCompanyID != project.CompanyID) {
			return nil, models.Invalid("project_outside_company", "active_company_id", "active_project_id")
		}
		wc.ActiveCompanyID, wc.ActiveProjectID = &project.CompanyID, &project.ID
	case p.ActiveProjectID.Set:
		wc.ActiveProjectID = nil
	case wc.ActiveProjectID != nil:
		if wc.ActiveCompanyID == nil {
			wc.ActiveProjectID = nil
		} else if project, _, err := s.ProjectAccess(ctx, userID, *wc.ActiveProjectID); err != nil || project.CompanyID != *wc.ActiveCompanyID {
			wc.ActiveProjectID = nil
		}
	}
	if err := s.saveWorkspace(s.DB.WithContext(ctx), wc); err != nil {
		return nil, err
	}
	return s.withOnlyProject(ctx, wc)
}

// Switch makes a company the caller's active one (the caller's access is already checked).
func (s *Service) Switch(ctx context.Context, userID uuid.UUID, companyID uuid.UUID) (*WorkspaceContext, error) {
	return s.PutWorkspace(ctx, userID, WorkspacePatch{ActiveCompanyID: OptionalID{Set: true, ID: &companyID}})
}

func (s *Service) saveWorkspace(tx *gorm.DB, wc *WorkspaceContext) error {
	wc.UpdatedAt = s.now()
	err := tx.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "user_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"active_company_id", "active_project_id", "updated_at"}),
	}).Create(wc).Error
	if err != nil {
		return models.Internal("save workspace context: %w", err)
	}
	return nil
}

// activateIfNone makes companyID active for a user who has no active company yet. An active
// company the user has since left counts as none, as Workspace reads it.
func (s *Service) activateIfNone(tx *gorm.DB, userID, companyID uuid.UUID) error {
	var wc WorkspaceContext
	err := tx.Take(&wc, "user_id = ?", userID).Error
	if err == nil && wc.ActiveCompanyID != nil {
		var n int64
		if err := tx.Model(&Member{}).Where("company_id = ? AND user_id = ?", *wc.ActiveCompanyID, userID).Count(&n).Error; err != nil {
			return models.Internal("check active company: %w", err)
		}
		if n > 0 {
			return nil
		}
	}
	if err != nil && !models.IsNotFound(err) {
		return models.Internal("read workspace context: %w", err)
	}
	return s.saveWorkspace(tx, &WorkspaceContext{UserID: userID, ActiveCompanyID: &companyID})
}

// notMember turns "not found" into invalid input for the patch field that named it.
func notMember(err error, field string) error {
	if models.IsKind(err, models.KindNotFound) {
		return models.Invalid("not_a_member", field)
	}
	return err
}
