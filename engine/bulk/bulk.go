// Package bulk retries, replays or cancels many runs at once: a preview of what the batch
// would do, and a Temporal workflow of its own per operation that works through its runs
// a few at a time, durably, so a restart resumes it and new runs are not starved.
package bulk

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"agencyhub/activities"
	"agencyhub/engine"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// Names of the bulk operation's workflow and activities.
const (
	WorkflowName   = "bulk_operation"
	nextActivity   = "bulk_operation.next"
	applyActivity  = "bulk_operation.apply"
	finishActivity = "bulk_operation.finish"
)

// Pacing: a bulk operation acts on at most parallel runs at once, reads its runs page by
// page, and continues as new after perExecution of them, so its history stays small.
const (
	parallel     = 4
	pageSize     = 40
	perExecution = 400
	// maxAttempts bounds the attempts of one run's action while the engine is unavailable;
	// after them the run is recorded failed and the operation goes on.
	maxAttempts = 8
)

// Service previews and runs bulk operations.
type Service struct {
	Client    client.Client
	Runs      *engine.Runs
	Workflows *automation.Service
	TaskQueue string
}

// Request is a bulk operation as asked: the operation, for replay whether on the latest
// version, and the runs it selected.
type Request struct {
	Operation string
	Latest    bool
	Runs      []automation.Run
}

// Refusal is a selected run the operation does not apply to, and the error key saying why.
type Refusal struct {
	RunID  uuid.UUID
	Reason string
}

// Preview is what a bulk operation would do: how many runs act, per action type how many
// of its actions act again and how many results are reused, and the runs refused.
type Preview struct {
	Acting    int
	ActsAgain map[string]int
	Reused    map[string]int
	Refused   []Refusal
}

// Preview previews req run by run, as the one-run previews would, refusing what they
// refuse. Errors: internal.
func (s *Service) Preview(ctx context.Context, req Request) (Preview, error) {
	p := Preview{ActsAgain: map[string]int{}, Reused: map[string]int{}, Refused: []Refusal{}}
	for i := range req.Runs {
		r := &req.Runs[i]
		effects, err := s.effects(ctx, req, r)
		if reason, refused := refusal(err); refused {
			p.Refused = append(p.Refused, Refusal{RunID: r.ID, Reason: reason})
			continue
		} else if err != nil {
			return Preview{}, err
		}
		p.Acting++
		for _, e := range effects.ActsAgain {
			p.ActsAgain[e.ActionTypeKey]++
		}
		for _, e := range effects.Reused {
			p.Reused[e.ActionTypeKey]++
		}
	}
	return p, nil
}

// effects is what the operation would do to one run. Errors: the refusals (conflict,
// invalid) and internal ones.
func (s *Service) effects(ctx context.Context, req Request, r *automation.Run) (engine.RunEffects, error) {
	switch req.Operation {
	case automation.BulkRetry:
		key, err := s.retriedAction(ctx, r)
		if err != nil {
			return engine.RunEffects{}, err
		}
		return s.Runs.RetryEffects(ctx, r, key)
	case automation.BulkReplay:
		return s.Runs.ReplayEffects(ctx, r, req.Latest)
	default:
		if r.Terminal() {
			return engine.RunEffects{}, models.Conflict("run_finished")
		}
		return engine.RunEffects{}, nil
	}
}

// retriedAction is the action a bulk retry retries: the run's first failed action in graph
// order. One whose outcome is unknown and that is not idempotent is refused: whether it
// acted is for a person to find out, one run at a time. Errors: conflict (run_not_failed,
// unknown_outcome), internal.
func (s *Service) retriedAction(ctx context.Context, r *automation.Run) (string, error) {
	if r.Status != automation.RunFailed {
		return "", models.Conflict("run_not_failed")
	}
	rows, err := s.Workflows.ActionRuns(ctx, r)
	if err != nil {
		return "", err
	}
	i := slices.IndexFunc(rows, func(a automation.ActionRun) bool {
		return a.Status == automation.ActionFailed || a.Status == automation.ActionDeadLettered
	})
	if i < 0 {
		return "", models.Conflict("action_not_failed")
	}
	if unknown := rows[i].RetryClass == activities.ClassUnknownOutcome || rows[i].RetryClass == activities.ClassTimeoutUnknown; unknown {
		effects, err := s.Runs.RetryEffects(ctx, r, rows[i].ActionKey)
		if err != nil {
			return "", err
		}
		if len(effects.ActsAgain) > 0 && !effects.ActsAgain[0].Idempotent {
			return "", models.Conflict("unknown_outcome")
		}
	}
	return rows[i].ActionKey, nil
}

// refusal answers the error key of err when it refuses a run (a conflict or invalid
// error), not when it is a failure of the engine.
func refusal(err error) (string, bool) {
	if err == nil || !(models.IsKind(err, models.KindConflict) || models.IsKind(err, models.KindInvalid)) {
		return "", false
	}
	return models.AsError(err).Key, true
}

