package notify

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"time"

	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/models/aiemployee"
	"agencyhub/models/auth"
	"agencyhub/models/automation"
	"agencyhub/models/billing"
	"agencyhub/models/desktop"
	"agencyhub/models/sitechat"
	"agencyhub/models/work"
	"agencyhub/platform/metrics"
	"agencyhub/platform/realtime"
)

// batch is how many recorded events one read of the queue takes.
const batch = 64

// Notifier handles the recorded domain events: for each, it posts the desktop messages the
// event calls for and then removes it, so an event is handled until it is, across crashes
// and restarts, and counts what it removed into the metrics. Every instance runs one, in
// either role; the instance that removes an event counts it, so each event is counted
// once (a crash between the removal and the count loses the count, as it loses the
// process's other counts). A message posted twice (an instance died before removing the
// event, or two instances handled it at once) is stored once: its dedupe key is derived
// from the event.
type Notifier struct {
	DB      *gorm.DB
	Bus     realtime.Bus
	Inbox   *desktop.Inbox
	Metrics *metrics.Metrics
	// Users tells each recipient's language.
	Users     *auth.Service
	Workflows *automation.Service
	Billing   *billing.Service
	SiteChat  *sitechat.Service
	// Poll is how often the queue is read when no announcement wakes the notifier (one
	// lost, or published while this instance's bus listener reconnected).
	Poll time.Duration
}

// handler handles one decoded event: it posts what the event calls for and answers what
// to count once the event is removed (nil: nothing).
type handler func(n *Notifier, ctx context.Context, payload []byte) (count func(), err error)

// handlers are the events the notifier subscribes to, by name. An event of a name not
// here (recorded by a newer binary during an upgrade) stays queued for an instance that
// knows it.
var handlers = map[string]handler{
	automation.RunStarted{}.EventName():               on((*Notifier).runStarted),
	automation.RunFinished{}.EventName():              on((*Notifier).runFinished),
	billing.PaymentActionDue{}.EventName():            on((*Notifier).paymentDue),
	work.TaskAssigned{}.EventName():                   on((*Notifier).taskAssigned),
	aiemployee.ToolCallAwaitingApproval{}.EventName(): on((*Notifier).toolCallAwaitingApproval),
	sitechat.ConversationOpened{}.EventName():         on((*Notifier).conversationOpened),
	automation.ApprovalRequested{}.EventName():        on((*Notifier).approvalRequested),
}

var names = slices.Sorted(maps.Keys(handlers))

// errMalformed marks an event whose payload does not decode: handling it again cannot help.
var errMalformed = errors.New("malformed event payload")

// on makes a handler of a function of one event type.
func on[E models.Event](h func(*Notifier, context.Context, E) (func(), error)) handler {
	return func(n *Notifier, ctx context.Context, payload []byte) (func(), error) {
		var ev E
		if err := json.Unmarshal(payload, &ev); err != nil {
			return nil, errors.Join(errMalformed, err)
		}
		return h(n, ctx, ev)
	}
}

// Run handles the recorded events until ctx ends: at once when an announcement
// (models.AnnounceEvents) wakes it, and every Poll in case one was lost.
func (n *Notifier) Run(ctx context.Context) {
	sub := n.Bus.Subscribe(models.EventsTopic)
	defer sub.Close()
	announced := sub.C()
	poll := time.NewTicker(n.Poll)
	defer poll.Stop()
	for {
		if err := n.Drain(ctx); err != nil && ctx.Err() == nil {
			slog.WarnContext(ctx, "notifier: the recorded events could not be read", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case _, open := <-announced:
			if !open {
				announced = nil // the bus closed: the poll alone wakes from now on
			}
		case <-poll.C:
		}
	}
}

// Drain handles the recorded events, oldest first, until none is left, a whole batch
// stayed queued or ctx ends; an event whose handling failed stays queued for the next
// Drain. Errors: internal (reading the queue).
func (n *Notifier) Drain(ctx context.Context) error {
	for {
		events, err := models.RecordedEvents(n.DB.WithContext(ctx), names, batch)
		if err != nil {
			return err
		}
		handled := 0
		for _, ev := range events {
			if ctx.Err() != nil {
				return nil
			}
			err := n.handle(ctx, ev)
			switch {
			case err == nil:
				handled++
			case ctx.Err() == nil: // a failure, not a shutdown
				slog.WarnContext(ctx, "notifier: event kept for another attempt", "event", ev.Name, "domain_event_id", ev.ID, "err", err)
			}
		}
		if len(events) < batch || handled == 0 {
			return nil
		}
	}
}

// handle handles one event and removes it. Errors: the handler's and the removal's (the
// event stays queued).
func (n *Notifier) handle(ctx context.Context, ev models.RecordedEvent) error {
	count, err := handlers[ev.Name](n, ctx, []byte(ev.Payload))
	if errors.Is(err, errMalformed) {
		slog.ErrorContext(ctx, "notifier: event dropped", "event", ev.Name, "domain_event_id", ev.ID, "err", err)
	} else if err != nil {
		return err
	}
	removed, err := models.RemoveEvent(n.DB.WithContext(ctx), ev.ID)
	if err != nil {
		return err
	}
	if removed && count != nil {
		count()
	}
	return nil
}
