package aiemployee

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/models/company"
)

// Session statuses: idle between turns, running while a turn works, waiting_approval while
// a tool call of the turn waits for the user.
const (
	SessionIdle            = "idle"
	SessionRunning         = "running"
	SessionWaitingApproval = "waiting_approval"
)

// Message roles of a transcript.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// MaxMessage bounds a user message, in characters.
const MaxMessage = 20000

// Session is one conversation of a user with the project's employee. AgentThreadID is the
// Temporal workflow id of its agent; Turn counts the user messages.
type Session struct {
	ID                    uuid.UUID `gorm:"primaryKey"`
	CompanyID             uuid.UUID
	ProjectID             uuid.UUID
	UserID                uuid.UUID
	Status                string
	SessionRevision       int
	Turn                  int
	EventSequence         int
	AgentRuntime          string
	AgentThreadID         string
	ScreenScope           string
	ActionDependencyID    *uuid.UUID
	ModelID               string
	PageContext           map[string]any `gorm:"column:page_context_json;serializer:json"`
	LastPageContext       map[string]any `gorm:"column:last_page_context_json;serializer:json"`
	RuntimeState          map[string]any `gorm:"column:runtime_state_json;serializer:json"`
	WorkingMemory         map[string]any `gorm:"column:working_memory_json;serializer:json"`
	ActivePatchProposalID *uuid.UUID
	ActiveToolCallID      *uuid.UUID
	CreatedAt             time.Time
	UpdatedAt             time.Time
}

// TableName is the sessions' table.
func (Session) TableName() string { return "ai_chat_sessions" }

// Message is one message of a transcript: the user's, or the assistant's text of one model
// step (its tool calls are ToolCalls of the same turn and step).
type Message struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	SessionID uuid.UUID
	Turn      int
	Step      int
	Role      string
	Content   string
	CreatedAt time.Time
}

// TableName is the messages' table.
func (Message) TableName() string { return "ai_chat_messages" }

// SessionTopic is the bus topic of a session: each new event of it is published there.
func SessionTopic(id uuid.UUID) string { return "ai_session:" + id.String() }

// SessionInput is what a new session starts with.
type SessionInput struct {
	UserID             uuid.UUID
	ActionDependencyID *uuid.UUID
	ModelID            string
	ScreenScope        string
	PageContext        map[string]any
	// Memory seeds the working memory with the entities the session was opened on.
	Memory map[string]any
}

// CreateSession opens a session of the user in the project, idle; runtime is the runtime
// its capability names now. Errors: invalid (model_id, screen_scope).
func (s *Service) CreateSession(ctx context.Context, p *company.Project, runtime string, in SessionInput) (*Session, error) {
	var bad []string
	if utf8.RuneCountInString(in.ModelID) > MaxModelID {
		bad = append(bad, "model_id")
	}
	if utf8.RuneCountInString(in.ScreenScope) > 200 {
		bad = append(bad, "screen_scope")
	}
	if len(bad) > 0 {
		return nil, models.Invalid("invalid_ai_session", bad...)
	}
	now := s.now()
	id := models.NewID()
	sess := &Session{
		ID: id, CompanyID: p.CompanyID, ProjectID: p.ID, UserID: in.UserID, Status: SessionIdle, SessionRevision: 1,
		AgentRuntime: runtime, AgentThreadID: AgentThreadID(id), ScreenScope: strings.TrimSpace(in.ScreenScope),
		ActionDependencyID: in.ActionDependencyID, ModelID: strings.TrimSpace(in.ModelID),
		PageContext: nonNil(in.PageContext), LastPageContext: map[string]any{}, RuntimeState: map[string]any{},
		WorkingMemory: nonNil(in.Memory), CreatedAt: now, UpdatedAt: now,
	}
	if err := s.DB.WithContext(ctx).Create(sess).Error; err != nil {
		return nil, models.Internal("create ai session: %w", err)
	}
	return sess, nil
}

// AgentThreadID is the Temporal workflow id of a session's agent.
func AgentThreadID(sessionID uuid.UUID) string { return "ai-session-" + sessionID.String() }

func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// SessionOf loads a session of the user in the project; any other is not found.
func (s *Service) SessionOf(ctx context.Context, companyID, projectID, userID, id uuid.UUID) (*Session, error) {
	var sess Session
	err := s.DB.WithContext(ctx).Take(
		&sess, "id = ? AND company_id = ? AND project_id = ? AND user_id = ?",
		id, companyID, projectID, userID,
	).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, models.NotFound("ai_session_not_found")
	}
	if err != nil {
		return nil, models.Internal("read ai session: %w", err)
	}
	return &sess, nil
}

