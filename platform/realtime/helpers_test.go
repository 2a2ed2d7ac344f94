package realtime_test

import (
	"testing"
	"time"

	"agencyhub/platform/realtime"
)

// receive answers the next message of sub, failing the test if none comes within wait.
func receive(t *testing.T, sub *realtime.Subscription, wait time.Duration) realtime.Message {
	t.Helper()
	select {
	case m, ok := <-sub.C():
		if !ok {
			t.Fatal("subscription closed, want a message")
		}
		return m
	case <-time.After(wait):
		t.Fatalf("no message within %v", wait)
		return realtime.Message{}
	}
}

// assertNothingWaiting checks that sub holds no message, which is conclusive right after a
// local publish since Local delivers before Publish returns.
func assertNothingWaiting(t *testing.T, sub *realtime.Subscription) {
	t.Helper()
	select {
	case m, ok := <-sub.C():
		t.Fatalf("got %+v (open %v), want nothing", m, ok)
	default:
	}
}

func assertMessage(t *testing.T, got realtime.Message, topic, data string) {
	t.Helper()
	if got.Topic != topic || string(got.Data) != data {
		t.Fatalf("got %s %s, want %s %s", got.Topic, got.Data, topic, data)
	}
}
