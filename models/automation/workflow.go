package automation

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/platform/realtime"
	"agencyhub/schemas"
)

// Workflow is an automation of a project: one editable draft graph, and the published
// version runs start from.
type Workflow struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	ProjectID uuid.UUID
	Name      string
	// NameFolded is the name in lower case, which the list's search compares: folded here
	// because SQLite folds ASCII letters only.
	NameFolded             string
	Description            string
	DraftActions           string
	DraftConnections       string
	DraftTestInput         string
	DraftChangeDescription string
	DraftUpdatedAt         time.Time
	// DraftRevision is 1 for a new workflow and one more on every save of the draft.
	DraftRevision    int
	CurrentVersionID *uuid.UUID
	// ArchivedAt is when the workflow was archived, nil while it is not.
	ArchivedAt *time.Time
	CreatedBy  uuid.UUID
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// RequireLive refuses what an archived workflow may not do: start runs, publish, restore.
// Errors: conflict (workflow_archived).
func (w *Workflow) RequireLive() error {
	if w.ArchivedAt != nil {
		return models.Conflict("workflow_archived", "workflow_id")
	}
	return nil
}

// Draft is the editable state of a workflow.
type Draft struct {
	Graph             Graph
	TestInput         map[string]any
	ChangeDescription string
}

// Draft decodes the workflow's draft.
func (w *Workflow) Draft() Draft {
	d := Draft{TestInput: DecodeObject(w.DraftTestInput), ChangeDescription: w.DraftChangeDescription}
	_ = json.Unmarshal([]byte(w.DraftActions), &d.Graph.Actions) // columns we wrote from a Graph
	_ = json.Unmarshal([]byte(w.DraftConnections), &d.Graph.Connections)
	return d
}

// Version is an immutable published graph.
type Version struct {
	ID            uuid.UUID `gorm:"primaryKey"`
	CompanyID     uuid.UUID
	WorkflowID    uuid.UUID
	VersionNumber int
	Description   string
	Actions       string
	Connections   string
	TestInput     string
	CreatedBy     uuid.UUID
	CreatedAt     time.Time
}

func (Version) TableName() string { return "workflow_versions" }

// Graph decodes the version's graph.
func (v *Version) Graph() Graph {
	var g Graph
	_ = json.Unmarshal([]byte(v.Actions), &g.Actions) // columns we wrote from a Graph
	_ = json.Unmarshal([]byte(v.Connections), &g.Connections)
	return g
}

// Service implements workflows, drafts, versions, the trigger index and the run projection.
type Service struct {
	DB      *gorm.DB
	Company *company.Service
	Catalog *schemas.Catalog
	// Bus carries the run projection's changes to the subscribers of RunTopic, and
	// announces the runs' domain events (RunStarted, RunFinished).
	Bus realtime.Bus
	Now func() time.Time
	// ApprovalLinks signs the decide links of approval.wait actions.
	ApprovalLinks ApprovalLinks
}

// NewService returns a service on the real clock that publishes run changes on bus.
func NewService(db *gorm.DB, companies *company.Service, catalog *schemas.Catalog, bus realtime.Bus) *Service {
	return &Service{DB: db, Company: companies, Catalog: catalog, Bus: bus, Now: func() time.Time { return time.Now().UTC() }}
}

func (s *Service) now() time.Time { return s.Now().UTC().Truncate(time.Microsecond) }

func checkName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if n := utf8.RuneCountInString(name); n < 1 || n > 200 {
		return "", models.Invalid("invalid_name", "name")
	}
	return name, nil
}

// checkDescription trims a workflow's description, at most 2000 characters.
func checkDescription(description string) (string, error) {
	description = strings.TrimSpace(description)
	if utf8.RuneCountInString(description) > 2000 {
		return "", models.Invalid("invalid_description", "description")
	}
	return description, nil
}

// Create adds a workflow with an empty draft to a project. Errors: invalid (name).
func (s *Service) Create(ctx context.Context, p *company.Project, userID uuid.UUID, name, description string) (*Workflow, error) {
	name, err := checkName(name)
	if err != nil {
		return nil, err
	}
	if description, err = checkDescription(description); err != nil {
		return nil, err
	}
	now := s.now()
	w := &Workflow{
		ID: models.NewID(), CompanyID: p.CompanyID, ProjectID: p.ID, Name: name, NameFolded: strings.ToLower(name),
		Description:  description,
		DraftActions: "[]", DraftConnections: "[]", DraftTestInput: "{}", DraftUpdatedAt: now, DraftRevision: 1,
		CreatedBy: userID, CreatedAt: now, UpdatedAt: now,
	}
	if err := s.DB.WithContext(ctx).Create(w).Error; err != nil {
		return nil, models.Internal("create workflow: %w", err)
	}
	return w, nil
}

