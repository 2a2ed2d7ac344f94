package engine

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"runtime/debug"
	"slices"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"agencyhub/activities"
	"agencyhub/models/automation"
	"agencyhub/platform/metrics"
)

// Activities heartbeat every heartbeatInterval, so a cancelled run reaches a running
// action within about that time, and a worker that died is noticed after HeartbeatTimeout.
const (
	heartbeatInterval = 5 * time.Second
	HeartbeatTimeout  = 20 * time.Second
	// ScheduleToStartTimeout bounds how long an action waits for a worker to pick it up.
	ScheduleToStartTimeout = 5 * time.Minute
)

// NonRetryableClasses are the failure classes Temporal must not retry: the input or the
// credentials are wrong, the target refused for good, or the action may already have
// taken effect (retrying a send whose outcome is unknown could send twice).
var NonRetryableClasses = []string{
	activities.ClassValidation, activities.ClassAuth, activities.ClassPermanent,
	activities.ClassTimeoutUnknown, activities.ClassUnknownOutcome, activities.ClassCanceled,
}

// WorkerDeps are what the worker's activities need.
type WorkerDeps struct {
	// Workflows writes the run projection.
	Workflows *automation.Service
	// Progress writes a batch of the run projection; nil is Workflows.ApplyProgress.
	Progress func(context.Context, automation.Progress) error
	// Actions are the activity action types, by action type key.
	Actions map[string]activities.Func
	// BotSessions keeps the bot dialog state bot.set_state writes and the waits of
	// bot.wait_for_reply; nil leaves both to other workers of the task queue.
	BotSessions activities.BotSessions
	// Metrics counts action attempts; nil counts none, as metrics.Discard() does.
	Metrics *metrics.Metrics
	// BuildID makes the worker a version of the Worker Deployment (deploymentOptions): it
	// takes runs only while its build is current (Promote). Empty runs an unversioned
	// worker, for tests where one build is all there is.
	BuildID string
}

// writeProgress writes a batch of the run projection, for the interpreter's progress
// local activity and for a local action that carries the batch: a run that has already
// ended (the engine refused it, yet Temporal had started it) fails the execution at once,
// with nothing acted, instead of being retried.
func (d WorkerDeps) writeProgress(ctx context.Context, p automation.Progress) error {
	write := d.Progress
	if write == nil {
		write = d.Workflows.ApplyProgress
	}
	err := write(ctx, p)
	if errors.Is(err, automation.ErrRunClosed) {
		return temporal.NewNonRetryableApplicationError(err.Error(), "run_closed", err)
	}
	return err
}

// workerOptions are the worker's: eight workflow task pollers where the SDK has two. A
// worker keeps its cached executions' tasks on a sticky queue of its own and splits its
// pollers between that queue and the task queue; with two, a busy worker polls the task
// queue so seldom that the first task of a new execution waited there about a second.
var workerOptions = worker.Options{MaxConcurrentWorkflowTaskPollers: 8}

// NewWorker builds the worker that runs the interpreter, the projection writer and one
// activity per action type on a task queue (TaskQueue in production).
func NewWorker(c client.Client, taskQueue string, d WorkerDeps) worker.Worker {
	opts := workerOptions
	if d.BuildID != "" {
		opts.DeploymentOptions = deploymentOptions(d.BuildID)
	}
	w := worker.New(c, taskQueue, opts)
	w.RegisterWorkflowWithOptions(Interpret, workflow.RegisterOptions{Name: WorkflowName})
	w.RegisterWorkflowWithOptions(RunLoop, workflow.RegisterOptions{Name: LoopWorkflowName})
	w.RegisterActivityWithOptions(d.writeProgress, activity.RegisterOptions{Name: progressActivity})
	w.RegisterActivityWithOptions(d.Workflows.PriorItems, activity.RegisterOptions{Name: loopPriorsActivity})
	w.RegisterActivityWithOptions(runAction(d, activities.ApprovalWait{Approvals: d.Workflows}.Run),
		activity.RegisterOptions{Name: automation.TypeApproval})
	w.RegisterActivityWithOptions(expireApproval(d.Workflows), activity.RegisterOptions{Name: approvalExpireActivity})
	for _, key := range slices.Sorted(maps.Keys(d.Actions)) {
		w.RegisterActivityWithOptions(runAction(d, d.Actions[key]), activity.RegisterOptions{Name: key})
	}
	if d.BotSessions != nil {
		w.RegisterActivityWithOptions(runAction(d, activities.BotSetState{Sessions: d.BotSessions}.Run),
			activity.RegisterOptions{Name: activities.ActionBotSetState})
		w.RegisterActivityWithOptions(runAction(d, activities.BotWaitForReply{Sessions: d.BotSessions}.Run),
			activity.RegisterOptions{Name: activities.ActionBotWaitForReply})
	}
	return w
}

