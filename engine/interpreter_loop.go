package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"agencyhub/activities"
	"agencyhub/models/automation"
)

// How a loop.for_each runs (docs/workflows.md, "Loops"): the interpreter that reaches it
// evaluates its list and starts one child workflow, LoopWorkflowName, for the whole loop.
// The child runs the items loopChunk at a time, each item's body by an interpreter of its
// own, at most Concurrency of them at once, and then continues as new with the items left:
// so no history holds more than one chunk's events, however long the list, and the run's
// own history holds the loop as one child. The child answers the loop's result, which the
// run takes as the action's output. Each item's action runs and its outcome are written to
// the projection as it goes, keyed by the item (automation.ItemKey).
const (
	LoopWorkflowName = "automation.loop"
	loopChunk        = 100
	// maxItemSteps bounds what one item's entry in results keeps of its body's outputs, and
	// maxResultSteps what all the entries keep together; past them an entry has no steps.
	maxItemSteps   = 8 << 10
	maxResultSteps = 1 << 20
)

// LoopInput is the loop child workflow's input: the loop, its items and their scope, and
// what the items before Next came to.
type LoopInput struct {
	RunID, CompanyID, ProjectID uuid.UUID
	// LoopKey is the loop's key in the run: its action key, scoped by the item it runs in
	// when it is an inner loop.
	LoopKey     string
	Body        automation.Graph
	Entries     []string
	Items       []any
	Concurrency int
	StopOnError bool
	// Namespaces and Steps are the scope the loop started in; Parent is the loop namespace
	// of the item an inner loop runs in, with that item, nil for a loop of the run's own.
	Namespaces map[string]any
	Steps      map[string]any
	Parent     map[string]any
	Policies   map[string]ActionPolicy
	Next       int
	Tally      LoopTally
	// Retry is the key in the run of the item action a retry-action runs again (Resume.
	// ItemAction): that item runs again from it, the items that ran keep what they came to,
	// and those that never ran, run.
	Retry string
}

// LoopTally is what the items so far came to, in item order.
type LoopTally struct {
	Results     []map[string]any
	FailedItems []map[string]any
	Succeeded   int
	Failed      int
	StepsBytes  int
	// Stopped: an item failed and the loop fails on a failed item, so no other starts.
	Stopped bool
}

// loop starts a loop.for_each: its list is evaluated here, then the loop child runs it.
func (r *interpreter) loop(a automation.Action, selector workflow.Selector) {
	scope := r.scope()
	items, f := loopItems(a.Config, scope)
	if f != nil {
		r.fail(a, automation.ActionFailed, f)
		return
	}
	now := workflow.Now(r.ctx)
	r.status[a.ActionKey] = automation.ActionRunning
	r.action(automation.ActionUpdate{ActionKey: a.ActionKey, Status: automation.ActionRunning, StartedAt: &now, MaxAttempts: 1,
		Input: map[string]any{"items": a.Config["items"], "count": len(items)}})
	r.event("action.started", a.ActionKey, string(automation.ActionRunning), fmt.Sprintf("%d items", len(items)), nil)
	body, entries := r.in.Graph.BodyGraph(a.ActionKey)
	in := LoopInput{
		RunID: r.in.RunID, CompanyID: r.in.CompanyID, ProjectID: r.in.ProjectID, LoopKey: r.key(a.ActionKey),
		Body: body, Entries: entries, Items: items,
		Concurrency: min(max(ToInt(a.Config["concurrency"]), 1), automation.MaxLoopConcurrency),
		StopOnError: a.Config["on_item_error"] != "continue",
		Namespaces:  maps.Clone(r.in.Namespaces), Steps: scope["steps"].(map[string]any), Policies: r.in.Policies,
	}
	delete(in.Namespaces, "item")
	delete(in.Namespaces, "loop")
	if res := r.in.Resume; res != nil && res.RetryKey == a.ActionKey {
		in.Retry = res.ItemAction
	}
	if r.item != nil {
		parent, _ := r.in.Namespaces["loop"].(map[string]any)
		in.Parent = maps.Clone(parent)
		in.Parent["item"] = r.in.Namespaces["item"]
	}
	ctx := workflow.WithChildOptions(r.ctx, workflow.ChildWorkflowOptions{
		// The loop's key in the run is unique to it, inner loops' too.
		WorkflowID: r.in.RunID.String() + "/" + in.LoopKey,
		// The items a cancellation interrupts record it before the loop ends.
		WaitForCancellation: true,
	})
	r.inflight++
	r.runStatus()
	selector.AddFuture(workflow.ExecuteChildWorkflow(ctx, LoopWorkflowName, in), func(f workflow.Future) {
		r.settle(a, f, func(res activities.Result) { r.endLoop(a, in.StopOnError, res.Output) })
	})
}

