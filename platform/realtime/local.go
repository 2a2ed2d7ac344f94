package realtime

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

// subscriptionBuffer is how many messages a subscription holds for its reader; one
// waiting message is enough to wake it, the rest only spare a re-read when it is busy.
const subscriptionBuffer = 64

// Local is the bus of one process.
type Local struct {
	// mu is held shared by Publish while it sends, so that no subscription's channel is
	// closed under a send.
	mu     sync.RWMutex
	topics map[string]map[*Subscription]struct{}
	closed bool
}

var _ Bus = (*Local)(nil)

// NewLocal returns an open, empty bus.
func NewLocal() *Local {
	return &Local{topics: make(map[string]map[*Subscription]struct{})}
}

// Publish refuses data that is not JSON, so that a message means the same on every bus.
// A subscriber whose buffer is full does not get the message: the ones it holds wake it
// already.
func (l *Local) Publish(_ context.Context, topic string, data json.RawMessage) error {
	if len(data) > 0 && !json.Valid(data) {
		return fmt.Errorf("realtime: data published under %s is not JSON", topic)
	}
	if !l.deliver(Message{Topic: topic, Data: data}) {
		return ErrClosed
	}
	return nil
}

// deliver answers false when the bus is closed.
func (l *Local) deliver(m Message) bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		return false
	}
	for s := range l.topics[m.Topic] {
		select {
		case s.ch <- m:
		default:
			s.missedOne()
		}
	}
	return true
}

// missedAll tells every subscription that it may have missed messages.
func (l *Local) missedAll() {
	l.mu.RLock()
	defer l.mu.RUnlock()
	for _, subs := range l.topics {
		for s := range subs {
			s.missedOne()
		}
	}
}

// Subscribe on a closed bus returns a subscription whose channel is already closed.
func (l *Local) Subscribe(topics ...string) *Subscription {
	// The caller may reuse its slice; Close needs the topics as they were.
	s := &Subscription{
		bus:    l,
		topics: slices.Clone(topics),
		ch:     make(chan Message, subscriptionBuffer),
		missed: make(chan struct{}, 1),
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		s.closeLocked()
		return s
	}
	for _, topic := range topics {
		subs := l.topics[topic]
		if subs == nil {
			subs = make(map[*Subscription]struct{})
			l.topics[topic] = subs
		}
		subs[s] = struct{}{}
	}
	return s
}

// Close closes every subscription's channel, so their readers stop.
func (l *Local) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	for _, subs := range l.topics {
		for s := range subs {
			s.closeLocked()
		}
	}
	l.topics = nil
	return nil
}

// Subscription receives the messages of its topics on C.
type Subscription struct {
	bus    *Local
	topics []string
	ch     chan Message
	missed chan struct{}
	closed bool // guarded by bus.mu
}

// C is closed when the subscription or its bus is.
func (s *Subscription) C() <-chan Message { return s.ch }

// Missed receives when messages published since the last receive may not have reached C:
// its buffer was full, or the bus's connection to the other instances was lost meanwhile.
// A reader that must not miss a message listens to it and reads again what messages
// would have told it; one that keeps a safety poll may ignore it.
func (s *Subscription) Missed() <-chan struct{} { return s.missed }

// missedOne never waits: one signal pending says it all.
func (s *Subscription) missedOne() {
	select {
	case s.missed <- struct{}{}:
	default:
	}
}

// Close may be called more than once, and while messages are being published.
func (s *Subscription) Close() {
	l := s.bus
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, topic := range s.topics {
		delete(l.topics[topic], s)
		if len(l.topics[topic]) == 0 {
			delete(l.topics, topic)
		}
	}
	s.closeLocked()
}

// closeLocked closes the channel once; a subscription is listed under each of its topics,
// so the bus's Close meets it more than once.
func (s *Subscription) closeLocked() {
	if !s.closed {
		s.closed = true
		close(s.ch)
	}
}
