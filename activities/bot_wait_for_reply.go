package activities

import (
	"context"
	"errors"
	"math"
	"time"

	"agencyhub/models/relay"
)

// ActionBotWaitForReply is the action type key of BotWaitForReply.
const ActionBotWaitForReply = "bot.wait_for_reply"

// Bounds of bot.wait_for_reply's timeout_seconds: an hour by default, 30 days at most.
const (
	replyDefaultTimeout = 3600
	replyMaxTimeout     = 30 * 24 * 3600
)

// replyDefaultUpdates are the kinds of update that answer a wait whose config names none.
var replyDefaultUpdates = []string{"message", "callback_query"}

// BotWaitForReply is the activity half of the bot.wait_for_reply action: it records that
// the run waits, for timeout_seconds from now, for the next update of the chat whose
// update started it (the chat and the integration are the run's own, as for
// bot.set_state), and with state_key sets the chat's dialog state meanwhile. The workflow
// half then waits durably for the reply the relay intake hands over, or for as long again:
// the recorded wait expires first, so no reply is taken by a run that has stopped waiting.
//
// Config: timeout_seconds (default 3600, at most 30 days); allowed_updates (default message
// and callback_query); state_key (default "": the state stays). Output: timeout_seconds,
// how long the workflow half waits.
type BotWaitForReply struct {
	Sessions BotSessions
}

// Run records the wait.
func (a BotWaitForReply) Run(ctx context.Context, req Request) (Result, error) {
	seconds, err := optionalSeconds(req.Config, "timeout_seconds", replyDefaultTimeout, replyMaxTimeout)
	if err != nil {
		return Result{}, err
	}
	allowed, err := stringList(req.Config, "allowed_updates")
	if err != nil {
		return Result{}, err
	}
	if len(allowed) == 0 {
		allowed = replyDefaultUpdates
	}
	stateKey, err := optionalString(req.Config, "state_key")
	if err != nil {
		return Result{}, err
	}
	if stateKey != "" && !stateKeyPattern.MatchString(stateKey) {
		return Result{}, invalidField("state_key", "field_state_key", nil)
	}

	whole := int(math.Ceil(seconds))
	err = a.Sessions.AwaitRunChatReply(ctx, req.CompanyID, req.ProjectID, req.RunID, req.ActionKey, allowed, time.Duration(whole)*time.Second)
	if err == nil && stateKey != "" {
		_, err = a.Sessions.SetRunChatState(ctx, req.CompanyID, req.ProjectID, req.RunID, stateKey, map[string]any{}, true)
	}
	switch {
	case errors.Is(err, relay.ErrNoBotChat):
		return Result{}, Failed(ClassValidation, "no_bot_chat", "no_bot_chat_wait", "no_bot_chat.next", nil)
	case err != nil:
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return Result{}, Failed(ClassTransient, "wait_not_recorded", "wait_not_recorded", "retried.next", nil)
	}
	return Result{Output: map[string]any{"timeout_seconds": whole}}, nil
}
