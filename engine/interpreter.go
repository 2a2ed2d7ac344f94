package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"agencyhub/activities"
	"agencyhub/models/automation"
)

// Edge states: an edge is resolved once its source has finished; it is taken when the
// flow goes along it.
const (
	edgeOpen = iota
	edgeTaken
	edgeNotTaken
)

// interpreter holds one run's state. Everything in it is derived from the input and from
// results Temporal recorded, and it is iterated in graph order, never in map order, so a
// replay makes the same decisions.
type interpreter struct {
	ctx workflow.Context
	in  RunInput
	// graph is what this interpreter steps through: the run's graph or a loop item's body,
	// without the bodies of the loops in it, which their loops run.
	graph automation.Graph
	// item is the loop item whose body this interpreter runs; nil for the run's own.
	item     *itemScope
	status   map[string]automation.ActionStatus
	outputs  map[string]map[string]any
	attempts map[string]int
	edges    []int
	// inflight counts actions with an activity or timer outstanding; timers counts timers.
	inflight, timers int
	// local are local actions to start once the projection says they run.
	local []localAction
	// failure says why the run (or the item) fails; failedKey and failedWith are its action
	// and that action's failure.
	failure    string
	failedKey  string
	failedWith *activities.Failure
	progress   *projector
	// disconnected outlives a cancellation of the run, for what must still happen then.
	disconnected workflow.Context
}

// Interpret is the one generic workflow: it executes any workflow graph. Trigger,
// condition, switch, data and stop actions are evaluated here; delay.wait is a durable
// timer; every other action is an activity named by its action type key. Independent
// branches run in parallel; an action with several incoming connections runs once all of
// them are resolved, if any was taken; actions on untaken branches are skipped. A failed
// action takes its error path where it has one; otherwise it fails the run: actions
// already running finish, nothing new starts.
func Interpret(ctx workflow.Context, in RunInput) error {
	disconnected, _ := workflow.NewDisconnectedContext(ctx)
	r := newInterpreter(ctx, disconnected, in, in.Graph.Scheduled())
	r.progress = newProjector(disconnected, in.RunID, progressVersion(ctx, in), firstSequence(in))
	if in.Resume != nil {
		r.event("run.resumed", in.Resume.RetryKey, string(automation.RunRunning), "the run continues from action "+in.Resume.RetryKey, nil)
	} else {
		r.event("run.started", in.TriggerKey, string(automation.RunRunning), "the run started", nil)
	}
	r.progress.begin(workflow.Now(ctx))
	if err := r.run(); err != nil {
		return err
	}
	return r.finish()
}

func newInterpreter(ctx, disconnected workflow.Context, in RunInput, graph automation.Graph) *interpreter {
	r := &interpreter{
		ctx: ctx, in: in, graph: graph, disconnected: disconnected,
		status:   map[string]automation.ActionStatus{},
		outputs:  map[string]map[string]any{},
		attempts: map[string]int{},
		edges:    make([]int, len(graph.Connections)),
	}
	for _, a := range graph.Actions {
		r.status[a.ActionKey] = automation.ActionPending
	}
	if in.Resume != nil {
		for key, st := range in.Resume.Actions {
			r.attempts[key] = st.Attempts
			if st.Status == automation.ActionSucceeded {
				r.outputs[key] = st.Output
			}
		}
	}
	return r
}

// run steps through the graph until nothing is left to start or to wait for.
func (r *interpreter) run() error {
	selector := workflow.NewSelector(r.ctx)
	for {
		progressed := r.startReady(selector)
		if err := r.progress.stepped(r.local, r.inflight, !progressed && r.inflight > 0); err != nil {
			return err
		}
		for _, l := range r.local {
			r.startLocal(l, selector)
		}
		r.local = nil
		if progressed {
			continue
		}
		if r.inflight == 0 {
			return nil
		}
		selector.Select(r.ctx)
	}
}

