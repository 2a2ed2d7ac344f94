package activities

import (
	"context"
	"errors"
	"maps"

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

// integrationFailed is the validation failure of an integration of type typeKey that an
// action cannot use, worded by key: naming the config field that chose it, or, without a
// field (its connection test), by key+"_itself"; the next action is key's either way.
func integrationFailed(code, key, typeKey, field string, args Args) *Failure {
	all := Args{"type": typeKey, "field": field}
	maps.Copy(all, args)
	if field == "" {
		return Failed(ClassValidation, code, key+"_itself", key+".next", all)
	}
	return Failed(ClassValidation, code, key, "", all)
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
		return nil, Failed(ClassValidation, dependencyNotFoundCode, "dependency_not_found", "",
			Args{"field": field, "type": typeKey})
	}
	id, err := uuid.Parse(raw)
	if err != nil {
		return nil, Failed(ClassValidation, "invalid_dependency_id", "invalid_dependency_id", "dependency_not_found.next",
			Args{"field": field, "type": typeKey})
	}
	dep, err := deps.Unseal(ctx, req.CompanyID, req.ProjectID, id)
	switch {
	case errors.Is(err, integration.ErrActionDependencyNotFound) || err == nil && dep == nil:
		return nil, Failed(ClassValidation, dependencyNotFoundCode, "dependency_missing", "",
			Args{"id": id.String(), "field": field, "type": typeKey})
	case err != nil:
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, Failed(ClassTransient, "dependency_lookup_failed", "dependency_lookup_failed", "retried.next",
			Args{"id": id.String(), "field": field})
	case dep.TypeKey != typeKey:
		return nil, Failed(ClassValidation, "dependency_type_mismatch", "dependency_type_mismatch", "",
			Args{"id": id.String(), "field": field, "actual": dep.TypeKey, "type": typeKey})
	}
	for _, secret := range dep.Secrets {
		useSecret(ctx, secret)
	}
	return dep, nil
}
