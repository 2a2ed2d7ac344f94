package work

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// ChecklistItem is an item of a task's checklist, ordered by Rank.
type ChecklistItem struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	TaskID    uuid.UUID
	Title     string
	Done      bool
	Rank      string
	DoneAt    *time.Time
	DoneBy    *uuid.UUID
	CreatedAt time.Time
}

func (ChecklistItem) TableName() string { return "work_task_checklist_items" }

const maxChecklistItems = 200

// ChecklistPlace puts an item after another of the same checklist; Set with a nil AfterID
// puts it first, unset leaves it (a new item goes last).
type ChecklistPlace struct {
	Set     bool
	AfterID *uuid.UUID
}

// ChecklistPatch changes an item; nil fields are left alone.
type ChecklistPatch struct {
	Title *string
	Done  *bool
	Place ChecklistPlace
}

// AddChecklistItem adds an item to a task's checklist. Errors: forbidden, invalid (title,
// after_item_id, a full checklist).
func (s *Service) AddChecklistItem(ctx context.Context, a *Access, row *TaskRow, title string, done bool,
	place ChecklistPlace) (*ChecklistItem, error) {
	if err := a.requireWork(row.ProjectID); err != nil {
		return nil, err
	}
	var bad invalidFields
	bad.length("title", title, 1, 500)
	if err := bad.err("invalid_checklist_item"); err != nil {
		return nil, err
	}
	now := s.now()
	it := ChecklistItem{ID: models.NewID(), CompanyID: row.CompanyID, TaskID: row.ID, Title: strings.TrimSpace(title), CreatedAt: now}
	setDone(&it, done, a.UserID, now)
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockRow(tx, "work_tasks", row.ID); err != nil {
			return err
		}
		var n int64
		if err := tx.Model(&ChecklistItem{}).Where("task_id = ?", row.ID).Count(&n).Error; err != nil {
			return models.Internal("count checklist items: %w", err)
		}
		if n >= maxChecklistItems {
			return models.Invalid("checklist_full", "title")
		}
		rank, err := checklistRank(tx, row.ID, it.ID, place)
		if err != nil {
			return err
		}
		it.Rank = rank
		if err := tx.Create(&it).Error; err != nil {
			return models.Internal("add checklist item: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &it, nil
}

func setDone(it *ChecklistItem, done bool, by uuid.UUID, at time.Time) {
	if done == it.Done && (done == (it.DoneAt != nil)) {
		return
	}
	it.Done, it.DoneAt, it.DoneBy = done, nil, nil
	if done {
		it.DoneAt, it.DoneBy = &at, &by
	}
}

// checklistRank is the rank of item self of a task's checklist placed as p says.
func checklistRank(tx *gorm.DB, taskID, self uuid.UUID, p ChecklistPlace) (string, error) {
	ranks := func(where string, args []any, order string) (string, error) {
		var out []string
		err := tx.Model(&ChecklistItem{}).
			Where("task_id = ? AND id <> ?", taskID, self).
			Where(where, args...).
			Order(order).
			Limit(1).
			Pluck("rank", &out).Error
		if err != nil || len(out) == 0 {
			return "", err
		}
		return out[0], nil
	}
	switch {
	case !p.Set:
		last, err := ranks("1 = 1", nil, "rank DESC")
		if err != nil || last == "" {
			return firstRank, err
		}
		return rankAfter(last), nil
	case p.AfterID == nil:
		first, err := ranks("1 = 1", nil, "rank ASC")
		if err != nil || first == "" {
			return firstRank, err
		}
		return rankBefore(first), nil
	}
	after, err := ranks("id = ?", []any{*p.AfterID}, "rank")
	if err != nil {
		return "", models.Internal("read checklist neighbour: %w", err)
	}
	if after == "" {
		return "", models.Invalid("unknown_checklist_item", "after_item_id")
	}
	next, err := ranks("rank > ?", []any{after}, "rank ASC")
	if err != nil || next == "" {
		return rankAfter(after), err
	}
	return rankBetween(after, next), nil
}

// ChecklistItemOf reads an item of a task's checklist. Errors: not_found.
func (s *Service) ChecklistItemOf(ctx context.Context, row *TaskRow, id uuid.UUID) (*ChecklistItem, error) {
	var it ChecklistItem
	err := s.DB.WithContext(ctx).Take(&it, "id = ? AND task_id = ?", id, row.ID).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("checklist_item_not_found")
	}
	if err != nil {
		return nil, models.Internal("read checklist item: %w", err)
	}
	return &it, nil
}

// PatchChecklistItem renames, ticks or moves an item. Errors: forbidden, invalid (title,
// after_item_id).
func (s *Service) PatchChecklistItem(ctx context.Context, a *Access, row *TaskRow, it *ChecklistItem,
	p ChecklistPatch) (*ChecklistItem, error) {
	if err := a.requireWork(row.ProjectID); err != nil {
		return nil, err
	}
	next := *it
	if p.Title != nil {
		next.Title = strings.TrimSpace(*p.Title)
	}
	var bad invalidFields
	bad.length("title", next.Title, 1, 500)
	bad.require("after_item_id", p.Place.AfterID == nil || *p.Place.AfterID != it.ID)
	if err := bad.err("invalid_checklist_item"); err != nil {
		return nil, err
	}
	if p.Done != nil {
		setDone(&next, *p.Done, a.UserID, s.now())
	}
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if p.Place.Set {
			if err := lockRow(tx, "work_tasks", row.ID); err != nil {
				return err
			}
			rank, err := checklistRank(tx, row.ID, it.ID, p.Place)
			if err != nil {
				return err
			}
			next.Rank = rank
		}
		if err := tx.Select("title", "done", "done_at", "done_by", "rank").Updates(&next).Error; err != nil {
			return models.Internal("patch checklist item: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &next, nil
}