// startReady starts every action whose incoming connections are all resolved, and reports
// whether anything changed.
func (r *interpreter) startReady(selector workflow.Selector) bool {
	progressed := false
	for _, a := range r.graph.Actions {
		if r.status[a.ActionKey] != automation.ActionPending || !r.resolved(a.ActionKey) {
			continue
		}
		progressed = true
		switch {
		case r.ctx.Err() != nil:
			r.cancelBefore(a)
		case r.failure != "":
			r.skip(a, "the run stopped before this action")
		case r.isTrigger(a):
			r.trigger(a)
		case !r.anyTaken(a.ActionKey):
			r.skip(a, "no incoming branch was taken")
		default:
			r.execute(a, selector)
		}
	}
	return progressed
}

func (r *interpreter) isTrigger(a automation.Action) bool {
	return r.item == nil && len(r.graph.Incoming(a.ActionKey)) == 0
}

func (r *interpreter) resolved(key string) bool {
	for i, c := range r.graph.Connections {
		if c.To == key && r.edges[i] == edgeOpen {
			return false
		}
	}
	return true
}

// anyTaken reports whether the flow reached an action: an incoming connection was taken, or
// it is where a loop item's body begins.
func (r *interpreter) anyTaken(key string) bool {
	if r.item != nil && slices.Contains(r.item.entries, key) {
		return true
	}
	for i, c := range r.graph.Connections {
		if c.To == key && r.edges[i] == edgeTaken {
			return true
		}
	}
	return false
}

// resolve decides the outgoing connections of a finished action: take picks which.
func (r *interpreter) resolve(key string, take func(c automation.Connection) bool) {
	for i, c := range r.graph.Connections {
		if c.From == key {
			r.edges[i] = edgeNotTaken
			if take(c) {
				r.edges[i] = edgeTaken
			}
		}
	}
}

// takeBranch takes the connections of one branch; takeNone takes none.
func takeBranch(branch string) func(automation.Connection) bool {
	return func(c automation.Connection) bool { return c.Branch == branch }
}

func takeNone(automation.Connection) bool { return false }

// trigger completes the starting trigger with the payload; other triggers did not fire.
func (r *interpreter) trigger(a automation.Action) {
	if a.ActionKey != r.in.TriggerKey {
		r.skip(a, "another trigger started this run")
		return
	}
	r.succeed(a, r.in.Payload, nil)
}

func (r *interpreter) skip(a automation.Action, why string) {
	r.status[a.ActionKey] = automation.ActionSkipped
	r.resolve(a.ActionKey, takeNone)
	r.action(automation.ActionUpdate{ActionKey: a.ActionKey, Status: automation.ActionSkipped})
	r.event("action.skipped", a.ActionKey, string(automation.ActionSkipped), why, nil)
}

// cancelBefore marks an action a cancelled run reached but never started: cancelled, as
// the action the cancellation interrupted is, rather than skipped like an untaken branch.
func (r *interpreter) cancelBefore(a automation.Action) {
	r.status[a.ActionKey] = automation.ActionCancelled
	r.resolve(a.ActionKey, takeNone)
	r.action(automation.ActionUpdate{ActionKey: a.ActionKey, Status: automation.ActionCancelled})
	r.event("action.cancelled", a.ActionKey, string(automation.ActionCancelled), "the run was cancelled before this action", nil)
}

func (r *interpreter) succeed(a automation.Action, output, providerResponse map[string]any) {
	if output == nil {
		output = map[string]any{}
	}
	now := workflow.Now(r.ctx)
	r.status[a.ActionKey] = automation.ActionSucceeded
	r.outputs[a.ActionKey] = output
	switch a.ActionTypeKey {
	case automation.TypeCondition:
		branch := automation.BranchFalse
		if output["result"] == true {
			branch = automation.BranchTrue
		}
		r.resolve(a.ActionKey, takeBranch(branch))
	case automation.TypeSwitch:
		branch, _ := output["case"].(string)
		r.resolve(a.ActionKey, takeBranch(branch))
	case automation.TypeBotReply:
		branch := ""
		if output["timed_out"] == true {
			branch = automation.BranchTimeout
		}
		r.resolve(a.ActionKey, takeBranch(branch))
	case automation.TypeLoop:
		r.resolve(a.ActionKey, takeBranch(automation.BranchDone))
	case automation.TypeApproval:
		branch, _ := output["decision"].(string)
		if branch == automation.ApprovalTimedOut {
			branch = automation.BranchTimeout
		}
		r.resolve(a.ActionKey, takeBranch(branch))
	case automation.TypeStop:
		r.resolve(a.ActionKey, takeNone)
	default:
		r.resolve(a.ActionKey, takeBranch(""))
	}
	r.action(automation.ActionUpdate{
		ActionKey:        a.ActionKey,
		Status:           automation.ActionSucceeded,
		Output:           output,
		ProviderResponse: providerResponse,
		FinishedAt:       &now,
	})
	r.event("action.succeeded", a.ActionKey, string(automation.ActionSucceeded), "", nil)
}

