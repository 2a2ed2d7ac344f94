package engine

import (
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"agencyhub/models/automation"
)

// progressChange is the workflow.GetVersion change id of when a run writes its projection.
// Its versions, oldest first:
const (
	progressChange = "automation.run/progress-writes"
	// writeEachStep writes a batch after every step of the interpreter's loop.
	writeEachStep = workflow.DefaultVersion
	// writeBeforeWaits writes one batch before each wait and one at the end.
	writeBeforeWaits workflow.Version = 1
	// writeWithLoneLocalAction is writeBeforeWaits where a local action that starts alone
	// carries the batch and writes it before it acts, instead of a progress local activity
	// of its own.
	writeWithLoneLocalAction workflow.Version = 2
)

// progressVersion is the run's version of progressChange, asked once at its start: the one
// its history recorded, or for a new run the latest. Runs started before the change id
// existed have no marker, and their input's flags said how they write (RunInput.BatchedProgress,
// RunInput.ProgressWithAction): those flags name the same versions, so their histories
// replay as they were written.
func progressVersion(ctx workflow.Context, in RunInput) workflow.Version {
	if v := workflow.GetVersion(ctx, progressChange, writeEachStep, writeWithLoneLocalAction); v != writeEachStep {
		return v
	}
	switch {
	case in.BatchedProgress && in.ProgressWithAction:
		return writeWithLoneLocalAction
	case in.BatchedProgress:
		return writeBeforeWaits
	}
	return writeEachStep
}

// projector keeps a run's projection in step with the run: it buffers the changes of the
// run's row, its action runs and its numbered events, and writes them in batches through
// the progress local activity, when the run's progressVersion says.
type projector struct {
	// ctx is disconnected from the run's: the writes of a cancelled run still happen.
	ctx     workflow.Context
	runID   uuid.UUID
	version workflow.Version
	// seq numbers the next event.
	seq     int
	pending automation.Progress
}

func newProjector(ctx workflow.Context, runID uuid.UUID, version workflow.Version, firstSequence int) *projector {
	return &projector{ctx: ctx, runID: runID, version: version, seq: firstSequence}
}

// begin records that the run runs, from now: the first batch opens the run.
func (p *projector) begin(now time.Time) {
	p.pending.Run = &automation.RunUpdate{Status: automation.RunRunning, StartedAt: &now}
	p.pending.Begin = true
}

func (p *projector) action(u automation.ActionUpdate) {
	p.pending.Actions = append(p.pending.Actions, u)
}

func (p *projector) item(u automation.ItemUpdate) {
	p.pending.Items = append(p.pending.Items, u)
}

func (p *projector) event(typ, actionKey, status, message string, data map[string]any) {
	p.pending.Events = append(p.pending.Events, automation.EventRecord{
		Sequence: p.seq, Type: typ, ActionKey: actionKey, Status: status, Message: message, Data: data, At: workflow.Now(p.ctx),
	})
	p.seq++
}

// runStatus changes only the status of a pending run update, so the start time written
// with the first batch is not lost.
func (p *projector) runStatus(status automation.RunStatus) {
	if p.pending.Run == nil {
		p.pending.Run = &automation.RunUpdate{}
	}
	p.pending.Run.Status = status
}

// end replaces the pending run update with the terminal one; a run that never waited
// writes its start time with it.
func (p *projector) end(update *automation.RunUpdate) {
	if p.pending.Run != nil {
		update.StartedAt = p.pending.Run.StartedAt
	}
	p.pending.Run = update
}

// stepped is told, at the end of each step of the interpreter's loop, what comes next:
// ready are the local actions about to start, outstanding counts the actions with an
// activity or timer outstanding (ready among them), and waits that the loop now waits for
// one of them. It writes the pending batch, or hands it to the one local action about to
// start, or keeps it for later, as the run's version says.
//
// A local activity starts at once, where an activity task waits for the workflow task to
// complete; so a local action acts only after the write that says it runs (and that
// refuses a run the engine refused). A local action that is all the run has outstanding
// carries that write itself; others wait for it here.
func (p *projector) stepped(ready []localAction, outstanding int, waits bool) error {
	if p.version >= writeWithLoneLocalAction && len(ready) == 1 && outstanding == 1 {
		ready[0].req.Progress = p.take()
		return nil
	}
	if waits || p.version == writeEachStep || len(ready) > 0 {
		return p.flush()
	}
	return nil
}

// take hands over the pending changes as a batch to write; nil when there are none.
func (p *projector) take() *automation.Progress {
	if p.pending.Run == nil && len(p.pending.Actions) == 0 && len(p.pending.Events) == 0 && len(p.pending.Items) == 0 {
		return nil
	}
	batch := p.pending
	batch.RunID = p.runID
	p.pending = automation.Progress{}
	return &batch
}

// requeue puts a batch that may not have been written (its local action failed: a
// cancellation or a database error stopped it first) back ahead of the pending changes, to
// be written with them. The pending run update replaces the batch's but keeps its start
// time, as runStatus does.
func (p *projector) requeue(batch automation.Progress) {
	next := p.pending
	batch.Begin = batch.Begin || next.Begin
	batch.Actions = append(batch.Actions, next.Actions...)
	batch.Events = append(batch.Events, next.Events...)
	batch.Items = append(batch.Items, next.Items...)
	if next.Run != nil {
		if batch.Run != nil && next.Run.StartedAt == nil {
			next.Run.StartedAt = batch.Run.StartedAt
		}
		batch.Run = next.Run
	}
	p.pending = batch
}

// flush writes the pending changes through the progress local activity.
func (p *projector) flush() error {
	batch := p.take()
	if batch == nil {
		return nil
	}
	ctx := workflow.WithLocalActivityOptions(p.ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
	})
	return workflow.ExecuteLocalActivity(ctx, progressActivity, *batch).Get(ctx, nil)
}