// WorkflowAccess returns a workflow and the caller's standing in its company.
// Errors: not_found.
func (s *Service) WorkflowAccess(ctx context.Context, userID, id uuid.UUID) (*Workflow, *company.Access, error) {
	return company.LoadOwned(ctx, s.Company, userID, id, "workflow_not_found", func(w *Workflow) uuid.UUID { return w.CompanyID })
}

// WorkflowOf reads a workflow of a company. Errors: not_found.
func (s *Service) WorkflowOf(ctx context.Context, companyID, id uuid.UUID) (*Workflow, error) {
	var w Workflow
	err := s.DB.WithContext(ctx).Take(&w, "id = ? AND company_id = ?", id, companyID).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("workflow_not_found")
	}
	if err != nil {
		return nil, models.Internal("read workflow: %w", err)
	}
	return &w, nil
}

// List returns a project's workflows, the archived ones when archived is true and the
// others when not, those whose name contains query in any case when it is not empty.
// Errors: invalid (q, longer than 200 characters, as the contract also says).
func (s *Service) List(ctx context.Context, projectID uuid.UUID, query string, archived bool, page models.PageRequest) ([]Workflow, string, error) {
	q := s.DB.WithContext(ctx).Where("project_id = ?", projectID)
	if archived {
		q = q.Where("archived_at IS NOT NULL")
	} else {
		q = q.Where("archived_at IS NULL")
	}
	if query != "" {
		if utf8.RuneCountInString(query) > 200 {
			return nil, "", models.Invalid("invalid_parameter", "q")
		}
		q = q.Where(`name_folded LIKE ? ESCAPE '\'`, models.LikeContains(strings.ToLower(query)))
	}
	var rows []Workflow
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list workflows: %w", err)
	}
	items, next := models.Page(page, rows, func(w Workflow) uuid.UUID { return w.ID })
	return items, next, nil
}

// WorkflowSettingsPatch is a change of a workflow's own settings: nil fields stay as they are.
type WorkflowSettingsPatch struct {
	Name        *string
	Description *string
	// Archived archives the workflow (true) or restores it (false); either when it already
	// is so changes nothing.
	Archived *bool
}

// Patch applies p to w, validated as a whole before anything is written, and answers the
// workflow as saved. Archiving takes the workflow's triggers out of the trigger index
// (Triggers skips archived workflows), so nothing starts it; schedules.Publisher.Patch also
// pauses its Temporal Schedules. Errors: invalid (name, description), not_found.
func (s *Service) Patch(ctx context.Context, w *Workflow, p WorkflowSettingsPatch) (*Workflow, error) {
	now := s.now()
	set := map[string]any{"updated_at": now}
	if p.Name != nil {
		name, err := checkName(*p.Name)
		if err != nil {
			return nil, err
		}
		set["name"], set["name_folded"] = name, strings.ToLower(name)
	}
	if p.Description != nil {
		description, err := checkDescription(*p.Description)
		if err != nil {
			return nil, err
		}
		set["description"] = description
	}
	switch {
	case p.Archived == nil:
	case *p.Archived && w.ArchivedAt == nil:
		set["archived_at"] = now
	case !*p.Archived:
		set["archived_at"] = nil
	}
	res := s.DB.WithContext(ctx).Model(&Workflow{}).Where("id = ? AND company_id = ?", w.ID, w.CompanyID).Updates(set)
	if res.Error != nil {
		return nil, models.Internal("patch workflow: %w", res.Error)
	}
	return s.WorkflowOf(ctx, w.CompanyID, w.ID)
}

