package work

import (
	"context"
	"strconv"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// Task event types, the events task.event_trigger starts runs on.
const (
	EventTaskCreated      = "task.created"
	EventTaskMoved        = "task.moved"
	EventTaskAssigned     = "task.assigned"
	EventTaskCompleted    = "task.completed"
	EventTaskCommentAdded = "task.comment_added"
)

// TaskEvent is a change of a task of a project that workflows may start on. It is written
// in the transaction of the change, once per change (EventKey: the type, the task and its
// revision, or the comment), and DispatchedAt is set once the runs it starts are stored:
// until then it is queued. Tasks of company boards (no project) have no workflows to start
// and queue no events.
type TaskEvent struct {
	ID           uuid.UUID `gorm:"primaryKey"`
	CompanyID    uuid.UUID
	ProjectID    uuid.UUID
	TaskID       uuid.UUID
	BoardID      uuid.UUID
	EventType    string
	EventKey     string
	ActorID      *uuid.UUID
	FromStatus   string
	ToStatus     string
	CommentID    *uuid.UUID
	OccurredAt   time.Time
	DispatchedAt *time.Time
}

func (TaskEvent) TableName() string { return "work_task_events" }

// taskEvent is what an event of a change tells: the task after it, who made it, the
// statuses it moved between, the comment it added.
type taskEvent struct {
	task     *Task
	actor    *uuid.UUID
	from, to string
	comment  *Comment
}

// record queues the event in tx; a second record of the same key is a no-op.
func (e taskEvent) record(tx *gorm.DB, eventType string, at time.Time) error {
	if e.task.ProjectID == nil {
		return nil
	}
	ev := TaskEvent{ID: models.NewID(), CompanyID: e.task.CompanyID, ProjectID: *e.task.ProjectID, TaskID: e.task.ID, BoardID: e.task.BoardID,
		EventType: eventType, EventKey: eventType + ":" + e.task.ID.String() + ":" + strconv.Itoa(e.task.Revision),
		ActorID: e.actor, FromStatus: e.from, ToStatus: e.to, OccurredAt: at}
	if e.comment != nil {
		ev.CommentID, ev.EventKey = &e.comment.ID, eventType+":"+e.comment.ID.String()
	}
	if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&ev).Error; err != nil {
		return models.Internal("queue task event: %w", err)
	}
	return nil
}

// TaskAssigned is the domain event of a task given to a user: created with an assignee,
// or given another one. By is who assigned it, nil for a workflow's task.create; Title and
// Description are the task's as it was assigned.
type TaskAssigned struct {
	TaskID      uuid.UUID  `json:"task_id"`
	CompanyID   uuid.UUID  `json:"company_id"`
	ProjectID   *uuid.UUID `json:"project_id"`
	Revision    int        `json:"revision"`
	AssigneeID  uuid.UUID  `json:"assignee_user_id"`
	By          *uuid.UUID `json:"assigned_by_user_id"`
	Title       string     `json:"title"`
	Description string     `json:"description"`
}

func (TaskAssigned) EventName() string { return EventTaskAssigned }

// assigned records that the task has its assignee now: the task.assigned event that starts
// workflows, and the TaskAssigned domain event.
func (e taskEvent) assigned(tx *gorm.DB, at time.Time) error {
	if err := e.record(tx, EventTaskAssigned, at); err != nil {
		return err
	}
	t := e.task
	return models.RecordEvent(tx, at, TaskAssigned{
		TaskID:      t.ID,
		CompanyID:   t.CompanyID,
		ProjectID:   t.ProjectID,
		Revision:    t.Revision,
		AssigneeID:  *t.AssigneeID,
		By:          e.actor,
		Title:       t.Title,
		Description: t.Description,
	})
}

// QueuedEvents lists task events not dispatched yet, oldest first. Errors: internal.
func (s *Service) QueuedEvents(ctx context.Context, limit int) ([]TaskEvent, error) {
	return models.QueuedEvents[TaskEvent](s.DB.WithContext(ctx), limit)
}

// MarkEventDispatched records that the runs an event triggers are stored. Errors: internal.
func (s *Service) MarkEventDispatched(ctx context.Context, ev TaskEvent, _ []uuid.UUID) error {
	return models.MarkEventDispatched[TaskEvent](s.DB.WithContext(ctx), ev.ID, s.now())
}

// EventScope is what a run started by an event reads under {{ task.* }}: the task's
// fields as they are now, with the event's type, time, actor, the statuses a move went
// between and the comment a comment_added event added.
func (s *Service) EventScope(ctx context.Context, ev TaskEvent) (map[string]any, error) {
	db := s.DB.WithContext(ctx)
	row, err := s.taskRow(db, ev.TaskID)
	if err != nil {
		return nil, err
	}
	var board Board
	if err := db.Take(&board, "id = ?", row.BoardID).Error; err != nil {
		return nil, models.Internal("read board of task event: %w", err)
	}
	scope := TaskScope(row, &board)
	scope["event_id"], scope["event_type"] = ev.ID.String(), ev.EventType
	scope["occurred_at"] = ev.OccurredAt.UTC().Format(time.RFC3339)
	scope["actor_user_id"], scope["from_status"], scope["to_status"] = idText(ev.ActorID), ev.FromStatus, ev.ToStatus
	if ev.CommentID != nil {
		var c Comment
		if err := db.Take(&c, "id = ?", *ev.CommentID).Error; err != nil {
			return nil, models.Internal("read comment of task event: %w", err)
		}
		scope["comment"] = map[string]any{"task_comment_id": c.ID.String(), "body": c.Body, "author_user_id": idText(c.AuthorID)}
	}
	return scope, nil
}

// TaskScope is a task as workflow templates read it (and task.create answers it).
func TaskScope(row *TaskRow, board *Board) map[string]any {
	labels := make([]any, len(row.Labels))
	for i, l := range row.Labels {
		labels[i] = l
	}
	due := ""
	if row.DueDate != nil {
		due = row.DueDate.String()
	}
	return map[string]any{
		"task_id": row.ID.String(), "title": row.Title, "description": row.Description, "status": row.Status,
		"board_id": row.BoardID.String(), "board_name": board.Name, "project_id": idText(row.ProjectID), "client_id": idText(row.ClientID),
		"assignee_user_id": idText(row.AssigneeID), "reporter_user_id": idText(row.ReporterID), "priority": row.Priority,
		"due_date": due, "labels": labels, "completed": row.CompletedAt != nil,
	}
}

// idText is an optional id as text, "" for none.
func idText(id *uuid.UUID) string {
	if id == nil {
		return ""
	}
	return id.String()
}