// fail finishes an action that failed for good (after its retry policy). Where the action
// has an error path, the run goes on along it with the failure as steps.<key>.error;
// otherwise the run fails: actions already running finish, nothing new starts.
func (r *interpreter) fail(a automation.Action, status automation.ActionStatus, f *activities.Failure) {
	now := workflow.Now(r.ctx)
	if f.RetryClass == activities.ClassCanceled && r.ctx.Err() != nil {
		status = automation.ActionCancelled // interrupted by the run's cancellation, not failed
	}
	r.status[a.ActionKey] = status
	data := map[string]any{"retry_class": f.RetryClass, "reason_code": f.ReasonCode}
	var output map[string]any
	if status != automation.ActionCancelled && r.hasErrorPath(a.ActionKey) {
		output = map[string]any{"error": errorOutput(f)}
		r.outputs[a.ActionKey] = output
		r.resolve(a.ActionKey, takeBranch(automation.BranchError))
		data["handled"] = true
	} else {
		r.resolve(a.ActionKey, takeNone)
		if r.failure == "" {
			r.failure = fmt.Sprintf("action %s failed: %s", a.ActionKey, f.HumanReason)
			r.failedKey, r.failedWith = a.ActionKey, f
		}
	}
	r.action(automation.ActionUpdate{
		ActionKey: a.ActionKey, Status: status, Output: output, Error: f.HumanReason, RetryClass: f.RetryClass,
		ProviderResponse: f.ProviderResponse, Diagnostics: diagnostics(f), FinishedAt: &now,
	})
	if len(f.ReasonArgs) > 0 {
		data["reason_args"] = f.ReasonArgs
	}
	if f.TextKey != "" {
		data["text_key"] = f.TextKey
	}
	r.event("action."+string(status), a.ActionKey, string(status), f.HumanReason, data)
}

// hasErrorPath reports whether a connection with branch "error" leaves the action.
func (r *interpreter) hasErrorPath(key string) bool {
	return slices.ContainsFunc(r.graph.Connections, func(c automation.Connection) bool {
		return c.From == key && c.Branch == automation.BranchError
	})
}

// errorOutput is steps.<key>.error of an action whose failure its error path handles.
func errorOutput(f *activities.Failure) map[string]any {
	out := map[string]any{"message": f.HumanReason, "retry_class": f.RetryClass, "reason_code": f.ReasonCode}
	if code, ok := f.ProviderResponse["status_code"]; ok {
		out["status_code"] = code
	}
	return out
}

// earlierFailure is the failure of an action that failed in an earlier execution of a
// resumed run, as its error path recorded it where it had one.
func earlierFailure(prior ResumedAction) *activities.Failure {
	f := activities.Failed(activities.ClassPermanent, "failed_earlier", "failed_earlier", "retry.next", nil)
	if e, ok := prior.Output["error"].(map[string]any); ok {
		f.TextKey, f.NextKey = "", "" // worded as it was recorded
		f.HumanReason, _ = e["message"].(string)
		f.RetryClass, _ = e["retry_class"].(string)
		f.ReasonCode, _ = e["reason_code"].(string)
		if code, ok := e["status_code"]; ok {
			f.ProviderResponse = map[string]any{"status_code": code}
		}
	}
	return f
}

