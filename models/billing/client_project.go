package billing

import (
	"context"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/models/company"
)

// ClientProject links a client to a project of its company: the projects an agency works on
// for the client. A service of the client in a project links them too.
type ClientProject struct {
	ClientID  uuid.UUID `gorm:"primaryKey"`
	ProjectID uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	CreatedAt time.Time
}

func (ClientProject) TableName() string { return "client_projects" }

// LinkedProject is a link with the project's name.
type LinkedProject struct {
	ClientProject
	ProjectName string
}

func linkedProjects(db *gorm.DB, clientID uuid.UUID) *gorm.DB {
	return db.Table("client_projects").
		Select("client_projects.*, projects.name AS project_name").
		Joins("JOIN projects ON projects.id = client_projects.project_id").
		Where("client_projects.client_id = ?", clientID)
}

// projectOf reads a project of the company; any other is missing. Errors: not_found.
func projectOf(db *gorm.DB, companyID, projectID uuid.UUID) (*company.Project, error) {
	var p company.Project
	err := db.Take(&p, "id = ? AND company_id = ?", projectID, companyID).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("project_not_found")
	}
	if err != nil {
		return nil, models.Internal("read project: %w", err)
	}
	return &p, nil
}

// link links a client to a project unless they are linked, and tells whether it did.
func link(db *gorm.DB, client *Client, projectID uuid.UUID, now time.Time) (bool, error) {
	res := db.Clauses(clause.OnConflict{DoNothing: true}).
		Create(&ClientProject{ClientID: client.ID, ProjectID: projectID, CompanyID: client.CompanyID, CreatedAt: now})
	if res.Error != nil {
		return false, models.Internal("link client project: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}

// LinkProject links a client to a project of its company; linking again changes nothing.
// It tells whether the link is new. Errors: not_found (a project of another company).
func (s *Service) LinkProject(ctx context.Context, client *Client, projectID uuid.UUID) (*LinkedProject, bool, error) {
	db := s.DB.WithContext(ctx)
	p, err := projectOf(db, client.CompanyID, projectID)
	if err != nil {
		return nil, false, err
	}
	created, err := link(db, client, p.ID, s.now())
	if err != nil {
		return nil, false, err
	}
	var v LinkedProject
	if err := linkedProjects(db, client.ID).Where("client_projects.project_id = ?", p.ID).Take(&v).Error; err != nil {
		return nil, false, models.Internal("read client project: %w", err)
	}
	return &v, created, nil
}

// ClientProjects lists the projects linked to a client.
func (s *Service) ClientProjects(ctx context.Context, client *Client, page models.PageRequest) ([]LinkedProject, string, error) {
	var rows []LinkedProject
	if err := page.Apply(linkedProjects(s.DB.WithContext(ctx), client.ID), "client_projects.project_id").Scan(&rows).Error; err != nil {
		return nil, "", models.Internal("list client projects: %w", err)
	}
	items, next := models.Page(page, rows, func(p LinkedProject) uuid.UUID { return p.ProjectID })
	return items, next, nil
}

// UnlinkProject removes the link of a client and a project. A project where the client has
// active or paused services stays linked until they end.
// Errors: not_found (a project of another company, or not linked), conflict.
func (s *Service) UnlinkProject(ctx context.Context, client *Client, projectID uuid.UUID) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if _, err := projectOf(tx, client.CompanyID, projectID); err != nil {
			return err
		}
		if err := lockClient(tx, client.ID); err != nil {
			return err
		}
		var billed int64
		if err := tx.Model(&ClientService{}).Where(
			"client_id = ? AND project_id = ? AND status IN ?",
			client.ID, projectID, []string{ServiceActive, ServicePaused},
		).
			Count(&billed).Error; err != nil {
			return models.Internal("count billed services: %w", err)
		}
		if billed > 0 {
			return models.Conflict("client_project_has_services", "project_id")
		}
		res := tx.Delete(&ClientProject{}, "client_id = ? AND project_id = ?", client.ID, projectID)
		if res.Error != nil {
			return models.Internal("unlink client project: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return models.NotFound("client_project_not_found")
		}
		return nil
	})
}
