package realtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"agencyhub/platform/realtime"
)

func TestLocalDeliversByTopic(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bus := realtime.NewLocal()
	t.Cleanup(func() { bus.Close() })
	first, second := bus.Subscribe("run:1"), bus.Subscribe("run:1")
	other := bus.Subscribe("run:2")

	if err := bus.Publish(ctx, "run:1", json.RawMessage(`{"status":"done"}`)); err != nil {
		t.Fatal(err)
	}
	assertMessage(t, receive(t, first, time.Second), "run:1", `{"status":"done"}`)
	assertMessage(t, receive(t, second, time.Second), "run:1", `{"status":"done"}`)
	assertNothingWaiting(t, other)

	if err := bus.Publish(ctx, "run:2", nil); err != nil {
		t.Fatal(err)
	}
	assertMessage(t, receive(t, other, time.Second), "run:2", "")
	assertNothingWaiting(t, first)
	assertNothingWaiting(t, second)
}

func TestLocalSubscriptionToSeveralTopics(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bus := realtime.NewLocal()
	t.Cleanup(func() { bus.Close() })
	topics := []string{"run:1", "user:1", "run:1"}
	sub := bus.Subscribe(topics...)
	topics[1] = "user:9" // the subscription keeps its own copy

	for _, topic := range []string{"run:1", "user:1", "chat:1"} {
		if err := bus.Publish(ctx, topic, json.RawMessage(`1`)); err != nil {
			t.Fatal(err)
		}
	}
	assertMessage(t, receive(t, sub, time.Second), "run:1", "1")
	assertMessage(t, receive(t, sub, time.Second), "user:1", "1")
	assertNothingWaiting(t, sub)

	sub.Close()
	if _, open := <-sub.C(); open {
		t.Fatal("channel open after Close")
	}
	// Close left none of its topics behind, or this would send on its closed channel.
	for _, topic := range []string{"run:1", "user:1"} {
		if err := bus.Publish(ctx, topic, nil); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLocalCloseSubscription(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bus := realtime.NewLocal()
	t.Cleanup(func() { bus.Close() })
	closed, kept := bus.Subscribe("run:1"), bus.Subscribe("run:1")

	closed.Close()
	closed.Close()
	if err := bus.Publish(ctx, "run:1", nil); err != nil {
		t.Fatal(err)
	}
	if m, open := <-closed.C(); open {
		t.Fatalf("closed subscription got %+v", m)
	}
	assertMessage(t, receive(t, kept, time.Second), "run:1", "")
}

func TestLocalClose(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bus := realtime.NewLocal()
	sub := bus.Subscribe("run:1", "run:2")

	if err := bus.Close(); err != nil {
		t.Fatal(err)
	}
	if err := bus.Close(); err != nil {
		t.Fatal(err)
	}
	if _, open := <-sub.C(); open {
		t.Fatal("subscription open after the bus closed")
	}
	sub.Close()
	if err := bus.Publish(ctx, "run:1", nil); !errors.Is(err, realtime.ErrClosed) {
		t.Fatalf("Publish after Close: %v, want ErrClosed", err)
	}
	if _, open := <-bus.Subscribe("run:1").C(); open {
		t.Fatal("Subscribe after Close gave an open subscription")
	}
}

func TestLocalRefusesDataThatIsNotJSON(t *testing.T) {
	t.Parallel()
	bus := realtime.NewLocal()
	t.Cleanup(func() { bus.Close() })
	sub := bus.Subscribe("run:1")

	if err := bus.Publish(context.Background(), "run:1", json.RawMessage(`{"status":`)); err == nil {
		t.Fatal("Publish accepted data that is not JSON")
	}
	assertNothingWaiting(t, sub)
}

func TestLocalSlowSubscriberDoesNotBlockPublish(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// Not closed at the end: were Publish blocked, Close would wait for it.
	bus := realtime.NewLocal()
	stalled := bus.Subscribe("run:1")

	const published = 10_000
	done := make(chan error, 1)
	go func() {
		for i := range published {
			if err := bus.Publish(ctx, "run:1", json.RawMessage(fmt.Sprint(i))); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Publish blocked on a subscriber that does not read")
	}

	held := 0
	for len(stalled.C()) > 0 {
		m := <-stalled.C()
		if want := fmt.Sprint(held); string(m.Data) != want {
			t.Fatalf("message %d is %s, want the oldest ones kept in order", held, m.Data)
		}
		held++
	}
	if held == 0 || held == published {
		t.Fatalf("subscriber held %d of %d messages, want some dropped and some kept", held, published)
	}
	select {
	case <-stalled.Missed():
	default:
		t.Fatal("the stalled subscription was not told that it missed messages")
	}
	select {
	case <-stalled.Missed():
		t.Fatal("the stalled subscription was told twice, want one signal for all it missed")
	default:
	}
}

func TestLocalConcurrentUse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bus := realtime.NewLocal()
	topics := []string{"run:1", "run:2", "user:1"}

	var wg sync.WaitGroup
	halfway := make(chan struct{})
	for i := range 8 {
		wg.Go(func() {
			for j := range 500 {
				if i == 0 && j == 250 {
					close(halfway)
				}
				err := bus.Publish(ctx, topics[(i+j)%len(topics)], json.RawMessage(`{}`))
				if err != nil && !errors.Is(err, realtime.ErrClosed) {
					t.Error(err)
					return
				}
			}
		})
		wg.Go(func() {
			for j := range 200 {
				sub := bus.Subscribe(topics[j%len(topics)], topics[(i+j+1)%len(topics)])
				select {
				case <-sub.C():
				default:
				}
				sub.Close()
			}
		})
	}
	// Closing the bus midway races it against publishers and subscriptions closing.
	wg.Go(func() {
		<-halfway
		bus.Close()
	})

	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("concurrent Publish, Subscribe and Close did not finish")
	}
}