// diagnostics is the ActionRunView.diagnostics object of a failure.
func diagnostics(f *activities.Failure) map[string]any {
	d := map[string]any{
		"status": "failed", "reason_code": f.ReasonCode, "human_reason": f.HumanReason,
		"next_action": f.NextAction, "provider": f.Provider, "retryable": f.Retryable,
		"summary": f.RetryClass + ": " + f.HumanReason,
	}
	if len(f.ReasonArgs) > 0 {
		d["reason_args"] = f.ReasonArgs
	}
	if f.TextKey != "" {
		d["text_key"], d["next_key"] = f.TextKey, f.NextKey
	}
	return d
}

// conditionFailure classifies a condition (or a switch case, or a data field) that could
// not be evaluated: a value it reads that the run lacks is named, in words; any other error
// keeps expr's.
func conditionFailure(err error) *activities.Failure {
	var missing *automation.MissingValueError
	if !errors.As(err, &missing) {
		return activities.Failed(activities.ClassValidation, "condition_error", "condition_error", "", activities.Args{"error": err.Error()})
	}
	return recordedFailure(automation.ReasonMissingValue, map[string]string{"path": missing.Path})
}

// recordedFailure is a validation failure the interpreter words itself, in English as the
// run records it (automation.FailureText words it for other readers).
func recordedFailure(reasonCode string, args map[string]string) *activities.Failure {
	return activities.Failed(activities.ClassValidation, reasonCode, reasonCode, "", args)
}

// switchCase is the branch a condition.switch takes: the name of its first case whose
// expression is true, else default where it is on; with neither it fails.
func switchCase(config, scope map[string]any) (string, *activities.Failure) {
	for _, c := range automation.SwitchCases(config) {
		ok, err := automation.EvalCondition(c.Text, scope)
		if err != nil {
			return "", conditionFailure(err)
		}
		if ok {
			return c.Name, nil
		}
	}
	if automation.SwitchHasDefault(config) {
		return automation.BranchDefault, nil
	}
	return "", recordedFailure(automation.ReasonNoCaseMatched, nil)
}

// dataFields is a data.set's output: each field's expression's value, within
// automation.MaxExpressionValueBytes together.
func dataFields(config, scope map[string]any) (map[string]any, *activities.Failure) {
	fields, _ := config["fields"].(map[string]any)
	out := make(map[string]any, len(fields))
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		text, _ := fields[name].(string)
		v, err := automation.EvalExpression(text, scope)
		if err != nil {
			f := conditionFailure(err)
			f.HumanReason = name + ": " + f.HumanReason
			return nil, f
		}
		out[name] = v
	}
	if b, _ := json.Marshal(out); len(b) > automation.MaxExpressionValueBytes {
		return nil, recordedFailure(automation.ReasonValueTooLarge, map[string]string{"limit": strconv.Itoa(automation.MaxExpressionValueBytes >> 10)})
	}
	return out, nil
}

// scope is what templates and conditions see: the outputs of finished actions under
// steps, and the trigger's and the service's namespaces; in a loop item, also the steps
// before the loop, and the item and loop namespaces. An approval.wait's approval_id and
// decide_url (a marker the worker swaps for the link) are there from the run's start.
func (r *interpreter) scope() map[string]any {
	steps := make(map[string]any, len(r.outputs))
	for k, v := range automation.ApprovalScope(r.in.Graph, r.in.RunID) {
		steps[k] = v
	}
	if r.item != nil {
		maps.Copy(steps, r.item.outer)
	}
	for k, v := range r.outputs {
		steps[k] = v
	}
	scope := map[string]any{"steps": steps}
	for k, v := range r.in.Namespaces {
		scope[k] = v
	}
	return scope
}