// endLoop finishes a loop whose items have all finished (or, failing on a failed item,
// stopped): it fails with the first failed item's failure, or succeeds with the result.
func (r *interpreter) endLoop(a automation.Action, stopOnError bool, output map[string]any) {
	failed, _ := output["failed_items"].([]any)
	if !stopOnError || len(failed) == 0 {
		r.succeed(a, output, nil)
		return
	}
	first, _ := failed[0].(map[string]any)
	e, _ := first["error"].(map[string]any)
	str := func(k string) string { s, _ := e[k].(string); return s }
	f := recordedFailure(automation.ReasonItemFailed, map[string]string{
		"index": fmt.Sprint(first["index"]), "action_key": str("action_key"), "reason": str("message"),
	})
	f.RetryClass = str("retry_class")
	r.fail(a, automation.ActionFailed, f)
}

// loopItems evaluates a loop's list: a list of at most automation.MaxLoopItems.
func loopItems(config, scope map[string]any) ([]any, *activities.Failure) {
	text, _ := config["items"].(string)
	v, err := automation.EvalExpression(text, scope)
	if err != nil {
		return nil, conditionFailure(err)
	}
	items, ok := v.([]any)
	switch {
	case !ok:
		return nil, recordedFailure(automation.ReasonNotAList, map[string]string{"kind": kindOf(v)})
	case len(items) > automation.MaxLoopItems:
		return nil, recordedFailure(automation.ReasonTooManyItems,
			map[string]string{"count": strconv.Itoa(len(items)), "limit": strconv.Itoa(automation.MaxLoopItems)})
	}
	return items, nil
}

// kindOf names a JSON value's kind for a message.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "a map"
	case string:
		return "text"
	case float64:
		return "a number"
	case bool:
		return "true or false"
	}
	return fmt.Sprintf("%T", v)
}

// RunLoop is the loop child workflow: it runs the next chunk of items, then continues as new
// with the rest, or answers the loop's result once none is left (or it stopped). A
// cancelled loop answers the cancellation once the items it interrupted have recorded it.
func RunLoop(ctx workflow.Context, in LoopInput) (activities.Result, error) {
	disconnected, _ := workflow.NewDisconnectedContext(ctx)
	version := progressVersion(ctx, RunInput{})
	end := min(in.Next+loopChunk, len(in.Items))
	priors, err := loopPriors(ctx, in, end)
	if err != nil {
		return activities.Result{}, err
	}
	outcomes := make([]itemOutcome, end-in.Next)
	next, running := in.Next, 0
	var failure error
	for range min(in.Concurrency, end-in.Next) {
		running++
		workflow.Go(ctx, func(ctx workflow.Context) {
			defer func() { running-- }()
			// A blocking call takes the context of the coroutine it blocks.
			disconnected, _ := workflow.NewDisconnectedContext(ctx)
			var err error
			for next < end && ctx.Err() == nil && failure == nil && !in.Tally.Stopped {
				i := next
				next++
				o, reused := priors.outcome(in, i)
				if !reused {
					o, err = runItem(ctx, disconnected, version, in, i, priors.resume(in, i))
				}
				if err != nil {
					failure = err
					return
				}
				outcomes[i-in.Next] = o
				if in.StopOnError && o.status == automation.ItemFailed {
					in.Tally.Stopped = true
				}
			}
		})
	}
	if err := workflow.Await(disconnected, func() bool { return running == 0 }); err != nil {
		return activities.Result{}, err
	}
	if failure != nil {
		return activities.Result{}, failure
	}
	if err := ctx.Err(); err != nil {
		return activities.Result{}, err
	}
	for i, o := range outcomes {
		if o.status == "" {
			o = itemOutcome{status: automation.ItemNotRun}
		}
		in.Tally.add(in.Next+i, o)
	}
	if end < len(in.Items) && !in.Tally.Stopped {
		in.Next = end
		return activities.Result{}, workflow.NewContinueAsNewError(ctx, LoopWorkflowName, in)
	}
	for i := end; i < len(in.Items); i++ {
		in.Tally.add(i, itemOutcome{status: automation.ItemNotRun})
	}
	t := in.Tally
	return activities.Result{Output: map[string]any{
		"count": len(in.Items), "succeeded": t.Succeeded, "failed": t.Failed,
		"failed_items": nonNilList(t.FailedItems), "results": nonNilList(t.Results),
	}}, nil
}

