package agent

import (
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"agencyhub/activities"
	"agencyhub/engine"
	"agencyhub/models/aiemployee"
)

// The session workflow and its signals and activities.
const (
	AgentWorkflowName   = "ai.session"
	agentMessageSignal  = "ai.message"
	agentDecisionSignal = "ai.decision"
	agentCancelSignal   = "ai.cancel"
	agentStepActivity   = "ai.model_step"
	agentToolActivity   = "ai.tool"
	agentExpireActivity = "ai.tool_expire"
	agentEndActivity    = "ai.end_turn"
)

// agentMaxSteps bounds the model steps of one turn; agentIdle is how long a session's
// workflow waits for the next message before it ends (the next message starts it again).
const (
	agentMaxSteps = 8
	agentIdle     = time.Hour
)

// AgentInput starts a session's workflow.
type AgentInput struct {
	SessionID uuid.UUID
}

// AgentTurn is a user message's turn, or the turn a cancellation stops.
type AgentTurn struct {
	Turn int
}

// AgentDecision is the user's decision on a tool call.
type AgentDecision struct {
	ToolCallID uuid.UUID
	Approved   bool
}

// AgentStepRequest asks for one model step of a turn.
type AgentStepRequest struct {
	SessionID  uuid.UUID
	Turn, Step int
}

// AgentStepResult is what the step asked for: tool calls, each with the status it was
// stored with (pending_approval, approved, or failed when its input was refused), and how
// long a call may wait for approval.
type AgentStepResult struct {
	ToolCalls              []AgentStepCall
	ApprovalTimeoutSeconds int
}

// AgentStepCall is one tool call of a step.
type AgentStepCall struct {
	ID     uuid.UUID
	Status string
}

// AgentEnd closes a turn.
type AgentEnd struct {
	SessionID       uuid.UUID
	Turn            int
	Outcome, Detail string
	// DetailKey and DetailArgs name Detail in the failure table, so that the API words it
	// in the reader's language.
	DetailKey  string            `json:",omitempty"`
	DetailArgs map[string]string `json:",omitempty"`
}

// agentSession is the workflow's state: the turns waiting, the decisions and
// cancellations received, and how to stop the turn under way.
type agentSession struct {
	in         AgentInput
	queue      []int
	decided    map[uuid.UUID]bool
	cancelled  map[int]bool
	turn       int
	cancelTurn workflow.CancelFunc
	// failure is why the turn under way failed, once it has.
	failure *activities.Failure
}

// AgentSession is a session's agent: it takes each user message's turn in order. A turn
// is model steps (an activity each) and the tool calls they ask for (an activity each); a
// call that needs approval waits, durably, for the user's decision or its timeout, which
// rejects it. A cancellation stops the turn; the transcript stays. The workflow ends after
// an hour without messages.
func AgentSession(ctx workflow.Context, in AgentInput) error {
	s := &agentSession{in: in, decided: map[uuid.UUID]bool{}, cancelled: map[int]bool{}}
	messages := workflow.GetSignalChannel(ctx, agentMessageSignal)
	workflow.Go(ctx, func(ctx workflow.Context) {
		decisions := workflow.GetSignalChannel(ctx, agentDecisionSignal)
		cancels := workflow.GetSignalChannel(ctx, agentCancelSignal)
		for {
			sel := workflow.NewSelector(ctx)
			sel.AddReceive(messages, func(c workflow.ReceiveChannel, _ bool) {
				var t AgentTurn
				c.Receive(ctx, &t)
				s.queue = append(s.queue, t.Turn)
			})
			sel.AddReceive(decisions, func(c workflow.ReceiveChannel, _ bool) {
				var d AgentDecision
				c.Receive(ctx, &d)
				s.decided[d.ToolCallID] = d.Approved
			})
			sel.AddReceive(cancels, func(c workflow.ReceiveChannel, _ bool) {
				var t AgentTurn
				c.Receive(ctx, &t)
				s.cancelled[t.Turn] = true
				if t.Turn == s.turn && s.cancelTurn != nil {
					s.cancelTurn()
				}
			})
			sel.Select(ctx)
		}
	})
	for {
		ok, err := workflow.AwaitWithTimeout(ctx, agentIdle, func() bool { return len(s.queue) > 0 })
		if err != nil {
			return err
		}
		if !ok {
			var t AgentTurn
			for messages.ReceiveAsync(&t) {
				s.queue = append(s.queue, t.Turn)
			}
			if len(s.queue) == 0 {
				return nil
			}
		}
		turn := s.queue[0]
		s.queue = s.queue[1:]
		if err := s.run(ctx, turn); err != nil {
			return err
		}
	}
}