// execute runs a non-trigger action: conditions, switches, data steps and stops at once,
// delays as timers, waits for a bot reply as their activity and then a wait, the AI agent
// as a child workflow, everything else as its activity.
func (r *interpreter) execute(a automation.Action, selector workflow.Selector) {
	config, _ := automation.Render(a.Config, r.scope()).(map[string]any)
	if prior, ok := r.in.Resume.prior(a.ActionKey); ok && a.ActionKey != r.in.Resume.RetryKey {
		switch prior.Status {
		case automation.ActionSucceeded:
			r.succeed(a, prior.Output, nil)
			return
		case automation.ActionFailed, automation.ActionDeadLettered:
			r.fail(a, prior.Status, earlierFailure(prior))
			return
		}
	}
	switch a.ActionTypeKey {
	case automation.TypeCondition:
		text, _ := a.Config["text"].(string)
		result, err := automation.EvalCondition(text, r.scope())
		if err != nil {
			r.fail(a, automation.ActionFailed, conditionFailure(err))
			return
		}
		r.succeed(a, map[string]any{"result": result}, nil)
	case automation.TypeSwitch:
		branch, f := switchCase(a.Config, r.scope())
		if f != nil {
			r.fail(a, automation.ActionFailed, f)
			return
		}
		r.succeed(a, map[string]any{"case": branch}, nil)
	case automation.TypeDataSet:
		output, f := dataFields(a.Config, r.scope())
		if f != nil {
			r.fail(a, automation.ActionFailed, f)
			return
		}
		r.succeed(a, output, nil)
	case automation.TypeLoop:
		r.loop(a, selector)
	case automation.TypeStop:
		r.succeed(a, map[string]any{}, nil)
	case automation.TypeDelay:
		r.delay(a, config, selector)
	case automation.TypeBotReply:
		r.activity(a, config, selector, func(res activities.Result) { r.waitForReply(a, res, selector) })
	case automation.TypeApproval:
		r.activity(a, config, selector, func(res activities.Result) { r.waitForApproval(a, res, selector) })
	case automation.TypeAgent:
		// Runs of before the change ran ai.agent as an activity (which no worker executed).
		if workflow.GetVersion(r.ctx, agentActionChange, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
			r.activity(a, config, selector, func(res activities.Result) { r.succeed(a, res.Output, res.ProviderResponse) })
			return
		}
		r.actionChild(a, config, selector)
	default:
		r.activity(a, config, selector, func(res activities.Result) { r.succeed(a, res.Output, res.ProviderResponse) })
	}
}

func (r *interpreter) delay(a automation.Action, config map[string]any, selector workflow.Selector) {
	seconds := ToInt(config["seconds"])
	now := workflow.Now(r.ctx)
	r.status[a.ActionKey] = automation.ActionWaiting
	r.action(automation.ActionUpdate{
		ActionKey:   a.ActionKey,
		Status:      automation.ActionWaiting,
		Input:       config,
		StartedAt:   &now,
		MaxAttempts: 1,
	})
	r.event("action.waiting", a.ActionKey, string(automation.ActionWaiting), fmt.Sprintf("waiting %d seconds", seconds), nil)
	r.inflight++
	r.timers++
	r.runStatus()
	timer := workflow.NewTimer(r.ctx, time.Duration(seconds)*time.Second)
	selector.AddFuture(timer, func(f workflow.Future) {
		r.inflight--
		r.timers--
		if err := f.Get(r.ctx, nil); err != nil {
			r.fail(a, automation.ActionFailed, activities.AsFailure(ErrorOf(err)))
		} else {
			r.succeed(a, map[string]any{"waited_seconds": seconds}, nil)
		}
		r.runStatus()
	})
}

// waitForReply is the workflow half of bot.wait_for_reply, once its activity has recorded
// the wait: the action waits for the reply signal or for the time the activity answered,
// and succeeds with the reply or with timed_out.
func (r *interpreter) waitForReply(a automation.Action, recorded activities.Result, selector workflow.Selector) {
	seconds := ToInt(recorded.Output["timeout_seconds"])
	r.waitForSignal(a, ReplySignal(a.ActionKey), seconds, fmt.Sprintf("waiting %d seconds for the chat's reply", seconds), selector,
		func(output map[string]any) { r.succeed(a, output, nil) })
}

