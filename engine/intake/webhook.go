package intake

import (
	"context"

	"github.com/google/uuid"

	"agencyhub/engine"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/webhook"
)

// Webhook takes a delivery to a webhook endpoint: it has the delivery stored (or finds the
// answer a delivery with the same id got), queues the run of the endpoint's trigger with the
// delivery's payload, which templates read as {{ <endpoint_key>.<field> }}, and has the
// answer recorded. The answer does not wait for Temporal: the Dispatcher hands the stored
// run over, retrying while Temporal is down, and the receipt says pending until the run
// starts. The run's id was chosen when the delivery was stored, so a delivery taken over
// after a crash finds its run instead of queueing a second one.
// Errors: those of webhook.Service.Receive and Refuse (the database failed).
func (in *Intake) Webhook(ctx context.Context, t *webhook.Target, d webhook.Delivery) (*webhook.Answer, error) {
	ev, answer, err := in.Webhooks.Receive(ctx, t, d)
	if ev == nil {
		return answer, err
	}
	// The request's own cancellation does not interrupt the start: a sender that hung up
	// finds the run started when it retries.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), webhook.StartTimeout)
	defer cancel()
	run, err := in.fire(ctx, t.Trigger, engine.TriggerWebhook, engine.Start{RunID: *ev.PlannedRunID, Payload: ev.Payload, Queued: true})
	if err != nil {
		return nil, in.Webhooks.Refuse(ctx, ev, err)
	}
	return in.Webhooks.Accept(ctx, t, ev, run.ID)
}

// ReplayWebhookEvent starts a new run of the workflow's current version from a stored
// event, as if it arrived now, linked to the event. It works on disabled endpoints too: the
// owner decides, but not on an archived workflow's. Errors: invalid (the workflow is not
// published), conflict (archived, or its current version has no trigger for the endpoint),
// unavailable.
func (in *Intake) ReplayWebhookEvent(ctx context.Context, ev *webhook.Event, userID uuid.UUID) (*automation.Run, error) {
	e, err := in.Webhooks.EventEndpoint(ctx, ev)
	if err != nil {
		return nil, err
	}
	w, err := in.Workflows.WorkflowOf(ctx, e.CompanyID, e.WorkflowID)
	if err != nil {
		return nil, err
	}
	if err := w.RequireLive(); err != nil {
		return nil, err
	}
	trigger, ok, err := in.Webhooks.PublishedTrigger(ctx, e)
	if err != nil {
		return nil, err
	}
	if !ok {
		if w.CurrentVersionID == nil {
			return nil, models.Invalid("workflow_not_published", "workflow_id")
		}
		return nil, models.Conflict("webhook_trigger_missing", "endpoint_key")
	}
	run, err := in.fire(ctx, trigger, engine.TriggerWebhook, engine.Start{Payload: ev.Payload, StartedBy: &userID})
	if run == nil {
		return nil, err
	}
	// A run the engine refused is kept failed and linked too: it can be replayed itself.
	if lerr := in.Webhooks.LinkReplay(context.WithoutCancel(ctx), ev, run.ID, userID); lerr != nil {
		return nil, lerr
	}
	return run, err
}
