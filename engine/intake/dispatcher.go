package intake

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/serviceerror"
	"golang.org/x/sync/errgroup"

	"agencyhub/engine"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/billing"
	"agencyhub/models/relay"
	"agencyhub/models/work"
)

// Dispatcher hands queued runs to Temporal: those stored by a request that answered
// without waiting for Temporal (an accepted webhook delivery, Start.Queued). A queued run
// is its own start intent, a row without dispatched_at, so the queue survives a crash and
// is shared by every instance on the database: each one's dispatcher scans it. The run id
// is the Temporal workflow id and a second start of it is refused as a duplicate, so two
// dispatchers, or a retry after an answer that was lost, start it once. While Temporal
// cannot be reached the runs stay queued and pending, and the dispatcher tries again with
// a growing delay; nothing is refused.
//
// It hands the replies of bot updates to the runs waiting for them (bot.wait_for_reply)
// the same way: the relay intake stores each reply with its wait, and the dispatcher
// signals the run and forgets the wait. A reply signalled twice (a dispatcher died between
// the two steps) is taken once: the run's first reply ends its wait. And it turns queued
// payment and task events and the ends of failed and cancelled runs into the runs they
// trigger (Intake.StartPaymentEvent, Intake.StartTaskEvent, Intake.StartRunEndEvent),
// which it then hands over as any queued run.
type Dispatcher struct {
	Runs   *engine.Runs
	Intake *Intake
	// Interval is how often the queue is scanned when nothing wakes the dispatcher (runs
	// that another instance stored), and the first delay after a failure.
	Interval time.Duration
	Log      *slog.Logger
	wake     chan struct{}
}

// Dispatch batches: the queued runs read per scan, and how many are handed over at once.
const (
	dispatchBatch       = 64
	dispatchConcurrency = 8
	dispatchMaxDelay    = 30 * time.Second
)

// NewDispatcher makes the dispatcher of runs, replies and payment and task events, and has runs
// wake it for each queued run or reply.
func NewDispatcher(runs *engine.Runs, intake *Intake, interval time.Duration, log *slog.Logger) *Dispatcher {
	d := &Dispatcher{Runs: runs, Intake: intake, Interval: interval, Log: log, wake: make(chan struct{}, 1)}
	runs.OnQueued = d.Notify
	return d
}

// Notify wakes the dispatcher: a run or a reply was queued. It never blocks.
func (d *Dispatcher) Notify() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Run dispatches until ctx ends.
func (d *Dispatcher) Run(ctx context.Context) {
	delay := d.Interval
	for {
		full, err := d.dispatch(ctx)
		wait := d.Interval
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			d.Log.Warn("dispatcher: Temporal did not take the queued runs; trying again", "in", delay, "err", err)
			wait, delay = delay, min(2*delay, dispatchMaxDelay)
		default:
			delay = d.Interval
			if full {
				continue // more are queued
			}
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-d.wake:
			if err != nil { // Temporal failed: a new run does not cut the delay short
				<-timer.C
			}
		case <-timer.C:
		}
		timer.Stop()
	}
}

// dispatch turns one batch each of queued payment events, task events and run end events
// into queued runs, then hands one batch of queued runs and one of claimed replies to Temporal,
// and reports whether a batch was full. Errors: the first failure.
func (d *Dispatcher) dispatch(ctx context.Context) (bool, error) {
	full := false
	if payments := d.Intake.Billing; payments != nil {
		n, err := startEvents(ctx, d, payments.QueuedEvents, d.Intake.StartPaymentEvent, payments.MarkEventDispatched,
			func(ev billing.PaymentEvent) []any {
				return []any{"payment_event_id", ev.ID, "event_type", ev.EventType}
			})
		if err != nil {
			return false, err
		}
		full = full || n == dispatchBatch
	}
	if tasks := d.Intake.Work; tasks != nil {
		n, err := startEvents(ctx, d, tasks.QueuedEvents, d.Intake.StartTaskEvent, tasks.MarkEventDispatched,
			func(ev work.TaskEvent) []any { return []any{"task_event_id", ev.ID, "event_type", ev.EventType} })
		if err != nil {
			return false, err
		}
		full = full || n == dispatchBatch
	}
	ends := d.Intake.Workflows
	n, err := startEvents(ctx, d, ends.QueuedRunEndEvents, d.Intake.StartRunEndEvent, ends.MarkRunEndEventDispatched,
		func(ev automation.RunEndEvent) []any {
			return []any{"run_end_event_id", ev.ID, "event_type", ev.EventType, "workflow_run_id", ev.RunID}
		})
	if err != nil {
		return false, err
	}
	full = full || n == dispatchBatch
	runs, err := d.Runs.Workflows.Undispatched(ctx, dispatchBatch)
	if err != nil {
		return false, err
	}
	var starting errgroup.Group
	starting.SetLimit(dispatchConcurrency)
	for i := range runs {
		starting.Go(func() error { return d.Runs.HandOver(ctx, &runs[i]) })
	}
	if err := starting.Wait(); err != nil {
		return false, err
	}
	replies, err := d.Intake.Relays.ClaimedReplies(ctx, dispatchBatch)
	if err != nil {
		return false, err
	}
	var signalling errgroup.Group
	signalling.SetLimit(dispatchConcurrency)
	for _, w := range replies {
		signalling.Go(func() error { return d.signalReply(ctx, w) })
	}
	return full || len(runs) == dispatchBatch || len(replies) == dispatchBatch, signalling.Wait()
}

// startEvents starts the runs of one batch of a domain event queue (read by queued, started
// by start, marked by done with the runs it started), one event at a time, and answers how
// many it dispatched. An event some workflow of which could not start is logged (with
// describe's fields) and marked all the same: the runs it could start are stored.
func startEvents[E any](ctx context.Context, d *Dispatcher, queued func(context.Context, int) ([]E, error),
	start func(context.Context, E) ([]uuid.UUID, error), done func(context.Context, E, []uuid.UUID) error,
	describe func(E) []any) (int, error) {
	events, err := queued(ctx, dispatchBatch)
	if err != nil {
		return 0, err
	}
	for i, ev := range events {
		runIDs, err := start(ctx, ev)
		if models.IsKind(err, models.KindInternal) {
			return i, err
		}
		if err != nil {
			d.Log.Warn("domain event: a workflow did not start", append(describe(ev), "err", err)...)
		}
		if err := done(ctx, ev, runIDs); err != nil {
			return i, err
		}
	}
	return len(events), nil
}

// signalReply hands a claimed reply to its waiting run and forgets the wait. A run that
// has ended (it timed out or was cancelled meanwhile) no longer takes it.
func (d *Dispatcher) signalReply(ctx context.Context, w relay.ReplyWait) error {
	err := d.Runs.Client.SignalWorkflow(ctx, w.RunID.String(), "", engine.ReplySignal(w.ActionKey), w.ReplyJSON())
	var ended *serviceerror.NotFound
	if err != nil && !errors.As(err, &ended) {
		return err
	}
	return d.Intake.Relays.ReplyDelivered(ctx, w)
}
