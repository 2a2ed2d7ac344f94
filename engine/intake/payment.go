package intake

import (
	"context"

	"github.com/google/uuid"

	"agencyhub/engine"
	"agencyhub/models/automation"
	"agencyhub/models/billing"
)

// StartPaymentEvent queues a run of every workflow of the event's project whose current
// version has a payment.event_trigger for the event's type, with the event under
// {{ payment.* }}, and answers their ids (startOnEvent).
func (in *Intake) StartPaymentEvent(ctx context.Context, ev billing.PaymentEvent) ([]uuid.UUID, error) {
	return in.startOnEvent(ctx, domainEvent{ID: ev.ID, CompanyID: ev.CompanyID, ProjectID: ev.ProjectID,
		ActionType: automation.TypePayment, TriggerType: engine.TriggerPayment, EventType: ev.EventType,
		Scope: func(ctx context.Context) (map[string]any, error) { return in.Billing.EventScope(ctx, ev) }})
}
