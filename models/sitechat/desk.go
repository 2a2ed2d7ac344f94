package sitechat

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// Read is where an operator has read a conversation to: LastReadMessageID is the newest
// message there was then (nil when there was none). The visitor's messages after it are the
// operator's unread ones.
type Read struct {
	ConversationID    uuid.UUID `gorm:"primaryKey"`
	UserID            uuid.UUID `gorm:"primaryKey"`
	CompanyID         uuid.UUID
	LastReadMessageID *uuid.UUID
	ReadAt            time.Time
}

func (Read) TableName() string { return "site_chat_reads" }

// ConversationSummary is a conversation as one operator's desk shows it: the visitor's name
// and contact, the last message (nil before any) and how many of the visitor's messages
// the operator has not read.
type ConversationSummary struct {
	ConversationView
	LastMessage *Message
	Unread      int
}

// ConversationFilter narrows a project's conversations: Status (open or closed) or all.
type ConversationFilter struct {
	Status string
}

// ConversationPage is one page of a project's conversations for an operator, and how many
// of the project's conversations hold a visitor's message the operator has not read.
type ConversationPage struct {
	Items               []ConversationSummary
	NextCursor          string
	UnreadConversations int64
}

// Conversations lists a page of the project's conversations for the operator userID, the
// newest activity first (a message, closing or reopening), from limit and the cursor of the
// page before. Errors: invalid (status, cursor).
func (s *Service) Conversations(ctx context.Context, projectID, userID uuid.UUID, f ConversationFilter, limit int,
	cursor string) (*ConversationPage, error) {
	if f.Status != "" && f.Status != ConversationOpen && f.Status != ConversationClosed {
		return nil, models.Invalid("invalid_parameter", "status")
	}
	db := s.DB.WithContext(ctx)
	q := db.Where("project_id = ?", projectID)
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	if cursor != "" {
		at, id, err := decodeActivity(cursor)
		if err != nil {
			return nil, models.Invalid("invalid_cursor", "cursor")
		}
		q = q.Where("updated_at < ? OR (updated_at = ? AND id < ?)", at, at, id)
	}
	var rows []Conversation
	if err := q.Order("updated_at DESC").Order("id DESC").Limit(limit + 1).Find(&rows).Error; err != nil {
		return nil, models.Internal("list conversations: %w", err)
	}
	page := &ConversationPage{}
	if len(rows) > limit {
		rows = rows[:limit]
		last := rows[len(rows)-1]
		page.NextCursor = encodeActivity(last.UpdatedAt, last.ID)
	}
	var err error
	if page.Items, err = s.summaries(db, rows, userID); err != nil {
		return nil, err
	}
	err = db.Table("site_chat_conversations AS c").
		Joins("LEFT JOIN site_chat_reads r ON r.conversation_id = c.id AND r.user_id = ?", userID).
		Where("c.project_id = ? AND c.last_visitor_message_id IS NOT NULL", projectID).
		Where("r.last_read_message_id IS NULL OR c.last_visitor_message_id > r.last_read_message_id").
		Count(&page.UnreadConversations).Error
	if err != nil {
		return nil, models.Internal("count unread conversations: %w", err)
	}
	return page, nil
}

// ConversationSummary is one conversation as the operator userID's desk shows it.
func (s *Service) ConversationSummary(ctx context.Context, c *Conversation, userID uuid.UUID) (*ConversationSummary, error) {
	out, err := s.summaries(s.DB.WithContext(ctx), []Conversation{*c}, userID)
	if err != nil {
		return nil, err
	}
	return &out[0], nil
}

