package intake

import (
	"context"

	"github.com/google/uuid"

	"agencyhub/engine"
	"agencyhub/models/automation"
	"agencyhub/models/work"
)

// StartTaskEvent queues a run of every workflow of the task's project whose current version
// has a task.event_trigger for the event's type and for the task's board (or for any
// board), with the task and the event under {{ task.* }}, and answers their ids
// (startOnEvent).
func (in *Intake) StartTaskEvent(ctx context.Context, ev work.TaskEvent) ([]uuid.UUID, error) {
	return in.startOnEvent(ctx, domainEvent{ID: ev.ID, CompanyID: ev.CompanyID, ProjectID: ev.ProjectID,
		ActionType: automation.TypeTask, TriggerType: engine.TriggerTask, EventType: ev.EventType,
		Takes: func(config map[string]any) bool {
			board, _ := config["board_id"].(string)
			return board == "" || board == ev.BoardID.String()
		},
		Scope: func(ctx context.Context) (map[string]any, error) { return in.Work.EventScope(ctx, ev) }})
}
