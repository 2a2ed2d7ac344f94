package engine

import (
	"context"
	"slices"

	"github.com/google/uuid"

	"agencyhub/models/automation"
	"agencyhub/models/billing"
)

// StartPaymentEvent queues a run of every workflow of the event's project whose current
// version has a payment.event_trigger for the event's type, with the event under
// {{ payment.* }}, and answers their ids. Each run's id is derived from the event and the
// trigger, so an event dispatched again (a dispatcher died before marking it) finds the
// runs it started instead of starting them twice. A workflow that cannot start does not
// keep the others from starting; the first such problem comes with the ids. Other errors:
// internal.
func (in *Intake) StartPaymentEvent(ctx context.Context, ev billing.PaymentEvent) ([]uuid.UUID, error) {
	triggers, err := in.Workflows.Triggers(ctx, automation.TriggerQuery{ActionTypeKey: automation.TypePayment,
		CompanyID: ev.CompanyID, ProjectID: ev.ProjectID})
	if err != nil {
		return nil, err
	}
	typ, _ := in.Catalog.Action(automation.TypePayment)
	var scope map[string]any
	var fired firings
	for _, t := range triggers {
		types, _ := typ.ApplyDefaults(t.Config)["event_types"].([]any)
		if !slices.Contains(types, any(ev.EventType)) || !fired.first(t) {
			continue
		}
		if scope == nil {
			if scope, err = in.Billing.EventScope(ctx, ev); err != nil {
				return fired.runIDs(), err
			}
		}
		runID := uuid.NewSHA1(ev.ID, []byte(t.WorkflowID.String()))
		run, err := in.fire(ctx, t, TriggerPayment, Start{RunID: runID, Payload: scope, Queued: true})
		if err := fired.add(t, run, err); err != nil {
			return fired.runIDs(), err
		}
	}
	return fired.runIDs(), fired.problem
}
