package integration

import (
	"context"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/schemas"
)

// Statuses of an action dependency. A disabled one is kept with its credential but is, to
// the workflow actions, as if it did not exist.
const (
	StatusActive   = "active"
	StatusDisabled = "disabled"
)

// ActionDependency is a project's integration: a dependency type of the catalog, its
// non-secret metadata and its sealed auth (the credential).
type ActionDependency struct {
	ID                uuid.UUID `gorm:"primaryKey"`
	CompanyID         uuid.UUID
	ProjectID         uuid.UUID
	DependencyTypeKey string
	Name              string
	Status            string
	Metadata          map[string]any `gorm:"serializer:json"`
	// AuthSealed is the auth object as JSON, encrypted; it never leaves the service except
	// decrypted to the actions (Dependency).
	AuthSealed string
	// AuthMasked is the auth object with every secret field masked, for responses.
	AuthMasked map[string]any `gorm:"serializer:json"`
	// The outcome of the last connection test; LastTestedAt is nil before the first one.
	LastTestStatus     string
	LastTestRetryClass string
	LastTestReasonCode string
	LastTestMessage    string
	LastTestedAt       *time.Time
	CreatedAt          time.Time
	UpdatedAt          time.Time
}

// LastTest returns the outcome of the last connection test, nil when there was none since
// the credential or the settings last changed.
func (d *ActionDependency) LastTest() *TestResult {
	if d.LastTestedAt == nil {
		return nil
	}
	return &TestResult{
		Status: d.LastTestStatus, RetryClass: d.LastTestRetryClass, ReasonCode: d.LastTestReasonCode,
		Message: d.LastTestMessage, CheckedAt: *d.LastTestedAt,
	}
}

// ActionDependencyInput is what a create takes.
type ActionDependencyInput struct {
	DependencyTypeKey string
	Name              string
	Metadata, Auth    map[string]any
}

// ActionDependencyPatch changes a dependency; nil fields are left alone. Metadata replaces
// the whole object. The credential changes only by RotateSecret.
type ActionDependencyPatch struct {
	Name     *string
	Status   *string
	Metadata map[string]any
}

func checkName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if n := utf8.RuneCountInString(name); n < 1 || n > 200 {
		return "", models.Invalid("invalid_name", "name")
	}
	return name, nil
}

// dependencyType finds a type of the catalog. Errors: invalid (dependency_type_key).
func (s *Service) dependencyType(key string) (*schemas.DependencyType, error) {
	t, ok := s.Catalog.Dependency(key)
	if !ok {
		return nil, models.Invalid("unknown_dependency_type", "dependency_type_key")
	}
	return t, nil
}

// fieldsUnder prefixes the fields a catalog schema names with the request field that holds
// the object; a failure of the object as a whole names the object.
func fieldsUnder(object string, fields []string) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		if f == "body" || f == object {
			out[i] = object
		} else {
			out[i] = object + "." + f
		}
	}
	return out
}

// invalidSettings reports every offending metadata and auth field at once.
func invalidSettings(fields ...[]string) error {
	var all []string
	for _, f := range fields {
		all = append(all, f...)
	}
	if len(all) == 0 {
		return nil
	}
	return models.Invalid("invalid_dependency_settings", all...)
}

// refusedURLs answers invalid (egress_refused) naming each metadata URL (models.URLHosts)
// whose host RefusedHost refuses: a local model's base URL, say, which the operator has not
// allowed.
func (s *Service) refusedURLs(metadata map[string]any) error {
	if s.RefusedHost == nil {
		return nil
	}
	var fields []string
	for _, u := range models.URLHosts(metadata) {
		if s.RefusedHost(u.Host) != nil {
			fields = append(fields, "metadata."+u.Field)
		}
	}
	if len(fields) == 0 {
		return nil
	}
	return models.Invalid("egress_refused", fields...)
}

// maskedSecretMinLength is the shortest secret whose first characters a mask shows: a
// short one (a password) is hidden whole, so a mask never gives away much of it.
const maskedSecretMinLength = 16

// secretField tells whether an auth field holds a secret: one the type's auth schema marks
// writeOnly, or does not describe at all. The others (a scheme, a user name, a header's
// name) are settings that happen to travel with the credential.
func secretField(t *schemas.DependencyType, name string) bool {
	props, _ := t.AuthSchema["properties"].(map[string]any)
	prop, described := props[name].(map[string]any)
	writeOnly, _ := prop["writeOnly"].(bool)
	return !described || writeOnly
}

// SecretValues are the values of auth's secret fields: what no answer may repeat.
func SecretValues(t *schemas.DependencyType, auth map[string]any) []string {
	var out []string
	for name, v := range auth {
		if v, isText := v.(string); isText && v != "" && (t == nil || secretField(t, name)) {
			out = append(out, v)
		}
	}
	return out
}

