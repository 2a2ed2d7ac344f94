package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strconv"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/relay"
)

// Relay receives the bot updates of messenger relays, whichever way they come (the
// messenger's webhook delivery, an API caller, the poller): it stores each update once and
// starts the runs it triggers.
type Relay struct {
	Store *relay.Service
	Runs  *Runs
	Log   *slog.Logger
}

// Delivery is what became of one delivered update.
type Delivery struct {
	UpdateID int64
	// Duplicate: the update id was stored before; nothing was started this time.
	Duplicate bool
	// RunIDs are the runs the update started (those of the first delivery for a duplicate).
	RunIDs []uuid.UUID
}

// Deliver stores an update of relay r and, the first time it arrives, starts a run of every
// workflow of the project whose current version has a matching relay trigger. A workflow
// that could not start is logged and does not fail the delivery (a run the engine refused
// is kept failed, and can be replayed): the update is stored either way, and a redelivery
// would be a duplicate. Errors: invalid (body, update_id), internal.
func (d *Relay) Deliver(ctx context.Context, r *relay.Relay, raw json.RawMessage, source string) (Delivery, error) {
	u, duplicate, err := d.Store.Save(ctx, r, raw, source)
	if err != nil {
		return Delivery{}, err
	}
	if duplicate {
		return Delivery{UpdateID: u.UpdateID, Duplicate: true, RunIDs: nonNilIDs(u.RunIDs)}, nil
	}
	session, err := d.Store.Session(ctx, r, u.ChatID)
	if err != nil {
		return Delivery{}, err
	}
	runIDs, err := d.Runs.StartRelay(ctx, r, u, session)
	if models.IsKind(err, models.KindInternal) {
		return Delivery{}, err
	}
	if err != nil {
		d.log().WarnContext(ctx, "relay update: a workflow did not start",
			"action_dependency_id", r.ActionDependencyID, "update_id", u.UpdateID, "err", err)
	}
	if err := d.Store.MarkDispatched(ctx, u, runIDs); err != nil {
		return Delivery{}, err
	}
	return Delivery{UpdateID: u.UpdateID, RunIDs: runIDs}, nil
}

func (d *Relay) log() *slog.Logger {
	if d.Log != nil {
		return d.Log
	}
	return slog.Default()
}

// StartRelay starts one run per workflow of the relay's project whose current published
// version has a messenger_a.relay.trigger for the relay's integration (its relay_key empty
// or the relay's) that allows the update's type. The run's input is the update; its
// namespaces are messenger_a_relay (the update taken apart), messenger_a (update_id), the
// trigger's bot_key (the update) and bot_session (the chat's state when the update arrived).
// A workflow that cannot start (a template it names is gone) does not keep the others from
// starting, nor does one the engine refused (its run is kept failed, and counts as started):
// the ids of the runs started come with the first such problem. Other errors: internal.
func (s *Runs) StartRelay(ctx context.Context, r *relay.Relay, u *relay.Update, session relay.SessionState) ([]uuid.UUID, error) {
	parsed, _, err := relay.Parse(json.RawMessage(u.Payload))
	if err != nil {
		return nil, models.Internal("stored update %s does not parse: %w", u.ID, err)
	}
	var workflows []automation.Workflow
	// The integration id in the graph text narrows the scan to workflows that can match.
	err = s.DB.WithContext(ctx).Table("workflows").Select("workflows.*").
		Joins("JOIN workflow_versions ON workflow_versions.id = workflows.current_version_id").
		Where("workflows.company_id = ? AND workflows.project_id = ? AND workflow_versions.actions LIKE ?",
			r.CompanyID, r.ProjectID, "%"+r.ActionDependencyID.String()+"%").
		Order("workflows.id").Find(&workflows).Error
	if err != nil {
		return nil, models.Internal("find relay workflows: %w", err)
	}
	relayNS := map[string]any{
		"update_id": json.Number(strconv.FormatInt(u.UpdateID, 10)), "update_type": parsed.Type, "action_dependency_id": r.ActionDependencyID.String(),
		"command": parsed.Command, "command_args": parsed.Args, "callback_data": parsed.CallbackData,
		"message": parsed.Message, "chat": parsed.Chat, "from": parsed.From,
	}
	runIDs := []uuid.UUID{}
	var problem error
	for i := range workflows {
		w := &workflows[i]
		v, err := s.Workflows.CurrentVersion(ctx, w)
		if err != nil {
			return runIDs, err
		}
		g := v.Graph()
		trigger, botKey, ok := s.relayTrigger(g, r, parsed.Type)
		if !ok {
			continue
		}
		ns := map[string]any{
			relay.Namespace:        relayNS,
			relay.UpdateNamespace:  map[string]any{"update_id": relayNS["update_id"]},
			relay.SessionNamespace: session.Namespace(),
			botKey:                 parsed.Object,
		}
		run, err := s.start(ctx, Start{Workflow: w, Version: v, Graph: g, TriggerType: TriggerRelay, TriggerKey: trigger,
			Payload: parsed.Object, Namespaces: ns})
		if run != nil {
			runIDs = append(runIDs, run.ID)
		}
		switch {
		case models.IsKind(err, models.KindInternal):
			return runIDs, err
		case err != nil && problem == nil:
			problem = fmt.Errorf("workflow %s: %w", w.ID, err)
		}
	}
	return runIDs, problem
}

// relayTrigger finds the graph's first messenger_a.relay.trigger for the relay that allows
// updateType, and its bot_key.
func (s *Runs) relayTrigger(g automation.Graph, r *relay.Relay, updateType string) (key, botKey string, ok bool) {
	t, known := s.Catalog.Action(automation.TypeRelay)
	if !known || updateType == "" {
		return "", "", false
	}
	for _, a := range g.Actions {
		if a.ActionTypeKey != automation.TypeRelay {
			continue
		}
		config := t.ApplyDefaults(a.Config)
		dep, _ := config["action_dependency_id"].(string)
		key, _ := config["relay_key"].(string)
		if dep != r.ActionDependencyID.String() || (key != "" && key != r.RelayKey) {
			continue
		}
		allowed, _ := config["allowed_updates"].([]any)
		if !slices.Contains(allowed, any(updateType)) {
			continue
		}
		botKey, _ = config["bot_key"].(string)
		if botKey == "" {
			botKey = "bot"
		}
		return a.ActionKey, botKey, true
	}
	return "", "", false
}

func nonNilIDs(ids []uuid.UUID) []uuid.UUID {
	if ids == nil {
		return []uuid.UUID{}
	}
	return ids
}
