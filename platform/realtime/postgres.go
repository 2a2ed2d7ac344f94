package realtime

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

const (
	// DefaultChannel is the NOTIFY channel when PostgresOptions.Channel is empty.
	DefaultChannel = "agencyhub_events"
	// MaxPayload bounds an encoded notification, envelope included: PostgreSQL refuses
	// NOTIFY payloads of 8000 bytes or more, so data must stay small.
	MaxPayload = 7900
)

const (
	// publishConns bounds the publishing pool: a pg_notify takes a fraction of a
	// millisecond, and the listener has its own connection.
	publishConns = 4
	// connectTimeout bounds one listener connection attempt, so that an unreachable
	// server costs a retry rather than a hang.
	connectTimeout    = 10 * time.Second
	minReconnectDelay = 100 * time.Millisecond
	maxReconnectDelay = 5 * time.Second
	closeTimeout      = time.Second
)

// ErrTooLarge is what Postgres.Publish answers for a message over MaxPayload.
var ErrTooLarge = errors.New("realtime: message larger than MaxPayload")

// channelName keeps to names that need no thought about quoting or case, and fit
// PostgreSQL's 63-byte identifiers.
var channelName = regexp.MustCompile(`^[A-Za-z0-9_]{1,63}$`)

// PostgresOptions configures NewPostgres.
type PostgresOptions struct {
	// URL is the postgres:// URL of the database the instances share.
	URL string
	// Channel is the NOTIFY channel, DefaultChannel when empty. Channels are
	// database-wide, not per schema: buses that must not hear each other use different
	// channels.
	Channel string
	// Log receives the listener's connection warnings; slog.Default() when nil.
	Log *slog.Logger
}

// Postgres is the bus of the instances that share a PostgreSQL database: a message reaches
// the subscribers of the publishing instance at once, and those of the others through
// NOTIFY. The other instances' messages arrive on a dedicated listening connection; while
// it reconnects they are lost, which every subscription's Missed tells once it listens again.
type Postgres struct {
	local        *Local
	pool         *pgxpool.Pool
	listenConfig *pgx.ConnConfig
	channel      string
	// origin marks this bus's notifications, which the listener skips because Publish has
	// delivered them locally already.
	origin        string
	log           *slog.Logger
	stopListening context.CancelFunc
	listenerDone  chan struct{}
}

var _ Bus = (*Postgres)(nil)

// envelope is the NOTIFY payload.
type envelope struct {
	Origin string          `json:"o"`
	Topic  string          `json:"t"`
	Data   json.RawMessage `json:"d,omitempty"`
}

// NewPostgres connects the listener before it returns, so that a wrong URL or channel
// fails at start-up rather than in the background.
func NewPostgres(ctx context.Context, opts PostgresOptions) (*Postgres, error) {
	channel := cmp.Or(opts.Channel, DefaultChannel)
	if !channelName.MatchString(channel) {
		return nil, fmt.Errorf("realtime: channel %q: want 1 to 63 letters, digits or underscores", channel)
	}
	poolConfig, err := pgxpool.ParseConfig(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("realtime: %w", err)
	}
	poolConfig.MaxConns = publishConns
	p := &Postgres{
		local:        NewLocal(),
		listenConfig: poolConfig.ConnConfig.Copy(),
		channel:      channel,
		origin:       rand.Text(),
		log:          cmp.Or(opts.Log, slog.Default()),
		listenerDone: make(chan struct{}),
	}
	conn, err := p.connectListener(ctx)
	if err != nil {
		return nil, err
	}
	p.pool, err = pgxpool.NewWithConfig(ctx, poolConfig)
	if err != nil {
		closeListener(conn)
		return nil, fmt.Errorf("realtime: %w", err)
	}
	listenCtx, stop := context.WithCancel(context.Background())
	p.stopListening = stop
	go p.listen(listenCtx, conn)
	return p, nil
}

// Publish delivers to this instance's subscribers, then notifies the others. A message over
// MaxPayload is refused whole (ErrTooLarge), so that no instance sees it and another not.
// An error from the notification itself comes after the local delivery.
func (p *Postgres) Publish(ctx context.Context, topic string, data json.RawMessage) error {
	payload, err := json.Marshal(envelope{Origin: p.origin, Topic: topic, Data: data})
	if err != nil {
		return fmt.Errorf("realtime: data published under %s: %w", topic, err)
	}
	if len(payload) > MaxPayload {
		return fmt.Errorf("%w: %d bytes under %s", ErrTooLarge, len(payload), topic)
	}
	if !p.local.deliver(Message{Topic: topic, Data: data}) {
		return ErrClosed
	}
	// The pool's connections run no transaction, so the notification leaves at once.
	if _, err := p.pool.Exec(ctx, "SELECT pg_notify($1, $2)", p.channel, string(payload)); err != nil {
		return fmt.Errorf("realtime: notify %s: %w", topic, err)
	}
	return nil
}

// Subscribe receives the messages of every instance.
func (p *Postgres) Subscribe(topics ...string) *Subscription {
	return p.local.Subscribe(topics...)
}

// Close stops the listener and waits for it before closing the subscriptions, so that
// nothing is delivered after Close returns. It may be called more than once.
func (p *Postgres) Close() error {
	p.stopListening()
	<-p.listenerDone
	p.pool.Close()
	return p.local.Close()
}

func (p *Postgres) connectListener(ctx context.Context) (*pgx.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, p.listenConfig)
	if err != nil {
		return nil, fmt.Errorf("realtime: connect listener: %w", err)
	}
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{p.channel}.Sanitize()); err != nil {
		closeListener(conn)
		return nil, fmt.Errorf("realtime: listen on %s: %w", p.channel, err)
	}
	return conn, nil
}

// listen runs until ctx ends, replacing the connection whenever it fails.
func (p *Postgres) listen(ctx context.Context, conn *pgx.Conn) {
	defer close(p.listenerDone)
	for conn != nil {
		err := p.receive(ctx, conn)
		closeListener(conn)
		if ctx.Err() != nil {
			return
		}
		p.log.Warn("realtime listener lost its connection; reconnecting", "channel", p.channel, "err", err)
		if conn = p.reconnect(ctx); conn != nil {
			// Listening again: what a subscriber reads from now on is not missed.
			p.local.missedAll()
		}
	}
}

// receive delivers notifications until the connection fails or ctx ends.
func (p *Postgres) receive(ctx context.Context, conn *pgx.Conn) error {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		p.deliverNotification(n.Payload)
	}
}

// reconnect waits before every attempt, longer after each failure, so that a server that
// is down or restarting is not hammered. It answers nil once ctx ends.
func (p *Postgres) reconnect(ctx context.Context) *pgx.Conn {
	delay := minReconnectDelay
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(delay):
		}
		conn, err := p.connectListener(ctx)
		if err == nil {
			p.log.Info("realtime listener reconnected", "channel", p.channel)
			return conn
		}
		if ctx.Err() != nil {
			return nil
		}
		delay = min(2*delay, maxReconnectDelay)
		p.log.Warn("realtime listener could not reconnect", "channel", p.channel, "retry_in", delay, "err", err)
	}
}

func (p *Postgres) deliverNotification(payload string) {
	var e envelope
	if err := json.Unmarshal([]byte(payload), &e); err != nil {
		p.log.Warn("realtime listener skipped a notification that is not an envelope", "channel", p.channel, "err", err)
		return
	}
	if e.Origin != p.origin {
		p.local.deliver(Message{Topic: e.Topic, Data: e.Data})
	}
}

// closeListener bounds the goodbye to the server: the connection may be dead already.
func closeListener(conn *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	conn.Close(ctx)
}
