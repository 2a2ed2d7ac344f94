package automation

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// Item statuses: an item runs, then succeeds, fails or is cancelled with the run; one a
// failing loop never started is not_run.
const (
	ItemRunning   = "running"
	ItemSucceeded = "succeeded"
	ItemFailed    = "failed"
	ItemCancelled = "cancelled"
	ItemNotRun    = "not_run"
)

// ItemStatuses are the values an item list may filter by.
var ItemStatuses = []string{ItemRunning, ItemSucceeded, ItemFailed, ItemCancelled}

// LoopItem is one item of a loop.for_each in a run: its outcome, and the item itself. Its
// body's action runs are the run's action runs whose item_key is its ItemKey.
type LoopItem struct {
	ID    uuid.UUID `gorm:"primaryKey"`
	RunID uuid.UUID
	// LoopKey is the loop's key in the run: its action key, or for an inner loop the outer
	// item's key before it (orders[2].lines).
	LoopKey         string
	ItemIndex       int
	Status          string
	Item            string
	Error           string
	FailedActionKey string
	StartedAt       *time.Time
	FinishedAt      *time.Time
	UpdatedAt       time.Time
}

func (LoopItem) TableName() string { return "workflow_loop_items" }

// Key is the item's ItemKey.
func (it *LoopItem) Key() string { return ItemKey(it.LoopKey, it.ItemIndex) }

// ItemUpdate records an item's start (Item and StartedAt set) or its end.
type ItemUpdate struct {
	LoopKey         string
	Index           int
	Status          string
	Item            any
	Error           string
	FailedActionKey string
	StartedAt       *time.Time
	FinishedAt      *time.Time
}

// maxStoredItem bounds the item a row keeps, as JSON; a larger one is stored as a note of
// its size (the run's history still has it whole).
const maxStoredItem = 16 << 10

// applyItem writes an item update: the first creates the row, later ones change its outcome.
func applyItem(tx *gorm.DB, runID uuid.UUID, u ItemUpdate, now time.Time) error {
	item := marshal(u.Item)
	if len(item) > maxStoredItem {
		item = marshal(map[string]any{"truncated": true, "bytes": len(item)})
	}
	row := LoopItem{
		ID: models.NewID(), RunID: runID, LoopKey: u.LoopKey, ItemIndex: u.Index, Status: u.Status, Item: item,
		Error: u.Error, FailedActionKey: u.FailedActionKey, StartedAt: utc(u.StartedAt), FinishedAt: utc(u.FinishedAt), UpdatedAt: now,
	}
	update := []string{"status", "error", "failed_action_key", "updated_at"}
	if u.StartedAt != nil {
		update = append(update, "started_at", "item")
	}
	if u.FinishedAt != nil {
		update = append(update, "finished_at")
	}
	return tx.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "run_id"}, {Name: "loop_key"}, {Name: "item_index"}},
		DoUpdates: clause.AssignmentColumns(update),
	}).Create(&row).Error
}

// ensureItemAction creates the row of an item's body action the first time the item's
// interpreter reports it.
func ensureItemAction(tx *gorm.DB, runID uuid.UUID, a ActionUpdate, now time.Time) error {
	row := pendingActionRun(runID, a.ActionKey, a.ActionTypeKey, a.MaxAttempts, now)
	row.ItemKey = a.ItemKey
	return tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// ItemFilter narrows a loop's items; zero fields do not narrow it.
type ItemFilter struct {
	Status string
}

// LoopItems lists a loop's items of the filter in item order, at most limit after the
// cursor, with the cursor of the next page ("" on the last). The cursor is the index of the
// next item to list, since items are read in their order rather than their rows'.
// Errors: invalid (status, cursor).
func (s *Service) LoopItems(ctx context.Context, runID uuid.UUID, loopKey string, f ItemFilter, limit int, cursor string) ([]LoopItem, string, error) {
	q := s.DB.WithContext(ctx).Where("run_id = ? AND loop_key = ?", runID, loopKey)
	if f.Status != "" {
		if !slices.Contains(ItemStatuses, f.Status) {
			return nil, "", models.Invalid("invalid_status", "status")
		}
		q = q.Where("status = ?", f.Status)
	}
	if cursor != "" {
		from, err := strconv.Atoi(cursor)
		if err != nil || from < 0 {
			return nil, "", models.Invalid("invalid_cursor", "cursor")
		}
		q = q.Where("item_index >= ?", from)
	}
	var rows []LoopItem
	if err := q.Order("item_index").Limit(limit + 1).Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list loop items: %w", err)
	}
	if len(rows) <= limit {
		return rows, "", nil
	}
	return rows[:limit], strconv.Itoa(rows[limit].ItemIndex), nil
}

