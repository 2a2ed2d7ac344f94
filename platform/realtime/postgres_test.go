package realtime_test

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"agencyhub/platform/realtime"
)

const defaultPostgresURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// postgresURL answers TEST_DATABASE_URL, or the local trust-auth database, and skips the
// test when no server answers there.
func postgresURL(t *testing.T) string {
	t.Helper()
	raw := cmp.Or(os.Getenv("TEST_DATABASE_URL"), defaultPostgresURL)
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("TEST_DATABASE_URL: %v", err)
	}
	conn, err := net.DialTimeout("tcp", u.Host, time.Second)
	if err != nil {
		t.Skipf("PostgreSQL tests skipped: no server answers at %s", u.Host)
	}
	conn.Close()
	return raw
}

// withApplicationName names the connections of a bus, so that the test can find its
// listener in pg_stat_activity.
func withApplicationName(t *testing.T, raw, name string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("application_name", name)
	u.RawQuery = q.Encode()
	return u.String()
}

// uniqueChannel keeps parallel tests, and runs sharing the database, from hearing each
// other: NOTIFY channels are database-wide.
func uniqueChannel() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "t_" + hex.EncodeToString(b)
}

func newPostgresBus(t *testing.T, dbURL, channel string, log *slog.Logger) *realtime.Postgres {
	t.Helper()
	if log == nil {
		log = slog.New(slog.NewTextHandler(t.Output(), nil))
	}
	bus, err := realtime.NewPostgres(context.Background(), realtime.PostgresOptions{URL: dbURL, Channel: channel, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bus.Close() })
	return bus
}

func publish(t *testing.T, bus realtime.Bus, topic, data string) {
	t.Helper()
	if err := bus.Publish(context.Background(), topic, json.RawMessage(data)); err != nil {
		t.Fatal(err)
	}
}

func TestPostgresSharesMessagesBetweenInstances(t *testing.T) {
	t.Parallel()
	dbURL, channel := postgresURL(t), uniqueChannel()
	a := newPostgresBus(t, dbURL, channel, nil)
	b := newPostgresBus(t, dbURL, channel, nil)
	onA, onB, otherOnB := a.Subscribe("run:1"), b.Subscribe("run:1"), b.Subscribe("run:2")

	publish(t, a, "run:1", `{"status":"done"}`)
	assertMessage(t, receive(t, onB, time.Second), "run:1", `{"status":"done"}`)
	assertMessage(t, receive(t, onA, time.Second), "run:1", `{"status":"done"}`)
	assertNothingWaiting(t, otherOnB)

	// PostgreSQL delivers notifications in commit order, so B's answer reaches A's
	// listener after A's own notification: were A to deliver its own twice, the second
	// would come first.
	publish(t, b, "run:1", `{"status":"seen"}`)
	assertMessage(t, receive(t, onA, time.Second), "run:1", `{"status":"seen"}`)
	assertMessage(t, receive(t, onB, time.Second), "run:1", `{"status":"seen"}`)
}

func TestPostgresRefusesOversizedMessage(t *testing.T) {
	t.Parallel()
	dbURL, channel := postgresURL(t), uniqueChannel()
	a := newPostgresBus(t, dbURL, channel, nil)
	b := newPostgresBus(t, dbURL, channel, nil)
	onA, onB := a.Subscribe("run:1"), b.Subscribe("run:1")

	oversized := `"` + strings.Repeat("x", realtime.MaxPayload) + `"`
	if err := a.Publish(context.Background(), "run:1", json.RawMessage(oversized)); !errors.Is(err, realtime.ErrTooLarge) {
		t.Fatalf("Publish of %d bytes: %v, want ErrTooLarge", len(oversized), err)
	}
	assertNothingWaiting(t, onA)

	// A large message within the limit goes through, and is the first B hears.
	large := `"` + strings.Repeat("y", 7000) + `"`
	publish(t, a, "run:1", large)
	assertMessage(t, receive(t, onA, time.Second), "run:1", large)
	assertMessage(t, receive(t, onB, time.Second), "run:1", large)
}

func TestPostgresListenerReconnects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbURL, channel := postgresURL(t), uniqueChannel()
	appName := channel + "_b"
	warned := make(warnings, 16)
	a := newPostgresBus(t, dbURL, channel, nil)
	b := newPostgresBus(t, withApplicationName(t, dbURL, appName), channel, slog.New(warned))
	onB := b.Subscribe("run:1")

	admin, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close(ctx) })
	var killed int32
	err = admin.QueryRow(ctx, `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query ILIKE 'LISTEN%'`, appName).Scan(&killed)
	if err != nil {
		t.Fatalf("find the listener of bus B: %v", err)
	}
	var terminated bool
	if err := admin.QueryRow(ctx, `SELECT pg_terminate_backend($1)`, killed).Scan(&terminated); err != nil || !terminated {
		t.Fatalf("terminate the listener of bus B: %v, %v", terminated, err)
	}
	select {
	case r := <-warned:
		t.Logf("bus B warned: %s", r.Message)
	case <-time.After(5 * time.Second):
		t.Fatal("bus B did not notice that its listener was killed")
	}

	// Messages published while B reconnects are lost; publish until one gets through.
	deadline := time.After(10 * time.Second)
	for heard := false; !heard; {
		publish(t, a, "run:1", `{"status":"done"}`)
		select {
		case m := <-onB.C():
			assertMessage(t, m, "run:1", `{"status":"done"}`)
			heard = true
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatal("bus B did not hear bus A again after its listener was killed")
		}
	}
	select {
	case <-onB.Missed():
	default:
		t.Fatal("bus B's subscription was not told that it may have missed messages while its listener reconnected")
	}
	var listeners int
	err = admin.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND query ILIKE 'LISTEN%' AND pid <> $2`, appName, killed).Scan(&listeners)
	if err != nil || listeners != 1 {
		t.Fatalf("new listeners of bus B: %d, %v; want 1", listeners, err)
	}
}

func TestPostgresClose(t *testing.T) {
	t.Parallel()
	bus := newPostgresBus(t, postgresURL(t), uniqueChannel(), nil)
	sub := bus.Subscribe("run:1")

	if err := bus.Close(); err != nil {
		t.Fatal(err)
	}
	if err := bus.Close(); err != nil {
		t.Fatal(err)
	}
	if _, open := <-sub.C(); open {
		t.Fatal("subscription open after the bus closed")
	}
	if err := bus.Publish(context.Background(), "run:1", nil); !errors.Is(err, realtime.ErrClosed) {
		t.Fatalf("Publish after Close: %v, want ErrClosed", err)
	}
}

func TestNewPostgresRefusesChannelNames(t *testing.T) {
	t.Parallel()
	for _, channel := range []string{`events"; DROP TABLE runs; --`, "run-events", strings.Repeat("x", 64)} {
		// The name is checked before any connection, so no server is needed.
		_, err := realtime.NewPostgres(context.Background(), realtime.PostgresOptions{URL: "postgres://127.0.0.1:1/none", Channel: channel})
		if err == nil || !strings.Contains(err.Error(), "channel") {
			t.Errorf("channel %q: %v, want refused", channel, err)
		}
	}
}

// warnings is a slog.Handler that hands a bus's warnings to the test.
type warnings chan slog.Record

func (w warnings) Enabled(_ context.Context, level slog.Level) bool { return level >= slog.LevelWarn }

func (w warnings) Handle(_ context.Context, r slog.Record) error {
	select {
	case w <- r:
	default:
	}
	return nil
}

func (w warnings) WithAttrs([]slog.Attr) slog.Handler { return w }
func (w warnings) WithGroup(string) slog.Handler      { return w }
