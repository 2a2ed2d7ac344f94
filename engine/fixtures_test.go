package engine

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/workflow"
	"gorm.io/gorm"

	"agencyhub/activities"
	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/platform/realtime"
)

// Graphs in tests are built from these, so a test reads as the graph it runs.

func action(key, typ string, config map[string]any) automation.Action {
	if config == nil {
		config = map[string]any{}
	}
	return automation.Action{ActionKey: key, Label: key, ActionTypeKey: typ, Config: config}
}

func manualTrigger(key string) automation.Action { return action(key, automation.TypeManual, nil) }

func condition(key, text string) automation.Action {
	return action(key, automation.TypeCondition, map[string]any{"text": text})
}

func delay(key string, seconds int) automation.Action {
	return action(key, automation.TypeDelay, map[string]any{"seconds": seconds})
}

func httpRequest(key string, config map[string]any) automation.Action {
	return action(key, activities.ActionHTTPRequest, config)
}

func emailSend(key string, config map[string]any) automation.Action {
	return action(key, activities.ActionEmailSend, config)
}

func messengerSend(key string, config map[string]any) automation.Action {
	return action(key, activities.ActionMessengerASendMessage, config)
}

func switchOn(key string, withDefault bool, cases ...automation.SwitchCase) automation.Action {
	list := make([]any, len(cases))
	for i, c := range cases {
		list[i] = map[string]any{"name": c.Name, "text": c.Text}
	}
	return action(key, automation.TypeSwitch, map[string]any{"cases": list, "default": withDefault})
}

func dataSet(key string, fields map[string]any) automation.Action {
	return action(key, automation.TypeDataSet, map[string]any{"fields": fields})
}

func approvalWait(key string, timeoutSeconds int) automation.Action {
	return action(key, automation.TypeApproval, map[string]any{"title": "Refund {{ start.amount }}", "timeout_seconds": timeoutSeconds})
}

func forEach(key, items string, config map[string]any) automation.Action {
	a := action(key, automation.TypeLoop, config)
	a.Config["items"] = items
	return a
}

func edge(from, to string) automation.Connection { return automation.Connection{From: from, To: to} }

func branch(from, to, b string) automation.Connection {
	return automation.Connection{From: from, To: to, Branch: b}
}

func graph(actions []automation.Action, connections ...automation.Connection) automation.Graph {
	return automation.Graph{Actions: actions, Connections: connections}
}

// progressLog stands in for the projection: the progress local activity appends every
// batch the interpreter writes, and tests fold the batches the way ApplyProgress does.
type progressLog struct {
	mu      sync.Mutex
	batches []automation.Progress
	// changed is closed and replaced on every append, so waiters wake up.
	changed chan struct{}
	// apply, when set, writes each batch to the database as well.
	apply func(context.Context, automation.Progress) error
}

func newProgressLog() *progressLog { return &progressLog{changed: make(chan struct{})} }

