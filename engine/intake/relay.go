package intake

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strconv"

	"github.com/google/uuid"

	"agencyhub/engine"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/relay"
)

// RelayDelivery is what became of one delivered bot update.
type RelayDelivery struct {
	UpdateID int64
	// Duplicate: the update id was stored before; nothing was started this time.
	Duplicate bool
	// RunIDs are the runs the update started (those of the first delivery for a duplicate).
	RunIDs []uuid.UUID
	// RepliedRunIDs are the runs waiting in bot.wait_for_reply that the update answered
	// instead (none for a duplicate).
	RepliedRunIDs []uuid.UUID
}

// DeliverRelayUpdate takes a bot update of relay r, whichever way it came (the messenger's
// webhook delivery, an API caller, the poller): it has the update stored and, the first time
// it arrives, either hands it to the runs of its chat waiting in bot.wait_for_reply for
// that kind of update, or, when none waits, starts a run of every workflow of the project
// whose current version has a matching relay trigger. A workflow that could not start is
// logged and does not fail the delivery (a run the engine refused is kept failed, and can
// be replayed): the update is stored either way, and a redelivery would be a duplicate.
// Errors: invalid (body, update_id), internal.
func (in *Intake) DeliverRelayUpdate(ctx context.Context, r *relay.Relay, raw json.RawMessage, source string) (RelayDelivery, error) {
	u, duplicate, err := in.Relays.Save(ctx, r, raw, source)
	if err != nil {
		return RelayDelivery{}, err
	}
	if duplicate {
		return RelayDelivery{UpdateID: u.UpdateID, Duplicate: true, RunIDs: nonNilIDs(u.RunIDs), RepliedRunIDs: []uuid.UUID{}}, nil
	}
	parsed, _, err := relay.Parse(json.RawMessage(u.Payload))
	if err != nil {
		return RelayDelivery{}, models.Internal("stored update %s does not parse: %w", u.ID, err)
	}
	replied, err := in.answerWaits(ctx, r, u, parsed)
	if err != nil {
		return RelayDelivery{}, err
	}
	if len(replied) > 0 {
		if err := in.Relays.MarkDispatched(ctx, u, []uuid.UUID{}); err != nil {
			return RelayDelivery{}, err
		}
		return RelayDelivery{UpdateID: u.UpdateID, RunIDs: []uuid.UUID{}, RepliedRunIDs: replied}, nil
	}
	session, err := in.Relays.Session(ctx, r, u.ChatID)
	if err != nil {
		return RelayDelivery{}, err
	}
	runIDs, err := in.startRelay(ctx, r, u, parsed, session)
	if models.IsKind(err, models.KindInternal) {
		return RelayDelivery{}, err
	}
	if err != nil {
		slog.WarnContext(ctx, "relay update: a workflow did not start",
			"action_dependency_id", r.ActionDependencyID, "update_id", u.UpdateID, "err", err)
	}
	if err := in.Relays.MarkDispatched(ctx, u, runIDs); err != nil {
		return RelayDelivery{}, err
	}
	return RelayDelivery{UpdateID: u.UpdateID, RunIDs: runIDs, RepliedRunIDs: []uuid.UUID{}}, nil
}

// answerWaits gives the update, as the output of bot.wait_for_reply, to the runs of its
// chat waiting for that kind of update, and answers their ids. The reply is stored with
// each wait, the intent to hand it over, and the dispatcher signals the runs, so a reply
// reaches its run even when Temporal is down now. Errors: internal.
func (in *Intake) answerWaits(ctx context.Context, r *relay.Relay, u *relay.Update, parsed relay.Parsed) ([]uuid.UUID, error) {
	reply := map[string]any{
		"timed_out": false, "update_id": json.Number(strconv.FormatInt(u.UpdateID, 10)), "update_type": parsed.Type,
		"message": parsed.Message, "callback_data": parsed.CallbackData, "command": parsed.Command, "command_args": parsed.Args,
		"chat": parsed.Chat, "from": parsed.From, "update": parsed.Object,
	}
	waits, err := in.Relays.ClaimReplyWaits(ctx, r, u.ChatID, u.UpdateType, reply)
	if err != nil {
		return nil, err
	}
	runIDs := make([]uuid.UUID, 0, len(waits))
	for _, w := range waits {
		runIDs = append(runIDs, w.RunID)
	}
	if len(waits) > 0 {
		in.Runs.OnQueued()
	}
	return runIDs, nil
}

