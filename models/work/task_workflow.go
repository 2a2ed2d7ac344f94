package work

import (
	"cmp"
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// Stage is a step of a task workflow: a board started from the workflow gets one column per
// stage, in order; tasks in a done stage count as completed.
type Stage struct {
	Status string `json:"status"`
	Name   string `json:"name"`
	IsDone bool   `json:"is_done"`
}

// RoleTemplate is a process role as a template defines it (and a reset restores it).
type RoleTemplate struct {
	RoleKey     string `json:"role_key"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// Stages and RoleTemplates are kept as JSON in TEXT columns.
type (
	Stages        []Stage
	RoleTemplates []RoleTemplate
)

func (l Stages) Value() (driver.Value, error)        { return jsonValue(l) }
func (l *Stages) Scan(src any) error                 { return jsonScan(src, l) }
func (l RoleTemplates) Value() (driver.Value, error) { return jsonValue(l) }
func (l *RoleTemplates) Scan(src any) error          { return jsonScan(src, l) }
func jsonValue(v any) (driver.Value, error)          { b, err := json.Marshal(v); return string(b), err }

func jsonScan(src any, dst any) error {
	switch v := src.(type) {
	case string:
		return json.Unmarshal([]byte(v), dst)
	case []byte:
		return json.Unmarshal(v, dst)
	}
	return fmt.Errorf("work: cannot scan %T into %T", src, dst)
}

// TaskWorkflow is a process template: ordered stages and process roles.
type TaskWorkflow struct {
	ID           uuid.UUID `gorm:"primaryKey"`
	CompanyID    uuid.UUID
	Name         string
	Description  string
	PresetKey    string
	Stages       Stages
	DefaultRoles RoleTemplates
	CreatedAt    time.Time
}

func (TaskWorkflow) TableName() string { return "work_task_workflows" }

// ProcessRole is a role of a task workflow, optionally filled by an employee.
type ProcessRole struct {
	ID             uuid.UUID `gorm:"primaryKey"`
	CompanyID      uuid.UUID
	TaskWorkflowID uuid.UUID
	RoleKey        string
	Name           string
	Description    string
	UserID         *uuid.UUID
	Position       int
}

func (ProcessRole) TableName() string { return "work_task_process_roles" }

// Preset is a ready task workflow to start a board from; Slug is its preset_key.
type Preset struct {
	Slug        string
	Name        string
	Description string
	Stages      Stages
	Roles       RoleTemplates
}

// Presets are the ready task workflows, in the order they are offered.
var Presets = []Preset{
	{
		Slug:        "website_support",
		Name:        "Website support",
		Description: "Requests from a client's site: triage, work, the client's review, done.",
		Stages: Stages{
			{"new", "New", false},
			{"in_progress", "In progress", false},
			{"review", "Client review", false},
			{"done", "Done", true},
		},
		Roles: RoleTemplates{
			{"account_manager", "Account manager", "Talks to the client and triages requests."},
			{"developer", "Developer", "Does the work."},
			{"qa", "QA", "Checks the work before the client sees it."},
		},
	},
	{
		Slug:        "monthly_billing",
		Name:        "Monthly billing",
		Description: "Invoicing each client every month: prepare, send, chase, paid.",
		Stages: Stages{
			{"to_invoice", "To invoice", false},
			{"invoiced", "Invoiced", false},
			{"awaiting_payment", "Awaiting payment", false},
			{"paid", "Paid", true},
		},
		Roles: RoleTemplates{
			{"accountant", "Accountant", "Prepares and sends invoices and acts."},
			{"account_manager", "Account manager", "Reminds the client when a payment is late."},
		},
	},
	{
		Slug:        "website_development",
		Name:        "Website development",
		Description: "A site built in stages: backlog, design, development, review, launched.",
		Stages: Stages{
			{"backlog", "Backlog", false},
			{"design", "Design", false},
			{"development", "Development", false},
			{"review", "Review", false},
			{"launched", "Launched", true},
		},
		Roles: RoleTemplates{
			{"project_manager", "Project manager", "Plans the stages and keeps the client informed."},
			{"designer", "Designer", "Designs the pages."},
			{"developer", "Developer", "Builds the site."},
		},
	},
}

// DefaultStages are the columns of a board that names neither columns nor a task workflow.
var DefaultStages = Stages{{"todo", "To do", false}, {"in_progress", "In progress", false}, {"done", "Done", true}}

// Limits of a template.
const (
	maxStages = 20
	maxRoles  = 30
)

// TaskWorkflowInput creates a task workflow: from a preset (PresetKey; Name overrides its
// name), or from Name, Stages and Roles.
type TaskWorkflowInput struct {
	PresetKey   string
	Name        string
	Description string
	Stages      []StageInput
	Roles       []RoleInput
}

// StageInput is a stage or a board column as a request gives it; Status defaults to a key
// made of the name.
type StageInput struct {
	Status string
	Name   string
	IsDone bool
}

// RoleInput is a process role as a request gives it; RoleKey defaults to a key made of the
// name.
type RoleInput struct {
	RoleKey     string
	Name        string
	Description string
	UserID      *uuid.UUID
}

// checkStages validates stages (or columns) and fills their keys. field names them in the
// request. Errors: invalid.
func checkStages(in []StageInput, field string) (Stages, error) {
	var bad invalidFields
	bad.require(field, len(in) >= 1 && len(in) <= maxStages)
	out := make(Stages, len(in))
	for i, st := range in {
		bad.length(field+"."+strconv.Itoa(i)+".name", st.Name, 1, 100)
		key := st.Status
		if key == "" {
			key = slugKey(st.Name, "stage_"+strconv.Itoa(i+1))
		}
		bad.require(field+"."+strconv.Itoa(i)+".status", keyPattern(key) &&
			!slices.ContainsFunc(out[:i], func(o Stage) bool { return o.Status == key }))
		out[i] = Stage{Status: key, Name: strings.TrimSpace(st.Name), IsDone: st.IsDone}
	}
	return out, bad.err("invalid_stages")
}

// keyPattern reports whether key is 1 to 64 lower-case letters, digits or underscores.
func keyPattern(key string) bool {
	if key == "" || len(key) > 64 {
		return false
	}
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// CreateTaskWorkflow stores a task workflow and its roles. Errors: forbidden (not a
// manager), invalid (preset_key, name, stages, roles).
func (s *Service) CreateTaskWorkflow(ctx context.Context, a *Access, in TaskWorkflowInput) (*TaskWorkflow, error) {
	if err := a.requireManage(nil); err != nil {
		return nil, err
	}
	w := TaskWorkflow{
		ID:          models.NewID(),
		CompanyID:   a.CompanyID(),
		Name:        strings.TrimSpace(in.Name),
		Description: strings.TrimSpace(in.Description),
		CreatedAt:   s.now(),
	}
	var roles []RoleInput
	if in.PresetKey != "" {
		i := slices.IndexFunc(Presets, func(p Preset) bool { return p.Slug == in.PresetKey })
		if i < 0 {
			return nil, models.Invalid("unknown_preset", "preset_key")
		}
		p := Presets[i]
		w.PresetKey, w.Stages, w.DefaultRoles = p.Slug, p.Stages, p.Roles
		w.Name = cmp.Or(w.Name, p.Name)
		w.Description = cmp.Or(w.Description, p.Description)
		for _, r := range p.Roles {
			roles = append(roles, RoleInput{RoleKey: r.RoleKey, Name: r.Name, Description: r.Description})
		}
	} else {
		var bad invalidFields
		bad.length("name", w.Name, 1, 200)
		if err := bad.err("invalid_task_workflow"); err != nil {
			return nil, err
		}
		stages, err := checkStages(in.Stages, "stages")
		if err != nil {
			return nil, err
		}
		w.Stages, roles = stages, in.Roles
	}
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		rows, err := s.checkRoles(tx, a, w.ID, roles, "roles", 0)
		if err != nil {
			return err
		}
		if in.PresetKey == "" {
			for _, r := range rows {
				w.DefaultRoles = append(w.DefaultRoles, RoleTemplate{RoleKey: r.RoleKey, Name: r.Name, Description: r.Description})
			}
		}
		if err := tx.Create(&w).Error; err != nil {
			return models.Internal("create task workflow: %w", err)
		}
		return createRoles(tx, rows)
	})
	if err != nil {
		return nil, err
	}
	return &w, nil
}

// checkRoles validates roles to add to a task workflow after its first `from` roles and
// makes their rows. Errors: invalid (field).
func (s *Service) checkRoles(tx *gorm.DB, a *Access, workflowID uuid.UUID, in []RoleInput, field string, from int) ([]ProcessRole, error) {
	var bad invalidFields
	bad.require(field, from+len(in) <= maxRoles)
	out := make([]ProcessRole, len(in))
	for i, r := range in {
		f := field + "." + strconv.Itoa(i) + "."
		if field == "" {
			f = ""
		}
		bad.length(f+"name", r.Name, 1, 100)
		bad.length(f+"description", r.Description, 0, 1000)
		key := r.RoleKey
		if key == "" {
			key = slugKey(r.Name, "role_"+strconv.Itoa(from+i+1))
		}
		bad.require(f+"role_key", keyPattern(key) && !slices.ContainsFunc(out[:i], func(o ProcessRole) bool { return o.RoleKey == key }))
		if r.UserID != nil {
			ok, err := isMember(tx, a.CompanyID(), *r.UserID)
			if err != nil {
				return nil, err
			}
			bad.require(f+"user_id", ok)
		}
		out[i] = ProcessRole{ID: models.NewID(), CompanyID: a.CompanyID(), TaskWorkflowID: workflowID, RoleKey: key,
			Name: strings.TrimSpace(r.Name), Description: strings.TrimSpace(r.Description), UserID: r.UserID, Position: from + i}
	}
	return out, bad.err("invalid_process_role")
}

func createRoles(tx *gorm.DB, rows []ProcessRole) error {
	if len(rows) == 0 {
		return nil
	}
	if err := tx.Create(&rows).Error; err != nil {
		if models.IsUniqueViolation(err) {
			return models.Conflict("process_role_key_taken", "role_key")
		}
		return models.Internal("create process roles: %w", err)
	}
	return nil
}

// TaskWorkflowAccess returns a task workflow and the caller's standing in its company.
// Errors: not_found.
func (s *Service) TaskWorkflowAccess(ctx context.Context, userID, id uuid.UUID) (*TaskWorkflow, *Access, error) {
	return ownedBy(ctx, s, userID, id, "task_workflow_not_found", func(w *TaskWorkflow) uuid.UUID { return w.CompanyID })
}

// TaskWorkflows lists a page of the company's task workflows. Errors: internal.
func (s *Service) TaskWorkflows(ctx context.Context, a *Access, page models.PageRequest) ([]TaskWorkflow, string, error) {
	var rows []TaskWorkflow
	if err := page.Apply(s.DB.WithContext(ctx).Where("company_id = ?", a.CompanyID()), "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list task workflows: %w", err)
	}
	rows, next := models.Page(page, rows, func(w TaskWorkflow) uuid.UUID { return w.ID })
	return rows, next, nil
}

// Roles lists a task workflow's roles in order. Errors: internal.
func (s *Service) Roles(ctx context.Context, w *TaskWorkflow) ([]ProcessRole, error) {
	var rows []ProcessRole
	if err := s.DB.WithContext(ctx).Where("task_workflow_id = ?", w.ID).Order("position, id").Find(&rows).Error; err != nil {
		return nil, models.Internal("list process roles: %w", err)
	}
	return rows, nil
}

// AddRole adds a role at the end of a task workflow's roles. Errors: forbidden, invalid
// (name, description, role_key, user_id), conflict (role_key taken).
func (s *Service) AddRole(ctx context.Context, a *Access, w *TaskWorkflow, in RoleInput) (*ProcessRole, error) {
	if err := a.requireManage(nil); err != nil {
		return nil, err
	}
	var role ProcessRole
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockRow(tx, "work_task_workflows", w.ID); err != nil {
			return err
		}
		var n int64
		if err := tx.Model(&ProcessRole{}).Where("task_workflow_id = ?", w.ID).Count(&n).Error; err != nil {
			return models.Internal("count process roles: %w", err)
		}
		rows, err := s.checkRoles(tx, a, w.ID, []RoleInput{in}, "", int(n))
		if err != nil {
			return err
		}
		role = rows[0]
		return createRoles(tx, rows)
	})
	if err != nil {
		return nil, err
	}
	return &role, nil
}

// RolePatch changes a role; nil fields are left alone, UserSet with a nil UserID clears it.
type RolePatch struct {
	Name, Description *string
	UserSet           bool
	UserID            *uuid.UUID
}

// RoleOf reads a role of a task workflow. Errors: not_found.
func (s *Service) RoleOf(ctx context.Context, w *TaskWorkflow, id uuid.UUID) (*ProcessRole, error) {
	var r ProcessRole
	err := s.DB.WithContext(ctx).Take(&r, "id = ? AND task_workflow_id = ?", id, w.ID).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("process_role_not_found")
	}
	if err != nil {
		return nil, models.Internal("read process role: %w", err)
	}
	return &r, nil
}

// PatchRole changes a role's name, description or the employee who fills it.
// Errors: forbidden, invalid (name, description, user_id).
func (s *Service) PatchRole(ctx context.Context, a *Access, r *ProcessRole, p RolePatch) (*ProcessRole, error) {
	if err := a.requireManage(nil); err != nil {
		return nil, err
	}
	next := *r
	if p.Name != nil {
		next.Name = strings.TrimSpace(*p.Name)
	}
	if p.Description != nil {
		next.Description = strings.TrimSpace(*p.Description)
	}
	if p.UserSet {
		next.UserID = p.UserID
	}
	var bad invalidFields
	bad.length("name", next.Name, 1, 100)
	bad.length("description", next.Description, 0, 1000)
	if p.UserSet && p.UserID != nil {
		ok, err := isMember(s.DB.WithContext(ctx), a.CompanyID(), *p.UserID)
		if err != nil {
			return nil, err
		}
		bad.require("user_id", ok)
	}
	if err := bad.err("invalid_process_role"); err != nil {
		return nil, err
	}
	err := s.DB.WithContext(ctx).Model(&ProcessRole{}).Where("id = ?", r.ID).
		Updates(map[string]any{"name": next.Name, "description": next.Description, "user_id": next.UserID}).Error
	if err != nil {
		return nil, models.Internal("patch process role: %w", err)
	}
	return &next, nil
}

// ResetRoles replaces a task workflow's roles with its template's: added roles go, changed
// ones get their names and descriptions back, and no employee fills any. Errors: forbidden.
func (s *Service) ResetRoles(ctx context.Context, a *Access, w *TaskWorkflow) ([]ProcessRole, error) {
	if err := a.requireManage(nil); err != nil {
		return nil, err
	}
	rows := make([]ProcessRole, len(w.DefaultRoles))
	for i, r := range w.DefaultRoles {
		rows[i] = ProcessRole{ID: models.NewID(), CompanyID: w.CompanyID, TaskWorkflowID: w.ID, RoleKey: r.RoleKey,
			Name: r.Name, Description: r.Description, Position: i}
	}
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockRow(tx, "work_task_workflows", w.ID); err != nil {
			return err
		}
		if err := tx.Where("task_workflow_id = ?", w.ID).Delete(&ProcessRole{}).Error; err != nil {
			return models.Internal("remove process roles: %w", err)
		}
		return createRoles(tx, rows)
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}
