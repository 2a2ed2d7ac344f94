package outbox_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
	"agencyhub/models/outbox"
)

// TestBacklogCountsTheMailStillToBeDelivered: pending messages count, due or waiting for a
// later attempt; sent ones and ones given up do not.
func TestBacklogCountsTheMailStillToBeDelivered(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
		for _, to := range []string{"sent@example.com", "retrying@example.com", "given-up@example.com", "new@example.com"} {
			if err := outbox.Enqueue(ctx, db.DB, now, to, "Hello", "Hi"); err != nil {
				t.Fatal(err)
			}
		}
		due, err := outbox.Due(ctx, db.DB, now, 10)
		if err != nil || len(due) != 4 {
			t.Fatalf("due: %d messages, %v", len(due), err)
		}
		byTo := map[string]outbox.Message{}
		for _, m := range due {
			byTo[m.ToAddress] = m
		}
		if err := outbox.MarkSent(ctx, db.DB, byTo["sent@example.com"].ID, now); err != nil {
			t.Fatal(err)
		}
		if err := outbox.MarkAttemptFailed(ctx, db.DB, byTo["retrying@example.com"], now, errors.New("busy")); err != nil {
			t.Fatal(err)
		}
		givenUp := byTo["given-up@example.com"]
		givenUp.Attempts = outbox.MaxAttempts - 1
		if err := outbox.MarkAttemptFailed(ctx, db.DB, givenUp, now, errors.New("no such mailbox")); err != nil {
			t.Fatal(err)
		}
		if n, err := outbox.Backlog(ctx, db.DB); err != nil || n != 2 {
			t.Fatalf("backlog = %d (%v), want 2: the new message and the one waiting to be retried", n, err)
		}
	})
}
