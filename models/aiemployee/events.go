package aiemployee

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// Session event types, as the message stream sends them.
const (
	EventMessageCreated  = "message.created"
	EventMessageDelta    = "message.delta"
	EventToolCallCreated = "tool_call.created"
	EventToolCallUpdated = "tool_call.updated"
	EventApprovalNeeded  = "approval.needed"
	EventDone            = "done"
	EventError           = "error"
)

// Event is one entry of a session's ordered record; Sequence is its stream id.
type Event struct {
	SessionID uuid.UUID `gorm:"primaryKey"`
	Sequence  int       `gorm:"primaryKey"`
	Turn      int
	EventType string
	Data      map[string]any `gorm:"column:data_json;serializer:json"`
	CreatedAt time.Time
}

// TableName is the events' table.
func (Event) TableName() string { return "ai_session_events" }

// Ends reports whether the event ends what a message's answer waits for: the turn is done,
// failed, or waits for the user's approval.
func (e Event) Ends() bool {
	return e.EventType == EventDone || e.EventType == EventError || e.EventType == EventApprovalNeeded
}

// event appends an event to the locked session cur, in tx, for its current turn.
func (s *Service) event(tx *gorm.DB, cur *Session, typ string, data map[string]any) error {
	cur.EventSequence++
	var normalized map[string]any
	_ = json.Unmarshal([]byte(encode(data)), &normalized) // stored and answered alike
	e := Event{SessionID: cur.ID, Sequence: cur.EventSequence, Turn: cur.Turn, EventType: typ, Data: normalized, CreatedAt: s.now()}
	if err := tx.Create(&e).Error; err != nil {
		return models.Internal("store ai session event: %w", err)
	}
	return nil
}

// AppendDelta records a piece of the assistant's text as it streams; it does not change
// the session's revision (the finished message does).
func (s *Service) AppendDelta(ctx context.Context, sessionID uuid.UUID, step int, text string) error {
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var cur Session
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&cur, "id = ?", sessionID).Error; err != nil {
			return models.Internal("lock ai session: %w", err)
		}
		if err := s.event(tx, &cur, EventMessageDelta, map[string]any{"step": step, "text": text}); err != nil {
			return err
		}
		return tx.Model(&Session{}).Where("id = ?", sessionID).Update("event_sequence", cur.EventSequence).Error
	})
	if err != nil {
		return models.AsError(err)
	}
	s.notify(ctx, sessionID)
	return nil
}

// Events answers the session's events after a sequence number, at most limit of them.
func (s *Service) Events(ctx context.Context, sessionID uuid.UUID, after, limit int) ([]Event, error) {
	var out []Event
	err := s.DB.WithContext(ctx).Where("session_id = ? AND sequence > ?", sessionID, after).Order("sequence").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, models.Internal("read ai session events: %w", err)
	}
	return out, nil
}
