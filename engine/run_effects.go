package engine

import (
	"context"

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
	// Status is the action's status in the run previewed.
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

// RetryEffects previews RetryAction of actionKey, refused as RetryAction would refuse it:
// the action acts again, and so may every action downstream of it over any branch that has
// not succeeded; the succeeded actions keep their results. Actions elsewhere that failed
// stay failed and do not act. Errors: RetryAction's conflict and invalid ones.
func (s *Runs) RetryEffects(ctx context.Context, r *automation.Run, actionKey string) (RunEffects, error) {
	rows, err := s.Workflows.ActionRuns(ctx, r)
	if err != nil {
		return RunEffects{}, err
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

// ReplayEffects previews Replay: a new run of the same graph and input from the trigger
// that started this one, where every action that trigger leads to may act again, whatever
// it did in this run; the trigger itself only hands over the recorded input, and nothing is
// reused. A run that names no trigger of its graph may act with every action that is no
// trigger.
func (s *Runs) ReplayEffects(ctx context.Context, r *automation.Run) (RunEffects, error) {
	rows, err := s.Workflows.ActionRuns(ctx, r)
	if err != nil {
		return RunEffects{}, err
	}
	g := r.GraphJSON()
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
