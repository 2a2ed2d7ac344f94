package intake

import (
	"context"
	"slices"

	"github.com/google/uuid"

	"agencyhub/engine"
	"agencyhub/models/automation"
)

// domainEvent is an event of one of the domain event queues (billing's payment events, the
// tracker's task events, the ends of runs) as the intake starts runs from it: the
// workflows of its project whose current version has a trigger of actionType that takes it.
type domainEvent struct {
	ID                   uuid.UUID
	CompanyID, ProjectID uuid.UUID
	// ActionType is the trigger action type; TriggerType the runs' trigger_type.
	ActionType, TriggerType string
	// EventType must be among the trigger's event_types (its defaults applied), or the
	// list its TypesField names.
	EventType  string
	TypesField string
	// Takes tells whether a trigger whose event_types lists the event takes it (its other
	// config, defaults applied); nil takes every one.
	Takes func(config map[string]any) bool
	// Scope reads what the runs see of the event in the trigger's namespace.
	Scope func(ctx context.Context) (map[string]any, error)
}

// startOnEvent queues a run of every workflow that takes ev, with the event's scope as the
// trigger's payload, and answers their ids. Each run's id is derived from the event and the
// workflow, so an event dispatched again (a dispatcher died before marking it) finds the
// runs it started instead of starting them twice. A workflow that cannot start does not
// keep the others from starting; the first such problem comes with the ids. Other errors:
// internal.
func (in *Intake) startOnEvent(ctx context.Context, ev domainEvent) ([]uuid.UUID, error) {
	triggers, err := in.Workflows.Triggers(ctx, automation.TriggerQuery{
		ActionTypeKey: ev.ActionType,
		CompanyID:     ev.CompanyID,
		ProjectID:     ev.ProjectID,
	})
	if err != nil {
		return nil, err
	}
	typ, _ := in.Catalog.Action(ev.ActionType)
	var scope map[string]any
	var fired firings
	for _, t := range triggers {
		config := typ.ApplyDefaults(t.Config)
		field := ev.TypesField
		if field == "" {
			field = "event_types"
		}
		types, _ := config[field].([]any)
		if !slices.Contains(types, any(ev.EventType)) || (ev.Takes != nil && !ev.Takes(config)) || !fired.first(t) {
			continue
		}
		if scope == nil {
			if scope, err = ev.Scope(ctx); err != nil {
				return fired.runIDs(), err
			}
		}
		runID := uuid.NewSHA1(ev.ID, []byte(t.WorkflowID.String()))
		run, err := in.fire(ctx, t, ev.TriggerType, engine.Start{RunID: runID, Payload: scope, Queued: true})
		if err := fired.add(t, run, err); err != nil {
			return fired.runIDs(), err
		}
	}
	return fired.runIDs(), fired.problem
}