// agentRetry retries what may pass later (a provider down, rate limits) and nothing else.
var agentRetry = &temporal.RetryPolicy{
	InitialInterval: 2 * time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute, MaximumAttempts: 5,
	NonRetryableErrorTypes: engine.NonRetryableClasses,
}

// run works one turn and closes it.
func (s *agentSession) run(ctx workflow.Context, turn int) error {
	turnCtx, cancel := workflow.WithCancel(ctx)
	s.turn, s.cancelTurn, s.failure = turn, cancel, nil
	defer func() { s.cancelTurn = nil; cancel() }()
	outcome, detail := aiemployee.TurnDone, ""
	if s.cancelled[turn] {
		outcome = aiemployee.TurnCancelled
	}
	for step := 0; step < agentMaxSteps && outcome == aiemployee.TurnDone; step++ {
		actx := workflow.WithActivityOptions(turnCtx, workflow.ActivityOptions{
			StartToCloseTimeout: 5 * time.Minute, HeartbeatTimeout: engine.HeartbeatTimeout, ScheduleToStartTimeout: engine.ScheduleToStartTimeout,
			RetryPolicy: agentRetry,
		})
		var res AgentStepResult
		if err := workflow.ExecuteActivity(actx, agentStepActivity, AgentStepRequest{
			SessionID: s.in.SessionID,
			Turn:      turn,
			Step:      step,
		}).Get(actx, &res); err != nil {
			outcome, detail = s.failed(turnCtx, err)
			break
		}
		if len(res.ToolCalls) == 0 {
			break
		}
		for _, call := range res.ToolCalls {
			if outcome, detail = s.call(turnCtx, actx, call, res.ApprovalTimeoutSeconds); outcome != aiemployee.TurnDone {
				break
			}
		}
	}
	end := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 30 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute}})
	endCtx, _ := workflow.NewDisconnectedContext(end)
	closing := AgentEnd{SessionID: s.in.SessionID, Turn: turn, Outcome: outcome, Detail: detail}
	if outcome == aiemployee.TurnFailed && s.failure != nil {
		closing.DetailKey, closing.DetailArgs = s.failure.TextKey, s.failure.ReasonArgs
	}
	return workflow.ExecuteActivity(endCtx, agentEndActivity, closing).Get(endCtx, nil)
}

// call waits for a call's approval when it needs one, then runs it if it may run.
func (s *agentSession) call(turnCtx, actx workflow.Context, call AgentStepCall, timeoutSeconds int) (string, string) {
	switch call.Status {
	case aiemployee.ToolPendingApproval:
		ok, err := workflow.AwaitWithTimeout(turnCtx, time.Duration(timeoutSeconds)*time.Second, func() bool {
			_, decided := s.decided[call.ID]
			return decided
		})
		if err != nil {
			return s.failed(turnCtx, err)
		}
		if !ok {
			if err := workflow.ExecuteActivity(actx, agentExpireActivity, call.ID).Get(actx, nil); err != nil {
				return s.failed(turnCtx, err)
			}
			return aiemployee.TurnDone, ""
		}
		if !s.decided[call.ID] {
			return aiemployee.TurnDone, ""
		}
	case aiemployee.ToolApproved:
	default:
		return aiemployee.TurnDone, ""
	}
	if err := workflow.ExecuteActivity(actx, agentToolActivity, call.ID).Get(actx, nil); err != nil {
		return s.failed(turnCtx, err)
	}
	return aiemployee.TurnDone, ""
}

// failed is the outcome of a turn whose step or tool failed: cancelled when the turn was.
func (s *agentSession) failed(turnCtx workflow.Context, err error) (string, string) {
	if turnCtx.Err() != nil {
		return aiemployee.TurnCancelled, ""
	}
	s.failure = activities.AsFailure(engine.ErrorOf(err))
	return aiemployee.TurnFailed, s.failure.HumanReason
}
