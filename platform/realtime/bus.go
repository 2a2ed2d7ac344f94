package realtime

import (
	"context"
	"encoding/json"
	"errors"
)

// Message is one notification.
type Message struct {
	Topic string
	// Data is a small JSON document, or empty. Every subscriber of a message shares it:
	// read it, don't modify it.
	Data json.RawMessage
}

// Bus is what publishers and subscribers use, so they work alike on one instance (Local)
// and on several (Postgres).
type Bus interface {
	// Publish hands data, empty or valid JSON, to the subscribers of topic without
	// waiting for any of them. Publish after the change it announces is committed: a
	// subscriber may re-read the database as soon as it is called.
	Publish(ctx context.Context, topic string, data json.RawMessage) error
	// Subscribe receives the messages published under any of topics from now on, until
	// the subscription or the bus is closed.
	Subscribe(topics ...string) *Subscription
	// Close ends every subscription; Publish then answers ErrClosed.
	Close() error
}

// ErrClosed is what Publish answers once the bus is closed.
var ErrClosed = errors.New("realtime: bus closed")