// Start stores the operation under its idempotency key, or finds the one stored under it,
// and hands it to Temporal (again: a start that failed after storing it is finished by the
// same request sent again). Errors: conflict (the key was used for another request),
// unavailable.
func (s *Service) Start(ctx context.Context, op *automation.BulkOperation, req Request) (*automation.BulkOperation, error) {
	ids := make([]uuid.UUID, len(req.Runs))
	for i, r := range req.Runs {
		ids[i] = r.ID
	}
	op, _, err := s.Workflows.CreateBulkOperation(ctx, op, ids)
	if err != nil {
		return nil, err
	}
	if op.Status != automation.BulkRunning {
		return op, nil
	}
	// A start of a running operation answers it; one of an operation that has finished
	// finds nothing left to do.
	if _, err := s.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflowID(op.ID), TaskQueue: s.TaskQueue},
		WorkflowName, op.ID); err != nil {
		return nil, models.Unavailable("engine_unavailable", err)
	}
	return op, nil
}

func workflowID(id uuid.UUID) string { return "bulk-" + id.String() }

// Register registers the bulk operation's workflow and activities on w.
func (s *Service) Register(w worker.Worker) {
	w.RegisterWorkflowWithOptions(Run, workflow.RegisterOptions{Name: WorkflowName})
	w.RegisterActivityWithOptions(s.next, activity.RegisterOptions{Name: nextActivity})
	w.RegisterActivityWithOptions(s.apply, activity.RegisterOptions{Name: applyActivity})
	w.RegisterActivityWithOptions(s.Workflows.FinishBulkOperation, activity.RegisterOptions{Name: finishActivity})
}

// Run is the bulk operation's workflow: it applies the operation to its runs not yet
// settled, parallel at a time, and records it finished when none is left.
func Run(ctx workflow.Context, id uuid.UUID) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 2 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 30 * time.Second},
	})
	for handled := 0; handled < perExecution; {
		var page []uuid.UUID
		if err := workflow.ExecuteActivity(ctx, nextActivity, id).Get(ctx, &page); err != nil {
			return err
		}
		if len(page) == 0 {
			return workflow.ExecuteActivity(ctx, finishActivity, id).Get(ctx, nil)
		}
		for batch := range slices.Chunk(page, parallel) {
			futures := make([]workflow.Future, len(batch))
			for i, runID := range batch {
				futures[i] = workflow.ExecuteActivity(ctx, applyActivity, id, runID)
			}
			for _, f := range futures {
				if err := f.Get(ctx, nil); err != nil {
					return err
				}
			}
		}
		handled += len(page)
	}
	return workflow.NewContinueAsNewError(ctx, WorkflowName, id)
}

// next answers the operation's next page of runs to apply it to; none when it has been
// cancelled.
func (s *Service) next(ctx context.Context, id uuid.UUID) ([]uuid.UUID, error) {
	op, err := s.Workflows.BulkOperation(ctx, id)
	if err != nil || op.Status != automation.BulkRunning {
		return nil, err
	}
	items, err := s.Workflows.NextBulkItems(ctx, id, pageSize)
	ids := make([]uuid.UUID, len(items))
	for i, it := range items {
		ids[i] = it.RunID
	}
	return ids, err
}

// apply applies the operation to one run and records the outcome. An item already acting
// is one an earlier attempt began: the run's state says whether that attempt acted.
func (s *Service) apply(ctx context.Context, id, runID uuid.UUID) error {
	before, err := s.Workflows.BeginBulkItem(ctx, id, runID)
	if err != nil || (before != automation.BulkItemPending && before != automation.BulkItemActing) {
		return err
	}
	op, err := s.Workflows.BulkOperation(ctx, id)
	if err != nil {
		return err
	}
	r, err := s.Workflows.Run(ctx, runID)
	if err != nil {
		return err
	}
	item := automation.BulkItem{BulkOperationID: id, RunID: runID, Outcome: automation.BulkItemDone}
	switch {
	case before == automation.BulkItemActing && acted(op, r):
	default:
		item.ResultRunID, err = s.act(ctx, op, r)
	}
	if reason, refused := refusal(err); refused {
		item.Outcome, item.Reason = automation.BulkItemRefused, reason
	} else if err != nil {
		if activity.GetInfo(ctx).Attempt < maxAttempts {
			return err
		}
		item.Outcome, item.Reason = automation.BulkItemFailed, "engine_unavailable"
	}
	return s.Workflows.SettleBulkItem(ctx, item)
}

// acted reports whether an earlier attempt acted on r: a retried run is no longer failed, a
// cancelled one has ended; a replay's new run is found again by its id (act).
func acted(op *automation.BulkOperation, r *automation.Run) bool {
	switch op.Operation {
	case automation.BulkRetry:
		return r.Status != automation.RunFailed
	case automation.BulkCancel:
		return r.Terminal()
	}
	return false
}

// act applies the operation to r, answering the run a replay started. A replay's new run
// has an id derived from the operation and r, so acting twice starts it once.
func (s *Service) act(ctx context.Context, op *automation.BulkOperation, r *automation.Run) (*uuid.UUID, error) {
	switch op.Operation {
	case automation.BulkRetry:
		key, err := s.retriedAction(ctx, r)
		if err != nil {
			return nil, err
		}
		_, err = s.Runs.RetryAction(ctx, r, key)
		return nil, err
	case automation.BulkReplay:
		var by uuid.UUID
		if op.CreatedBy != nil {
			by = *op.CreatedBy
		}
		replay, err := s.Runs.Replay(ctx, r, by, engine.ReplayChanges{
			Latest: op.Version == "latest", RunID: uuid.NewSHA1(op.ID, r.ID[:]),
		})
		if err != nil {
			return nil, err
		}
		return &replay.ID, nil
	default:
		return nil, s.Runs.Cancel(ctx, r)
	}
}