// LoopItem reads one item of a loop with its body's action runs, in the body's graph
// order. Errors: not found.
func (s *Service) LoopItem(ctx context.Context, r *Run, loopKey string, index int) (*LoopItem, []ActionRun, error) {
	var it LoopItem
	err := s.DB.WithContext(ctx).Take(&it, "run_id = ? AND loop_key = ? AND item_index = ?", r.ID, loopKey, index).Error
	if models.IsNotFound(err) {
		return nil, nil, models.NotFound("loop_item_not_found")
	}
	if err != nil {
		return nil, nil, models.Internal("read loop item: %w", err)
	}
	var rows []ActionRun
	if err := s.DB.WithContext(ctx).Where("run_id = ? AND item_key = ?", r.ID, it.Key()).Find(&rows).Error; err != nil {
		return nil, nil, models.Internal("list item action runs: %w", err)
	}
	order := map[string]int{}
	for i, a := range r.GraphJSON().Actions {
		order[it.Key()+"."+a.ActionKey] = i
	}
	slices.SortFunc(rows, func(a, b ActionRun) int { return order[a.ActionKey] - order[b.ActionKey] })
	return &it, rows, nil
}

// DecodeValue decodes a JSON column we wrote that may hold any value; an unreadable one
// reads as null.
func DecodeValue(s string) any {
	var out any
	_ = json.Unmarshal([]byte(s), &out)
	return out
}

// PriorItem is what an item of a loop came to in an earlier execution of its run, for a
// retry of one of its items: its status and error, and its body's action runs by their keys
// in the graph.
type PriorItem struct {
	Index   int
	Status  string
	Actions map[string]ActionRun
}

// PriorItems reads the items from (inclusive) to to (exclusive) of a loop, with the action
// runs of their bodies. Errors: internal.
func (s *Service) PriorItems(ctx context.Context, runID uuid.UUID, loopKey string, from, to int) ([]PriorItem, error) {
	var items []LoopItem
	err := s.DB.WithContext(ctx).Where("run_id = ? AND loop_key = ? AND item_index >= ? AND item_index < ?", runID, loopKey, from, to).
		Order("item_index").Find(&items).Error
	if err != nil {
		return nil, models.Internal("read prior items of %s: %w", loopKey, err)
	}
	out := make([]PriorItem, len(items))
	keys := make([]string, len(items))
	at := map[string]int{}
	for i, it := range items {
		out[i] = PriorItem{Index: it.ItemIndex, Status: it.Status, Actions: map[string]ActionRun{}}
		keys[i] = it.Key()
		at[it.Key()] = i
	}
	if len(keys) == 0 {
		return out, nil
	}
	var rows []ActionRun
	if err := s.DB.WithContext(ctx).Where("run_id = ? AND item_key IN ?", runID, keys).Find(&rows).Error; err != nil {
		return nil, models.Internal("read prior item actions of %s: %w", loopKey, err)
	}
	for _, row := range rows {
		out[at[row.ItemKey]].Actions[row.ActionKey[len(row.ItemKey)+1:]] = row
	}
	return out, nil
}

// ItemActionRun reads the action run of a loop item's body by its key in the run
// (lines[3].create). Errors: not found.
func (s *Service) ItemActionRun(ctx context.Context, runID uuid.UUID, actionKey string) (*ActionRun, error) {
	var row ActionRun
	err := s.DB.WithContext(ctx).Take(&row, "run_id = ? AND action_key = ? AND item_key <> ''", runID, actionKey).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("unknown_action")
	}
	if err != nil {
		return nil, models.Internal("read item action %s: %w", actionKey, err)
	}
	return &row, nil
}

// SplitItemActionKey splits the key in the run of an item's body action (orders[2].lines[0].create)
// into the loop of the run's own it is in (orders) and what follows that loop's item key
// (lines[0].create); ok is false for a key outside loops.
func SplitItemActionKey(key string) (loop, item, rest string, ok bool) {
	open := strings.IndexByte(key, '[')
	end := strings.IndexByte(key, ']')
	if open <= 0 || end < open || end+2 > len(key) || key[end+1] != '.' {
		return "", "", "", false
	}
	return key[:open], key[:end+1], key[end+2:], true
}