// waitForApproval is the workflow half of approval.wait, once its activity has recorded
// the approval: the action waits for the decision the API signals, or for the time left;
// then the timeout is recorded through an activity, which answers a decision that was
// recorded first instead. An approval decided already (the activity ran again after the
// decision) succeeds at once.
func (r *interpreter) waitForApproval(a automation.Action, recorded activities.Result, selector workflow.Selector) {
	if _, decided := recorded.Output["decision"]; decided {
		r.succeed(a, recorded.Output, nil)
		return
	}
	seconds := ToInt(recorded.Output["wait_seconds"])
	id, _ := recorded.Output["approval_id"].(string)
	r.waitForSignal(a, ApprovalSignal(a.ActionKey), seconds, fmt.Sprintf("waiting %d seconds for a decision", seconds), selector,
		func(output map[string]any) {
			if output["timed_out"] != true {
				r.succeed(a, output, nil)
				return
			}
			r.inflight++
			ctx := workflow.WithActivityOptions(r.ctx, workflow.ActivityOptions{
				StartToCloseTimeout: defaultActionTimeout, ScheduleToStartTimeout: ScheduleToStartTimeout,
				RetryPolicy: &temporal.RetryPolicy{InitialInterval: defaultInitial, BackoffCoefficient: defaultBackoff, MaximumInterval: defaultMaxInterval},
			})
			expiry := ApprovalExpiry{CompanyID: r.in.CompanyID.String(), ApprovalID: id}
			selector.AddFuture(workflow.ExecuteActivity(ctx, approvalExpireActivity, expiry), func(f workflow.Future) {
				r.inflight--
				var outcome map[string]any
				if err := f.Get(r.ctx, &outcome); err != nil {
					r.fail(a, automation.ActionFailed, activities.AsFailure(ErrorOf(err)))
				} else {
					r.succeed(a, outcome, nil)
				}
				r.runStatus()
			})
		})
}

// waitForSignal has an action wait, as a timer does (the run is waiting meanwhile), for
// the first value signalled to it or for seconds to pass; done takes the value, or
// {"timed_out": true}. A cancelled run fails the wait with the cancellation.
func (r *interpreter) waitForSignal(a automation.Action, signal string, seconds int, waiting string, selector workflow.Selector,
	done func(output map[string]any)) {
	r.status[a.ActionKey] = automation.ActionWaiting
	r.action(automation.ActionUpdate{ActionKey: a.ActionKey, Status: automation.ActionWaiting})
	r.event("action.waiting", a.ActionKey, string(automation.ActionWaiting), waiting, nil)
	r.inflight++
	r.timers++
	r.runStatus()
	selector.AddFuture(r.awaitSignal(signal, time.Duration(seconds)*time.Second), func(f workflow.Future) {
		r.inflight--
		r.timers--
		var output map[string]any
		if err := f.Get(r.ctx, &output); err != nil {
			r.fail(a, automation.ActionFailed, activities.AsFailure(ErrorOf(err)))
		} else {
			done(output)
		}
		r.runStatus()
	})
}

// awaitSignal settles with the first value signalled on the channel, or with timed_out
// once d has passed; a cancelled run settles it with the cancellation.
func (r *interpreter) awaitSignal(signal string, d time.Duration) workflow.Future {
	future, settle := workflow.NewFuture(r.ctx)
	workflow.Go(r.ctx, func(ctx workflow.Context) {
		timerCtx, stopTimer := workflow.WithCancel(ctx)
		defer stopTimer()
		waiting := workflow.NewSelector(ctx)
		waiting.AddReceive(workflow.GetSignalChannel(ctx, signal), func(c workflow.ReceiveChannel, _ bool) {
			var value map[string]any
			c.Receive(ctx, &value)
			settle.SetValue(value)
		})
		waiting.AddFuture(workflow.NewTimer(timerCtx, d), func(f workflow.Future) {
			if err := f.Get(ctx, nil); err != nil {
				settle.SetError(err)
				return
			}
			settle.SetValue(map[string]any{"timed_out": true})
		})
		waiting.Select(ctx)
	})
	return future
}

