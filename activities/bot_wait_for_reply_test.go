package activities

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

func TestBotWaitForReply(t *testing.T) {
	run := func(s *chatSessions, config map[string]any) (Result, error) {
		return BotWaitForReply{Sessions: s}.Run(context.Background(), Request{ActionKey: "answer", Config: config})
	}
	t.Run("records the wait with the defaults and answers how long to wait", func(t *testing.T) {
		s := &chatSessions{}
		res, err := run(s, map[string]any{})
		if err != nil || len(s.waits) != 1 {
			t.Fatalf("result %v, %v, waits %v", res, err, s.waits)
		}
		w := s.waits[0]
		if w.actionKey != "answer" || !slices.Equal(w.allowed, []string{"message", "callback_query"}) || w.timeout != time.Hour {
			t.Fatalf("wait %+v", w)
		}
		if res.Output["timeout_seconds"] != 3600 || s.state != "" {
			t.Fatalf("output %v, state %q", res.Output, s.state)
		}
	})
	t.Run("a timeout, the kinds of reply and a state key are taken from the config", func(t *testing.T) {
		s := &chatSessions{}
		_, err := run(s, map[string]any{"timeout_seconds": float64(90), "allowed_updates": []any{"callback_query"}, "state_key": "quiz"})
		if err != nil || len(s.waits) != 1 || s.waits[0].timeout != 90*time.Second ||
			!slices.Equal(s.waits[0].allowed, []string{"callback_query"}) || s.state != "quiz" {
			t.Fatalf("err %v, waits %+v, state %q", err, s.waits, s.state)
		}
	})
	t.Run("a run no bot update started fails as validation", func(t *testing.T) {
		_, err := run(&chatSessions{noChat: true}, map[string]any{})
		requireFailure(t, err, ClassValidation, "no_bot_chat")
	})
	t.Run("a timeout out of bounds or a spoiled state key fails before anything is recorded", func(t *testing.T) {
		for _, config := range []map[string]any{{"timeout_seconds": float64(0)}, {"timeout_seconds": float64(2592001)}, {"state_key": "not a key"}} {
			s := &chatSessions{}
			_, err := run(s, config)
			requireFailure(t, err, ClassValidation, "invalid_config")
			if s.calls != 0 {
				t.Fatalf("%v: %d calls", config, s.calls)
			}
		}
	})
	t.Run("a database failure is transient", func(t *testing.T) {
		_, err := run(&chatSessions{err: errors.New("disk full")}, map[string]any{})
		requireFailure(t, err, ClassTransient, "wait_not_recorded")
	})
}
