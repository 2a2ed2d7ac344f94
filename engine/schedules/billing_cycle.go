package schedules

import (
	"context"
	"errors"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"agencyhub/models"
	"agencyhub/models/billing"
)

// The billing cycle is a Temporal Schedule, billingScheduleID, visible in the Temporal UI:
// each day at 03:00 UTC it starts the billing workflow, whose one activity runs
// billing.Service.RunCycle for that day. Overlapping cycles are skipped, and a day the
// server missed (it was down) is run when it comes back, within a day.
const (
	BillingWorkflowName  = "billing.cycle"
	billingCycleActivity = "billing.run_cycle"
	billingScheduleID    = "billing-cycle"
	billingCron          = "0 3 * * *"
)

// BillingCycle is the workflow the billing schedule starts: one cycle for the day it was
// planned for; started by hand, for the day the billing service's clock says.
func BillingCycle(ctx workflow.Context) (billing.CycleResult, error) {
	at, _ := workflow.GetTypedSearchAttributes(ctx).GetTime(scheduledStartTime)
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 10 * time.Second, MaximumInterval: 10 * time.Minute},
	})
	var res billing.CycleResult
	err := workflow.ExecuteActivity(ctx, billingCycleActivity, at).Get(ctx, &res)
	return res, err
}

// RegisterBillingCycle registers the billing workflow and its activity on a worker of the
// task queue the billing schedule starts it on.
func RegisterBillingCycle(w worker.Worker, services *billing.Service) {
	w.RegisterWorkflowWithOptions(BillingCycle, workflow.RegisterOptions{Name: BillingWorkflowName})
	w.RegisterActivityWithOptions(func(ctx context.Context, planned time.Time) (billing.CycleResult, error) {
		if planned.IsZero() {
			planned = services.Now()
		}
		return services.RunCycle(ctx, models.DateOf(planned.UTC()))
	}, activity.RegisterOptions{Name: billingCycleActivity})
}

// EnsureBillingSchedule creates the billing schedule on the task queue unless it exists.
// Errors: Temporal's.
func EnsureBillingSchedule(ctx context.Context, c client.Client, taskQueue string) error {
	_, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID:            billingScheduleID,
		Spec:          client.ScheduleSpec{CronExpressions: []string{billingCron}},
		Action:        &client.ScheduleWorkflowAction{ID: billingScheduleID, Workflow: BillingWorkflowName, TaskQueue: taskQueue},
		CatchupWindow: 24 * time.Hour,
	})
	if errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		return nil
	}
	return err
}
