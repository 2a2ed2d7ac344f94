package api

import (
	"context"
	"time"

	"github.com/google/uuid"

	"agencyhub/models/automation"
	"agencyhub/platform/realtime"
)

// busWatch wakes a handler that waits on stored state (a run's event stream, a receipt
// wait, a desktop message stream) when it changes: at once through the bus, or at the
// latest after the safety poll, should a notification be lost.
type busWatch struct {
	sub    *realtime.Subscription
	bus    <-chan realtime.Message
	safety *time.Ticker
}

// watch subscribes to a bus topic; call it before reading what the topic announces, so
// that no change falls between the read and the subscription.
func (s *Server) watch(topic string) *busWatch {
	sub := s.Bus.Subscribe(topic)
	return &busWatch{sub: sub, bus: sub.C(), safety: time.NewTicker(s.SafetyPoll)}
}

// watchRun watches the run's projection.
func (s *Server) watchRun(runID uuid.UUID) *busWatch { return s.watch(automation.RunTopic(runID)) }

// wait blocks until the state may have changed (true), or ctx ends or other fires (false).
func (w *busWatch) wait(ctx context.Context, other <-chan time.Time) bool {
	select {
	case _, open := <-w.bus:
		if !open {
			w.bus = nil // the bus closed: the safety poll alone wakes from now on
		}
		return true
	case <-w.safety.C:
		return true
	case <-other:
		return false
	case <-ctx.Done():
		return false
	}
}

func (w *busWatch) close() {
	w.safety.Stop()
	w.sub.Close()
}