// ReplySignal names the signal that hands a run's bot.wait_for_reply action its reply.
func ReplySignal(actionKey string) string { return "bot.wait_for_reply/" + actionKey }

// ApprovalSignal names the signal that hands a run's approval.wait action its decision
// (automation.Approval.Output), once the API has recorded it.
func ApprovalSignal(actionKey string) string { return automation.TypeApproval + "/" + actionKey }

// activity runs an action as its activity, a local one when its policy says so; done takes
// its result.
func (r *interpreter) activity(a automation.Action, config map[string]any, selector workflow.Selector, done func(activities.Result)) {
	policy := r.in.Policies[a.ActionKey]
	now := workflow.Now(r.ctx)
	r.status[a.ActionKey] = automation.ActionRunning
	// Attempts of earlier executions (retry-action) count too, so max_attempts grows with them.
	r.action(automation.ActionUpdate{ActionKey: a.ActionKey, Status: automation.ActionRunning, Input: config, StartedAt: &now,
		MaxAttempts: r.attempts[a.ActionKey] + policy.MaxAttempts})
	r.event("action.started", a.ActionKey, string(automation.ActionRunning), "", nil)
	retry := policy.retryPolicy()
	req := ActionRequest{
		Request: activities.Request{
			RunID: r.in.RunID, CompanyID: r.in.CompanyID, ProjectID: r.in.ProjectID,
			ActionKey: r.key(a.ActionKey), ActionType: a.ActionTypeKey, Config: config,
		},
		PriorAttempts: r.attempts[a.ActionKey],
		Idempotent:    policy.Idempotent,
	}
	r.inflight++
	r.runStatus()
	if policy.Local {
		ctx := workflow.WithLocalActivityOptions(r.ctx, workflow.LocalActivityOptions{StartToCloseTimeout: policy.Timeout, RetryPolicy: retry})
		r.local = append(r.local, localAction{ctx: ctx, a: a, req: req, done: done})
		return
	}
	ctx := workflow.WithActivityOptions(r.ctx, workflow.ActivityOptions{
		StartToCloseTimeout: policy.Timeout,
		// A run never waits forever for a worker that does not execute this action type.
		ScheduleToStartTimeout: ScheduleToStartTimeout,
		HeartbeatTimeout:       HeartbeatTimeout,
		RetryPolicy:            retry,
	})
	selector.AddFuture(workflow.ExecuteActivity(ctx, a.ActionTypeKey, req), func(f workflow.Future) { r.settle(a, f, done) })
}

// localAction is a local activity waiting to start.
type localAction struct {
	ctx  workflow.Context
	a    automation.Action
	req  ActionRequest
	done func(activities.Result)
}

// startLocal starts a local action. One that failed may not have written the batch it
// carried, so the batch goes back to the projector.
func (r *interpreter) startLocal(l localAction, selector workflow.Selector) {
	selector.AddFuture(workflow.ExecuteLocalActivity(l.ctx, l.a.ActionTypeKey, l.req), func(f workflow.Future) {
		if l.req.Progress != nil && f.Get(r.ctx, nil) != nil {
			r.progress.requeue(*l.req.Progress)
		}
		r.settle(l.a, f, l.done)
	})
}

// settle finishes an action with the answer of its activity or child workflow: done takes
// a result; a failure fails the action, dead-lettered when it was retryable but the
// attempts ran out.
func (r *interpreter) settle(a automation.Action, f workflow.Future, done func(activities.Result)) {
	r.inflight--
	var res activities.Result
	if err := f.Get(r.ctx, &res); err != nil {
		failure := activities.AsFailure(ErrorOf(err))
		status := automation.ActionFailed
		if failure.Retryable {
			status = automation.ActionDeadLettered
		}
		r.fail(a, status, failure)
	} else {
		done(res)
	}
	r.runStatus()
}

// runStatus keeps the run waiting while only timers are outstanding, running otherwise. A
// loop item's interpreter leaves the run's status to the run's.
func (r *interpreter) runStatus() {
	if r.item != nil {
		return
	}
	status := automation.RunRunning
	if r.inflight > 0 && r.inflight == r.timers {
		status = automation.RunWaiting
	}
	r.progress.runStatus(status)
}

