package work

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/models/company"
)

// Priorities of a task, from none to the most pressing (Linear's scale).
var Priorities = []string{"none", "low", "medium", "high", "urgent"}

// Task is a card on a board: its column is its status, Rank its place in the column.
type Task struct {
	ID          uuid.UUID `gorm:"primaryKey"`
	CompanyID   uuid.UUID
	BoardID     uuid.UUID
	ColumnID    uuid.UUID
	ProjectID   *uuid.UUID
	ClientID    *uuid.UUID
	Title       string
	Description string
	AssigneeID  *uuid.UUID
	ReporterID  *uuid.UUID
	Priority    string
	DueDate     *models.Date
	Labels      Strings
	Rank        string
	// SearchText is the lower-cased title and description that `q` searches: lower-casing
	// in Go folds Cyrillic too, which SQLite's lower() does not.
	SearchText string
	// SourceKey is "<run id>:<action key>" for a task a workflow's task.create made.
	SourceKey *string
	// Revision counts the task's changes; an event's key names the revision it tells of.
	Revision    int
	CompletedAt *time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

func (Task) TableName() string { return "work_tasks" }

// TaskRow is a task with the status (the key of its column) it is in.
type TaskRow struct {
	Task
	Status string
}

// taskRows selects tasks with their status.
func taskRows(db *gorm.DB) *gorm.DB {
	return db.Table("work_tasks").Select("work_tasks.*, work_board_columns.status").
		Joins("JOIN work_board_columns ON work_board_columns.id = work_tasks.column_id")
}

// TaskAccess returns a task with its status and the caller's standing in its company.
// Errors: not_found.
func (s *Service) TaskAccess(ctx context.Context, userID, id uuid.UUID) (*TaskRow, *Access, error) {
	t, a, err := ownedBy(ctx, s, userID, id, "task_not_found", func(t *Task) uuid.UUID { return t.CompanyID })
	if err != nil {
		return nil, nil, err
	}
	row, err := s.taskRow(s.DB.WithContext(ctx), t.ID)
	return row, a, err
}

func (s *Service) taskRow(db *gorm.DB, id uuid.UUID) (*TaskRow, error) {
	var row TaskRow
	if err := taskRows(db).Where("work_tasks.id = ?", id).Take(&row).Error; err != nil {
		return nil, models.Internal("read task: %w", err)
	}
	return &row, nil
}

// TaskInput creates a task. Status "" is the board's first column; Priority "" is none.
type TaskInput struct {
	BoardID     uuid.UUID
	Status      string
	Title       string
	Description string
	AssigneeID  *uuid.UUID
	ClientID    *uuid.UUID
	Priority    string
	DueDate     *models.Date
	Labels      []string
}

// TaskPatch changes a task; nil fields are left alone, a Set optional with a nil value
// clears the field.
type TaskPatch struct {
	Title, Description, Priority *string
	Labels                       *[]string
	Assignee, Client             company.OptionalID
	DueDate                      OptionalDate
}

// OptionalDate is a patch of a nullable date.
type OptionalDate struct {
	Set  bool
	Date *models.Date
}

// checkTask validates a task's own fields after a create or a patch, checking the assignee
// and client against the company. Errors: invalid (title, description, priority, labels,
// assignee_user_id, client_id).
func checkTask(tx *gorm.DB, t *Task, assigneeChanged, clientChanged bool) error {
	var bad invalidFields
	bad.length("title", t.Title, 1, 500)
	bad.require("description", utf8.RuneCountInString(t.Description) <= 20000)
	bad.require("priority", slices.Contains(Priorities, t.Priority))
	bad.require("labels", len(t.Labels) <= 20)
	for i, l := range t.Labels {
		n := utf8.RuneCountInString(l)
		bad.require("labels", n >= 1 && n <= 50 && !slices.Contains(t.Labels[:i], l))
	}
	if assigneeChanged && t.AssigneeID != nil {
		ok, err := isMember(tx, t.CompanyID, *t.AssigneeID)
		if err != nil {
			return err
		}
		bad.require("assignee_user_id", ok)
	}
	if clientChanged && t.ClientID != nil {
		var n int64
		if err := tx.Table("clients").Where("id = ? AND company_id = ?", *t.ClientID, t.CompanyID).Count(&n).Error; err != nil {
			return models.Internal("check client: %w", err)
		}
		bad.require("client_id", n > 0)
	}
	t.Labels = slices.Compact(t.Labels)
	t.SearchText = strings.ToLower(t.Title + "\n" + t.Description)
	return bad.err("invalid_task")
}

func trimLabels(labels []string) Strings {
	out := make(Strings, len(labels))
	for i, l := range labels {
		out[i] = strings.TrimSpace(l)
	}
	return out
}

// CreateTask adds a task at the end of its column, reported by the caller. Errors:
// not_found (board_id), forbidden, invalid (status and the task's fields).
func (s *Service) CreateTask(ctx context.Context, a *Access, in TaskInput) (*TaskRow, error) {
	b, err := loadIn[Board](s.DB.WithContext(ctx), a.CompanyID(), in.BoardID, "task_board_not_found")
	if err != nil {
		return nil, err
	}
	if err := a.requireWork(b.ProjectID); err != nil {
		return nil, err
	}
	return s.createTask(ctx, b, in, &a.UserID, nil)
}

// createTask adds a task to a board, at the end of its column, and queues its events. A
// task with a source key that exists already is answered as it is.
func (s *Service) createTask(ctx context.Context, b *Board, in TaskInput, reporter *uuid.UUID, sourceKey *string) (*TaskRow, error) {
	now := s.now()
	t := Task{ID: models.NewID(), CompanyID: b.CompanyID, BoardID: b.ID, ProjectID: b.ProjectID, ClientID: in.ClientID,
		Title: strings.TrimSpace(in.Title), Description: strings.TrimSpace(in.Description), AssigneeID: in.AssigneeID, ReporterID: reporter,
		Priority: cmpOrNone(in.Priority), DueDate: in.DueDate, Labels: trimLabels(in.Labels), SourceKey: sourceKey, Revision: 1,
		CreatedAt: now, UpdatedAt: now}
	var existing *TaskRow
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockRow(tx, "work_boards", b.ID); err != nil {
			return err
		}
		if sourceKey != nil {
			var prior Task
			err := tx.Take(&prior, "company_id = ? AND source_key = ?", b.CompanyID, *sourceKey).Error
			if err == nil {
				row, err := s.taskRow(tx, prior.ID)
				existing = row
				return err
			}
			if !models.IsNotFound(err) {
				return models.Internal("find task of a source: %w", err)
			}
		}
		if err := checkTask(tx, &t, true, true); err != nil {
			return err
		}
		col, err := columnOf(tx, b.ID, in.Status, "status")
		if err != nil {
			return err
		}
		t.ColumnID = col.ID
		if col.IsDone {
			t.CompletedAt = &now
		}
		last, err := edgeRank(tx, col.ID, t.ID, "DESC")
		if err != nil {
			return err
		}
		t.Rank = firstRank
		if last != "" {
			t.Rank = rankAfter(last)
		}
		if err := tx.Create(&t).Error; err != nil {
			return models.Internal("create task: %w", err)
		}
		ev := taskEvent{task: &t, actor: reporter, to: col.Status}
		if err := ev.record(tx, EventTaskCreated, now); err != nil {
			return err
		}
		if t.AssigneeID != nil {
			if err := ev.assigned(tx, now); err != nil {
				return err
			}
		}
		if col.IsDone {
			return ev.record(tx, EventTaskCompleted, now)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if existing != nil {
		return existing, nil
	}
	if t.AssigneeID != nil {
		models.AnnounceEvents(ctx, s.Bus)
	}
	return &TaskRow{Task: t, Status: columnStatus(s.DB.WithContext(ctx), t.ColumnID)}, nil
}

func cmpOrNone(p string) string {
	if p == "" {
		return "none"
	}
	return p
}

// columnStatus reads a column's status; the column was just read in a transaction.
func columnStatus(db *gorm.DB, columnID uuid.UUID) string {
	var c Column
	db.Select("status").Take(&c, "id = ?", columnID)
	return c.Status
}

// columnOf reads the column of a board with a status; "" is the first column.
// Errors: invalid (field).
func columnOf(tx *gorm.DB, boardID uuid.UUID, status, field string) (*Column, error) {
	var c Column
	q := tx.Where("board_id = ?", boardID)
	if status != "" {
		q = q.Where("status = ?", status)
	}
	err := q.Order("position").Take(&c).Error
	if models.IsNotFound(err) {
		return nil, models.Invalid("unknown_status", field)
	}
	if err != nil {
		return nil, models.Internal("read column: %w", err)
	}
	return &c, nil
}

// edgeRank is the last (order DESC) or first (ASC) rank of a column, leaving out one task;
// "" for an empty column.
func edgeRank(tx *gorm.DB, columnID, except uuid.UUID, order string) (string, error) {
	var ranks []string
	err := tx.Model(&Task{}).Where("column_id = ? AND id <> ?", columnID, except).Order("rank "+order).Limit(1).Pluck("rank", &ranks).Error
	if err != nil {
		return "", models.Internal("read column edge: %w", err)
	}
	if len(ranks) == 0 {
		return "", nil
	}
	return ranks[0], nil
}

// neighbourRank is the nearest rank of a column after (">") or before ("<") rank, leaving
// out one task; "" when none.
func neighbourRank(tx *gorm.DB, columnID, except uuid.UUID, op, rank string) (string, error) {
	order := "rank ASC"
	if op == "<" {
		order = "rank DESC"
	}
	var ranks []string
	err := tx.Model(&Task{}).
		Where("column_id = ? AND id <> ? AND rank "+op+" ?", columnID, except, rank).
		Order(order).
		Limit(1).
		Pluck("rank", &ranks).Error
	if err != nil {
		return "", models.Internal("read neighbour rank: %w", err)
	}
	if len(ranks) == 0 {
		return "", nil
	}
	return ranks[0], nil
}

// PatchTask changes a task's fields. Errors: forbidden, invalid (the task's fields).
func (s *Service) PatchTask(ctx context.Context, a *Access, row *TaskRow, p TaskPatch) (*TaskRow, error) {
	if err := a.requireWork(row.ProjectID); err != nil {
		return nil, err
	}
	now := s.now()
	var out *TaskRow
	var reassigned bool
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var t Task
		if err := tx.Take(&t, "id = ?", row.ID).Error; err != nil {
			return models.Internal("read task: %w", err)
		}
		before := t.AssigneeID
		if p.Title != nil {
			t.Title = strings.TrimSpace(*p.Title)
		}
		if p.Description != nil {
			t.Description = strings.TrimSpace(*p.Description)
		}
		if p.Priority != nil {
			t.Priority = *p.Priority
		}
		if p.Labels != nil {
			t.Labels = trimLabels(*p.Labels)
		}
		if p.Assignee.Set {
			t.AssigneeID = p.Assignee.ID
		}
		if p.Client.Set {
			t.ClientID = p.Client.ID
		}
		if p.DueDate.Set {
			t.DueDate = p.DueDate.Date
		}
		if err := checkTask(tx, &t, p.Assignee.Set, p.Client.Set); err != nil {
			return err
		}
		t.Revision++
		t.UpdatedAt = now
		if err := tx.Select("*").Updates(&t).Error; err != nil {
			return models.Internal("patch task: %w", err)
		}
		reassigned = t.AssigneeID != nil && (before == nil || *before != *t.AssigneeID)
		if reassigned {
			if err := (taskEvent{task: &t, actor: &a.UserID, to: row.Status}).assigned(tx, now); err != nil {
				return err
			}
		}
		var err error
		out, err = s.taskRow(tx, t.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	if reassigned {
		models.AnnounceEvents(ctx, s.Bus)
	}
	return out, nil
}

// Move places a task in a column: after the task AfterID, or before the task BeforeID
// (both of that column), or at its end.
type Move struct {
	Status            string
	AfterID, BeforeID *uuid.UUID
}

// MoveTask moves a task in one transaction that holds its board, so concurrent moves of a
// board's tasks take their places one after the other: the rank between the neighbours
// read is free when it is written, and the column's unique rank index would refuse it
// otherwise. Entering a done column completes the task, leaving one reopens it.
// Errors: forbidden, invalid (status, after_task_id, before_task_id).
func (s *Service) MoveTask(ctx context.Context, a *Access, row *TaskRow, m Move) (*TaskRow, error) {
	if err := a.requireWork(row.ProjectID); err != nil {
		return nil, err
	}
	if m.AfterID != nil && m.BeforeID != nil {
		return nil, models.Invalid("move_after_or_before", "after_task_id", "before_task_id")
	}
	now := s.now()
	var out *TaskRow
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockRow(tx, "work_boards", row.BoardID); err != nil {
			return err
		}
		var t Task
		if err := tx.Take(&t, "id = ?", row.ID).Error; err != nil {
			return models.Internal("read task: %w", err)
		}
		var from Column
		if err := tx.Take(&from, "id = ?", t.ColumnID).Error; err != nil {
			return models.Internal("read column: %w", err)
		}
		to := &from
		if m.Status != "" {
			var err error
			if to, err = columnOf(tx, t.BoardID, m.Status, "status"); err != nil {
				return err
			}
		}
		rank, err := placeIn(tx, to.ID, t.ID, m)
		if err != nil {
			return err
		}
		t.ColumnID, t.Rank, t.Revision, t.UpdatedAt = to.ID, rank, t.Revision+1, now
		switch {
		case to.IsDone && !from.IsDone:
			t.CompletedAt = &now
		case !to.IsDone:
			t.CompletedAt = nil
		}
		if err := tx.Select("column_id", "rank", "revision", "updated_at", "completed_at").Updates(&t).Error; err != nil {
			return models.Internal("move task: %w", err)
		}
		if to.ID != from.ID {
			ev := taskEvent{task: &t, actor: &a.UserID, from: from.Status, to: to.Status}
			if err := ev.record(tx, EventTaskMoved, now); err != nil {
				return err
			}
			if to.IsDone && !from.IsDone {
				if err := ev.record(tx, EventTaskCompleted, now); err != nil {
					return err
				}
			}
		}
		out = &TaskRow{Task: t, Status: to.Status}
		return nil
	})
	return out, err
}

// placeIn is the rank of task self placed in a column as m says.
func placeIn(tx *gorm.DB, columnID, self uuid.UUID, m Move) (string, error) {
	neighbour := func(id uuid.UUID, field string) (string, error) {
		var n Task
		err := tx.Select("rank").Take(&n, "id = ? AND column_id = ? AND id <> ?", id, columnID, self).Error
		if models.IsNotFound(err) {
			return "", models.Invalid("neighbour_not_in_column", field)
		}
		if err != nil {
			return "", models.Internal("read neighbour task: %w", err)
		}
		return n.Rank, nil
	}
	switch {
	case m.AfterID != nil:
		after, err := neighbour(*m.AfterID, "after_task_id")
		if err != nil {
			return "", err
		}
		next, err := neighbourRank(tx, columnID, self, ">", after)
		if err != nil || next == "" {
			return rankAfter(after), err
		}
		return rankBetween(after, next), nil
	case m.BeforeID != nil:
		before, err := neighbour(*m.BeforeID, "before_task_id")
		if err != nil {
			return "", err
		}
		prev, err := neighbourRank(tx, columnID, self, "<", before)
		if err != nil || prev == "" {
			return rankBefore(before), err
		}
		return rankBetween(prev, before), nil
	}
	last, err := edgeRank(tx, columnID, self, "DESC")
	if err != nil || last == "" {
		return firstRank, err
	}
	return rankAfter(last), nil
}

// TaskFilter narrows a task list; zero fields do not filter.
type TaskFilter struct {
	BoardID, ProjectID, AssigneeID *uuid.UUID
	Statuses                       []string
	DueFrom, DueTo                 *models.Date
	Query                          string
}

// Tasks lists a page of the company's tasks that pass the filter, oldest first.
// Errors: invalid (q too long).
func (s *Service) Tasks(ctx context.Context, a *Access, f TaskFilter, page models.PageRequest) ([]TaskRow, string, error) {
	q := taskRows(s.DB.WithContext(ctx)).Where("work_tasks.company_id = ?", a.CompanyID())
	if f.BoardID != nil {
		q = q.Where("work_tasks.board_id = ?", *f.BoardID)
	}
	if f.ProjectID != nil {
		q = q.Where("work_tasks.project_id = ?", *f.ProjectID)
	}
	if f.AssigneeID != nil {
		q = q.Where("work_tasks.assignee_id = ?", *f.AssigneeID)
	}
	if len(f.Statuses) > 0 {
		q = q.Where("work_board_columns.status IN ?", f.Statuses)
	}
	if f.DueFrom != nil {
		q = q.Where("work_tasks.due_date >= ?", *f.DueFrom)
	}
	if f.DueTo != nil {
		q = q.Where("work_tasks.due_date <= ?", *f.DueTo)
	}
	if f.Query != "" {
		if utf8.RuneCountInString(f.Query) > 200 {
			return nil, "", models.Invalid("invalid_task_filter", "q")
		}
		q = q.Where(`work_tasks.search_text LIKE ? ESCAPE '\'`, models.LikeContains(strings.ToLower(f.Query)))
	}
	var rows []TaskRow
	if err := page.Apply(q, "work_tasks.id").Scan(&rows).Error; err != nil {
		return nil, "", models.Internal("list tasks: %w", err)
	}
	rows, next := models.Page(page, rows, func(t TaskRow) uuid.UUID { return t.ID })
	return rows, next, nil
}

// Comment is a comment on a task.
type Comment struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	TaskID    uuid.UUID
	AuthorID  *uuid.UUID
	Body      string
	CreatedAt time.Time
}

