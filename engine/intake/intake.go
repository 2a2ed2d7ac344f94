// Package intake is how events start runs of published workflows: the Intake's adapters
// per kind of trigger (manual, webhook, bot relay, schedule, payment and task events,
// workflow.call), the Dispatcher that hands queued runs, replies and domain events to
// Temporal, and the RelayPoller that pulls the updates of bots in polling mode.
package intake

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"agencyhub/engine"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/billing"
	"agencyhub/models/relay"
	"agencyhub/models/webhook"
	"agencyhub/models/work"
	"agencyhub/schemas"
)

// Intake is the one way an event starts runs of published workflows. Each kind of trigger
// has a small adapter here (manual, webhook, bot relay, schedule, payment event,
// task event) that finds
// the triggers its event addresses in the trigger index (automation.Trigger: type, key,
// workflow, version, written at publish and restore) and starts a run of each through fire.
// A new kind of trigger is a line of automation.TriggerKeyFields and an adapter.
type Intake struct {
	Runs      *engine.Runs
	Workflows *automation.Service
	Catalog   *schemas.Catalog
	Webhooks  *webhook.Service
	Relays    *relay.Service
	// Billing answers the payment events runs start on; nil starts none.
	Billing *billing.Service
	// Work answers the task events runs start on; nil starts none.
	Work *work.Service
}

// fire starts a run of the version an indexed trigger belongs to, from that trigger; st
// carries what the event adds (payload, namespaces, run id, who started it).
func (in *Intake) fire(ctx context.Context, t automation.Trigger, triggerType string, st engine.Start) (*automation.Run, error) {
	v, err := in.Workflows.Version(ctx, t.WorkflowID, t.WorkflowVersionID)
	if err != nil {
		return nil, err
	}
	st.CompanyID, st.ProjectID, st.WorkflowID = t.CompanyID, t.ProjectID, t.WorkflowID
	st.Version, st.Graph, st.TriggerType, st.TriggerKey = v, v.Graph(), triggerType, t.ActionKey
	return in.Runs.Start(ctx, st)
}

// StartManual runs the current version from its first manual trigger with the given input,
// which must satisfy the trigger's input_schema_json.
// Errors: invalid (not published, no manual trigger, the input's fields that fail the
// schema), conflict (archived), unavailable.
func (in *Intake) StartManual(ctx context.Context, w *automation.Workflow, userID uuid.UUID,
	input map[string]any) (*automation.Run, error) {
	if err := w.RequireLive(); err != nil {
		return nil, err
	}
	if w.CurrentVersionID == nil {
		return nil, models.Invalid("workflow_not_published", "workflow_id")
	}
	triggers, err := in.Workflows.Triggers(ctx, automation.TriggerQuery{
		ActionTypeKey: automation.TypeManual,
		CompanyID:     w.CompanyID,
		WorkflowID:    w.ID,
	})
	if err != nil {
		return nil, err
	}
	if len(triggers) == 0 {
		return nil, models.Invalid("no_manual_trigger", "workflow_id")
	}
	if err := automation.CheckTriggerInput(triggers[0].Config, input, "input"); err != nil {
		return nil, err
	}
	return in.fire(ctx, triggers[0], engine.TriggerManual, engine.Start{Payload: input, StartedBy: &userID})
}

// firings gathers what an event that starts one run per matching workflow started: each
// workflow once, the runs in order, and the first problem of a workflow that could not
// start, which does not keep the others from starting.
type firings struct {
	workflows map[uuid.UUID]bool
	runs      []uuid.UUID
	problem   error
}

// first tells whether t is the first matching trigger of its workflow, and counts the
// workflow as fired.
func (f *firings) first(t automation.Trigger) bool {
	if f.workflows == nil {
		f.workflows = map[uuid.UUID]bool{}
	}
	seen := f.workflows[t.WorkflowID]
	f.workflows[t.WorkflowID] = true
	return !seen
}

// add takes what firing t gave: a run (one the engine refused counts, kept failed), and an
// error, kept as the problem unless it is internal, which it answers.
func (f *firings) add(t automation.Trigger, run *automation.Run, err error) error {
	if run != nil {
		f.runs = append(f.runs, run.ID)
	}
	switch {
	case models.IsKind(err, models.KindInternal):
		return err
	case err != nil && f.problem == nil:
		f.problem = fmt.Errorf("workflow %s: %w", t.WorkflowID, err)
	}
	return nil
}

// runIDs are the runs started, never nil.
func (f *firings) runIDs() []uuid.UUID { return nonNilIDs(f.runs) }