// finish writes the terminal state.
func (r *interpreter) finish() error {
	now := workflow.Now(r.ctx)
	update := &automation.RunUpdate{Status: automation.RunSucceeded, TerminalReason: "all actions finished", FinishedAt: &now}
	var result error
	switch {
	case r.ctx.Err() != nil:
		update.Status, update.TerminalReason = automation.RunCancelled, "the run was cancelled"
		result = temporal.NewCanceledError()
	case r.failure != "":
		update.Status, update.TerminalReason, update.Error = automation.RunFailed, r.failure, r.failure
		update.FailedActionKey = r.failedKey // for run.event_trigger; the write's input only, no command changes
	}
	r.progress.end(update)
	r.event("run."+string(update.Status), "", string(update.Status), update.TerminalReason, nil)
	if err := r.progress.flush(); err != nil {
		return err
	}
	if r.in.SearchAttributes {
		if err := workflow.UpsertTypedSearchAttributes(r.disconnected, saStatus.ValueSet(string(update.Status))); err != nil {
			return err
		}
	}
	return result
}

// action and event record a change of an action run and an event of the run for the
// projection. A loop item's action runs are its own, under its key; its actions record no
// run events, which would number thousands: the item's outcome is recorded instead.
func (r *interpreter) action(u automation.ActionUpdate) {
	if r.item != nil {
		a, _ := r.graph.Action(u.ActionKey)
		u.ActionKey, u.ItemKey, u.ActionTypeKey = r.key(u.ActionKey), r.item.key, a.ActionTypeKey
	}
	r.progress.action(u)
}

func (r *interpreter) event(typ, actionKey, status, message string, data map[string]any) {
	if r.item == nil {
		r.progress.event(typ, actionKey, status, message, data)
	}
}

// key is an action's key in the run: in a loop item, scoped by the item's key.
func (r *interpreter) key(actionKey string) string {
	if r.item == nil {
		return actionKey
	}
	return r.item.key + "." + actionKey
}

// firstSequence numbers the run's first event: a resumed run continues the numbering of its
// earlier execution.
func firstSequence(in RunInput) int {
	if in.Resume != nil {
		return in.Resume.NextSequence
	}
	return 1
}

func (res *Resume) prior(key string) (ResumedAction, bool) {
	if res == nil {
		return ResumedAction{}, false
	}
	st, ok := res.Actions[key]
	return st, ok
}

// ErrorOf unwraps an activity or timer error into the action's classified failure.
func ErrorOf(err error) error {
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) {
		var f activities.Failure
		if appErr.HasDetails() && appErr.Details(&f) == nil {
			return &f
		}
		class := appErr.Type()
		if !slices.Contains(activities.RetryClasses, class) {
			// An error no action classified (the wrapper's own before the action ran, such
			// as failing to record the attempt): it still needs one of the specification's
			// classes, and dead-letters if Temporal was allowed to retry it.
			class = activities.ClassUnknownOutcome
			if !appErr.NonRetryable() {
				class = activities.ClassTransient
			}
		}
		return activities.Failed(class, "activity_error", "activity_error", "", activities.Args{"error": appErr.Message()})
	}
	var timeoutErr *temporal.TimeoutError
	if errors.As(err, &timeoutErr) && timeoutErr.TimeoutType() == enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START {
		return activities.Failed(activities.ClassPermanent, "no_worker", "no_worker", "", nil)
	}
	if errors.As(err, &timeoutErr) {
		return activities.Failed(activities.ClassTimeoutUnknown, "timeout", "timeout", "check_target_crashed.next", nil)
	}
	var canceled *temporal.CanceledError
	if errors.As(err, &canceled) {
		return activities.Failed(activities.ClassCanceled, "canceled", "canceled_run", "canceled.next", nil)
	}
	return err
}

// ToInt is the whole number a config or an output holds (a JSON number), 0 when it holds
// none.
func ToInt(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int:
		return n
	case int64:
		return int(n)
	}
	return 0
}
