package models

import (
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Domain event queues (billing's payment events, the tracker's task events) are tables of
// events written in the transaction of the change they tell of, each with occurred_at and
// a dispatched_at the engine's dispatcher sets once it has stored the runs the event
// starts. These two functions are the queue's reads and writes for any such table T.

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
