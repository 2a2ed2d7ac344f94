package work

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// Board is a board of tasks, of one project or of the whole company, with ordered columns.
type Board struct {
	ID             uuid.UUID `gorm:"primaryKey"`
	CompanyID      uuid.UUID
	ProjectID      *uuid.UUID
	TaskWorkflowID *uuid.UUID
	Name           string
	CreatedAt      time.Time
}

func (Board) TableName() string { return "work_boards" }

// Column is a column of a board; its Status is the status of the tasks in it.
type Column struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	BoardID   uuid.UUID
	Status    string
	Name      string
	Position  int
	IsDone    bool
}

func (Column) TableName() string { return "work_board_columns" }

// Custom field types.
const (
	FieldText   = "text"
	FieldNumber = "number"
	FieldDate   = "date"
	FieldSelect = "select"
)

// FieldTypes are the types of a custom field.
var FieldTypes = []string{FieldText, FieldNumber, FieldDate, FieldSelect}

// CustomField is a typed field the tasks of a board may carry; a select offers Options.
type CustomField struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	BoardID   uuid.UUID
	Name      string
	FieldType string
	Options   Strings
	Position  int
}

func (CustomField) TableName() string { return "work_custom_fields" }

// BoardDetail is a board with its columns (each with its number of tasks) and custom fields.
type BoardDetail struct {
	Board
	Columns      []Column
	TaskCounts   map[uuid.UUID]int
	CustomFields []CustomField
}

// BoardInput creates a board. Its columns are Columns, or the stages of TaskWorkflowID,
// or DefaultStages.
type BoardInput struct {
	Name           string
	ProjectID      *uuid.UUID
	TaskWorkflowID *uuid.UUID
	Columns        []StageInput
	CustomFields   []CustomFieldInput
}

// CustomFieldInput defines a custom field.
type CustomFieldInput struct {
	Name      string
	FieldType string
	Options   []string
}

const maxCustomFields = 50

// CreateBoard stores a board with its columns and custom fields. Errors: forbidden (not a
// manager or the project's lead), not_found (project_id, task_workflow_id), invalid
// (name, columns, custom_fields, both columns and task_workflow_id).
func (s *Service) CreateBoard(ctx context.Context, a *Access, in BoardInput) (*BoardDetail, error) {
	if err := a.requireManage(in.ProjectID); err != nil {
		return nil, err
	}
	db := s.DB.WithContext(ctx)
	var bad invalidFields
	bad.length("name", in.Name, 1, 200)
	bad.require("columns", in.TaskWorkflowID == nil || len(in.Columns) == 0)
	bad.require("custom_fields", len(in.CustomFields) <= maxCustomFields)
	fields := make([]CustomField, len(in.CustomFields))
	for i, f := range in.CustomFields {
		p := "custom_fields." + strconv.Itoa(i) + "."
		bad.length(p+"name", f.Name, 1, 100)
		bad.require(p+"field_type", slices.Contains(FieldTypes, f.FieldType))
		options := make(Strings, 0, len(f.Options))
		for _, o := range f.Options {
			o = strings.TrimSpace(o)
			bad.require(p+"options", o != "" && len(o) <= 200 && !slices.Contains(options, o))
			options = append(options, o)
		}
		bad.require(p+"options", (f.FieldType == FieldSelect) == (len(options) > 0))
		fields[i] = CustomField{
			ID:        models.NewID(),
			CompanyID: a.CompanyID(),
			Name:      strings.TrimSpace(f.Name),
			FieldType: f.FieldType,
			Options:   options,
			Position:  i,
		}
	}
	if err := bad.err("invalid_board"); err != nil {
		return nil, err
	}
	if in.ProjectID != nil {
		if _, err := loadIn[struct {
			ID        uuid.UUID
			CompanyID uuid.UUID
		}](db.Table("projects"), a.CompanyID(), *in.ProjectID, "project_not_found"); err != nil {
			return nil, err
		}
	}
	stages := DefaultStages
	switch {
	case in.TaskWorkflowID != nil:
		w, err := loadIn[TaskWorkflow](db, a.CompanyID(), *in.TaskWorkflowID, "task_workflow_not_found")
		if err != nil {
			return nil, err
		}
		stages = w.Stages
	case len(in.Columns) > 0:
		var err error
		if stages, err = checkStages(in.Columns, "columns"); err != nil {
			return nil, err
		}
	}
	d := BoardDetail{Board: Board{ID: models.NewID(), CompanyID: a.CompanyID(), ProjectID: in.ProjectID, TaskWorkflowID: in.TaskWorkflowID,
		Name: strings.TrimSpace(in.Name), CreatedAt: s.now()}, TaskCounts: map[uuid.UUID]int{}, CustomFields: fields}
	for i, st := range stages {
		d.Columns = append(d.Columns, Column{
			ID:        models.NewID(),
			CompanyID: a.CompanyID(),
			BoardID:   d.ID,
			Status:    st.Status,
			Name:      st.Name,
			Position:  i,
			IsDone:    st.IsDone,
		})
	}
	for i := range d.CustomFields {
		d.CustomFields[i].BoardID = d.ID
	}
	err := db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&d.Board).Error; err != nil {
			return err
		}
		if err := tx.Create(&d.Columns).Error; err != nil {
			return err
		}
		if len(d.CustomFields) > 0 {
			return tx.Create(&d.CustomFields).Error
		}
		return nil
	})
	if err != nil {
		return nil, models.Internal("create board: %w", err)
	}
	return &d, nil
}

