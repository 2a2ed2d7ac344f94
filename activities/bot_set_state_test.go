package activities

import (
	"context"
	"errors"
	"testing"
	"time"

	"agencyhub/models/relay"

	"github.com/google/uuid"
)

// chatSessions is a BotSessions of one chat, or of none (a run no update started).
type chatSessions struct {
	noChat bool
	err    error
	calls  int
	state  string
	saved  map[string]any
	waits  []wait
}

// wait is a recorded bot.wait_for_reply wait.
type wait struct {
	actionKey string
	allowed   []string
	timeout   time.Duration
}

func (s *chatSessions) AwaitRunChatReply(_ context.Context, _, _, _ uuid.UUID, actionKey string, allowed []string, timeout time.Duration) error {
	s.calls++
	if s.noChat {
		return relay.ErrNoBotChat
	}
	if s.err != nil {
		return s.err
	}
	s.waits = append(s.waits, wait{actionKey, allowed, timeout})
	return nil
}

func (s *chatSessions) SetRunChatState(_ context.Context, _, _, _ uuid.UUID, stateKey string, botContext map[string]any, merge bool) (map[string]any, error) {
	s.calls++
	if s.noChat {
		return nil, relay.ErrNoBotChat
	}
	if s.err != nil {
		return nil, s.err
	}
	if !merge || s.saved == nil {
		s.saved = map[string]any{}
	}
	for k, v := range botContext {
		s.saved[k] = v
	}
	s.state = stateKey
	return s.saved, nil
}

func TestBotSetState(t *testing.T) {
	run := func(s *chatSessions, config map[string]any) (Result, error) {
		return BotSetState{Sessions: s}.Run(context.Background(), Request{Config: config})
	}
	t.Run("saves the state and answers it as saved", func(t *testing.T) {
		s := &chatSessions{saved: map[string]any{"lang": "en"}}
		res, err := run(s, map[string]any{"state_key": "awaiting_email", "context_json": map[string]any{"name": "Ada"}, "merge_context": true})
		if err != nil || s.state != "awaiting_email" || res.Output["state_key"] != "awaiting_email" {
			t.Fatalf("result %v, %v", res, err)
		}
		if saved := res.Output["context_json"].(map[string]any); saved["lang"] != "en" || saved["name"] != "Ada" {
			t.Fatalf("context %v", saved)
		}
	})
	t.Run("a run no bot update started fails as validation", func(t *testing.T) {
		_, err := run(&chatSessions{noChat: true}, map[string]any{"state_key": "x"})
		requireFailure(t, err, ClassValidation, "no_bot_chat")
	})
	t.Run("a state key a template spoiled fails before anything is saved", func(t *testing.T) {
		s := &chatSessions{}
		_, err := run(s, map[string]any{"state_key": "not a key"})
		requireFailure(t, err, ClassValidation, "invalid_config")
		_, err = run(s, map[string]any{"state_key": "ok", "context_json": "text"})
		requireFailure(t, err, ClassValidation, "invalid_config")
		if s.calls != 0 {
			t.Fatalf("the store was called %d times", s.calls)
		}
	})
	t.Run("a storage failure is retried", func(t *testing.T) {
		_, err := run(&chatSessions{err: errors.New("database is locked")}, map[string]any{"state_key": "x"})
		requireFailure(t, err, ClassTransient, "state_not_saved")
	})
}
