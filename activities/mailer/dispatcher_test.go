package mailer

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"agencyhub/activities/mailer/smtptest"
	"agencyhub/migrations/dbtest"
	"agencyhub/models/outbox"
)

// testClock is a settable clock for Dispatcher.Now.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock() *testClock {
	return &testClock{now: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// logRecorder is a slog handler that keeps every record.
type logRecorder struct {
	mu      sync.Mutex
	records []slog.Record
}

func (r *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *logRecorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records = append(r.records, rec.Clone())
	return nil
}
func (r *logRecorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *logRecorder) WithGroup(string) slog.Handler      { return r }

// lines returns "LEVEL message to=… subject=…" for every record with this message.
func (r *logRecorder) lines(msg string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, rec := range r.records {
		if rec.Message != msg {
			continue
		}
		line := rec.Level.String() + " " + rec.Message
		rec.Attrs(func(a slog.Attr) bool {
			if a.Key == "to" || a.Key == "subject" {
				line += " " + a.Key + "=" + a.Value.String()
			}
			return true
		})
		out = append(out, line)
	}
	return out
}

func enqueue(t *testing.T, db *dbtest.DB, now time.Time, to, subject, body string) {
	t.Helper()
	if err := outbox.Enqueue(context.Background(), db.DB, now, to, subject, body); err != nil {
		t.Fatalf("enqueue mail to %s: %v", to, err)
	}
}

// messagesByRecipient loads the whole outbox keyed by recipient.
func messagesByRecipient(t *testing.T, db *dbtest.DB) map[string]outbox.Message {
	t.Helper()
	var all []outbox.Message
	if err := db.Find(&all).Error; err != nil {
		t.Fatalf("read outbox: %v", err)
	}
	out := make(map[string]outbox.Message, len(all))
	for _, m := range all {
		out[m.ToAddress] = m
	}
	return out
}

func deliverDue(t *testing.T, d *Dispatcher) int {
	t.Helper()
	sent, err := d.DeliverDue(context.Background())
	if err != nil {
		t.Fatalf("DeliverDue: %v", err)
	}
	return sent
}

func recipients(mails []smtptest.Message) []string {
	var out []string
	for _, m := range mails {
		out = append(out, m.To...)
	}
	slices.Sort(out)
	return out
}

func TestDeliverDueSendsDueMessagesAndMarksThemSent(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		srv := smtptest.Start(t, smtptest.RequireAuth("mailer", "s3cret"))
		clock := newTestClock()
		now := clock.Now()
		enqueue(t, db, now.Add(-time.Minute), "ivan@client.test", russianSubject, russianBody)
		enqueue(t, db, now, "maria@client.test", "Welcome", "Hello Maria")
		enqueue(t, db, now.Add(time.Hour), "later@client.test", "Not yet", "Tomorrow")
		d := &Dispatcher{DB: db.DB, Sender: NewSender(configFor(srv)), Now: clock.Now}

		if sent := deliverDue(t, d); sent != 2 {
			t.Errorf("DeliverDue sent %d, want 2", sent)
		}

		got := srv.Messages()
		if r := recipients(got); !slices.Equal(r, []string{"ivan@client.test", "maria@client.test"}) {
			t.Fatalf("server received mail for %v, want ivan and maria", r)
		}
		for _, rcv := range got {
			seen := readMail(t, rcv.Data)
			if rcv.To[0] == "ivan@client.test" && (seen.Subject != russianSubject || seen.Body != russianBody) {
				t.Errorf("ivan sees subject %q body %q", seen.Subject, seen.Body)
			}
			if rcv.From != testFrom {
				t.Errorf("envelope from = %q", rcv.From)
			}
		}
		rows := messagesByRecipient(t, db)
		for _, to := range []string{"ivan@client.test", "maria@client.test"} {
			m := rows[to]
			if m.Status != outbox.StatusSent || m.SentAt == nil || !m.SentAt.Equal(now) || m.Attempts != 0 {
				t.Errorf("%s: status %q, sent_at %v, attempts %d; want sent at %v", to, m.Status, m.SentAt, m.Attempts, now)
			}
		}
		if m := rows["later@client.test"]; m.Status != outbox.StatusPending || m.SentAt != nil {
			t.Errorf("mail not yet due: status %q, sent_at %v; want pending", m.Status, m.SentAt)
		}

		if sent := deliverDue(t, d); sent != 0 {
			t.Errorf("second pass sent %d, want 0", sent)
		}
		if n := len(srv.Messages()); n != 2 {
			t.Errorf("server received %d messages after the second pass, want still 2", n)
		}
	})
}

