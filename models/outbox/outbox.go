// Package outbox owns the mail outbox: every mail the service sends is first written here,
// in the same transaction as the change that causes it, and a dispatcher delivers it.
package outbox

import (
	"context"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// Status values of a Message.
const (
	StatusPending = "pending"
	StatusSent    = "sent"
	// StatusFailed marks a message that exhausted its attempts.
	StatusFailed = "failed"
)

// MaxAttempts is how many deliveries are tried before a message is marked failed.
const MaxAttempts = 8

// Message is one queued mail.
type Message struct {
	ID            uuid.UUID `gorm:"primaryKey"`
	ToAddress     string
	Subject       string
	TextBody      string
	Status        string
	Attempts      int
	LastError     string
	NextAttemptAt time.Time
	CreatedAt     time.Time
	SentAt        *time.Time
}

func (Message) TableName() string { return "mail_outbox" }

// Enqueue writes a message for delivery; pass the transaction of the change that causes it.
func Enqueue(ctx context.Context, tx *gorm.DB, now time.Time, to, subject, body string) error {
	m := Message{
		ID: models.NewID(), ToAddress: to, Subject: subject, TextBody: body,
		Status: StatusPending, NextAttemptAt: now, CreatedAt: now,
	}
	if err := tx.WithContext(ctx).Create(&m).Error; err != nil {
		return models.Internal("enqueue mail: %w", err)
	}
	return nil
}

// Due returns up to limit pending messages whose next attempt time has come, oldest first.
// On PostgreSQL the rows are locked (SKIP LOCKED) for the caller's transaction, so several
// dispatchers never deliver the same message twice.
func Due(ctx context.Context, tx *gorm.DB, now time.Time, limit int) ([]Message, error) {
	q := tx.WithContext(ctx).Where("status = ? AND next_attempt_at <= ?", StatusPending, now).Order("id").Limit(limit)
	if tx.Dialector.Name() == "postgres" {
		q = q.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"})
	}
	var out []Message
	if err := q.Find(&out).Error; err != nil {
		return nil, models.Internal("read due mail: %w", err)
	}
	return out, nil
}

// Backlog counts the messages still to be delivered: pending, whether due or waiting for
// their next attempt (the index on status serves it). Errors: internal.
func Backlog(ctx context.Context, db *gorm.DB) (int64, error) {
	var n int64
	if err := db.WithContext(ctx).Model(&Message{}).Where("status = ?", StatusPending).Count(&n).Error; err != nil {
		return 0, models.Internal("count the mail backlog: %w", err)
	}
	return n, nil
}

// MarkSent records a delivered message.
func MarkSent(ctx context.Context, tx *gorm.DB, id uuid.UUID, now time.Time) error {
	return tx.WithContext(ctx).Model(&Message{}).Where("id = ?", id).
		Updates(map[string]any{"status": StatusSent, "sent_at": now, "last_error": ""}).Error
}

// MarkAttemptFailed records a failed delivery and schedules the next one with exponential
// backoff (30 s doubling), or marks the message failed after MaxAttempts.
func MarkAttemptFailed(ctx context.Context, tx *gorm.DB, m Message, now time.Time, cause error) error {
	attempts := m.Attempts + 1
	updates := map[string]any{"attempts": attempts, "last_error": cause.Error()}
	if attempts >= MaxAttempts {
		updates["status"] = StatusFailed
	} else {
		updates["next_attempt_at"] = now.Add(30 * time.Second << (attempts - 1))
	}
	return tx.WithContext(ctx).Model(&Message{}).Where("id = ?", m.ID).Updates(updates).Error
}
