package activities

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"time"

	"agencyhub/models/relay"

	"github.com/google/uuid"
)

// ActionBotSetState is the action type key of BotSetState.
const ActionBotSetState = "bot.set_state"

// BotSessions keeps the dialog state of messenger bot chats, one per integration and chat,
// and the runs waiting for a chat's reply; *relay.Service is the real one.
type BotSessions interface {
	SetRunChatState(ctx context.Context, companyID, projectID, runID uuid.UUID, stateKey string,
		botContext map[string]any, merge bool) (map[string]any, error)
	AwaitRunChatReply(ctx context.Context, companyID, projectID, runID uuid.UUID, actionKey string, allowed []string,
		timeout time.Duration) error
}

// stateKeyPattern is the state_key of bot.set_state's config schema, checked again after
// rendering because a template may have produced it.
var stateKeyPattern = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,128}$`)

// maxBotContextBytes bounds a chat's saved context as JSON: it rides along in every later
// run of the chat.
const maxBotContextBytes = 64 << 10

// BotSetState is the bot.set_state action: it saves the dialog state of the chat whose
// update started the run. The chat and the integration are not in the config: they are the
// run's own (its messenger_a_relay namespace, kept with the run), so a workflow cannot write
// another chat's state, and a replay writes the same chat as the original run.
//
// Config: state_key; context_json (an object, default {}); merge_context (default false).
// Output: state_key and context_json as saved.
type BotSetState struct {
	Sessions BotSessions
}

// Run saves the state.
func (a BotSetState) Run(ctx context.Context, req Request) (Result, error) {
	stateKey, err := requiredString(req.Config, "state_key")
	if err != nil {
		return Result{}, err
	}
	if !stateKeyPattern.MatchString(stateKey) {
		return Result{}, invalidField("state_key", "field_state_key", nil)
	}
	botContext := map[string]any{}
	switch v := req.Config["context_json"].(type) {
	case nil:
	case map[string]any:
		botContext = v
	default:
		return Result{}, invalidField("context_json", "field_object", nil)
	}
	if raw, err := json.Marshal(botContext); err != nil || len(raw) > maxBotContextBytes {
		return Result{}, invalidField("context_json", "field_json_object_size", Args{"limit": strconv.Itoa(maxBotContextBytes)})
	}
	merge, _ := req.Config["merge_context"].(bool)

	saved, err := a.Sessions.SetRunChatState(ctx, req.CompanyID, req.ProjectID, req.RunID, stateKey, botContext, merge)
	switch {
	case errors.Is(err, relay.ErrNoBotChat):
		return Result{}, Failed(ClassValidation, "no_bot_chat", "no_bot_chat_state", "no_bot_chat.next", nil)
	case err != nil:
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return Result{}, Failed(ClassTransient, "state_not_saved", "state_not_saved", "retried.next", nil)
	}
	return Result{Output: map[string]any{"state_key": stateKey, "context_json": saved}}, nil
}