// itemOutcome is what one item came to.
type itemOutcome struct {
	status string
	steps  map[string]any
	err    map[string]any
}

// add appends an item's outcome to the tally, its steps while they fit.
func (t *LoopTally) add(index int, o itemOutcome) {
	entry := map[string]any{"index": index, "status": o.status}
	if o.steps != nil {
		if b, _ := json.Marshal(o.steps); len(b) <= maxItemSteps && t.StepsBytes+len(b) <= maxResultSteps {
			entry["steps"] = o.steps
			t.StepsBytes += len(b)
		}
	}
	switch o.status {
	case automation.ItemSucceeded:
		t.Succeeded++
	case automation.ItemFailed:
		t.Failed++
		entry["error"] = o.err
		t.FailedItems = append(t.FailedItems, map[string]any{"index": index, "error": o.err})
	}
	t.Results = append(t.Results, entry)
}

// runItem runs the body of item i of the loop by an interpreter of its own, and records the
// item's start and end.
func runItem(ctx, disconnected workflow.Context, version workflow.Version, in LoopInput, i int, resume *Resume) (itemOutcome, error) {
	ns := maps.Clone(in.Namespaces)
	ns["item"] = in.Items[i]
	loop := map[string]any{"index": i, "count": len(in.Items)}
	if in.Parent != nil {
		loop["parent"] = in.Parent
	}
	ns["loop"] = loop
	run := RunInput{RunID: in.RunID, CompanyID: in.CompanyID, ProjectID: in.ProjectID, Graph: in.Body, Namespaces: ns, Policies: in.Policies,
		Resume: resume}
	r := newInterpreter(ctx, disconnected, run, in.Body.Scheduled())
	r.item = &itemScope{key: automation.ItemKey(in.LoopKey, i), entries: in.Entries, outer: in.Steps}
	r.progress = newProjector(disconnected, in.RunID, version, 0)
	started := workflow.Now(ctx)
	r.progress.item(automation.ItemUpdate{LoopKey: in.LoopKey, Index: i, Status: automation.ItemRunning, Item: in.Items[i], StartedAt: &started})
	if err := r.run(); err != nil {
		return itemOutcome{}, err
	}
	o := itemOutcome{status: automation.ItemSucceeded, steps: map[string]any{}}
	for k, v := range r.outputs {
		o.steps[k] = v
	}
	update := automation.ItemUpdate{LoopKey: in.LoopKey, Index: i}
	switch {
	case r.ctx.Err() != nil:
		o.status = automation.ItemCancelled
	case r.failure != "":
		o.status = automation.ItemFailed
		o.err = errorOutput(r.failedWith)
		o.err["action_key"] = r.failedKey
		update.Error, update.FailedActionKey = r.failedWith.HumanReason, r.failedKey
	}
	finished := workflow.Now(ctx)
	update.Status, update.FinishedAt = o.status, &finished
	r.progress.item(update)
	return o, r.progress.flush()
}

