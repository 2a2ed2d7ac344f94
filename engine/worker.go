package engine

import (
	"context"
	"maps"
	"slices"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"gorm.io/gorm"

	"agencyhub/activities"
	"agencyhub/models/automation"
)

// Activities heartbeat every heartbeatInterval, so a cancelled run reaches a running
// action within about that time, and a worker that died is noticed after heartbeatTimeout.
const (
	heartbeatInterval = 5 * time.Second
	heartbeatTimeout  = 20 * time.Second
)

// nonRetryableClasses are the failure classes Temporal must not retry: the input or the
// credentials are wrong, the target refused for good, or the action may already have
// taken effect (retrying a send whose outcome is unknown could send twice).
var nonRetryableClasses = []string{
	activities.ClassValidation, activities.ClassAuth, activities.ClassPermanent,
	activities.ClassTimeoutUnknown, activities.ClassUnknownOutcome, activities.ClassCanceled,
}

// WorkerDeps are what the worker's activities need.
type WorkerDeps struct {
	DB *gorm.DB
	// Actions are the activity action types, by action type key.
	Actions map[string]activities.Func
	Now     func() time.Time
}

// NewWorker builds the worker that runs the interpreter, the projection writer and one
// activity per action type on the engine's task queue.
func NewWorker(c client.Client, d WorkerDeps) worker.Worker {
	w := worker.New(c, TaskQueue, worker.Options{})
	w.RegisterWorkflowWithOptions(Interpret, workflow.RegisterOptions{Name: WorkflowName})
	w.RegisterActivityWithOptions(func(ctx context.Context, p automation.Progress) error {
		return automation.ApplyProgress(ctx, d.DB, p, d.Now())
	}, activity.RegisterOptions{Name: progressActivity})
	for _, key := range slices.Sorted(maps.Keys(d.Actions)) {
		w.RegisterActivityWithOptions(runAction(d, d.Actions[key]), activity.RegisterOptions{Name: key})
	}
	return w
}

// runAction wraps an action function as an activity: it records the attempt in the
// projection, heartbeats so cancellation arrives, and turns a classified failure into a
// Temporal application error whose type is the retry class.
func runAction(d WorkerDeps, fn activities.Func) func(context.Context, ActionRequest) (activities.Result, error) {
	return func(ctx context.Context, req ActionRequest) (activities.Result, error) {
		attempt := req.PriorAttempts + int(activity.GetInfo(ctx).Attempt)
		if err := automation.RecordAttempt(ctx, d.DB, req.RunID, req.ActionKey, attempt, d.Now()); err != nil {
			return activities.Result{}, err // a retryable infrastructure error
		}
		ctx, stop := context.WithCancel(ctx)
		defer stop()
		go func() {
			t := time.NewTicker(heartbeatInterval)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					activity.RecordHeartbeat(ctx)
				}
			}
		}()
		req.Attempt = attempt
		res, err := fn(ctx, req.Request)
		if err != nil {
			f := activities.AsFailure(err)
			return activities.Result{}, temporal.NewApplicationErrorWithOptions(f.HumanReason, f.RetryClass,
				temporal.ApplicationErrorOptions{NonRetryable: !f.Retryable, Details: []any{f}})
		}
		return res, nil
	}
}