// maskAuth returns auth with every secret field masked.
func maskAuth(t *schemas.DependencyType, auth map[string]any) map[string]any {
	out := make(map[string]any, len(auth))
	for name, v := range auth {
		if !secretField(t, name) {
			out[name] = v
			continue
		}
		s, _ := v.(string)
		out[name] = maskSecret(s)
	}
	return out
}

// maskSecret shows the first characters of a long secret and hides a short one whole.
func maskSecret(secret string) string {
	if len(secret) < maskedSecretMinLength {
		return "****"
	}
	return models.Mask(secret)
}

// seal encrypts auth for storage.
func (s *Service) seal(auth map[string]any) (string, error) {
	raw, err := json.Marshal(auth)
	if err != nil {
		return "", models.Internal("encode auth: %w", err)
	}
	return s.Sealer.Seal(string(raw)), nil
}

// openAuth decrypts a dependency's auth.
func (s *Service) openAuth(d *ActionDependency) (map[string]any, error) {
	plain, err := s.Sealer.Open(d.AuthSealed)
	if err != nil {
		return nil, models.Internal("open auth of action dependency %s: %w", d.ID, err)
	}
	var auth map[string]any
	if err := json.Unmarshal([]byte(plain), &auth); err != nil {
		return nil, models.Internal("decode auth of action dependency %s: %w", d.ID, err)
	}
	return auth, nil
}

// asJSON returns m as it reads back from storage (numbers become float64, nil becomes {}),
// so that what a call answers and what a later read finds are equal.
func asJSON(m map[string]any) (map[string]any, error) {
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, models.Internal("encode settings: %w", err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, models.Internal("decode settings: %w", err)
	}
	if out == nil {
		out = map[string]any{}
	}
	return out, nil
}

// CreateActionDependency adds an integration to a project. The type must be in the catalog
// and metadata and auth must match its schemas; the auth is sealed and from now on shown
// only masked. Errors: invalid (name, dependency_type_key, metadata.<field>, auth.<field>),
// conflict (name).
func (s *Service) CreateActionDependency(ctx context.Context, companyID, projectID uuid.UUID,
	in ActionDependencyInput) (*ActionDependency, error) {
	name, err := checkName(in.Name)
	if err != nil {
		return nil, err
	}
	t, err := s.dependencyType(in.DependencyTypeKey)
	if err != nil {
		return nil, err
	}
	metadata, err := asJSON(in.Metadata)
	if err != nil {
		return nil, err
	}
	auth, err := asJSON(in.Auth)
	if err != nil {
		return nil, err
	}
	if err := invalidSettings(fieldsUnder("metadata", t.ValidateMetadata(metadata)), fieldsUnder("auth", t.ValidateAuth(auth))); err != nil {
		return nil, err
	}
	if err := s.refusedURLs(in.Metadata); err != nil {
		return nil, err
	}
	sealed, err := s.seal(auth)
	if err != nil {
		return nil, err
	}
	now := s.now()
	d := &ActionDependency{
		ID: models.NewID(), CompanyID: companyID, ProjectID: projectID, DependencyTypeKey: t.Key,
		Name: name, Status: StatusActive, Metadata: metadata, AuthSealed: sealed, AuthMasked: maskAuth(t, auth),
		CreatedAt: now, UpdatedAt: now,
	}
	err = s.DB.WithContext(ctx).Create(d).Error
	if models.IsUniqueViolation(err) {
		return nil, models.Conflict("integration_name_taken", "name")
	}
	if err != nil {
		return nil, models.Internal("create action dependency: %w", err)
	}
	return d, nil
}

// ActionDependencyOf reads a project's integration. One of another project or company is
// not found. Errors: not_found.
func (s *Service) ActionDependencyOf(ctx context.Context, companyID, projectID, id uuid.UUID) (*ActionDependency, error) {
	return loadInProject[ActionDependency](s.DB.WithContext(ctx), companyID, projectID, id, "action_dependency_not_found")
}

// ActionDependencies lists a project's integrations.
func (s *Service) ActionDependencies(ctx context.Context, companyID, projectID uuid.UUID,
	page models.PageRequest) ([]ActionDependency, string, error) {
	return listInProject[ActionDependency](
		s.DB.WithContext(ctx),
		companyID,
		projectID,
		page,
		func(d ActionDependency) uuid.UUID { return d.ID },
	)
}

