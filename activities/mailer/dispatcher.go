package mailer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models/outbox"
)

const (
	// DefaultInterval is how often Run looks for due mail when Interval is unset.
	DefaultInterval = 2 * time.Second
	// batchSize is how many messages one DeliverDue pass delivers at most.
	batchSize = 20
	// claimLease is how long a claimed message stays invisible to other dispatchers while
	// it is being sent. It outlasts any one delivery (every SMTP step has its own 15 s
	// timeout); if the process dies mid-send, the message is retried when the lease ends.
	claimLease = 5 * time.Minute
	// undeliveredScan is how many pending messages one pass without a Sender reports on.
	undeliveredScan = 500
	// recordTimeout bounds writing the outcome of a delivery, which survives cancellation of
	// the pass: a mail that went out must be marked sent even during shutdown.
	recordTimeout = 30 * time.Second
)

// Dispatcher delivers due outbox messages.
//
// Each message is claimed in a short transaction of its own: outbox.Due picks the oldest due
// message (locking it with SKIP LOCKED on PostgreSQL, under SQLite's write lock otherwise)
// and its next attempt is pushed claimLease ahead, so no other dispatcher picks it up. The
// mail is then sent outside any transaction (an SMTP conversation must not hold SQLite's
// database-wide write lock), and the outcome recorded with outbox.MarkSent or
// outbox.MarkAttemptFailed. Delivery is at least once: a crash between sending and
// recording sends the message again after the lease.
//
// Without a Sender (SMTP_URL unset) messages stay pending; each is logged once, at Warn,
// as "mail not delivered: SMTP_URL is not set" with its recipient and subject.
type Dispatcher struct {
	DB *gorm.DB
	// Sender may be nil: nothing is delivered then.
	Sender *Sender
	// Now is the clock; time.Now (UTC) when nil.
	Now func() time.Time
	// Interval between passes of Run; DefaultInterval when zero.
	Interval time.Duration
	// Log receives delivery failures; slog.Default() when nil.
	Log *slog.Logger

	mu     sync.Mutex         // one pass at a time
	logged map[uuid.UUID]bool // messages already reported as undeliverable (no Sender)
}

// Run delivers due mail every Interval until ctx is done, starting at once.
func (d *Dispatcher) Run(ctx context.Context) {
	interval := d.Interval
	if interval <= 0 {
		interval = DefaultInterval
	}
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		if _, err := d.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			d.log().Error("mail outbox pass failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// DeliverDue makes one pass over the outbox: it delivers up to 20 due messages, one at a
// time, and reports how many were sent. A message the server refuses is recorded as a failed
// attempt (retried with backoff, failed after outbox.MaxAttempts) and does not stop the
// others; the error reports database failures and cancellation only.
func (d *Dispatcher) DeliverDue(ctx context.Context) (sent int, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.Sender == nil {
		return 0, d.reportUndelivered(ctx)
	}
	var errs []error
	for range batchSize {
		if err := ctx.Err(); err != nil {
			return sent, errors.Join(append(errs, err)...)
		}
		m, ok, err := d.claim(ctx)
		if err != nil {
			return sent, errors.Join(append(errs, err)...)
		}
		if !ok {
			break
		}
		delivered, err := d.deliver(ctx, m)
		if delivered {
			sent++
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return sent, errors.Join(errs...)
}

// claim takes the oldest due message for this dispatcher by moving its next attempt past
// the lease, inside one transaction.
func (d *Dispatcher) claim(ctx context.Context) (m outbox.Message, ok bool, err error) {
	err = d.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now := d.now()
		due, err := outbox.Due(ctx, tx, now, 1)
		if err != nil || len(due) == 0 {
			return err
		}
		m = due[0]
		res := tx.Model(&outbox.Message{}).
			Where("id = ? AND status = ?", m.ID, outbox.StatusPending).
			Update("next_attempt_at", now.Add(claimLease))
		if res.Error != nil {
			return fmt.Errorf("claim mail %s: %w", m.ID, res.Error)
		}
		ok = res.RowsAffected == 1
		return nil
	})
	return m, ok, err
}

// deliver sends a claimed message and records the outcome. It reports whether the mail went
// out; the error is about recording it.
func (d *Dispatcher) deliver(ctx context.Context, m outbox.Message) (delivered bool, err error) {
	sendErr := d.Sender.Send(ctx, Mail{To: []string{m.ToAddress}, Subject: m.Subject, TextBody: m.TextBody})

	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	switch {
	case sendErr == nil:
		if err := outbox.MarkSent(rctx, d.DB, m.ID, d.now()); err != nil {
			return true, fmt.Errorf("mark mail %s sent: %w", m.ID, err)
		}
		return true, nil
	case ctx.Err() != nil:
		// Interrupted by shutdown, not refused: release the claim without counting an attempt.
		err := d.DB.WithContext(rctx).Model(&outbox.Message{}).
			Where("id = ? AND status = ?", m.ID, outbox.StatusPending).
			Update("next_attempt_at", m.NextAttemptAt).Error
		if err != nil {
			return false, fmt.Errorf("release mail %s: %w", m.ID, err)
		}
		return false, nil
	default:
		d.log().Warn("mail delivery failed", "id", m.ID, "to", m.ToAddress, "subject", m.Subject,
			"attempt", m.Attempts+1, "max_attempts", outbox.MaxAttempts, "err", sendErr)
		if err := outbox.MarkAttemptFailed(rctx, d.DB, m, d.now(), sendErr); err != nil {
			return false, fmt.Errorf("record failed attempt of mail %s: %w", m.ID, err)
		}
		return false, nil
	}
}

// reportUndelivered logs each due message once when there is no Sender, leaving it pending.
func (d *Dispatcher) reportUndelivered(ctx context.Context) error {
	due, err := outbox.Due(ctx, d.DB, d.now(), undeliveredScan)
	if err != nil {
		return err
	}
	if d.logged == nil {
		d.logged = make(map[uuid.UUID]bool)
	}
	current := make(map[uuid.UUID]bool, len(due))
	for _, m := range due {
		current[m.ID] = true
		if d.logged[m.ID] {
			continue
		}
		d.logged[m.ID] = true
		d.log().Warn("mail not delivered: SMTP_URL is not set", "id", m.ID, "to", m.ToAddress, "subject", m.Subject)
	}
	if len(due) < undeliveredScan {
		// The scan saw every due message: forget the ones gone from the outbox.
		for id := range d.logged {
			if !current[id] {
				delete(d.logged, id)
			}
		}
	}
	return nil
}

func (d *Dispatcher) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now().UTC()
}

func (d *Dispatcher) log() *slog.Logger {
	if d.Log != nil {
		return d.Log
	}
	return slog.Default()
}
