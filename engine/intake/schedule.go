package intake

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"agencyhub/engine"
	"agencyhub/engine/schedules"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// Register registers the schedules' tick workflow and its schedule.fire activity on a
// worker of the runs' task queue. (workflow.call, the intake's other activity, is an action
// activity: the worker registers CallWorkflow with the action types.)
func (in *Intake) Register(w worker.Worker) {
	w.RegisterWorkflowWithOptions(schedules.Tick, workflow.RegisterOptions{Name: schedules.ScheduleWorkflowName})
	w.RegisterActivityWithOptions(in.fireSchedule, activity.RegisterOptions{Name: schedules.ScheduleFireActivity})
}

// fireSchedule is the schedule.fire activity. A firing that starts nothing is logged with
// the reason; one the version itself refuses (a send naming a template the project no
// longer has) is not retried, since trying again cannot help.
func (in *Intake) fireSchedule(ctx context.Context, f schedules.ScheduleFiring) error {
	run, skipped, err := in.StartScheduled(ctx, f)
	if models.IsKind(err, models.KindInvalid) {
		activity.GetLogger(ctx).Warn("scheduled run refused", "workflow_id", f.WorkflowID, "action_key", f.ActionKey,
			"scheduled_at", f.ScheduledAt.Format(time.RFC3339), "err", err)
		return temporal.NewNonRetryableApplicationError("the scheduled run was refused", "invalid", err)
	}
	if err != nil {
		return err
	}
	if run == nil {
		activity.GetLogger(ctx).Info("scheduled run skipped", "workflow_id", f.WorkflowID, "action_key", f.ActionKey,
			"scheduled_at", f.ScheduledAt.Format(time.RFC3339), "reason", skipped)
	}
	return nil
}

// StartScheduled starts the run of one planned time of a schedule trigger from the
// workflow's current version, with the planned time (RFC 3339, UTC) as
// {{ <schedule_key>.scheduled_at }} and {{ schedule.scheduled_at }}. It starts nothing and
// answers why when the workflow's current version lacks the trigger (the workflow is gone,
// unpublished, or changed) or disables it, or the trigger's previous scheduled run has not
// finished (overlapping runs are skipped). A planned time that already has its run (the
// activity was retried) answers that run. Errors: internal, unavailable.
func (in *Intake) StartScheduled(ctx context.Context, f schedules.ScheduleFiring) (run *automation.Run, skipped string, err error) {
	triggers, err := in.Workflows.Triggers(ctx, automation.TriggerQuery{
		ActionTypeKey: automation.TypeSchedule,
		WorkflowID:    f.WorkflowID,
		ActionKey:     f.ActionKey,
	})
	if err != nil {
		return nil, "", err
	}
	if len(triggers) == 0 {
		return nil, "the workflow's current version has no schedule trigger " + f.ActionKey, nil
	}
	t := triggers[0]
	st := schedules.ReadScheduleTrigger(in.Catalog, t.Config)
	if !st.Enabled {
		return nil, "the schedule trigger is disabled (enabled: false)", nil
	}
	at := f.ScheduledAt.UTC().Format(time.RFC3339)
	last, err := in.Workflows.LastTriggerRun(ctx, t.WorkflowID, t.ActionKey, engine.TriggerSchedule)
	if err != nil {
		return nil, "", err
	}
	if last != nil {
		if last.InputJSON()["scheduled_at"] == at {
			return last, "", nil
		}
		if !last.Terminal() {
			return nil, fmt.Sprintf("the previous scheduled run %s has not finished; overlapping runs are skipped", last.ID), nil
		}
	}
	payload := map[string]any{"scheduled_at": at}
	run, err = in.fire(ctx, t, engine.TriggerSchedule, engine.Start{
		Payload:    payload,
		Namespaces: map[string]any{st.Key: payload, "schedule": payload},
	})
	return run, "", err
}
