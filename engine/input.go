package engine

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"agencyhub/activities"
	"agencyhub/models/automation"
)

// WorkflowName is the registered name of the interpreter workflow; TaskQueue is where its
// tasks and its activities are dispatched by default.
const (
	WorkflowName = "automation.run"
	TaskQueue    = "automation"
	// progressActivity writes the run's projection; it runs as a local activity.
	progressActivity = "automation.progress"
)

// RunInput is everything a run needs. The interpreter never reads the database: the
// graph, the trigger payload and each action's execution policy travel in the input, so
// Temporal's history replays exactly the run that happened.
type RunInput struct {
	RunID      uuid.UUID
	CompanyID  uuid.UUID
	ProjectID  uuid.UUID
	WorkflowID uuid.UUID
	Graph      automation.Graph
	// TriggerKey is the trigger action that started the run; other triggers are skipped.
	TriggerKey string
	// Payload is the trigger's output (manual input, webhook body, ...).
	Payload map[string]any
	// Namespaces are the template namespaces besides steps (the trigger's, system).
	Namespaces map[string]any
	// Policies hold each activity action's timeouts and retry policy.
	Policies map[string]ActionPolicy
	// Resume continues an earlier execution of the same run (retry-action).
	Resume *Resume
	// SearchAttributes tells that the run started with its search attributes, so that its
	// end updates AgencyRunStatus.
	SearchAttributes bool
	// BatchedProgress and ProgressWithAction are how runs started before progressChange
	// said when they write their projection; new runs leave them unset, and the version
	// their history records says it (progressVersion).
	BatchedProgress    bool
	ProgressWithAction bool
}

// ActionPolicy is how one action's activity is executed.
type ActionPolicy struct {
	Timeout            time.Duration
	MaxAttempts        int
	InitialInterval    time.Duration
	BackoffCoefficient float64
	MaxInterval        time.Duration
	// Idempotent: running the action twice has the effect of running it once.
	Idempotent bool
	// Local runs the action as a local activity: in the worker that runs the workflow task,
	// without an activity task of its own to schedule, match and record, so a run of short
	// actions can finish in one workflow task. The answer is recorded as a marker when the
	// workflow task completes; if its worker dies before that, the action runs again, and
	// its recorded attempts (see runAction) keep it from acting twice.
	Local bool
}

// retryPolicy is Temporal's retry policy of an action of this policy.
func (p ActionPolicy) retryPolicy() *temporal.RetryPolicy {
	return &temporal.RetryPolicy{
		InitialInterval:        p.InitialInterval,
		BackoffCoefficient:     p.BackoffCoefficient,
		MaximumInterval:        p.MaxInterval,
		MaximumAttempts:        int32(p.MaxAttempts),
		NonRetryableErrorTypes: NonRetryableClasses,
	}
}

// Resume is the state a retried run starts from: actions that succeeded keep their outputs
// and are not run again; RetryKey runs again; other failed actions stay failed.
type Resume struct {
	RetryKey string
	// ItemAction, when RetryKey is a loop, is the key in the run of the action of one of its
	// items that is retried (lines[3].create, or orders[0].lines[1].create through an inner
	// loop): that item runs again from it, the others keep what they came to.
	ItemAction string
	Actions    map[string]ResumedAction
	// NextSequence continues the run's event numbering.
	NextSequence int
}

// ResumedAction is one action's state from the earlier execution.
type ResumedAction struct {
	Status   automation.ActionStatus
	Output   map[string]any
	Attempts int
}

// ActionRequest is the input of an action activity.
type ActionRequest struct {
	activities.Request
	// PriorAttempts were spent on this action by earlier executions of the run, so the
	// recorded attempt count stays true across retries.
	PriorAttempts int
	// Idempotent actions may run again after an attempt whose outcome is unknown.
	Idempotent bool
	// Progress is the batch of the projection to write before the action acts: the one
	// that says it runs (writeWithLoneLocalAction). Writing it twice changes nothing.
	Progress *automation.Progress
}

// mustJSON encodes values that are plain maps, slices and strings.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("engine: marshal: " + err.Error())
	}
	return string(b)
}
