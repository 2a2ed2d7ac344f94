package aiemployee

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/platform/realtime"
)

// Permission settings of an employee: what it may do with a healthy model provider.
const (
	PermissionRead    = "read"
	PermissionPropose = "propose"
	PermissionWrite   = "write"
)

// Bounds of the employee's settings.
const (
	MaxInstructions           = 4000
	MaxModelID                = 200
	MinApprovalTimeoutSeconds = 10
	MaxApprovalTimeoutSeconds = 7 * 24 * 3600
	// DefaultApprovalTimeoutSeconds is how long a tool call waits for a decision before it
	// is rejected: a day.
	DefaultApprovalTimeoutSeconds = 24 * 3600
)

// Employee is a project's AI employee settings. A project that never changed them has the
// defaults: on, allowed to propose, no provider chosen.
type Employee struct {
	ProjectID              uuid.UUID `gorm:"primaryKey"`
	CompanyID              uuid.UUID
	Enabled                bool
	Permission             string
	AllowLowRiskWrites     bool
	ActionDependencyID     *uuid.UUID
	ModelID                string
	Instructions           string
	ApprovalTimeoutSeconds int
	CreatedAt              time.Time
	UpdatedAt              time.Time
}

// TableName is the employees' table.
func (Employee) TableName() string { return "ai_employees" }

// ApprovalTimeout is how long a tool call waits for approval.
func (e *Employee) ApprovalTimeout() time.Duration {
	return time.Duration(e.ApprovalTimeoutSeconds) * time.Second
}

// DefaultEmployee is the employee of a project that never changed its settings.
func DefaultEmployee(p *company.Project) Employee {
	return Employee{ProjectID: p.ID, CompanyID: p.CompanyID, Enabled: true, Permission: PermissionPropose,
		ApprovalTimeoutSeconds: DefaultApprovalTimeoutSeconds, CreatedAt: p.CreatedAt, UpdatedAt: p.CreatedAt}
}

// Service stores employees, sessions and model lists; Bus wakes the streams of a session
// when its events change.
type Service struct {
	DB  *gorm.DB
	Bus realtime.Bus
	Now func() time.Time
}

// NewService returns a service on the real clock.
func NewService(db *gorm.DB, bus realtime.Bus) *Service {
	return &Service{DB: db, Bus: bus, Now: func() time.Time { return time.Now().UTC() }}
}

func (s *Service) now() time.Time { return s.Now().UTC().Truncate(time.Microsecond) }

// EmployeeOf answers the project's employee, the defaults when it has no row.
func (s *Service) EmployeeOf(ctx context.Context, p *company.Project) (*Employee, error) {
	var e Employee
	err := s.DB.WithContext(ctx).Take(&e, "project_id = ? AND company_id = ?", p.ID, p.CompanyID).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		e = DefaultEmployee(p)
		return &e, nil
	}
	if err != nil {
		return nil, models.Internal("read ai employee: %w", err)
	}
	return &e, nil
}

// EmployeePatch changes an employee's settings; nil fields are left alone. A set
// ActionDependencyID of uuid.Nil clears the chosen provider.
type EmployeePatch struct {
	Enabled                *bool
	Permission             *string
	AllowLowRiskWrites     *bool
	ActionDependencyID     *uuid.UUID
	ModelID                *string
	Instructions           *string
	ApprovalTimeoutSeconds *int
}

// PatchEmployee stores new settings; the caller has checked that a chosen provider is an
// ai.model_provider integration of the project. Errors: invalid (permission,
// instructions, model_id, approval_timeout_seconds).
func (s *Service) PatchEmployee(ctx context.Context, p *company.Project, patch EmployeePatch) (*Employee, error) {
	var bad []string
	if patch.Permission != nil && *patch.Permission != PermissionRead && *patch.Permission != PermissionPropose &&
		*patch.Permission != PermissionWrite {
		bad = append(bad, "permission")
	}
	if patch.ModelID != nil && utf8.RuneCountInString(strings.TrimSpace(*patch.ModelID)) > MaxModelID {
		bad = append(bad, "model_id")
	}
	if patch.Instructions != nil && utf8.RuneCountInString(*patch.Instructions) > MaxInstructions {
		bad = append(bad, "instructions")
	}
	if t := patch.ApprovalTimeoutSeconds; t != nil && (*t < MinApprovalTimeoutSeconds || *t > MaxApprovalTimeoutSeconds) {
		bad = append(bad, "approval_timeout_seconds")
	}
	if len(bad) > 0 {
		return nil, models.Invalid("invalid_ai_employee", bad...)
	}
	var out Employee
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&out, "project_id = ?", p.ID).Error
		fresh := errors.Is(err, gorm.ErrRecordNotFound)
		if fresh {
			out = DefaultEmployee(p)
			out.CreatedAt = s.now()
		} else if err != nil {
			return models.Internal("read ai employee: %w", err)
		}
		apply(&out, patch)
		out.UpdatedAt = s.now()
		if fresh {
			return tx.Create(&out).Error
		}
		return tx.Save(&out).Error
	})
	if err != nil {
		return nil, models.AsError(err)
	}
	return &out, nil
}

func apply(e *Employee, patch EmployeePatch) {
	if patch.Enabled != nil {
		e.Enabled = *patch.Enabled
	}
	if patch.Permission != nil {
		e.Permission = *patch.Permission
	}
	if patch.AllowLowRiskWrites != nil {
		e.AllowLowRiskWrites = *patch.AllowLowRiskWrites
	}
	if patch.ActionDependencyID != nil {
		e.ActionDependencyID = patch.ActionDependencyID
		if *patch.ActionDependencyID == uuid.Nil {
			e.ActionDependencyID = nil
		}
	}
	if patch.ModelID != nil {
		e.ModelID = strings.TrimSpace(*patch.ModelID)
	}
	if patch.Instructions != nil {
		e.Instructions = *patch.Instructions
	}
	if patch.ApprovalTimeoutSeconds != nil {
		e.ApprovalTimeoutSeconds = *patch.ApprovalTimeoutSeconds
	}
}