// PatchActionDependency renames, enables or disables a dependency, or replaces its
// metadata. New metadata voids the last test result, which was about the old settings.
// Errors: invalid (name, status, metadata.<field>), conflict (name).
func (s *Service) PatchActionDependency(ctx context.Context, d *ActionDependency, patch ActionDependencyPatch) (*ActionDependency, error) {
	out := *d
	columns := []string{"updated_at"}
	if patch.Name != nil {
		name, err := checkName(*patch.Name)
		if err != nil {
			return nil, err
		}
		out.Name = name
		columns = append(columns, "name")
	}
	if patch.Status != nil {
		if *patch.Status != StatusActive && *patch.Status != StatusDisabled {
			return nil, models.Invalid("invalid_dependency_status", "status")
		}
		out.Status = *patch.Status
		columns = append(columns, "status")
	}
	if patch.Metadata != nil {
		t, err := s.dependencyType(d.DependencyTypeKey)
		if err != nil {
			return nil, models.Internal("action dependency %s has a type the catalog lacks: %w", d.ID, err)
		}
		metadata, err := asJSON(patch.Metadata)
		if err != nil {
			return nil, err
		}
		if err := invalidSettings(fieldsUnder("metadata", t.ValidateMetadata(metadata))); err != nil {
			return nil, err
		}
		if err := s.refusedURLs(patch.Metadata); err != nil {
			return nil, err
		}
		out.Metadata = metadata
		out.clearLastTest()
		columns = append(columns, "metadata")
		columns = append(columns, lastTestColumns...)
	}
	out.UpdatedAt = s.now()
	if err := s.update(ctx, &out, columns...); err != nil {
		return nil, err
	}
	return &out, nil
}

// RotateSecret replaces a dependency's auth with a new one (provider-issued credentials
// cannot be generated here) and voids the last test result. Errors: invalid (auth.<field>).
func (s *Service) RotateSecret(ctx context.Context, d *ActionDependency, auth map[string]any) (*ActionDependency, error) {
	t, err := s.dependencyType(d.DependencyTypeKey)
	if err != nil {
		return nil, models.Internal("action dependency %s has a type the catalog lacks: %w", d.ID, err)
	}
	auth, err = asJSON(auth)
	if err != nil {
		return nil, err
	}
	if err := invalidSettings(fieldsUnder("auth", t.ValidateAuth(auth))); err != nil {
		return nil, err
	}
	out := *d
	if out.AuthSealed, err = s.seal(auth); err != nil {
		return nil, err
	}
	out.AuthMasked = maskAuth(t, auth)
	out.clearLastTest()
	out.UpdatedAt = s.now()
	if err := s.update(ctx, &out, append([]string{"auth_sealed", "auth_masked", "updated_at"}, lastTestColumns...)...); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteActionDependency removes an integration; actions that name it fail from now on as
// naming no integration.
func (s *Service) DeleteActionDependency(ctx context.Context, d *ActionDependency) error {
	err := s.DB.WithContext(ctx).Where("company_id = ? AND project_id = ?", d.CompanyID, d.ProjectID).Delete(&ActionDependency{ID: d.ID}).Error
	if err != nil {
		return models.Internal("delete action dependency: %w", err)
	}
	return nil
}

var lastTestColumns = []string{"last_test_status", "last_test_retry_class", "last_test_reason_code", "last_test_message", "last_tested_at"}

func (d *ActionDependency) clearLastTest() {
	d.LastTestStatus, d.LastTestRetryClass, d.LastTestReasonCode, d.LastTestMessage, d.LastTestedAt = "", "", "", "", nil
}

// update writes the named columns of d. Errors: conflict (name).
func (s *Service) update(ctx context.Context, d *ActionDependency, columns ...string) error {
	err := s.DB.WithContext(ctx).Model(&ActionDependency{ID: d.ID}).Where("company_id = ? AND project_id = ?", d.CompanyID, d.ProjectID).
		Select(columns).Updates(d).Error
	if models.IsUniqueViolation(err) {
		return models.Conflict("integration_name_taken", "name")
	}
	if err != nil {
		return models.Internal("update action dependency: %w", err)
	}
	return nil
}

// loadInProject reads a row of a project by id; a row of another project or company is the
// same not_found as a missing one.
func loadInProject[T any](db *gorm.DB, companyID, projectID, id uuid.UUID, notFoundKey string, locking ...clause.Locking) (*T, error) {
	var row T
	q := db
	for _, l := range locking {
		q = q.Clauses(l)
	}
	err := q.Take(&row, "id = ? AND company_id = ? AND project_id = ?", id, companyID, projectID).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound(notFoundKey)
	}
	if err != nil {
		return nil, models.Internal("read %T: %w", row, err)
	}
	return &row, nil
}

// listInProject pages through a project's rows in creation order.
func listInProject[T any](db *gorm.DB, companyID, projectID uuid.UUID, page models.PageRequest, id func(T) uuid.UUID) ([]T, string, error) {
	var rows []T
	q := db.Where("company_id = ? AND project_id = ?", companyID, projectID)
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		var zero T
		return nil, "", models.Internal("list %T: %w", zero, err)
	}
	items, next := models.Page(page, rows, id)
	return items, next, nil
}