func TestDeliverDueSendsAtMostTwentyMessagesPerPass(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		srv := smtptest.Start(t)
		clock := newTestClock()
		for i := range 25 {
			enqueue(t, db, clock.Now(), fmt.Sprintf("client%02d@client.test", i), "Report", "Numbers")
		}
		d := &Dispatcher{DB: db.DB, Sender: NewSender(configFor(srv)), Now: clock.Now}

		if sent := deliverDue(t, d); sent != 20 {
			t.Errorf("first pass sent %d, want 20", sent)
		}
		if sent := deliverDue(t, d); sent != 5 {
			t.Errorf("second pass sent %d, want 5", sent)
		}
		if r := recipients(srv.Messages()); len(r) != 25 || len(slices.Compact(r)) != 25 {
			t.Errorf("server received %d mails for %d distinct recipients, want 25 each", len(r), len(slices.Compact(r)))
		}
	})
}

func TestARefusedMessageStaysPendingWithItsNextAttemptLater(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		srv := smtptest.Start(t)
		srv.RejectRecipients(func(string) bool { return true })
		clock := newTestClock()
		now := clock.Now()
		enqueue(t, db, now, "gone@client.test", "Invoice", "Pay")
		logs := &logRecorder{}
		d := &Dispatcher{DB: db.DB, Sender: NewSender(configFor(srv)), Now: clock.Now, Log: slog.New(logs)}

		if sent := deliverDue(t, d); sent != 0 {
			t.Errorf("DeliverDue sent %d, want 0", sent)
		}

		m := messagesByRecipient(t, db)["gone@client.test"]
		if m.Status != outbox.StatusPending || m.Attempts != 1 || m.SentAt != nil {
			t.Errorf("status %q, attempts %d, sent_at %v; want pending after 1 attempt", m.Status, m.Attempts, m.SentAt)
		}
		if !m.NextAttemptAt.After(now) {
			t.Errorf("next attempt at %v, want after %v", m.NextAttemptAt, now)
		}
		if !strings.Contains(m.LastError, "550") {
			t.Errorf("last error %q, want the server's 550", m.LastError)
		}
		if lines := logs.lines("mail delivery failed"); len(lines) != 1 || !strings.HasPrefix(lines[0], "WARN") {
			t.Errorf("logged %q, want one warning", lines)
		}

		if sent := deliverDue(t, d); sent != 0 || len(logs.lines("mail delivery failed")) != 1 {
			t.Errorf("a pass before the next attempt is due tried again")
		}
	})
}

func TestOneRefusedMessageDoesNotStopTheOthers(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		srv := smtptest.Start(t)
		srv.RejectRecipients(func(rcpt string) bool { return rcpt == "gone@client.test" })
		clock := newTestClock()
		enqueue(t, db, clock.Now(), "first@client.test", "A", "a")
		enqueue(t, db, clock.Now(), "gone@client.test", "B", "b")
		enqueue(t, db, clock.Now(), "last@client.test", "C", "c")
		d := &Dispatcher{DB: db.DB, Sender: NewSender(configFor(srv)), Now: clock.Now, Log: slog.New(&logRecorder{})}

		if sent := deliverDue(t, d); sent != 2 {
			t.Errorf("DeliverDue sent %d, want 2", sent)
		}
		rows := messagesByRecipient(t, db)
		for to, want := range map[string]string{
			"first@client.test": outbox.StatusSent, "gone@client.test": outbox.StatusPending, "last@client.test": outbox.StatusSent,
		} {
			if rows[to].Status != want {
				t.Errorf("%s: status %q, want %q", to, rows[to].Status, want)
			}
		}
	})
}

func TestAMessageIsFailedAfterMaxAttempts(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		srv := smtptest.Start(t)
		srv.RejectRecipients(func(string) bool { return true })
		clock := newTestClock()
		enqueue(t, db, clock.Now(), "gone@client.test", "Invoice", "Pay")
		d := &Dispatcher{DB: db.DB, Sender: NewSender(configFor(srv)), Now: clock.Now, Log: slog.New(&logRecorder{})}

		for attempt := 1; attempt <= outbox.MaxAttempts; attempt++ {
			deliverDue(t, d)
			m := messagesByRecipient(t, db)["gone@client.test"]
			if m.Attempts != attempt {
				t.Fatalf("after pass %d: attempts %d", attempt, m.Attempts)
			}
			if attempt < outbox.MaxAttempts {
				if m.Status != outbox.StatusPending {
					t.Fatalf("after attempt %d: status %q, want pending", attempt, m.Status)
				}
				clock.Set(m.NextAttemptAt) // the retry is due exactly then
			}
		}

		m := messagesByRecipient(t, db)["gone@client.test"]
		if m.Status != outbox.StatusFailed || !strings.Contains(m.LastError, "550") {
			t.Errorf("status %q, last error %q; want failed with the server's 550", m.Status, m.LastError)
		}
		clock.Set(clock.Now().Add(24 * time.Hour))
		if sent := deliverDue(t, d); sent != 0 {
			t.Errorf("a failed message was sent")
		}
		if m := messagesByRecipient(t, db)["gone@client.test"]; m.Attempts != outbox.MaxAttempts {
			t.Errorf("a failed message was tried again: attempts %d", m.Attempts)
		}
	})
}

