package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"agencyhub/models"
	"agencyhub/models/automation"
)

// scheduledStartTime is the search attribute Temporal gives every workflow a schedule starts:
// the planned (nominal) time, before any jitter.
var scheduledStartTime = temporal.NewSearchAttributeKeyTime("TemporalScheduledStartTime")

// ScheduleTick is the input of the tick workflow.
type ScheduleTick struct {
	WorkflowID uuid.UUID
	ActionKey  string
}

// ScheduleFiring is one planned time of one schedule trigger.
type ScheduleFiring struct {
	WorkflowID  uuid.UUID
	ActionKey   string
	ScheduledAt time.Time
}

// Tick is the workflow a schedule starts: it hands the planned time to schedule.fire. It
// ends as soon as the run has started, so Temporal's overlap policy only keeps ticks apart;
// Intake.StartScheduled keeps the runs themselves from overlapping.
func Tick(ctx workflow.Context, in ScheduleTick) error {
	at, ok := workflow.GetTypedSearchAttributes(ctx).GetTime(scheduledStartTime)
	if !ok {
		at = workflow.Now(ctx) // not started by a schedule (a test, or a hand-made start)
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2,
			MaximumInterval: 30 * time.Second, MaximumAttempts: 5},
	})
	firing := ScheduleFiring{WorkflowID: in.WorkflowID, ActionKey: in.ActionKey, ScheduledAt: at.UTC()}
	return workflow.ExecuteActivity(ctx, scheduleFireActivity, firing).Get(ctx, nil)
}

// registerScheduleTicks registers the tick workflow and its activity on a worker of the
// runs' task queue.
func registerScheduleTicks(w worker.Worker, in *Intake) {
	w.RegisterWorkflowWithOptions(Tick, workflow.RegisterOptions{Name: ScheduleWorkflowName})
	w.RegisterActivityWithOptions(in.fireSchedule, activity.RegisterOptions{Name: scheduleFireActivity})
}

// fireSchedule is the schedule.fire activity. A firing that starts nothing is logged with
// the reason; one the version itself refuses (a send naming a template the project no
// longer has) is not retried, since trying again cannot help.
func (in *Intake) fireSchedule(ctx context.Context, f ScheduleFiring) error {
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
func (in *Intake) StartScheduled(ctx context.Context, f ScheduleFiring) (run *automation.Run, skipped string, err error) {
	triggers, err := in.Workflows.Triggers(ctx, automation.TriggerQuery{ActionTypeKey: automation.TypeSchedule, WorkflowID: f.WorkflowID, ActionKey: f.ActionKey})
	if err != nil {
		return nil, "", err
	}
	if len(triggers) == 0 {
		return nil, "the workflow's current version has no schedule trigger " + f.ActionKey, nil
	}
	t := triggers[0]
	st := readScheduleTrigger(in.Catalog, t.Config)
	if !st.Enabled {
		return nil, "the schedule trigger is disabled (enabled: false)", nil
	}
	at := f.ScheduledAt.UTC().Format(time.RFC3339)
	last, err := in.Workflows.LastTriggerRun(ctx, t.WorkflowID, t.ActionKey, TriggerSchedule)
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
	run, err = in.fire(ctx, t, TriggerSchedule, Start{Payload: payload, Namespaces: map[string]any{st.Key: payload, "schedule": payload}})
	return run, "", err
}
