package aiemployee

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// Tool call statuses. A call that needs approval waits in pending_approval until the user
// approves (approved, then running) or rejects it, or its time runs out (rejected too).
const (
	ToolPendingApproval = "pending_approval"
	ToolApproved        = "approved"
	ToolRejected        = "rejected"
	ToolRunning         = "running"
	ToolSucceeded       = "succeeded"
	ToolFailed          = "failed"
	ToolCancelled       = "cancelled"
)

// ToolCall is one call of a tool the model asked for in a step of a turn.
type ToolCall struct {
	ID               uuid.UUID `gorm:"primaryKey"`
	CompanyID        uuid.UUID
	ProjectID        uuid.UUID
	SessionID        uuid.UUID
	MessageID        uuid.UUID
	ProviderCallID   string
	Turn             int
	Step             int
	Position         int
	ToolKey          string
	Status           string
	RiskLevel        string
	RequiresApproval bool
	Input            map[string]any `gorm:"column:input_json;serializer:json"`
	Output           map[string]any `gorm:"column:output_json;serializer:json"`
	DecidedByUserID  *uuid.UUID
	DecidedAt        *time.Time
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// TableName is the tool calls' table.
func (ToolCall) TableName() string { return "ai_tool_calls" }

// Settled reports whether the call has its final status.
func (t *ToolCall) Settled() bool {
	return t.Status == ToolSucceeded || t.Status == ToolFailed || t.Status == ToolRejected || t.Status == ToolCancelled
}

// StepID derives the id of a model step's message, so that a retried step finds what an
// earlier attempt stored.
func StepID(sessionID uuid.UUID, turn, step int) uuid.UUID {
	return uuid.NewSHA1(sessionID, fmt.Appendf(nil, "turn/%d/step/%d", turn, step))
}

// ToolCallID derives the id of the position-th tool call of a model step.
func ToolCallID(sessionID uuid.UUID, turn, step, position int) uuid.UUID {
	return uuid.NewSHA1(sessionID, fmt.Appendf(nil, "turn/%d/step/%d/call/%d", turn, step, position))
}

// Step is what a model step stored: the assistant's text and its tool calls.
type Step struct {
	Message   Message
	ToolCalls []ToolCall
}

// StepOf answers the step stored for a turn, nil if none is.
func (s *Service) StepOf(ctx context.Context, sessionID uuid.UUID, turn, step int) (*Step, error) {
	var msg Message
	err := s.DB.WithContext(ctx).Take(&msg, "id = ?", StepID(sessionID, turn, step)).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, models.Internal("read ai step: %w", err)
	}
	out := &Step{Message: msg}
	err = s.DB.WithContext(ctx).
		Where("session_id = ? AND turn = ? AND step = ?", sessionID, turn, step).
		Order("position").
		Find(&out.ToolCalls).Error
	if err != nil {
		return nil, models.Internal("read ai step tool calls: %w", err)
	}
	return out, nil
}