// BoardAccess returns a board and the caller's standing in its company. Errors: not_found.
func (s *Service) BoardAccess(ctx context.Context, userID, id uuid.UUID) (*Board, *Access, error) {
	return ownedBy(ctx, s, userID, id, "task_board_not_found", func(b *Board) uuid.UUID { return b.CompanyID })
}

// Boards lists a page of the company's boards, of one project when projectID is set.
// Errors: internal.
func (s *Service) Boards(ctx context.Context, a *Access, projectID *uuid.UUID, page models.PageRequest) ([]BoardDetail, string, error) {
	var rows []Board
	q := s.DB.WithContext(ctx).Where("company_id = ?", a.CompanyID())
	if projectID != nil {
		q = q.Where("project_id = ?", *projectID)
	}
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list boards: %w", err)
	}
	rows, next := models.Page(page, rows, func(b Board) uuid.UUID { return b.ID })
	out := make([]BoardDetail, len(rows))
	for i := range rows {
		d, err := s.BoardDetail(ctx, &rows[i])
		if err != nil {
			return nil, "", err
		}
		out[i] = *d
	}
	return out, next, nil
}

// BoardDetail reads a board's columns, their task counts and its custom fields.
// Errors: internal.
func (s *Service) BoardDetail(ctx context.Context, b *Board) (*BoardDetail, error) {
	db := s.DB.WithContext(ctx)
	d := BoardDetail{Board: *b, TaskCounts: map[uuid.UUID]int{}}
	if err := db.Where("board_id = ?", b.ID).Order("position").Find(&d.Columns).Error; err != nil {
		return nil, models.Internal("read board columns: %w", err)
	}
	if err := db.Where("board_id = ?", b.ID).Order("position").Find(&d.CustomFields).Error; err != nil {
		return nil, models.Internal("read custom fields: %w", err)
	}
	var counts []struct {
		ColumnID uuid.UUID
		N        int
	}
	if err := db.Table("work_tasks").
		Select("column_id, COUNT(*) AS n").
		Where("board_id = ?", b.ID).
		Group("column_id").
		Scan(&counts).Error; err != nil {
		return nil, models.Internal("count board tasks: %w", err)
	}
	for _, c := range counts {
		d.TaskCounts[c.ColumnID] = c.N
	}
	return &d, nil
}
