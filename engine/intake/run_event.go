package intake

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"agencyhub/engine"
	"agencyhub/models/automation"
)

// StartRunEndEvent queues a run of every workflow of the project whose current version has
// a run.event_trigger for the event's type (its events) and for the ended run's workflow
// (its workflow_ids, or every workflow when it lists none), with the ended run under
// {{ run_event.* }}, and answers their ids (startOnEvent). The ended run's own trigger was
// no run.event_trigger: such runs queue no event (automation.RunEndEvent).
func (in *Intake) StartRunEndEvent(ctx context.Context, ev automation.RunEndEvent) ([]uuid.UUID, error) {
	return in.startOnEvent(ctx, domainEvent{ID: ev.ID, CompanyID: ev.CompanyID, ProjectID: ev.ProjectID,
		ActionType: automation.TypeRunEvent, TriggerType: engine.TriggerRunEvent, EventType: ev.EventType, TypesField: "events",
		Takes: func(config map[string]any) bool {
			ids, _ := config["workflow_ids"].([]any)
			return len(ids) == 0 || slices.Contains(ids, any(ev.WorkflowID.String()))
		},
		Scope: func(ctx context.Context) (map[string]any, error) {
			scope, err := in.Workflows.RunEndEventScope(ctx, ev)
			if err != nil {
				return nil, err
			}
			scope["run_url"] = fmt.Sprintf("%s/runs/%s", in.Runs.WebURL, ev.RunID)
			return scope, nil
		}})
}