// RecordStep stores a model step's text and tool calls (whose ids, positions and statuses
// the caller set) with their events, and marks the session waiting when one of them needs
// approval; each call that does is recorded as ToolCallAwaitingApproval. A step already
// stored is answered as it was.
func (s *Service) RecordStep(ctx context.Context, sessionID uuid.UUID, turn, step int, text string, calls []ToolCall) (*Step, error) {
	if done, err := s.StepOf(ctx, sessionID, turn, step); done != nil || err != nil {
		return done, err
	}
	out := &Step{}
	approvals := false
	_, err := s.change(ctx, sessionID, func(tx *gorm.DB, cur *Session) error {
		now := s.now()
		out.Message = Message{ID: StepID(sessionID, turn, step), CompanyID: cur.CompanyID, SessionID: sessionID, Turn: turn, Step: step,
			Role: RoleAssistant, Content: text, CreatedAt: now}
		if err := tx.Create(&out.Message).Error; err != nil {
			return models.Internal("store ai step: %w", err)
		}
		if text != "" {
			if err := s.event(tx, cur, EventMessageCreated, map[string]any{
				"message_id": out.Message.ID,
				"role":       RoleAssistant,
				"content":    text,
			}); err != nil {
				return err
			}
		}
		for i := range calls {
			c := calls[i]
			c.CompanyID, c.ProjectID, c.SessionID, c.MessageID, c.Turn, c.Step = cur.CompanyID, cur.ProjectID, sessionID, out.Message.ID, turn, step
			c.CreatedAt, c.UpdatedAt = now, now
			if err := tx.Create(&c).Error; err != nil {
				return models.Internal("store ai tool call: %w", err)
			}
			out.ToolCalls = append(out.ToolCalls, c)
			if err := s.event(tx, cur, EventToolCallCreated, toolCallEvent(&c)); err != nil {
				return err
			}
			if c.Status == ToolPendingApproval {
				awaiting := ToolCallAwaitingApproval{
					ToolCallID: c.ID,
					CompanyID:  c.CompanyID,
					ProjectID:  c.ProjectID,
					UserID:     cur.UserID,
					ToolKey:    c.ToolKey,
				}
				if err := models.RecordEvent(tx, now, awaiting); err != nil {
					return err
				}
				approvals = true
			}
			if c.Status == ToolPendingApproval && cur.Status != SessionWaitingApproval {
				cur.Status, cur.ActiveToolCallID = SessionWaitingApproval, &c.ID
				if err := s.event(tx, cur, EventApprovalNeeded, toolCallEvent(&c)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err == nil && approvals {
		models.AnnounceEvents(ctx, s.Bus)
	}
	return out, err
}

func toolCallEvent(c *ToolCall) map[string]any {
	return map[string]any{"ai_tool_call_id": c.ID, "tool_key": c.ToolKey, "status": c.Status, "risk_level": c.RiskLevel,
		"requires_approval": c.RequiresApproval, "input_json": c.Input, "output_json": c.Output}
}

// ToolCallAwaitingApproval is the domain event of a tool call the model asked for that
// waits for the approval of the session's user.
type ToolCallAwaitingApproval struct {
	ToolCallID uuid.UUID `json:"ai_tool_call_id"`
	CompanyID  uuid.UUID `json:"company_id"`
	ProjectID  uuid.UUID `json:"project_id"`
	UserID     uuid.UUID `json:"user_id"`
	ToolKey    string    `json:"tool_key"`
}

func (ToolCallAwaitingApproval) EventName() string { return "ai.tool_call.awaiting_approval" }

// ToolCallOf loads a tool call of a session of the user in the project.
func (s *Service) ToolCallOf(ctx context.Context, companyID, projectID, userID, id uuid.UUID) (*ToolCall, error) {
	var c ToolCall
	err := s.DB.WithContext(ctx).Table("ai_tool_calls").Select("ai_tool_calls.*").
		Joins("JOIN ai_chat_sessions ON ai_chat_sessions.id = ai_tool_calls.session_id").
		Where(
			"ai_tool_calls.id = ? AND ai_tool_calls.company_id = ? AND ai_tool_calls.project_id = ? AND ai_chat_sessions.user_id = ?",
			id, companyID, projectID, userID,
		).
		Take(&c).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, models.NotFound("ai_tool_call_not_found")
	}
	if err != nil {
		return nil, models.Internal("read ai tool call: %w", err)
	}
	return &c, nil
}

// ToolCall loads a tool call by id, for the agent.
func (s *Service) ToolCall(ctx context.Context, id uuid.UUID) (*ToolCall, error) {
	var c ToolCall
	if err := s.DB.WithContext(ctx).Take(&c, "id = ?", id).Error; err != nil {
		return nil, models.Internal("read ai tool call %s: %w", id, err)
	}
	return &c, nil
}

// updateToolCall changes a tool call of the locked session through fn, records a
// tool_call.updated event, and lets the session run again once no call of the turn waits.
func (s *Service) updateToolCall(ctx context.Context, c *ToolCall, fn func(c *ToolCall) error) (*ToolCall, error) {
	var out ToolCall
	_, err := s.change(ctx, c.SessionID, func(tx *gorm.DB, cur *Session) error {
		if err := tx.Take(&out, "id = ?", c.ID).Error; err != nil {
			return models.Internal("read ai tool call: %w", err)
		}
		if err := fn(&out); err != nil {
			return err
		}
		out.UpdatedAt = s.now()
		if err := tx.Save(&out).Error; err != nil {
			return models.Internal("store ai tool call: %w", err)
		}
		if cur.Status == SessionWaitingApproval && out.Status != ToolPendingApproval {
			var waiting int64
			if err := tx.Model(&ToolCall{}).
				Where("session_id = ? AND status = ? AND id <> ?", cur.ID, ToolPendingApproval, out.ID).
				Count(&waiting).Error; err != nil {
				return models.Internal("count waiting ai tool calls: %w", err)
			}
			if waiting == 0 {
				cur.Status, cur.ActiveToolCallID = SessionRunning, nil
			}
		}
		return s.event(tx, cur, EventToolCallUpdated, toolCallEvent(&out))
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// PatchInput replaces the input of a call that waits for approval; the caller validated it
// against the tool's schema. Errors: conflict (status) once the call was decided.
func (s *Service) PatchInput(ctx context.Context, c *ToolCall, input map[string]any) (*ToolCall, error) {
	return s.updateToolCall(ctx, c, func(cur *ToolCall) error {
		if cur.Status != ToolPendingApproval {
			return models.Conflict("ai_tool_call_decided", "status")
		}
		cur.Input = input
		return nil
	})
}

// Decide approves or rejects a call that waits (byUser nil: its time ran out). Deciding
// again the same way answers the call as it is (repeated is true); the other way once
// decided is a conflict (status).
func (s *Service) Decide(ctx context.Context, c *ToolCall, approve bool, byUser *uuid.UUID,
	reason string) (out *ToolCall, repeated bool, err error) {
	want := ToolRejected
	if approve {
		want = ToolApproved
	}
	out, err = s.updateToolCall(ctx, c, func(cur *ToolCall) error {
		switch {
		case cur.Status == ToolPendingApproval:
		case cur.Status == want || approve && (cur.Status == ToolRunning || cur.Status == ToolSucceeded || cur.Status == ToolFailed):
			repeated = true
			return nil
		default:
			return models.Conflict("ai_tool_call_decided", "status")
		}
		now := s.now()
		cur.Status, cur.DecidedByUserID, cur.DecidedAt = want, byUser, &now
		if !approve {
			cur.Output = map[string]any{"rejected": true, "reason": reason}
		}
		return nil
	})
	return out, repeated, err
}

// StartToolCall marks an approved (or approval-free) call running. A call already past
// that answers false: it ran, or was decided against.
func (s *Service) StartToolCall(ctx context.Context, c *ToolCall) (*ToolCall, bool, error) {
	started := false
	out, err := s.updateToolCall(ctx, c, func(cur *ToolCall) error {
		if cur.Status == ToolApproved || cur.Status == ToolRunning {
			cur.Status, started = ToolRunning, true
		}
		return nil
	})
	return out, started, err
}

// FinishToolCall stores a call's output and its outcome.
func (s *Service) FinishToolCall(ctx context.Context, c *ToolCall, output map[string]any, failed bool) (*ToolCall, error) {
	return s.updateToolCall(ctx, c, func(cur *ToolCall) error {
		cur.Status, cur.Output = ToolSucceeded, output
		if failed {
			cur.Status = ToolFailed
		}
		return nil
	})
}

// Turn outcomes.
const (
	TurnDone      = "done"
	TurnFailed    = "failed"
	TurnCancelled = "cancelled"
)

// TurnDetail is why a turn failed: its text in English and, where the failure table words
// it, its key and arguments, which the API words again in the reader's language.
type TurnDetail struct {
	Text, TextKey string
	Args          map[string]string
}

// EndTurn closes a turn: calls of it still waiting or not run are cancelled, the session
// is idle again, and a done (or error) event ends the turn's streams.
func (s *Service) EndTurn(ctx context.Context, sessionID uuid.UUID, turn int, outcome string, detail TurnDetail) (*Session, error) {
	return s.change(ctx, sessionID, func(tx *gorm.DB, cur *Session) error {
		if cur.Turn != turn || cur.Status == SessionIdle {
			return nil // ended already (a retried activity)
		}
		var open []ToolCall
		if err := tx.Where("session_id = ? AND turn = ? AND status IN ?", sessionID, turn, []string{
			ToolPendingApproval,
			ToolApproved,
			ToolRunning,
		}).Find(&open).Error; err != nil {
			return models.Internal("read open ai tool calls: %w", err)
		}
		for i := range open {
			open[i].Status, open[i].UpdatedAt = ToolCancelled, s.now()
			if err := tx.Save(&open[i]).Error; err != nil {
				return models.Internal("cancel ai tool call: %w", err)
			}
			if err := s.event(tx, cur, EventToolCallUpdated, toolCallEvent(&open[i])); err != nil {
				return err
			}
		}
		cur.Status, cur.ActiveToolCallID = SessionIdle, nil
		cur.RuntimeState = map[string]any{"last_turn": turn, "last_outcome": outcome}
		if outcome == TurnFailed {
			data := map[string]any{"turn": turn, "status": outcome, "detail": detail.Text}
			cur.RuntimeState["last_error"] = detail.Text
			if detail.TextKey != "" {
				data["detail_key"], cur.RuntimeState["last_error_key"] = detail.TextKey, detail.TextKey
				if len(detail.Args) > 0 {
					data["detail_args"], cur.RuntimeState["last_error_args"] = detail.Args, detail.Args
				}
			}
			return s.event(tx, cur, EventError, data)
		}
		return s.event(tx, cur, EventDone, map[string]any{"turn": turn, "status": outcome})
	})
}