// PutDraft replaces the draft; an invalid draft is still saved, since editors save work in
// progress (engine.Drafts reports its problems). Nil Graph slices count as empty, and so
// does an action's nil config: a request may omit it, and the draft stores and answers the
// object the contract promises. With
// revisions, the draft is saved only while its revision is one of them, checked and written
// in one conditional UPDATE, so two editors that loaded the same revision cannot both save.
// Errors: conflict (the draft's revision is not one of revisions), not_found (the workflow
// is gone).
func (s *Service) PutDraft(ctx context.Context, w *Workflow, d Draft, revisions ...int) (*Workflow, error) {
	d.Graph.Actions = slices.Clone(d.Graph.Actions)
	if d.Graph.Actions == nil {
		d.Graph.Actions = []Action{}
	}
	for i := range d.Graph.Actions {
		if d.Graph.Actions[i].Config == nil {
			d.Graph.Actions[i].Config = map[string]any{}
		}
	}
	if d.Graph.Connections == nil {
		d.Graph.Connections = []Connection{}
	}
	if d.TestInput == nil {
		d.TestInput = map[string]any{}
	}
	now := s.now()
	var out *Workflow
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) (err error) {
		out, err = saveDraft(tx, w, revisions, map[string]any{
			"draft_actions": marshal(d.Graph.Actions), "draft_connections": marshal(d.Graph.Connections),
			"draft_test_input": marshal(d.TestInput), "draft_change_description": d.ChangeDescription,
			"draft_updated_at": now, "updated_at": now,
		})
		return err
	})
	return out, err
}

// saveDraft sets the draft's columns of a workflow of its company and counts a revision, on
// the condition that the revision is one of revisions when any are given, and answers the
// row as saved. Errors: conflict (another revision), not_found (the workflow is gone).
func saveDraft(tx *gorm.DB, w *Workflow, revisions []int, set map[string]any) (*Workflow, error) {
	set["draft_revision"] = gorm.Expr("draft_revision + 1")
	q := tx.Model(&Workflow{}).Where("id = ? AND company_id = ?", w.ID, w.CompanyID)
	if len(revisions) > 0 {
		q = q.Where("draft_revision IN ?", revisions)
	}
	res := q.Updates(set)
	if res.Error != nil {
		return nil, models.Internal("save draft: %w", res.Error)
	}
	var out Workflow
	err := tx.Take(&out, "id = ? AND company_id = ?", w.ID, w.CompanyID).Error
	switch {
	case models.IsNotFound(err):
		return nil, models.NotFound("workflow_not_found")
	case err != nil:
		return nil, models.Internal("read saved draft: %w", err)
	case res.RowsAffected == 0:
		return nil, models.Conflict("draft_revision_changed", "If-Match")
	}
	return &out, nil
}

// RequireValid turns error diagnostics into invalid input naming where each problem is
// (actions.<key>.<field>, connections.<n>, actions).
func RequireValid(ds []Diagnostic) error {
	var fields []string
	seen := map[string]bool{}
	for _, d := range ds {
		if d.Severity != SeverityError {
			continue
		}
		f := d.Field
		switch {
		case d.ActionKey != "" && !ActionKeyPattern.MatchString(d.ActionKey):
			f = "actions" // a bad key names no field, and may hold what a header cannot carry
		case d.ActionKey != "" && !strings.HasPrefix(f, "connections"):
			f = strings.TrimSuffix("actions."+d.ActionKey+"."+f, ".")
		}
		if !seen[f] {
			seen[f] = true
			fields = append(fields, f)
		}
	}
	if len(fields) > 0 {
		return models.Invalid("draft_invalid", fields...)
	}
	return nil
}

// Publish freezes the draft as the next version and makes it current, its triggers the
// indexed ones (schedules.Publisher adds the schedules; call that). The version's
// description is the one given, or else the draft's change description, which is then
// cleared. Errors: invalid (the draft's problems), conflict (a concurrent publish).
func (s *Service) Publish(ctx context.Context, w *Workflow, userID uuid.UUID, description *string) (*Version, error) {
	d := w.Draft()
	if err := RequireValid(Validate(d.Graph, s.Catalog)); err != nil {
		return nil, err
	}
	now := s.now()
	v := &Version{
		ID: models.NewID(), CompanyID: w.CompanyID, WorkflowID: w.ID, Description: d.ChangeDescription,
		Actions: w.DraftActions, Connections: w.DraftConnections, TestInput: w.DraftTestInput, CreatedBy: userID, CreatedAt: now,
	}
	if description != nil {
		v.Description = strings.TrimSpace(*description)
	}
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var last int
		if err := tx.Model(&Version{}).Where("workflow_id = ?", w.ID).Select("COALESCE(MAX(version_number), 0)").Scan(&last).Error; err != nil {
			return err
		}
		v.VersionNumber = last + 1
		if err := tx.Create(v).Error; err != nil {
			return err
		}
		if err := s.indexTriggers(tx, w, v); err != nil {
			return err
		}
		return tx.Model(&Workflow{ID: w.ID}).Updates(map[string]any{
			"current_version_id": v.ID, "draft_change_description": "", "updated_at": now,
		}).Error
	})
	if models.IsUniqueViolation(err) {
		return nil, models.Conflict("publish_conflict", "workflow_id")
	}
	if err != nil {
		return nil, models.Internal("publish: %w", err)
	}
	return v, nil
}

