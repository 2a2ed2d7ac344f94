package schedules

import (
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
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
	return workflow.ExecuteActivity(ctx, ScheduleFireActivity, firing).Get(ctx, nil)
}
