package engine

import (
	"context"
	"strconv"
	"strings"

	"agencyhub/models"
	"agencyhub/models/automation"
)

// ActionEffect is one action of a run as a retry or a replay would treat it.
type ActionEffect struct {
	ActionKey     string
	Label         string
	ActionTypeKey string
	// Idempotent is the catalog's word, refined by the action's config as its retry policy
	// is (an http.request by its method, a db.query by read_only): whether acting twice has
	// the effect of acting once.
	Idempotent bool
	// Status is the action's status in the run previewed, "" when that run has no such
	// action (a replay on a later version).
	Status automation.ActionStatus
}

// RunEffects are what a retry or a replay would do: the actions that will or may act again,
// and the succeeded ones whose results it reuses instead; both in graph order.
type RunEffects struct {
	ActsAgain []ActionEffect
	Reused    []ActionEffect
}

// retryable checks what RetryAction requires of a run whose action rows are rows: the run
// failed, and the action named is one of them that failed. Errors: conflict (the run is not
// failed, or the action did not fail), invalid (unknown action).
func retryable(r *automation.Run, rows []automation.ActionRun, actionKey string) error {
	if r.Status != automation.RunFailed {
		return models.Conflict("run_not_failed", "workflow_run_id")
	}
	for _, row := range rows {
		if row.ActionKey != actionKey {
			continue
		}
		if row.Status != automation.ActionFailed && row.Status != automation.ActionDeadLettered {
			return models.Conflict("action_not_failed", "action_key")
		}
		return nil
	}
	return models.Invalid("unknown_action", "action_key")
}

// itemRetryable checks what RetryAction requires to retry the action of a loop item: the
// run failed, its loop failed, and the action named failed. Errors: as retryable's.
func (s *Runs) itemRetryable(ctx context.Context, r *automation.Run, rows []automation.ActionRun, loop, actionKey string) error {
	if err := retryable(r, rows, loop); err != nil {
		if models.IsKind(err, models.KindConflict) && r.Status == automation.RunFailed {
			return models.Conflict("loop_not_failed", "action_key")
		}
		return err
	}
	row, err := s.Workflows.ItemActionRun(ctx, r.ID, actionKey)
	if models.IsKind(err, models.KindNotFound) {
		return models.Invalid("unknown_action", "action_key")
	}
	if err != nil {
		return err
	}
	if row.Status != automation.ActionFailed && row.Status != automation.ActionDeadLettered {
		return models.Conflict("action_not_failed", "action_key")
	}
	return nil
}

// RetryEffects previews RetryAction of actionKey, refused as RetryAction would refuse it:
// the action acts again, and so may every action downstream of it over any branch that has
// not succeeded; the succeeded actions keep their results. Actions elsewhere that failed
// stay failed and do not act. Errors: RetryAction's conflict and invalid ones.
func (s *Runs) RetryEffects(ctx context.Context, r *automation.Run, actionKey string) (RunEffects, error) {
	rows, err := s.Workflows.ActionRuns(ctx, r)
	if err != nil {
		return RunEffects{}, err
	}
	if loop, _, _, inLoop := automation.SplitItemActionKey(actionKey); inLoop {
		if err := s.itemRetryable(ctx, r, rows, loop, actionKey); err != nil {
			return RunEffects{}, err
		}
		return s.itemRetryEffects(ctx, r, rows, loop, actionKey)
	}
	if err := retryable(r, rows, actionKey); err != nil {
		return RunEffects{}, err
	}
	g := r.GraphJSON()
	status := map[string]automation.ActionStatus{}
	for _, row := range rows {
		status[row.ActionKey] = row.Status
	}
	again := map[string]bool{actionKey: true}
	for _, key := range g.Downstream(actionKey) {
		again[key] = status[key] != automation.ActionSucceeded
	}
	return s.effects(g, status, func(key string) (acts, reused bool) {
		return again[key], !again[key] && status[key] == automation.ActionSucceeded
	}), nil
}