// runAction wraps an action function as an activity, local or not: it writes the batch of
// the projection the request carries, records the attempt before the action runs and its
// answer after, heartbeats so cancellation arrives, and turns a classified failure into a
// Temporal application error whose type is the retry class. When an attempt of this
// execution of the run began before (an automatic retry, or a local activity run again
// because its worker died before Temporal recorded the answer) the records say what became
// of it: succeeded (answered again, not run), failed (run again), or unknown (a
// non-idempotent action is refused, not run).
func runAction(d WorkerDeps, fn activities.Func) func(context.Context, ActionRequest) (activities.Result, error) {
	if d.Metrics == nil {
		d.Metrics = metrics.Discard()
	}
	return func(ctx context.Context, req ActionRequest) (activities.Result, error) {
		info := activity.GetInfo(ctx)
		if req.Progress != nil {
			if err := d.writeProgress(ctx, *req.Progress); err != nil {
				return activities.Result{}, err
			}
		}
		recorded, err := d.Workflows.ActionAttempts(ctx, req.RunID, req.ActionKey)
		if err != nil {
			return activities.Result{}, err // a retryable infrastructure error
		}
		if recorded.Begun > req.PriorAttempts {
			var answered activities.Result
			switch {
			case recorded.Settled == recorded.Begun && recorded.Result != "" && json.Unmarshal([]byte(recorded.Result), &answered) == nil:
				// The last attempt succeeded, but its answer never reached Temporal (its
				// worker died after recording it): answer it again rather than act twice.
				return answered, nil
			case recorded.Settled < recorded.Begun && !req.Idempotent:
				// The last attempt timed out or its worker died before answering: it may
				// have taken effect, so a non-idempotent action is not tried again on its own,
				// and this refusal is no attempt.
				return activities.Result{}, ApplicationError(activities.Failed(activities.ClassUnknownOutcome,
					"previous_attempt_unanswered", "previous_attempt_unanswered", "", nil))
			}
		}
		// A local activity counts its attempts afresh when its workflow task runs again, so
		// the records, not Temporal, say how many began.
		attempt := max(req.PriorAttempts+int(info.Attempt), recorded.Begun+1)
		if err := d.Workflows.BeginAttempt(ctx, req.RunID, req.ActionKey, attempt); err != nil {
			return activities.Result{}, err // a retryable infrastructure error
		}
		if !info.IsLocalActivity { // a local activity learns of a cancellation from its workflow
			var stop func()
			ctx, stop = Heartbeating(ctx)
			defer stop()
		}
		req.Attempt = attempt
		res, err := callAction(ctx, withApprovalLinks(d.Workflows.ApprovalLinks, activities.Redacting(fn)), req.Request)
		settled := ""
		if err == nil {
			settled = mustJSON(res)
		}
		if serr := d.Workflows.SettleAttempt(ctx, req.RunID, req.ActionKey, attempt, settled); serr != nil {
			activity.GetLogger(ctx).Warn("could not record a settled attempt", "action_key", req.ActionKey, "err", serr)
		}
		// The activity's registered name is its action type: a label from a fixed set.
		actionType := info.ActivityType.Name
		if err != nil {
			f := activities.AsFailure(err)
			d.Metrics.ActionAttempt(actionType, f.RetryClass)
			return activities.Result{}, ApplicationError(f)
		}
		d.Metrics.ActionAttempt(actionType, "")
		return res, nil
	}
}

// Heartbeating records an activity's heartbeats until stop is called, so a cancelled run or
// turn reaches the activity and a dead worker is noticed.
func Heartbeating(ctx context.Context) (context.Context, func()) {
	ctx, stop := context.WithCancel(ctx)
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
	return ctx, stop
}

// ApplicationError carries a classified failure to the interpreter: its type is the retry
// class, which the retry policy matches, and its details are the failure itself.
func ApplicationError(f *activities.Failure) error {
	return temporal.NewApplicationErrorWithOptions(f.HumanReason, f.RetryClass,
		temporal.ApplicationErrorOptions{NonRetryable: !f.Retryable, Details: []any{f}})
}

// callAction runs an action function. A panic becomes an unknown outcome, which is not
// retried: the action may have taken effect before it crashed, and Temporal would
// otherwise retry a panicking activity like any retryable error.
func callAction(ctx context.Context, fn activities.Func, req activities.Request) (res activities.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			activity.GetLogger(ctx).Error("action panicked", "action_key", req.ActionKey, "panic", p, "stack", string(debug.Stack()))
			err = activities.Failed(activities.ClassUnknownOutcome, "action_crashed", "action_crashed", "check_target_crashed.next", nil)
		}
	}()
	return fn(ctx, req)
}
