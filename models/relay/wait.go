package relay

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// ReplyWait is a run waiting in bot.wait_for_reply for the next update of its chat, and,
// once an update answered it, that reply until the run is told.
type ReplyWait struct {
	ID                 uuid.UUID `gorm:"primaryKey"`
	CompanyID          uuid.UUID
	ProjectID          uuid.UUID
	ActionDependencyID uuid.UUID
	ChatID             string
	RunID              uuid.UUID
	ActionKey          string
	// AllowedUpdates are the kinds of update that count as the reply.
	AllowedUpdates []string `gorm:"serializer:json"`
	ExpiresAt      time.Time
	// Reply is the action's output for the update that answered it (JSON), ClaimedAt when
	// that update came; both are empty while the run waits.
	Reply     *string
	ClaimedAt *time.Time
	CreatedAt time.Time
}

func (ReplyWait) TableName() string { return "bot_reply_waits" }

// ReplyJSON decodes the reply of a claimed wait.
func (w ReplyWait) ReplyJSON() map[string]any {
	if w.Reply == nil {
		return nil
	}
	return decodeObject(*w.Reply)
}

// AwaitRunChatReply records that an action of a run waits, for timeout from now, for the
// next update of one of the allowed kinds from the chat whose update started the run (read
// from the run's messenger_a_relay namespace, as SetRunChatState does). Recording it again
// (an activity retried) renews the same wait and keeps a reply that has come. Errors:
// ErrNoBotChat, internal.
func (s *Service) AwaitRunChatReply(ctx context.Context, companyID, projectID, runID uuid.UUID, actionKey string,
	allowed []string, timeout time.Duration) error {
	depID, chatID, err := s.runChat(ctx, companyID, projectID, runID)
	if err != nil {
		return err
	}
	now := s.now()
	w := ReplyWait{
		ID: models.NewID(), CompanyID: companyID, ProjectID: projectID, ActionDependencyID: depID, ChatID: chatID,
		RunID: runID, ActionKey: actionKey, AllowedUpdates: allowed, ExpiresAt: now.Add(timeout), CreatedAt: now,
	}
	err = s.DB.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "run_id"}, {Name: "action_key"}},
		DoUpdates: clause.AssignmentColumns([]string{"allowed_updates", "expires_at"}),
	}).Create(&w).Error
	if err != nil {
		return models.Internal("record reply wait: %w", err)
	}
	return nil
}

// ClaimReplyWaits gives a reply, the output of the waiting actions, to the waits an update
// of a chat of relay r answers: those of that chat, not expired, not yet answered, allowing
// the update's kind. A wait is claimed by a conditional update, so of two updates or two
// instances claiming at once only one gets it. The chat's expired waits are deleted.
// Errors: internal.
func (s *Service) ClaimReplyWaits(ctx context.Context, r *Relay, chatID, updateType string, reply map[string]any) ([]ReplyWait, error) {
	if chatID == "" {
		return nil, nil
	}
	db := s.DB.WithContext(ctx)
	now := s.now()
	chat := db.Where(
		"action_dependency_id = ? AND company_id = ? AND chat_id = ? AND claimed_at IS NULL",
		r.ActionDependencyID, r.CompanyID, chatID,
	).
		Session(&gorm.Session{}) // reused by both statements below
	if err := chat.Where("expires_at <= ?", now).Delete(&ReplyWait{}).Error; err != nil {
		return nil, models.Internal("delete expired reply waits: %w", err)
	}
	var waits []ReplyWait
	if err := chat.Order("created_at, id").Find(&waits).Error; err != nil {
		return nil, models.Internal("read reply waits: %w", err)
	}
	raw, err := json.Marshal(reply)
	if err != nil {
		return nil, models.Internal("encode reply: %w", err)
	}
	text := string(raw)
	var claimed []ReplyWait
	for _, w := range waits {
		if !slices.Contains(w.AllowedUpdates, updateType) {
			continue
		}
		res := db.Model(&ReplyWait{}).Where("id = ? AND claimed_at IS NULL", w.ID).
			Updates(map[string]any{"reply": text, "claimed_at": now})
		if res.Error != nil {
			return claimed, models.Internal("claim reply wait: %w", res.Error)
		}
		if res.RowsAffected == 1 {
			w.Reply, w.ClaimedAt = &text, &now
			claimed = append(claimed, w)
		}
	}
	return claimed, nil
}

// ClaimedReplies lists claimed waits whose runs have not been told yet, oldest first.
// Errors: internal.
func (s *Service) ClaimedReplies(ctx context.Context, limit int) ([]ReplyWait, error) {
	var waits []ReplyWait
	err := s.DB.WithContext(ctx).Where("claimed_at IS NOT NULL").Order("claimed_at, id").Limit(limit).Find(&waits).Error
	if err != nil {
		return nil, models.Internal("read claimed replies: %w", err)
	}
	return waits, nil
}

// ReplyDelivered forgets a claimed wait once its run has its reply (or has ended).
// Errors: internal.
func (s *Service) ReplyDelivered(ctx context.Context, w ReplyWait) error {
	if err := s.DB.WithContext(ctx).Delete(&ReplyWait{}, "id = ?", w.ID).Error; err != nil {
		return models.Internal("forget delivered reply: %w", err)
	}
	return nil
}
