package work

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// FieldValue is a custom field of a task's board with the task's value (nil: none).
type FieldValue struct {
	Field CustomField
	Value any
}

// customValue is a stored value: JSON of the field's type.
type customValue struct {
	TaskID        uuid.UUID `gorm:"primaryKey"`
	CustomFieldID uuid.UUID `gorm:"primaryKey"`
	CompanyID     uuid.UUID
	Value         string
	UpdatedAt     time.Time
}

func (customValue) TableName() string { return "work_task_custom_values" }

// fieldValues reads the custom fields of a task's board with the task's values.
func (s *Service) fieldValues(db *gorm.DB, row *TaskRow) ([]FieldValue, error) {
	var fields []CustomField
	if err := db.Where("board_id = ?", row.BoardID).Order("position").Find(&fields).Error; err != nil {
		return nil, models.Internal("read custom fields: %w", err)
	}
	var values []customValue
	if err := db.Where("task_id = ?", row.ID).Find(&values).Error; err != nil {
		return nil, models.Internal("read custom values: %w", err)
	}
	out := make([]FieldValue, len(fields))
	for i, f := range fields {
		out[i].Field = f
		for _, v := range values {
			if v.CustomFieldID == f.ID {
				_ = json.Unmarshal([]byte(v.Value), &out[i].Value)
			}
		}
	}
	return out, nil
}

// CustomFieldOf reads a custom field of a task's board. Errors: not_found.
func (s *Service) CustomFieldOf(ctx context.Context, row *TaskRow, id uuid.UUID) (*CustomField, error) {
	var f CustomField
	err := s.DB.WithContext(ctx).Take(&f, "id = ? AND board_id = ?", id, row.BoardID).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("custom_field_not_found")
	}
	if err != nil {
		return nil, models.Internal("read custom field: %w", err)
	}
	return &f, nil
}

// SetFieldValue sets a task's value of a custom field, checked against the field's type:
// a text of at most 2000 characters, a finite number, a YYYY-MM-DD date, or one of a
// select's options; nil removes the value. Errors: forbidden, invalid (value).
func (s *Service) SetFieldValue(ctx context.Context, a *Access, row *TaskRow, f *CustomField, value any) (*FieldValue, error) {
	if err := a.requireWork(row.ProjectID); err != nil {
		return nil, err
	}
	value, ok := fieldValue(f, value)
	if !ok {
		return nil, models.Invalid("invalid_custom_value", "value")
	}
	db := s.DB.WithContext(ctx)
	if value == nil {
		if err := db.Where("task_id = ? AND custom_field_id = ?", row.ID, f.ID).Delete(&customValue{}).Error; err != nil {
			return nil, models.Internal("clear custom value: %w", err)
		}
		return &FieldValue{Field: *f}, nil
	}
	raw, _ := json.Marshal(value)
	v := customValue{TaskID: row.ID, CustomFieldID: f.ID, CompanyID: row.CompanyID, Value: string(raw), UpdatedAt: s.now()}
	err := db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "task_id"}, {Name: "custom_field_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"value", "updated_at"}),
	}).Create(&v).Error
	if err != nil {
		return nil, models.Internal("save custom value: %w", err)
	}
	return &FieldValue{Field: *f, Value: value}, nil
}

// fieldValue checks a value against a field's type and answers it as stored.
func fieldValue(f *CustomField, value any) (any, bool) {
	if value == nil {
		return nil, true
	}
	switch f.FieldType {
	case FieldText:
		s, ok := value.(string)
		return s, ok && utf8.RuneCountInString(s) <= 2000
	case FieldNumber:
		switch n := value.(type) {
		case float64:
			return n, !math.IsInf(n, 0) && !math.IsNaN(n)
		case json.Number:
			x, err := n.Float64()
			return x, err == nil && !math.IsInf(x, 0)
		}
	case FieldDate:
		s, ok := value.(string)
		if _, err := models.ParseDate(s); ok && err == nil {
			return s, true
		}
	case FieldSelect:
		s, ok := value.(string)
		return strings.TrimSpace(s), ok && slices.Contains(f.Options, strings.TrimSpace(s))
	}
	return nil, false
}
