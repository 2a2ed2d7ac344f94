package models

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Domain events are written in the transaction of the change they tell of, so that one is
// stored exactly when its change is and a crash loses none. They wait in two kinds of
// queue, for their two kinds of consumer:
//
//   - the trigger queues (billing's payment events, the tracker's task events), which the
//     engine's dispatcher turns into the runs of the workflows they trigger, and which
//     those runs read back (EventScope): a table per area, rows kept, with a dispatched_at
//     the dispatcher sets once it has stored the runs (QueuedEvents, MarkEventDispatched);
//   - the notifier's queue (domain_events): every Event a domain package records with
//     RecordEvent and announces with AnnounceEvents, which the notifier (models/notify)
//     handles, posting the desktop messages and counting the metrics it calls for, and
//     then removes (RecordedEvents, RemoveEvent).
//
// A change that triggers workflows and tells people (a payment falling due, a task
// assigned) writes to both in its one transaction.

// QueuedEvents reads up to limit events of T's table not dispatched yet, oldest first.
// Errors: internal.
func QueuedEvents[T any](db *gorm.DB, limit int) ([]T, error) {
	var events []T
	if err := db.Where("dispatched_at IS NULL").Order("occurred_at, id").Limit(limit).Find(&events).Error; err != nil {
		return nil, Internal("read queued %T: %w", events, err)
	}
	return events, nil
}

// MarkEventDispatched sets the dispatched_at of the event id of T's table. Errors: internal.
func MarkEventDispatched[T any](db *gorm.DB, id uuid.UUID, at time.Time) error {
	if err := db.Model(new(T)).Where("id = ?", id).Update("dispatched_at", at).Error; err != nil {
		return Internal("mark %T dispatched: %w", *new(T), err)
	}
	return nil
}

// Event is a domain event for the notifier: a value of the package that records it, named
// for what happened (automation.RunFinished, billing.PaymentActionDue, work.TaskAssigned),
// so the package tells what happened instead of acting on it. It is stored as JSON under
// EventName.
type Event interface{ EventName() string }

// EventsTopic is the event bus topic AnnounceEvents publishes on.
const EventsTopic = "domain_events"

// RecordedEvent is an Event stored and waiting for the notifier.
type RecordedEvent struct {
	ID         uuid.UUID `gorm:"primaryKey"`
	Name       string
	Payload    string
	OccurredAt time.Time
}

func (RecordedEvent) TableName() string { return "domain_events" }

// RecordEvent stores events in tx, the transaction of the change they tell of; call
// AnnounceEvents once it has committed. Errors: internal.
func RecordEvent(tx *gorm.DB, at time.Time, events ...Event) error {
	for _, ev := range events {
		payload, err := json.Marshal(ev)
		if err != nil {
			return Internal("encode %s event: %w", ev.EventName(), err)
		}
		row := RecordedEvent{ID: NewID(), Name: ev.EventName(), Payload: string(payload), OccurredAt: at.UTC()}
		if err := tx.Create(&row).Error; err != nil {
			return Internal("record %s event: %w", row.Name, err)
		}
	}
	return nil
}

// publisher is the event bus (realtime.Bus) as AnnounceEvents uses it.
type publisher interface {
	Publish(ctx context.Context, topic string, data json.RawMessage) error
}

// AnnounceEvents wakes the notifier once a transaction that recorded events has committed.
// A lost wake-up, or a service without a bus (a storage test's), costs only latency: the
// notifier also polls.
func AnnounceEvents(ctx context.Context, bus publisher) {
	if bus == nil {
		return
	}
	if err := bus.Publish(ctx, EventsTopic, nil); err != nil {
		slog.WarnContext(ctx, "domain events not announced", "err", err)
	}
}

// RecordedEvents reads up to limit recorded events named among names, oldest first.
// Errors: internal.
func RecordedEvents(db *gorm.DB, names []string, limit int) ([]RecordedEvent, error) {
	var events []RecordedEvent
	if err := db.Where("name IN ?", names).Order("occurred_at, id").Limit(limit).Find(&events).Error; err != nil {
		return nil, Internal("read recorded events: %w", err)
	}
	return events, nil
}

// RemoveEvent deletes a handled event and reports whether this call deleted it: false
// when another instance's notifier handled it first. Errors: internal.
func RemoveEvent(db *gorm.DB, id uuid.UUID) (bool, error) {
	res := db.Delete(&RecordedEvent{}, "id = ?", id)
	if res.Error != nil {
		return false, Internal("remove handled event: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}
