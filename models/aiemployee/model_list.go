package aiemployee

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// ModelList is the cached model list of a model provider integration.
type ModelList struct {
	ActionDependencyID uuid.UUID `gorm:"primaryKey"`
	CompanyID          uuid.UUID
	ProjectID          uuid.UUID
	Models             []map[string]any `gorm:"column:models_json;serializer:json"`
	FetchedAt          time.Time
}

// TableName is the model lists' table.
func (ModelList) TableName() string { return "ai_model_lists" }

// CachedModels answers the cached list of an integration, nil when none is.
func (s *Service) CachedModels(ctx context.Context, companyID, dependencyID uuid.UUID) (*ModelList, error) {
	var l ModelList
	err := s.DB.WithContext(ctx).Take(&l, "action_dependency_id = ? AND company_id = ?", dependencyID, companyID).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, models.Internal("read ai model list: %w", err)
	}
	return &l, nil
}

// CacheModels stores the list a provider answered now.
func (s *Service) CacheModels(ctx context.Context, companyID, projectID, dependencyID uuid.UUID,
	list []map[string]any) (*ModelList, error) {
	l := &ModelList{ActionDependencyID: dependencyID, CompanyID: companyID, ProjectID: projectID, Models: list, FetchedAt: s.now()}
	err := s.DB.WithContext(ctx).Clauses(clause.OnConflict{UpdateAll: true}).Create(l).Error
	if err != nil {
		return nil, models.Internal("store ai model list: %w", err)
	}
	return l, nil
}
