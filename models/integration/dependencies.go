package integration

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"agencyhub/activities"
	"agencyhub/models"
)

// Dependency implements activities.Dependencies for the engine: the project's integration
// with its auth decrypted. An id of another project or company, a deleted integration and
// a disabled one are all activities.ErrDependencyNotFound.
func (s *Service) Dependency(ctx context.Context, companyID, projectID, id uuid.UUID) (*activities.Dependency, error) {
	d, err := s.ActionDependencyOf(ctx, companyID, projectID, id)
	if models.IsKind(err, models.KindNotFound) {
		return nil, activities.ErrDependencyNotFound
	}
	if err != nil {
		return nil, err
	}
	if d.Status != StatusActive {
		return nil, fmt.Errorf("action dependency %s is %s: %w", d.ID, d.Status, activities.ErrDependencyNotFound)
	}
	auth, err := s.openAuth(d)
	if err != nil {
		return nil, err
	}
	return &activities.Dependency{ID: d.ID, TypeKey: d.DependencyTypeKey, Metadata: d.Metadata, Auth: auth}, nil
}

var _ activities.Dependencies = (*Service)(nil)
