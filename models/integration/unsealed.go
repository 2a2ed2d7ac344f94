package integration

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"agencyhub/models"
)

// Dependency type keys of the catalog that the actions, connection tests and the relay name.
const (
	TypeHTTPAuth         = "http.auth"
	TypeMessengerABot    = "messenger_a.bot"
	TypeMessengerBBot    = "messenger_b.bot"
	TypeSMTPServer       = "smtp.server"
	TypePostgresDatabase = "postgres.database"
	TypeAIModelProvider  = "ai.model_provider"
)

// Unsealed is an action dependency with its auth decrypted: what an action or a connection
// test calls the provider with, never what an answer shows.
type Unsealed struct {
	ID       uuid.UUID
	TypeKey  string
	Metadata map[string]any
	Auth     map[string]any
	// Secrets are the values of the auth's secret fields, which nothing an action answers
	// may repeat.
	Secrets []string
}

// ErrActionDependencyNotFound is what Unseal answers for an id that is no usable action
// dependency of the project: unknown, of another project or company, deleted or disabled.
var ErrActionDependencyNotFound = errors.New("action dependency not found")

// Unseal reads a project's action dependency with its auth decrypted, for the workflow
// actions and the relay. Errors: ErrActionDependencyNotFound, internal.
func (s *Service) Unseal(ctx context.Context, companyID, projectID, id uuid.UUID) (*Unsealed, error) {
	d, err := s.ActionDependencyOf(ctx, companyID, projectID, id)
	if models.IsKind(err, models.KindNotFound) {
		return nil, ErrActionDependencyNotFound
	}
	if err != nil {
		return nil, err
	}
	if d.Status != StatusActive {
		return nil, fmt.Errorf("action dependency %s is %s: %w", d.ID, d.Status, ErrActionDependencyNotFound)
	}
	return s.UnsealDependency(d)
}

// UnsealDependency decrypts the auth of a dependency already loaded, whatever its status (a
// connection test may check a disabled one). Errors: internal.
func (s *Service) UnsealDependency(d *ActionDependency) (*Unsealed, error) {
	auth, err := s.openAuth(d)
	if err != nil {
		return nil, err
	}
	t, _ := s.Catalog.Dependency(d.DependencyTypeKey) // a type the catalog lost: every field is secret
	return &Unsealed{ID: d.ID, TypeKey: d.DependencyTypeKey, Metadata: d.Metadata, Auth: auth, Secrets: SecretValues(t, auth)}, nil
}