// record is registered as the progress activity.
func (l *progressLog) record(ctx context.Context, p automation.Progress) error {
	if l.apply != nil {
		if err := l.apply(ctx, p); err != nil {
			return err
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.batches = append(l.batches, p)
	close(l.changed)
	l.changed = make(chan struct{})
	return nil
}

func (l *progressLog) snapshot() []automation.Progress {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.batches)
}

func (l *progressLog) projection() projection { return fold(l.snapshot()) }

// waitForEvent blocks until an event of the type and action has been recorded.
func (l *progressLog) waitForEvent(ctx context.Context, typ, actionKey string) error {
	for {
		l.mu.Lock()
		changed := l.changed
		for _, b := range l.batches {
			for _, e := range b.Events {
				if e.Type == typ && e.ActionKey == actionKey {
					l.mu.Unlock()
					return nil
				}
			}
		}
		l.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// projection is the state of a run's rows after the recorded batches were applied.
type projection struct {
	Run     runRow
	Actions map[string]*actionRow
	Events  []automation.EventRecord
	// Items are the loop items' last recorded status, by automation.ItemKey.
	Items map[string]string
}

type runRow struct {
	Status                automation.RunStatus
	TerminalReason, Error string
	StartedAt, FinishedAt *time.Time
}

type actionRow struct {
	Status                                       automation.ActionStatus
	MaxAttempts                                  int
	Input, Output, ProviderResponse, Diagnostics map[string]any
	Error, RetryClass                            string
	StartedAt, FinishedAt                        *time.Time
}

// fold applies the batches with automation.ApplyProgress's rules: status always, other
// fields when set, a start clearing the finish and the error.
func fold(batches []automation.Progress) projection {
	p := projection{Actions: map[string]*actionRow{}, Items: map[string]string{}}
	for _, b := range batches {
		for _, it := range b.Items {
			p.Items[automation.ItemKey(it.LoopKey, it.Index)] = it.Status
		}
		if u := b.Run; u != nil {
			p.Run.Status = u.Status
			if u.TerminalReason != "" {
				p.Run.TerminalReason = u.TerminalReason
			}
			if u.Error != "" {
				p.Run.Error = u.Error
			}
			if u.StartedAt != nil {
				p.Run.StartedAt, p.Run.FinishedAt = u.StartedAt, nil
			}
			if u.FinishedAt != nil {
				p.Run.FinishedAt = u.FinishedAt
			}
		}
		for _, u := range b.Actions {
			a := p.Actions[u.ActionKey]
			if a == nil {
				a = &actionRow{}
				p.Actions[u.ActionKey] = a
			}
			a.Status = u.Status
			if u.MaxAttempts > 0 {
				a.MaxAttempts = u.MaxAttempts
			}
			if u.Input != nil {
				a.Input = u.Input
			}
			if u.Output != nil {
				a.Output = u.Output
			}
			if u.ProviderResponse != nil {
				a.ProviderResponse = u.ProviderResponse
			}
			if u.Error != "" {
				a.Error = u.Error
			}
			if u.RetryClass != "" {
				a.RetryClass = u.RetryClass
			}
			if u.Diagnostics != nil {
				a.Diagnostics = u.Diagnostics
			}
			if u.StartedAt != nil {
				a.StartedAt, a.FinishedAt, a.Error = u.StartedAt, nil, ""
			}
			if u.FinishedAt != nil {
				a.FinishedAt = u.FinishedAt
			}
		}
		for _, e := range b.Events {
			// a batch written again (one a failed local action carried) adds no event twice
			if !slices.ContainsFunc(p.Events, func(seen automation.EventRecord) bool { return seen.Sequence == e.Sequence }) {
				p.Events = append(p.Events, e)
			}
		}
	}
	return p
}

// status is an action's folded status; an action the log never mentions is pending.
func (p projection) status(key string) automation.ActionStatus {
	if a, ok := p.Actions[key]; ok {
		return a.Status
	}
	return automation.ActionPending
}

// eventsOf lists "type key" for every event, in order.
func (p projection) eventsOf() []string {
	out := make([]string, len(p.Events))
	for i, e := range p.Events {
		out[i] = strings.TrimSpace(e.Type + " " + e.ActionKey)
	}
	return out
}

// indexOf is the position of the first event of the type and action, or -1.
func (p projection) indexOf(typ, actionKey string) int {
	return slices.IndexFunc(p.Events, func(e automation.EventRecord) bool { return e.Type == typ && e.ActionKey == actionKey })
}

// fakeActions stand in for the activities package: an action key may have a script; every
// call is recorded with the request it got. Unscripted actions succeed and echo their config.
type fakeActions struct {
	mu      sync.Mutex
	scripts map[string]activities.Func
	calls   []activities.Request
}

func newFakeActions() *fakeActions { return &fakeActions{scripts: map[string]activities.Func{}} }

// fakeActionTypes are the activity action types the fakes are registered under.
var fakeActionTypes = []string{activities.ActionHTTPRequest, activities.ActionEmailSend, activities.ActionMessengerASendMessage}

func (f *fakeActions) on(actionKey string, fn activities.Func) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.scripts[actionKey] = fn
}

func (f *fakeActions) run(ctx context.Context, req activities.Request) (activities.Result, error) {
	f.mu.Lock()
	f.calls = append(f.calls, req)
	script := f.scripts[req.ActionKey]
	f.mu.Unlock()
	if script != nil {
		return script(ctx, req)
	}
	return activities.Result{Output: map[string]any{"echo": req.Config}}, nil
}

// requests lists the requests an action's activity got, one per attempt.
func (f *fakeActions) requests(actionKey string) []activities.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []activities.Request
	for _, r := range f.calls {
		if r.ActionKey == actionKey {
			out = append(out, r)
		}
	}
	return out
}

// failing scripts an action that fails with f on every attempt up to and including
// untilAttempt (all attempts when 0), then succeeds with output.
func failing(f *activities.Failure, untilAttempt int, output map[string]any) activities.Func {
	return func(_ context.Context, req activities.Request) (activities.Result, error) {
		if untilAttempt == 0 || req.Attempt <= untilAttempt {
			return activities.Result{}, f
		}
		return activities.Result{Output: output}, nil
	}
}

func succeeding(output map[string]any) activities.Func {
	return func(context.Context, activities.Request) (activities.Result, error) {
		return activities.Result{Output: output, ProviderResponse: map[string]any{"status": "ok"}}, nil
	}
}

// engineRegistry is what a test workflow environment and a worker have in common.
type engineRegistry interface {
	RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
	RegisterActivityWithOptions(a any, options activity.RegisterOptions)
}

// registerEngine registers what NewWorker registers, with the projection writer replaced
// by log and the action functions by fakes, wrapped by the production runAction.
func registerEngine(r engineRegistry, workflows *automation.Service, log *progressLog, fakes *fakeActions) {
	r.RegisterWorkflowWithOptions(Interpret, workflow.RegisterOptions{Name: WorkflowName})
	r.RegisterWorkflowWithOptions(RunLoop, workflow.RegisterOptions{Name: LoopWorkflowName})
	deps := WorkerDeps{Workflows: workflows, Progress: log.record}
	r.RegisterActivityWithOptions(deps.writeProgress, activity.RegisterOptions{Name: progressActivity})
	r.RegisterActivityWithOptions(workflows.PriorItems, activity.RegisterOptions{Name: loopPriorsActivity})
	for _, typ := range fakeActionTypes {
		r.RegisterActivityWithOptions(runAction(deps, fakes.run), activity.RegisterOptions{Name: typ})
	}
	r.RegisterActivityWithOptions(runAction(deps, activities.ApprovalWait{Approvals: workflows}.Run),
		activity.RegisterOptions{Name: automation.TypeApproval})
	r.RegisterActivityWithOptions(expireApproval(workflows), activity.RegisterOptions{Name: approvalExpireActivity})
}

// testPolicy is the default execution policy of runs.go with short intervals.
func testPolicy() ActionPolicy {
	return ActionPolicy{Timeout: defaultActionTimeout + timeoutMargin, MaxAttempts: defaultMaxAttempts,
		InitialInterval: time.Second, BackoffCoefficient: defaultBackoff, MaxInterval: 10 * time.Second}
}

// newTestWorkflows is the workflow store on a fresh SQLite database.
func newTestWorkflows(t testing.TB) *automation.Service {
	t.Helper()
	db := dbtest.SQLite(t)
	return automation.NewService(db.DB, nil, dbtest.Catalog(t), realtime.NewLocal())
}

// newRun stores a test run of g and its pending action rows the way Runs.Start does (in a
// tenant and a workflow of their own) and returns the interpreter's input for it.
func newRun(t testing.TB, workflows *automation.Service, g automation.Graph, triggerKey string, payload map[string]any) RunInput {
	t.Helper()
	ctx := context.Background()
	tenant := dbtest.NewTenant(t, workflows.DB, "c"+strings.ReplaceAll(models.NewID().String(), "-", ""))
	w, err := workflows.Create(ctx, tenant.Project, tenant.UserID, "Workflow", "")
	if err != nil {
		t.Fatal(err)
	}
	if payload == nil {
		payload = map[string]any{}
	}
	run := &automation.Run{
		ID: models.NewID(), CompanyID: w.CompanyID, ProjectID: w.ProjectID, WorkflowID: w.ID,
		Status: automation.RunPending, TriggerType: TriggerTest, TriggerActionKey: triggerKey, IsTest: true,
		Input: mustJSON(payload), Namespaces: "{}", Graph: mustJSON(g),
	}
	policies := map[string]ActionPolicy{}
	maxAttempts := map[string]int{}
	for _, a := range g.Actions {
		policies[a.ActionKey] = testPolicy()
		maxAttempts[a.ActionKey] = testPolicy().MaxAttempts
	}
	if err := workflows.CreateRun(ctx, run, maxAttempts); err != nil {
		t.Fatalf("create run: %v", err)
	}
	runs := &Runs{WebURL: "https://hub.test"}
	st := Start{Graph: g, TriggerKey: triggerKey, Payload: payload}
	return RunInput{
		RunID: run.ID, CompanyID: run.CompanyID, ProjectID: run.ProjectID, WorkflowID: run.WorkflowID,
		Graph: g, TriggerKey: triggerKey, Payload: payload,
		Namespaces: runs.namespaces(run, st), Policies: policies,
	}
}

// attemptCount is the attempt count runAction recorded for an action.
func attemptCount(t testing.TB, db *gorm.DB, in RunInput, actionKey string) int {
	t.Helper()
	var row automation.ActionRun
	if err := db.Take(&row, "run_id = ? AND action_key = ?", in.RunID, actionKey).Error; err != nil {
		t.Fatalf("read action run %s: %v", actionKey, err)
	}
	return row.AttemptCount
}

// setAttempts records earlier attempts of actions, as an earlier execution of the run did.
func setAttempts(t testing.TB, db *gorm.DB, in RunInput, attempts map[string]int) {
	t.Helper()
	for _, key := range slices.Sorted(maps.Keys(attempts)) {
		err := db.Model(&automation.ActionRun{}).Where("run_id = ? AND action_key = ?", in.RunID, key).
			Update("attempt_count", attempts[key]).Error
		if err != nil {
			t.Fatalf("set attempts of %s: %v", key, err)
		}
	}
}
