package activities

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"agencyhub/models/integration"
)

// dependencyNotFoundCode is the reason code of a missing integration.
const dependencyNotFoundCode = "dependency_not_found"

// ActionDependencies finds a project's action dependency by id, its auth unsealed; an id
// of another project or company is integration.ErrActionDependencyNotFound.
// *integration.Service is the real one.
type ActionDependencies interface {
	Unseal(ctx context.Context, companyID, projectID, id uuid.UUID) (*integration.Unsealed, error)
}

// integrationIn names an integration in a failure's text: by its type, and by the config
// field that chose it when there is one.
func integrationIn(typeKey, field string) string {
	if field == "" {
		return "the " + typeKey + " integration"
	}
	return "the " + typeKey + " integration in " + field
}

// loadDependency loads the integration whose id is in config field, which must be of type
// typeKey, and notes its secrets as used (Redacting keeps them out of the answer). It
// returns nil, nil when the field is empty and not required. Every failure names the
// field: validation when the id is missing, malformed, unknown in the project or of
// another type; transient when the lookup itself failed.
func loadDependency(ctx context.Context, deps ActionDependencies, req Request, field, typeKey string,
	required bool) (*integration.Unsealed, error) {
	raw, err := optionalString(req.Config, field)
	if err != nil {
		return nil, err
	}
	if raw == "" {
		if !required {
			return nil, nil
		}
		return nil, Fail(ClassValidation, dependencyNotFoundCode,
			fmt.Sprintf("Config field %s names no %s integration.", field, typeKey),
			fmt.Sprintf("Choose a %s integration of this project in %s", typeKey, field))
	}
	id, err := uuid.Parse(raw)
	if err != nil {
		return nil, Fail(ClassValidation, "invalid_dependency_id",
			fmt.Sprintf("Config field %s is not an integration id.", field),
			fmt.Sprintf("Choose a %s integration of this project in %s", typeKey, field))
	}
	dep, err := deps.Unseal(ctx, req.CompanyID, req.ProjectID, id)
	switch {
	case errors.Is(err, integration.ErrActionDependencyNotFound) || err == nil && dep == nil:
		return nil, Fail(ClassValidation, dependencyNotFoundCode,
			fmt.Sprintf("Integration %s in config field %s does not exist in this project.", id, field),
			fmt.Sprintf("Choose an existing %s integration in %s", typeKey, field))
	case err != nil:
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, Fail(ClassTransient, "dependency_lookup_failed",
			fmt.Sprintf("Integration %s in config field %s could not be loaded.", id, field),
			"The action is retried automatically")
	case dep.TypeKey != typeKey:
		return nil, Fail(ClassValidation, "dependency_type_mismatch",
			fmt.Sprintf("Integration %s in config field %s is a %s integration, not %s.", id, field, dep.TypeKey, typeKey),
			fmt.Sprintf("Choose a %s integration in %s", typeKey, field))
	}
	for _, secret := range dep.Secrets {
		useSecret(ctx, secret)
	}
	return dep, nil
}