// Versions lists a workflow's versions, oldest first.
func (s *Service) Versions(ctx context.Context, workflowID uuid.UUID, page models.PageRequest) ([]Version, string, error) {
	var rows []Version
	if err := page.Apply(s.DB.WithContext(ctx).Where("workflow_id = ?", workflowID), "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list versions: %w", err)
	}
	items, next := models.Page(page, rows, func(v Version) uuid.UUID { return v.ID })
	return items, next, nil
}

// VersionAccess returns a version and the caller's standing in its company.
// Errors: not_found.
func (s *Service) VersionAccess(ctx context.Context, userID, id uuid.UUID) (*Version, *company.Access, error) {
	return company.LoadOwned(ctx, s.Company, userID, id, "workflow_version_not_found", func(v *Version) uuid.UUID { return v.CompanyID })
}

// Version returns one version of a workflow. Errors: not_found.
func (s *Service) Version(ctx context.Context, workflowID, id uuid.UUID) (*Version, error) {
	var v Version
	err := s.DB.WithContext(ctx).Take(&v, "id = ? AND workflow_id = ?", id, workflowID).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("workflow_version_not_found")
	}
	if err != nil {
		return nil, models.Internal("read version: %w", err)
	}
	return &v, nil
}

// Restore loads a version into the draft and makes it current, its triggers the indexed
// ones. Runs keep the versions they started on. Errors: not_found.
func (s *Service) Restore(ctx context.Context, w *Workflow, versionID uuid.UUID) (*Workflow, error) {
	v, err := s.Version(ctx, w.ID, versionID)
	if err != nil {
		return nil, err
	}
	now := s.now()
	var out *Workflow
	err = s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.indexTriggers(tx, w, v); err != nil {
			return err
		}
		out, err = saveDraft(tx, w, nil, map[string]any{
			"draft_actions": v.Actions, "draft_connections": v.Connections, "draft_test_input": v.TestInput,
			"draft_change_description": fmt.Sprintf("Restored version %d", v.VersionNumber), "current_version_id": v.ID,
			"draft_updated_at": now, "updated_at": now,
		})
		return err
	})
	if err != nil {
		if models.IsKind(err, models.KindNotFound) {
			return nil, err
		}
		return nil, models.Internal("restore version: %w", err)
	}
	return out, nil
}

// CurrentVersion returns the version runs start from. Errors: invalid (never published).
func (s *Service) CurrentVersion(ctx context.Context, w *Workflow) (*Version, error) {
	if w.CurrentVersionID == nil {
		return nil, models.Invalid("workflow_not_published", "workflow_id")
	}
	return s.Version(ctx, w.ID, *w.CurrentVersionID)
}

// ActionKeysEver are the action keys of the actions of a type in every version of a
// workflow: for schedule triggers, the only Temporal Schedules of the workflow that can exist.
func (s *Service) ActionKeysEver(ctx context.Context, workflowID uuid.UUID, actionTypeKey string) (map[string]bool, error) {
	var columns []string
	if err := s.DB.WithContext(ctx).Model(&Version{}).Where("workflow_id = ?", workflowID).
		Pluck("actions", &columns).Error; err != nil {
		return nil, models.Internal("read versions of workflow %s: %w", workflowID, err)
	}
	keys := map[string]bool{}
	for _, column := range columns {
		var actions []Action
		_ = json.Unmarshal([]byte(column), &actions) // written by us from a Graph
		for _, a := range actions {
			if a.ActionTypeKey == actionTypeKey {
				keys[a.ActionKey] = true
			}
		}
	}
	return keys, nil
}