// itemRetryEffects previews the retry of a loop item's action: in that item, the action and
// every action after it in the body that has not succeeded acts again, its succeeded ones
// are reused; in the run, the loop and what follows it that has not succeeded. Items other
// than the retried one keep what they came to and are not listed. Errors: internal.
func (s *Runs) itemRetryEffects(ctx context.Context, r *automation.Run, rows []automation.ActionRun, loop, actionKey string) (RunEffects, error) {
	g := r.GraphJSON()
	status := map[string]automation.ActionStatus{}
	for _, row := range rows {
		status[row.ActionKey] = row.Status
	}
	again := map[string]bool{loop: true}
	for _, key := range g.Scheduled().Downstream(loop) {
		again[key] = status[key] != automation.ActionSucceeded
	}
	dot := strings.LastIndexByte(actionKey, '.')
	itemKey, bodyKey := actionKey[:dot], actionKey[dot+1:]
	bracket := strings.LastIndexByte(itemKey, '[')
	loopInRun := itemKey[:bracket]
	index, _ := strconv.Atoi(strings.TrimSuffix(itemKey[bracket+1:], "]"))
	priors, err := s.Workflows.PriorItems(ctx, r.ID, loopInRun, index, index+1)
	if err != nil || len(priors) == 0 {
		return RunEffects{}, err
	}
	body, _ := g.BodyGraph(loopInRun[strings.LastIndexByte(loopInRun, '.')+1:])
	body = body.Scheduled()
	for k, a := range priors[0].Actions {
		status[itemKey+"."+k] = a.Status
	}
	again[actionKey] = true
	for _, k := range body.Downstream(bodyKey) {
		again[itemKey+"."+k] = status[itemKey+"."+k] != automation.ActionSucceeded
	}
	// The item's actions, under their keys in the run, come first, then the run's.
	combined := automation.Graph{}
	for _, a := range body.Actions {
		a.ActionKey = itemKey + "." + a.ActionKey
		combined.Actions = append(combined.Actions, a)
	}
	combined.Actions = append(combined.Actions, g.Scheduled().Actions...)
	return s.effects(combined, status, func(key string) (acts, reused bool) {
		return again[key], !again[key] && status[key] == automation.ActionSucceeded
	}), nil
}

// ReplayEffects previews Replay: a new run of the same graph, or of the current version's
// when latest, from the trigger that started this one, where every action that trigger
// leads to may act again, whatever it did in this run; the trigger itself only hands over
// the input, and nothing is reused. A run that names no trigger of its graph may act with
// every action that is no trigger. Errors: those of Replay's version.
func (s *Runs) ReplayEffects(ctx context.Context, r *automation.Run, latest bool) (RunEffects, error) {
	rows, err := s.Workflows.ActionRuns(ctx, r)
	if err != nil {
		return RunEffects{}, err
	}
	w, err := s.Workflows.WorkflowOf(ctx, r.CompanyID, r.WorkflowID)
	if err != nil {
		return RunEffects{}, err
	}
	_, g, err := s.replayed(ctx, w, r, latest)
	if err != nil {
		return RunEffects{}, err
	}
	status := map[string]automation.ActionStatus{}
	for _, row := range rows {
		status[row.ActionKey] = row.Status
	}
	again := map[string]bool{}
	if _, ok := g.Action(r.TriggerActionKey); ok {
		for _, key := range g.Downstream(r.TriggerActionKey) {
			again[key] = true
		}
	} else {
		for _, a := range g.Actions {
			t, ok := s.Catalog.Action(a.ActionTypeKey)
			again[a.ActionKey] = !ok || !t.Trigger
		}
	}
	return s.effects(g, status, func(key string) (bool, bool) { return again[key], false }), nil
}

// effects sorts the actions of g, in graph order, by what sort says a retry or replay does
// with each.
func (s *Runs) effects(g automation.Graph, status map[string]automation.ActionStatus,
	sort func(key string) (acts, reused bool)) RunEffects {
	policies := s.policies(g)
	out := RunEffects{ActsAgain: []ActionEffect{}, Reused: []ActionEffect{}}
	for _, a := range g.Actions {
		acts, reused := sort(a.ActionKey)
		if !acts && !reused {
			continue
		}
		e := ActionEffect{ActionKey: a.ActionKey, Label: a.Label, ActionTypeKey: a.ActionTypeKey, Status: status[a.ActionKey]}
		if p, ok := policies[a.ActionKey]; ok {
			e.Idempotent = p.Idempotent
		} else if t, ok := s.Catalog.Action(a.ActionTypeKey); ok {
			e.Idempotent = t.Idempotent
		}
		if acts {
			out.ActsAgain = append(out.ActsAgain, e)
		} else {
			out.Reused = append(out.Reused, e)
		}
	}
	return out
}