// itemScope is the loop item an interpreter runs the body of.
type itemScope struct {
	// key is the item's automation.ItemKey; its action runs are keyed by it.
	key string
	// entries are the body's first actions, which its loop's "each" connections lead to.
	entries []string
	// outer are the steps of the scope the loop started in.
	outer map[string]any
}

func nonNilList(l []map[string]any) []map[string]any {
	if l == nil {
		return []map[string]any{}
	}
	return l
}

// loopPriorsActivity reads what the items of a loop came to in an earlier execution of the
// run (a local activity: the loop's workflow never reads the database itself).
const loopPriorsActivity = "automation.loop_priors"

// priorItems are what the items of a chunk came to before a retry, by index; nil when the
// loop is not retried.
type priorItems map[int]automation.PriorItem

// loopPriors reads, for a retried loop, what the items of this chunk came to before.
func loopPriors(ctx workflow.Context, in LoopInput, end int) (priorItems, error) {
	if in.Retry == "" {
		return nil, nil
	}
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
	})
	var list []automation.PriorItem
	if err := workflow.ExecuteLocalActivity(ctx, loopPriorsActivity, in.RunID, in.LoopKey, in.Next, end).Get(ctx, &list); err != nil {
		return nil, err
	}
	out := priorItems{}
	for _, p := range list {
		out[p.Index] = p
	}
	return out, nil
}

// retried is the index of the item whose action in.Retry names, -1 when it names none.
func (in LoopInput) retried() int {
	rest, ok := strings.CutPrefix(in.Retry, in.LoopKey+"[")
	if !ok {
		return -1
	}
	n, err := strconv.Atoi(rest[:max(strings.IndexByte(rest, ']'), 0)])
	if err != nil {
		return -1
	}
	return n
}

// outcome is what item i came to before, when it keeps it: it ran and is not the item
// retried. Its failure, if it failed, is its failed action's.
func (p priorItems) outcome(in LoopInput, i int) (itemOutcome, bool) {
	prior, ok := p[i]
	if !ok || i == in.retried() || prior.Status == automation.ItemRunning {
		return itemOutcome{}, false
	}
	o := itemOutcome{status: prior.Status, steps: map[string]any{}}
	for key, a := range prior.Actions {
		switch a.Status {
		case automation.ActionSucceeded:
			o.steps[key] = automation.DecodeObject(a.Output)
		case automation.ActionFailed, automation.ActionDeadLettered:
			if o.status == automation.ItemFailed && o.err == nil {
				o.err = priorError(key, a)
			}
		}
	}
	return o, true
}

// resume is how item i runs again: the retried item from its retried action, keeping what
// its other actions came to; any other item afresh.
func (p priorItems) resume(in LoopInput, i int) *Resume {
	if i != in.retried() {
		return nil
	}
	prefix := automation.ItemKey(in.LoopKey, i) + "."
	rest := strings.TrimPrefix(in.Retry, prefix)
	res := &Resume{RetryKey: rest, Actions: map[string]ResumedAction{}}
	if cut := strings.IndexAny(rest, "[."); cut >= 0 {
		// An inner loop's item is retried: the inner loop runs again, and finds its item.
		res.RetryKey, res.ItemAction = rest[:cut], in.Retry
	}
	for key, a := range p[i].Actions {
		res.Actions[key] = ResumedAction{Status: a.Status, Output: automation.DecodeObject(a.Output), Attempts: a.AttemptCount}
	}
	return res
}

// priorError is steps.<key>.error-like failure of an item's action as its row recorded it.
func priorError(key string, a automation.ActionRun) map[string]any {
	d := automation.DecodeObject(a.Diagnostics)
	e := map[string]any{"message": d["human_reason"], "retry_class": a.RetryClass, "reason_code": d["reason_code"], "action_key": key}
	if code, ok := automation.DecodeObject(a.ProviderResponse)["status_code"]; ok {
		e["status_code"] = code
	}
	return e
}