func TestWithoutASenderMailStaysPendingAndIsLoggedOnce(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		clock := newTestClock()
		enqueue(t, db, clock.Now(), "ivan@client.test", russianSubject, russianBody)
		logs := &logRecorder{}
		d := &Dispatcher{DB: db.DB, Now: clock.Now, Log: slog.New(logs)}

		for range 3 {
			if sent := deliverDue(t, d); sent != 0 {
				t.Fatalf("DeliverDue without a sender sent %d", sent)
			}
		}
		enqueue(t, db, clock.Now(), "maria@client.test", "Welcome", "Hello")
		deliverDue(t, d)
		deliverDue(t, d)

		want := []string{
			"WARN mail not delivered: SMTP_URL is not set to=ivan@client.test subject=" + russianSubject,
			"WARN mail not delivered: SMTP_URL is not set to=maria@client.test subject=Welcome",
		}
		if got := logs.lines("mail not delivered: SMTP_URL is not set"); !slices.Equal(got, want) {
			t.Errorf("logged\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for to, m := range messagesByRecipient(t, db) {
			if m.Status != outbox.StatusPending || m.Attempts != 0 || m.SentAt != nil {
				t.Errorf("%s: status %q, attempts %d, sent_at %v; want untouched pending", to, m.Status, m.Attempts, m.SentAt)
			}
		}
	})
}

func TestTwoDispatchersAtOnceDeliverEachMessageOnce(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		srv := smtptest.Start(t)
		clock := newTestClock()
		for i := range 30 {
			enqueue(t, db, clock.Now(), fmt.Sprintf("client%02d@client.test", i), "Report", "Numbers")
		}
		sender := NewSender(configFor(srv))

		var wg sync.WaitGroup
		var mu sync.Mutex
		total := 0
		for range 2 {
			d := &Dispatcher{DB: db.DB, Sender: sender, Now: clock.Now}
			wg.Go(func() {
				for {
					sent, err := d.DeliverDue(context.Background())
					if err != nil {
						t.Errorf("DeliverDue: %v", err)
						return
					}
					if sent == 0 {
						return
					}
					mu.Lock()
					total += sent
					mu.Unlock()
				}
			})
		}
		wg.Wait()

		r := recipients(srv.Messages())
		if total != 30 || len(r) != 30 || len(slices.Compact(r)) != 30 {
			t.Errorf("dispatchers reported %d sent; server got %d mails for %d recipients; want 30 each",
				total, len(r), len(slices.Compact(r)))
		}
	})
}

func TestRunDeliversEveryIntervalUntilTheContextEnds(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		srv := smtptest.Start(t)
		clock := newTestClock()
		d := &Dispatcher{DB: db.DB, Sender: NewSender(configFor(srv)), Now: clock.Now, Interval: 5 * time.Millisecond}
		ctx, cancel := context.WithCancel(context.Background())
		stopped := make(chan struct{})
		go func() {
			defer close(stopped)
			d.Run(ctx)
		}()

		// Enqueued after Run started: only a later tick can deliver it.
		enqueue(t, db, clock.Now(), "ivan@client.test", "Hello", "Hi")
		waitFor(t, 10*time.Second, "the mail to be marked sent", func() bool {
			return messagesByRecipient(t, db)["ivan@client.test"].Status == outbox.StatusSent
		})

		cancel()
		select {
		case <-stopped:
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return after its context was cancelled")
		}
		if n := len(srv.Messages()); n != 1 {
			t.Errorf("server received %d messages, want 1", n)
		}
	})
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(timeout)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-deadline:
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		case <-tick.C:
		}
	}
}

func TestDeliverDueWithAnEndedContextTouchesNothing(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		srv := smtptest.Start(t)
		clock := newTestClock()
		enqueue(t, db, clock.Now(), "ivan@client.test", "Hello", "Hi")
		d := &Dispatcher{DB: db.DB, Sender: NewSender(configFor(srv)), Now: clock.Now}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()

		if sent, err := d.DeliverDue(ctx); sent != 0 || err == nil {
			t.Errorf("DeliverDue(cancelled) = %d, %v; want 0 and the context's error", sent, err)
		}
		if m := messagesByRecipient(t, db)["ivan@client.test"]; m.Status != outbox.StatusPending || m.Attempts != 0 || !m.NextAttemptAt.Equal(clock.Now()) {
			t.Errorf("status %q, attempts %d, next attempt %v; want untouched", m.Status, m.Attempts, m.NextAttemptAt)
		}
		if n := len(srv.Messages()); n != 0 {
			t.Errorf("server received %d messages", n)
		}
	})
}
