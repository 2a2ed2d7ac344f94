package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/models/automation"
)

// BotSession is the dialog state of one chat of a bot integration, as bot.set_state left it.
type BotSession struct {
	ID                 uuid.UUID `gorm:"primaryKey"`
	CompanyID          uuid.UUID
	ProjectID          uuid.UUID
	ActionDependencyID uuid.UUID
	ChatID             string
	StateKey           string
	Context            string
	CreatedAt          time.Time
	UpdatedAt          time.Time
}

func (BotSession) TableName() string { return "bot_sessions" }

// SessionState is a chat's state as templates see it: {{ bot_session.state_key }} ("" before
// any bot.set_state) and {{ bot_session.context_json }} ({} before).
type SessionState struct {
	StateKey string
	Context  map[string]any
}

// Namespace is the bot_session template namespace.
func (st SessionState) Namespace() map[string]any {
	return map[string]any{"state_key": st.StateKey, "context_json": st.Context}
}

// Session reads the state of a chat of the relay's integration.
func (s *Service) Session(ctx context.Context, r *Relay, chatID string) (SessionState, error) {
	st := SessionState{Context: map[string]any{}}
	if chatID == "" {
		return st, nil
	}
	var row BotSession
	err := s.DB.WithContext(ctx).Take(
		&row, "action_dependency_id = ? AND company_id = ? AND chat_id = ?",
		r.ActionDependencyID, r.CompanyID, chatID,
	).Error
	if models.IsNotFound(err) {
		return st, nil
	}
	if err != nil {
		return st, models.Internal("read bot session: %w", err)
	}
	return SessionState{StateKey: row.StateKey, Context: decodeObject(row.Context)}, nil
}

// ErrNoBotChat is what SetRunChatState and AwaitRunChatReply answer for a run that no relayed bot update started
// (a manual or test run, a webhook run).
var ErrNoBotChat = errors.New("the run was not started by a bot update")

// SetRunChatState saves the dialog state of the chat whose bot update started the run, and
// answers the context as saved: the chat and integration are those of the update, read from
// the run's messenger_a_relay namespace, so a workflow cannot write another chat's state.
// With merge, botContext's top-level keys replace those of the saved context and the others
// stay; without, botContext replaces it. Errors: ErrNoBotChat, internal.
func (s *Service) SetRunChatState(ctx context.Context, companyID, projectID, runID uuid.UUID, stateKey string,
	botContext map[string]any, merge bool) (map[string]any, error) {
	depID, chatID, err := s.runChat(ctx, companyID, projectID, runID)
	if err != nil {
		return nil, err
	}
	var saved map[string]any
	// Two first states of one chat may race to insert; the loser finds the winner's row.
	for attempt := 0; ; attempt++ {
		err = s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			var row BotSession
			err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).
				Take(&row, "action_dependency_id = ? AND company_id = ? AND chat_id = ?", depID, companyID, chatID).Error
			now := s.now()
			saved = botContext
			switch {
			case models.IsNotFound(err):
				row = BotSession{ID: models.NewID(), CompanyID: companyID, ProjectID: projectID, ActionDependencyID: depID,
					ChatID: chatID, StateKey: stateKey, Context: encodeObject(saved), CreatedAt: now, UpdatedAt: now}
				return tx.Create(&row).Error
			case err != nil:
				return err
			}
			if merge {
				saved = decodeObject(row.Context)
				maps.Copy(saved, botContext)
			}
			return tx.Model(&BotSession{}).Where("id = ?", row.ID).
				Updates(map[string]any{"state_key": stateKey, "context": encodeObject(saved), "updated_at": now}).Error
		})
		if err == nil || attempt == 1 || !models.IsUniqueViolation(err) {
			break
		}
	}
	if err != nil {
		return nil, models.Internal("save bot session: %w", err)
	}
	return decodeObject(encodeObject(saved)), nil
}

// runChat answers the integration and chat of the bot update that started a run, from the
// run's messenger_a_relay namespace. Errors: ErrNoBotChat, internal.
func (s *Service) runChat(ctx context.Context, companyID, projectID, runID uuid.UUID) (uuid.UUID, string, error) {
	var run automation.Run
	if err := s.DB.WithContext(ctx).Take(&run, "id = ? AND company_id = ? AND project_id = ?", runID, companyID, projectID).Error; err != nil {
		return uuid.Nil, "", models.Internal("read run %s: %w", runID, err)
	}
	relayNS, _ := decodeObject(run.Namespaces)[Namespace].(map[string]any)
	chat, _ := relayNS["chat"].(map[string]any)
	chatID := idText(chat["id"])
	depText, _ := relayNS["action_dependency_id"].(string)
	depID, err := uuid.Parse(depText)
	if chatID == "" || err != nil {
		return uuid.Nil, "", ErrNoBotChat
	}
	return depID, chatID, nil
}

// decodeObject reads a JSON object column; numbers stay exact.
func decodeObject(s string) map[string]any {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var out map[string]any
	if dec.Decode(&out) != nil || out == nil {
		return map[string]any{}
	}
	return out
}

// encodeObject writes a JSON object column; the values are decoded JSON, so it cannot fail.
func encodeObject(m map[string]any) string {
	if m == nil {
		return "{}"
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic("relay: marshal: " + err.Error())
	}
	return string(b)
}