// Session loads a session by id, for the agent, which knows it exists.
func (s *Service) Session(ctx context.Context, id uuid.UUID) (*Session, error) {
	var sess Session
	if err := s.DB.WithContext(ctx).Take(&sess, "id = ?", id).Error; err != nil {
		return nil, models.Internal("read ai session %s: %w", id, err)
	}
	return &sess, nil
}

// Transcript is a session's messages and tool calls in order.
func (s *Service) Transcript(ctx context.Context, sessionID uuid.UUID) ([]Message, []ToolCall, error) {
	var msgs []Message
	if err := s.DB.WithContext(ctx).Where("session_id = ?", sessionID).Order("turn, step, role DESC, id").Find(&msgs).Error; err != nil {
		return nil, nil, models.Internal("read ai messages: %w", err)
	}
	var calls []ToolCall
	if err := s.DB.WithContext(ctx).Where("session_id = ?", sessionID).Order("turn, step, position").Find(&calls).Error; err != nil {
		return nil, nil, models.Internal("read ai tool calls: %w", err)
	}
	return msgs, calls, nil
}

// MessageInput is a user message.
type MessageInput struct {
	Content string
	// Revision, when set, must be the session's revision: a client that has not seen the
	// latest change gets a conflict instead of talking past it.
	Revision    *int
	PageContext map[string]any
}

// PostMessage stores a user message as the start of the next turn: the session runs from
// now on. Errors: invalid (content), conflict (session_revision when stale; session_busy
// while a turn runs or waits).
func (s *Service) PostMessage(ctx context.Context, sess *Session, in MessageInput) (*Session, *Message, error) {
	content := strings.TrimSpace(in.Content)
	if content == "" || utf8.RuneCountInString(content) > MaxMessage {
		return nil, nil, models.Invalid("invalid_ai_message", "content")
	}
	var msg *Message
	out, err := s.change(ctx, sess.ID, func(tx *gorm.DB, cur *Session) error {
		if in.Revision != nil && *in.Revision != cur.SessionRevision {
			return models.Conflict("stale_session_revision", "session_revision")
		}
		if cur.Status != SessionIdle {
			return models.Conflict("ai_session_busy", "session_revision")
		}
		cur.Turn++
		cur.Status = SessionRunning
		if in.PageContext != nil {
			cur.LastPageContext, cur.PageContext = cur.PageContext, in.PageContext
		}
		msg = &Message{
			ID:        models.NewID(),
			CompanyID: cur.CompanyID,
			SessionID: cur.ID,
			Turn:      cur.Turn,
			Role:      RoleUser,
			Content:   content,
			CreatedAt: s.now(),
		}
		if err := tx.Create(msg).Error; err != nil {
			return models.Internal("store ai message: %w", err)
		}
		return s.event(tx, cur, EventMessageCreated, map[string]any{"message_id": msg.ID, "role": RoleUser, "content": content})
	})
	return out, msg, err
}

// change runs fn on the locked session in a transaction, bumps its revision and stores it,
// then wakes its streams.
func (s *Service) change(ctx context.Context, id uuid.UUID, fn func(tx *gorm.DB, cur *Session) error) (*Session, error) {
	var cur Session
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&cur, "id = ?", id).Error; err != nil {
			return models.Internal("lock ai session: %w", err)
		}
		if err := fn(tx, &cur); err != nil {
			return err
		}
		cur.SessionRevision++
		cur.UpdatedAt = s.now()
		return tx.Save(&cur).Error
	})
	if err != nil {
		return nil, models.AsError(err)
	}
	s.notify(ctx, id)
	return &cur, nil
}

func (s *Service) notify(ctx context.Context, id uuid.UUID) {
	if s.Bus == nil {
		return
	}
	if err := s.Bus.Publish(ctx, SessionTopic(id), nil); err != nil {
		slog.WarnContext(ctx, "ai session change not published", "ai_chat_session_id", id, "err", err)
	}
}

// SetWorkingMemory merges values into the session's working memory (a nil value removes
// its key).
func (s *Service) SetWorkingMemory(ctx context.Context, id uuid.UUID, values map[string]any) (*Session, error) {
	return s.change(ctx, id, func(_ *gorm.DB, cur *Session) error {
		mem := nonNil(cur.WorkingMemory)
		for k, v := range values {
			if v == nil {
				delete(mem, k)
			} else {
				mem[k] = v
			}
		}
		cur.WorkingMemory = mem
		return nil
	})
}

// encode is v as JSON, for event data.
func encode(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