// startRelay starts one run per workflow of the relay's project whose current published
// version has a messenger_a.relay.trigger for the relay's integration (its relay_key empty
// or the relay's) that allows the update's type: the index answers the triggers of the
// integration, the first of each workflow that matches starts it. The run's input is the update; its
// namespaces are messenger_a_relay (the update taken apart), messenger_a (update_id), the
// trigger's bot_key (the update) and bot_session (the chat's state when the update arrived).
// A workflow that cannot start (a template it names is gone) does not keep the others from
// starting, nor does one the engine refused (its run is kept failed, and counts as started):
// the ids of the runs started come with the first such problem. Other errors: internal.
func (in *Intake) startRelay(ctx context.Context, r *relay.Relay, u *relay.Update, parsed relay.Parsed,
	session relay.SessionState) ([]uuid.UUID, error) {
	triggers, err := in.Workflows.Triggers(ctx, automation.TriggerQuery{ActionTypeKey: automation.TypeRelay,
		CompanyID: r.CompanyID, ProjectID: r.ProjectID, TriggerKey: r.ActionDependencyID.String()})
	if err != nil {
		return nil, err
	}
	relayNS := map[string]any{
		"update_id":            json.Number(strconv.FormatInt(u.UpdateID, 10)),
		"update_type":          parsed.Type,
		"action_dependency_id": r.ActionDependencyID.String(),
		"command":              parsed.Command,
		"command_args":         parsed.Args,
		"callback_data":        parsed.CallbackData,
		"message":              parsed.Message,
		"chat":                 parsed.Chat,
		"from":                 parsed.From,
	}
	var fired firings
	for _, t := range triggers {
		botKey, ok := in.relayTriggerMatches(t, r, parsed.Type)
		if !ok || !fired.first(t) {
			continue
		}
		ns := map[string]any{
			relay.Namespace:        relayNS,
			relay.UpdateNamespace:  map[string]any{"update_id": relayNS["update_id"]},
			relay.SessionNamespace: session.Namespace(),
			botKey:                 parsed.Object,
		}
		run, err := in.fire(ctx, t, engine.TriggerRelay, engine.Start{Payload: parsed.Object, Namespaces: ns})
		if err := fired.add(t, run, err); err != nil {
			return fired.runIDs(), err
		}
	}
	return fired.runIDs(), fired.problem
}

// relayTriggerMatches tells whether an indexed messenger_a.relay.trigger takes an update of
// updateType through relay r (its relay_key empty or r's, the type allowed), and answers
// its bot_key.
func (in *Intake) relayTriggerMatches(t automation.Trigger, r *relay.Relay, updateType string) (botKey string, ok bool) {
	typ, known := in.Catalog.Action(automation.TypeRelay)
	if !known || updateType == "" {
		return "", false
	}
	config := typ.ApplyDefaults(t.Config)
	key, _ := config["relay_key"].(string)
	allowed, _ := config["allowed_updates"].([]any)
	if key != "" && key != r.RelayKey || !slices.Contains(allowed, any(updateType)) {
		return "", false
	}
	if botKey, _ = config["bot_key"].(string); botKey == "" {
		botKey = "bot"
	}
	return botKey, true
}

func nonNilIDs(ids []uuid.UUID) []uuid.UUID {
	if ids == nil {
		return []uuid.UUID{}
	}
	return ids
}