func (Comment) TableName() string { return "work_task_comments" }

// AddComment comments on a task as the caller. Errors: forbidden, invalid (body).
func (s *Service) AddComment(ctx context.Context, a *Access, row *TaskRow, body string) (*Comment, error) {
	if err := a.requireWork(row.ProjectID); err != nil {
		return nil, err
	}
	var bad invalidFields
	bad.length("body", body, 1, 10000)
	if err := bad.err("invalid_comment"); err != nil {
		return nil, err
	}
	c := Comment{
		ID:        models.NewID(),
		CompanyID: row.CompanyID,
		TaskID:    row.ID,
		AuthorID:  &a.UserID,
		Body:      strings.TrimSpace(body),
		CreatedAt: s.now(),
	}
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&c).Error; err != nil {
			return models.Internal("add comment: %w", err)
		}
		ev := taskEvent{task: &row.Task, actor: &a.UserID, to: row.Status, comment: &c}
		return ev.record(tx, EventTaskCommentAdded, c.CreatedAt)
	})
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// TaskDetail is a task with its comments, checklist and custom field values.
type TaskDetail struct {
	TaskRow
	Comments  []Comment
	Checklist []ChecklistItem
	Fields    []FieldValue
}

// Detail reads a task's comments, checklist and custom fields. Errors: internal.
func (s *Service) Detail(ctx context.Context, row *TaskRow) (*TaskDetail, error) {
	db := s.DB.WithContext(ctx)
	d := TaskDetail{TaskRow: *row}
	if err := db.Where("task_id = ?", row.ID).Order("id").Find(&d.Comments).Error; err != nil {
		return nil, models.Internal("read comments: %w", err)
	}
	if err := db.Where("task_id = ?", row.ID).Order("rank").Find(&d.Checklist).Error; err != nil {
		return nil, models.Internal("read checklist: %w", err)
	}
	fields, err := s.fieldValues(db, row)
	if err != nil {
		return nil, err
	}
	d.Fields = fields
	return &d, nil
}
