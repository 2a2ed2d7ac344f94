package automation

import (
	"context"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// Run end event types, the events run.event_trigger starts runs on.
const (
	EventRunFailed    = "run.failed"
	EventRunCancelled = "run.cancelled"
)

// TriggerRunEvent is the trigger_type of the runs run.event_trigger starts.
const TriggerRunEvent = "run_event"

// RunEndEvent is a run of a project that failed or was cancelled, queued for the workflows
// of the project that start on it (run.event_trigger). It is written in the transaction
// that records the run's end (recordFinish), once per end, and DispatchedAt is set once
// the runs it starts are stored: until then it is queued. A run whose own trigger is a
// run.event_trigger queues none, so watchers never start each other in a loop; neither
// does a test run of a draft.
type RunEndEvent struct {
	ID         uuid.UUID `gorm:"primaryKey"`
	CompanyID  uuid.UUID
	ProjectID  uuid.UUID
	WorkflowID uuid.UUID
	RunID      uuid.UUID
	EventType  string
	// FailedActionKey is the action whose failure failed the run; "" for a cancelled run
	// and for one the engine refused.
	FailedActionKey string
	// Error is the run's error, or for a cancelled run its terminal reason.
	Error        string
	OccurredAt   time.Time
	DispatchedAt *time.Time
}

func (RunEndEvent) TableName() string { return "workflow_run_end_events" }

// queueRunEnd queues the RunEndEvent of before, a run the write u ends with status failed
// or cancelled, unless it is a test run or its trigger is a run.event_trigger.
func queueRunEnd(tx *gorm.DB, before *Run, u *RunUpdate, at time.Time) error {
	eventType := map[RunStatus]string{RunFailed: EventRunFailed, RunCancelled: EventRunCancelled}[u.Status]
	if eventType == "" || before.IsTest || before.TriggerType == TriggerRunEvent {
		return nil
	}
	// A replay (or a retry) of a watcher's run is still a watcher's run: its trigger says so.
	var graph Run
	if err := tx.Select("graph").Take(&graph, "id = ?", before.ID).Error; err != nil {
		return err
	}
	if trigger, ok := graph.GraphJSON().Action(before.TriggerActionKey); ok && trigger.ActionTypeKey == TypeRunEvent {
		return nil
	}
	text := u.Error
	if text == "" {
		text = u.TerminalReason
	}
	return tx.Create(&RunEndEvent{
		ID: models.NewID(), CompanyID: before.CompanyID, ProjectID: before.ProjectID, WorkflowID: before.WorkflowID,
		RunID: before.ID, EventType: eventType, FailedActionKey: u.FailedActionKey, Error: text, OccurredAt: at.UTC(),
	}).Error
}

// QueuedRunEndEvents lists run end events not dispatched yet, oldest first. Errors: internal.
func (s *Service) QueuedRunEndEvents(ctx context.Context, limit int) ([]RunEndEvent, error) {
	return models.QueuedEvents[RunEndEvent](s.DB.WithContext(ctx), limit)
}

// MarkRunEndEventDispatched records that the runs an event triggers are stored.
// Errors: internal.
func (s *Service) MarkRunEndEventDispatched(ctx context.Context, ev RunEndEvent, _ []uuid.UUID) error {
	return models.MarkEventDispatched[RunEndEvent](s.DB.WithContext(ctx), ev.ID, s.now())
}

// RunEndEventScope is what a run started by the event reads under {{ run_event.* }},
// without run_url, which the engine adds (it knows the console's address): the run that
// ended, its workflow's name as it is now, the action that failed it and its error.
// Errors: internal.
func (s *Service) RunEndEventScope(ctx context.Context, ev RunEndEvent) (map[string]any, error) {
	var w Workflow
	if err := s.DB.WithContext(ctx).Select("name").Take(&w, "id = ?", ev.WorkflowID).Error; err != nil {
		return nil, models.Internal("read workflow of run end event: %w", err)
	}
	return map[string]any{
		"event_id": ev.ID.String(), "event_type": ev.EventType, "occurred_at": ev.OccurredAt.UTC().Format(time.RFC3339),
		"run_id": ev.RunID.String(), "workflow_id": ev.WorkflowID.String(), "workflow_name": w.Name,
		"failed_action_key": ev.FailedActionKey, "error": ev.Error,
	}, nil
}
