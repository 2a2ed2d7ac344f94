package engine

import (
	"context"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/webhook"
)

// StartWebhook runs the workflow's current version from its webhook.trigger whose
// endpoint_key is endpointKey. The payload is the trigger's output, and templates read it
// under the endpoint_key namespace ({{ <endpoint_key>.<field> }}). startedBy is nil for a
// delivery from a sender, the user for a replay of a stored event. runID is the run's id,
// chosen by the caller: starting the same id again answers the run that id already has.
// Errors: invalid (never published), conflict (the current version has no such trigger),
// unavailable.
func (s *Runs) StartWebhook(ctx context.Context, w *automation.Workflow, endpointKey string, payload map[string]any, runID uuid.UUID, startedBy *uuid.UUID) (*automation.Run, error) {
	v, err := s.Workflows.CurrentVersion(ctx, w)
	if err != nil {
		return nil, err
	}
	g := v.Graph()
	trigger, ok := webhook.TriggerFor(g, endpointKey)
	if !ok {
		return nil, models.Conflict("webhook_trigger_missing", "endpoint_key")
	}
	return s.start(ctx, Start{RunID: runID, Workflow: w, Version: v, Graph: g, TriggerType: TriggerWebhook, TriggerKey: trigger.ActionKey,
		Payload: payload, StartedBy: startedBy})
}
