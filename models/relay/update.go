package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"agencyhub/models"
)

// Template namespaces of a relayed run besides the update under the trigger's bot_key: the
// update taken apart, its id, and the chat's dialog state. SetRunChatState finds a run's chat
// and integration in Namespace.
const (
	Namespace        = "messenger_a_relay"
	UpdateNamespace  = "messenger_a"
	SessionNamespace = "bot_session"
)

// Sources of a stored update.
const (
	SourceWebhook = "webhook" // the messenger's webhook delivery, POST /messenger_a/relay/{relay_key}
	SourceAPI     = "api"     // a member's call of POST /api/v1/messenger_a/relay/{relay_key}
	SourcePolling = "polling" // the server's getUpdates poller
)

// Statuses of a stored update: runs start at most once per update, so one whose dispatch
// was interrupted (the process died) stays dispatching rather than starting runs twice.
const (
	UpdateDispatching = "dispatching"
	UpdateDispatched  = "dispatched"
)

// updateTypes are the kinds of update of the bot API, in the order an update is classified
// by (an update carries exactly one of them).
var updateTypes = []string{
	"message", "edited_message", "channel_post", "edited_channel_post", "business_connection",
	"business_message", "edited_business_message", "deleted_business_messages", "message_reaction",
	"message_reaction_count", "inline_query", "chosen_inline_result", "callback_query", "shipping_query",
	"pre_checkout_query", "purchased_paid_media", "poll", "poll_answer", "my_chat_member", "chat_member",
	"chat_join_request", "chat_boost", "removed_chat_boost",
}

// messageTypes are the update kinds whose object is a message.
var messageTypes = map[string]bool{
	"message": true, "edited_message": true, "channel_post": true, "edited_channel_post": true,
	"business_message": true, "edited_business_message": true,
}

// Update is one stored bot update of a relay.
type Update struct {
	ID                 uuid.UUID `gorm:"primaryKey"`
	CompanyID          uuid.UUID
	ProjectID          uuid.UUID
	ActionDependencyID uuid.UUID
	UpdateID           int64
	UpdateType         string
	// ChatID is the chat the update belongs to, as text ("" for updates without a chat).
	ChatID string
	// Payload is the update as the messenger sent it.
	Payload      string
	Source       string
	Status       string
	RunIDs       []uuid.UUID `gorm:"serializer:json"`
	ReceivedAt   time.Time
	DispatchedAt *time.Time
}

func (Update) TableName() string { return "relay_updates" }

// Parsed is an update taken apart for templates: the whole object and the parts workflows
// read (messenger_a_relay.*).
type Parsed struct {
	Object map[string]any
	Type   string
	// Message is the update's message: the object of a message-like update, the message a
	// callback query belongs to, else empty.
	Message map[string]any
	Chat    map[string]any
	From    map[string]any
	// Command is the /command that starts the message text, without a @bot suffix
	// ("/start"); Args is the rest of the text.
	Command, Args string
	// CallbackData is a callback query's data.
	CallbackData string
}

// Parse decodes an update. Numbers stay exact (json.Number), so chat and update ids of any
// size survive. Errors: invalid (body, update_id).
func Parse(raw json.RawMessage) (Parsed, int64, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return Parsed{}, 0, models.Invalid("malformed_json", "body")
	}
	n, _ := obj["update_id"].(json.Number)
	id, err := n.Int64()
	if err != nil || id < 0 {
		return Parsed{}, 0, models.Invalid("invalid_body", "update_id")
	}
	p := Parsed{Object: obj, Message: map[string]any{}, Chat: map[string]any{}, From: map[string]any{}}
	for _, t := range updateTypes {
		if _, ok := obj[t].(map[string]any); ok {
			p.Type = t
			break
		}
	}
	part, _ := obj[p.Type].(map[string]any)
	switch {
	case messageTypes[p.Type]:
		p.Message = part
	case p.Type == "callback_query":
		if m, ok := part["message"].(map[string]any); ok {
			p.Message = m
		}
		p.CallbackData, _ = part["data"].(string)
	}
	if c, ok := p.Message["chat"].(map[string]any); ok {
		p.Chat = c
	} else if c, ok := part["chat"].(map[string]any); ok {
		p.Chat = c
	}
	if f, ok := part["from"].(map[string]any); ok {
		p.From = f
	} else if f, ok := p.Message["from"].(map[string]any); ok {
		p.From = f
	}
	if text, _ := p.Message["text"].(string); strings.HasPrefix(text, "/") {
		word, rest, _ := strings.Cut(text, " ")
		word, _, _ = strings.Cut(word, "@")
		p.Command, p.Args = word, strings.TrimSpace(rest)
	}
	return p, id, nil
}

// ChatID is the update's chat id as text, "" when it has none.
func (p Parsed) ChatID() string { return idText(p.Chat["id"]) }

// idText spells a JSON id (a number, or a string such as an @channel name) as text.
func idText(v any) string {
	switch v := v.(type) {
	case json.Number:
		return v.String()
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	}
	return ""
}

// Save stores an update of a relay once: a second delivery of the same update id is a
// duplicate, answered with the update stored first. Errors: invalid (body, update_id).
func (s *Service) Save(ctx context.Context, r *Relay, raw json.RawMessage, source string) (*Update, bool, error) {
	p, id, err := Parse(raw)
	if err != nil {
		return nil, false, err
	}
	u := &Update{
		ID: models.NewID(), CompanyID: r.CompanyID, ProjectID: r.ProjectID, ActionDependencyID: r.ActionDependencyID,
		UpdateID: id, UpdateType: p.Type, ChatID: p.ChatID(), Payload: string(raw), Source: source,
		Status: UpdateDispatching, RunIDs: []uuid.UUID{}, ReceivedAt: s.now(),
	}
	err = s.DB.WithContext(ctx).Create(u).Error
	if models.IsUniqueViolation(err) {
		var first Update
		if err := s.DB.WithContext(ctx).Take(&first, "action_dependency_id = ? AND company_id = ? AND update_id = ?",
			r.ActionDependencyID, r.CompanyID, id).Error; err != nil {
			return nil, false, models.Internal("read duplicate update: %w", err)
		}
		return &first, true, nil
	}
	if err != nil {
		return nil, false, models.Internal("store update: %w", err)
	}
	return u, false, nil
}

// MarkDispatched records the runs an update started.
func (s *Service) MarkDispatched(ctx context.Context, u *Update, runIDs []uuid.UUID) error {
	now := s.now()
	u.Status, u.RunIDs, u.DispatchedAt = UpdateDispatched, runIDs, &now
	err := s.DB.WithContext(ctx).Model(&Update{}).Where("id = ? AND company_id = ?", u.ID, u.CompanyID).
		Select("status", "run_ids", "dispatched_at").Updates(u).Error
	if err != nil {
		return models.Internal("record dispatched update: %w", err)
	}
	return nil
}

// Updates lists a relay's stored updates, oldest first (for inspection and tests).
func (s *Service) Updates(ctx context.Context, r *Relay) ([]Update, error) {
	var rows []Update
	err := s.DB.WithContext(ctx).Where("action_dependency_id = ? AND company_id = ?", r.ActionDependencyID, r.CompanyID).
		Order("update_id").Find(&rows).Error
	if err != nil {
		return nil, models.Internal("list updates: %w", err)
	}
	return rows, nil
}