// summaries adds to conversations their visitors, last messages and userID's unread counts,
// in one query each.
func (s *Service) summaries(db *gorm.DB, rows []Conversation, userID uuid.UUID) ([]ConversationSummary, error) {
	out := make([]ConversationSummary, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]uuid.UUID, len(rows))
	var visitorIDs, lastIDs []uuid.UUID
	for i, c := range rows {
		ids[i] = c.ID
		visitorIDs = append(visitorIDs, c.VisitorID)
		if c.LastMessageID != nil {
			lastIDs = append(lastIDs, *c.LastMessageID)
		}
	}
	var visitors []Visitor
	if err := db.Where("id IN ?", visitorIDs).Find(&visitors).Error; err != nil {
		return nil, models.Internal("read visitors: %w", err)
	}
	byVisitor := map[uuid.UUID]Visitor{}
	for _, v := range visitors {
		byVisitor[v.ID] = v
	}
	lastByID := map[uuid.UUID]*Message{}
	if len(lastIDs) > 0 {
		var last []Message
		if err := db.Preload("Attachments").Where("id IN ?", lastIDs).Find(&last).Error; err != nil {
			return nil, models.Internal("read last messages: %w", err)
		}
		for i := range last {
			lastByID[last[i].ID] = &last[i]
		}
	}
	var unread []struct {
		ConversationID uuid.UUID
		N              int
	}
	err := db.Table("site_chat_messages AS m").Select("m.conversation_id, COUNT(*) AS n").
		Joins("LEFT JOIN site_chat_reads r ON r.conversation_id = m.conversation_id AND r.user_id = ?", userID).
		Where("m.conversation_id IN ? AND m.author_kind = ?", ids, AuthorVisitor).
		Where("r.last_read_message_id IS NULL OR m.id > r.last_read_message_id").
		Group("m.conversation_id").Scan(&unread).Error
	if err != nil {
		return nil, models.Internal("count unread messages: %w", err)
	}
	unreadBy := map[uuid.UUID]int{}
	for _, u := range unread {
		unreadBy[u.ConversationID] = u.N
	}
	for i, c := range rows {
		v := byVisitor[c.VisitorID]
		out[i] = ConversationSummary{ConversationView: ConversationView{Conversation: c, VisitorName: v.Name, VisitorContact: v.Contact},
			Unread: unreadBy[c.ID]}
		if c.LastMessageID != nil {
			out[i].LastMessage = lastByID[*c.LastMessageID]
		}
	}
	return out, nil
}

// MarkRead records that the operator userID has read the conversation to its newest
// message; reading again moves the mark to the newest message of then.
func (s *Service) MarkRead(ctx context.Context, c *Conversation, userID uuid.UUID) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now, err := take[Conversation](tx, "conversation_not_found", "id = ?", c.ID)
		if err != nil {
			return err
		}
		*c = *now
		r := Read{ConversationID: c.ID, UserID: userID, CompanyID: c.CompanyID, LastReadMessageID: c.LastMessageID, ReadAt: s.now()}
		err = tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "conversation_id"}, {Name: "user_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"last_read_message_id", "read_at"}),
		}).Create(&r).Error
		if err != nil {
			return models.Internal("mark conversation read: %w", err)
		}
		return nil
	})
}

// SetConversationStatus closes a conversation or opens it again. A visitor has one open
// conversation at a time: their next message after a close opens a new one, so a
// conversation whose visitor has another open one meanwhile is not reopened (conflict).
// Setting the status it has changes nothing. Errors: invalid (status), conflict (status).
func (s *Service) SetConversationStatus(ctx context.Context, c *Conversation, status string) (*Conversation, error) {
	if status != ConversationOpen && status != ConversationClosed {
		return nil, models.Invalid("invalid_conversation_status", "status")
	}
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now, err := lockRow[Conversation](tx, "conversation_not_found", c.ID)
		if err != nil {
			return err
		}
		*c = *now
		if c.Status == status {
			return nil
		}
		at := s.now()
		change := map[string]any{"status": status, "updated_at": at, "closed_at": nil}
		if status == ConversationClosed {
			change["closed_at"] = at
		} else {
			var others int64
			err := tx.Model(&Conversation{}).Where("visitor_id = ? AND status = ? AND id <> ?", c.VisitorID, ConversationOpen, c.ID).
				Count(&others).Error
			if err != nil {
				return models.Internal("read the visitor's open conversations: %w", err)
			}
			if others > 0 {
				return models.Conflict("visitor_has_open_conversation", "status")
			}
		}
		if err := tx.Model(c).Updates(change).Error; err != nil {
			return models.Internal("set conversation status: %w", err)
		}
		c.Status, c.UpdatedAt = status, at
		c.ClosedAt = nil
		if status == ConversationClosed {
			c.ClosedAt = &at
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// encodeActivity is the cursor after a conversation of the list: its activity and id.
func encodeActivity(at time.Time, id uuid.UUID) string {
	raw, _ := json.Marshal([]string{at.UTC().Format(time.RFC3339Nano), id.String()})
	return base64.RawURLEncoding.EncodeToString(raw)
}

func decodeActivity(cursor string) (time.Time, uuid.UUID, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return time.Time{}, uuid.Nil, err
	}
	var parts []string
	if err := json.Unmarshal(raw, &parts); err != nil || len(parts) != 2 {
		return time.Time{}, uuid.Nil, fmt.Errorf("bad conversation cursor %q", raw)
	}
	at, err := time.Parse(time.RFC3339Nano, parts[0])
	if err != nil {
		return time.Time{}, uuid.Nil, err
	}
	id, err := uuid.Parse(parts[1])
	return at, id, err
}
