package desktop

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/platform/realtime"
)

// Kinds of messages the product posts.
const (
	KindTaskAssigned         = "task.assigned"
	KindToolCallNeedsApprove = "ai.tool_call.approval_needed"
	KindRunFailed            = "run.failed"
	KindPaymentActionDue     = "payment_action.due"
	KindConversationOpened   = "site_chat.conversation_opened"
	KindApprovalRequested    = "workflow_approval.requested"
)

// Limits of what a notice may carry; longer titles and bodies are cut, not refused, since
// the poster is the product itself.
const (
	maxTitle = 200
	maxBody  = 2000
)

// Message is one stored desktop message. Sequence numbers a user's messages in the order
// they were stored; a stream resumes after the last one it sent.
type Message struct {
	ID          uuid.UUID `gorm:"primaryKey"`
	CompanyID   uuid.UUID
	UserID      uuid.UUID
	ProjectID   *uuid.UUID
	Sequence    int64
	Kind        string
	Title       string
	Body        string
	SubjectType string
	SubjectID   string
	DedupeKey   string
	CreatedAt   time.Time
	AckedAt     *time.Time
}

func (Message) TableName() string { return "desktop_messages" }

// Notice is what a part of the product posts to one user.
type Notice struct {
	CompanyID uuid.UUID
	// UserID is the recipient.
	UserID    uuid.UUID
	ProjectID *uuid.UUID
	Kind      string
	Title     string
	Body      string
	// SubjectType and SubjectID name what the message is about, for the app to open it.
	SubjectType string
	SubjectID   string
	// DedupeKey identifies the event for this user: a notice posted again with the same
	// key (a retried activity, a redelivered event) is stored once.
	DedupeKey string
}

// Inbox stores desktop messages and wakes the recipients' open streams.
type Inbox struct {
	DB  *gorm.DB
	Bus realtime.Bus
	Now func() time.Time
}

// NewInbox returns an inbox on the real clock.
func NewInbox(db *gorm.DB, bus realtime.Bus) *Inbox {
	return &Inbox{DB: db, Bus: bus, Now: func() time.Time { return time.Now().UTC() }}
}

// Topic is the event bus topic of a user's inbox: a message stored for the user is
// published there.
func Topic(userID uuid.UUID) string { return "user:" + userID.String() }

// Post stores each notice for its recipient, once per recipient and DedupeKey, and wakes
// the recipient's open streams. Call it after the change it tells of is committed, so a
// message never announces something that was rolled back. Errors: internal.
func (in *Inbox) Post(ctx context.Context, notices ...Notice) error {
	if len(notices) == 0 {
		return nil
	}
	stored, err := in.store(ctx, notices)
	if err != nil {
		return err
	}
	for _, n := range stored {
		if err := in.Bus.Publish(ctx, Topic(n.UserID), nil); err != nil {
			slog.WarnContext(ctx, "desktop message not published", "user_id", n.UserID, "err", err)
		}
	}
	return nil
}

// store stores the notices in one transaction, each under its user's next sequence number,
// and answers those that were new. One commit for all: an event told to a project's fifty
// operators is one write to the disk, not fifty. Each user's row is locked first, so that
// concurrent posts for one user take their numbers one after another (NO KEY UPDATE: rows
// that merely reference the user are not held up), and the rows are locked in the order
// of their ids, so that two posts to the same users take turns rather than deadlock.
// SQLite's write transactions are serial already.
func (in *Inbox) store(ctx context.Context, notices []Notice) ([]Notice, error) {
	for _, n := range notices {
		if n.CompanyID == uuid.Nil || n.UserID == uuid.Nil || n.Kind == "" || n.DedupeKey == "" || strings.TrimSpace(n.Title) == "" {
			return nil, models.Internal("desktop notice lacks company, user, kind, title or dedupe key: %+v", n)
		}
	}
	ordered := slices.Clone(notices)
	slices.SortStableFunc(ordered, func(a, b Notice) int { return bytes.Compare(a.UserID[:], b.UserID[:]) })
	var stored []Notice
	err := in.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		stored = nil
		for _, n := range ordered {
			isNew, err := in.post(tx, n)
			if err != nil {
				return fmt.Errorf("user %s: %w", n.UserID, err)
			}
			if isNew {
				stored = append(stored, n)
			}
		}
		return nil
	})
	if err != nil {
		return nil, models.Internal("store desktop messages: %w", err)
	}
	return stored, nil
}

// post stores one notice in the transaction and reports whether it was new.
func (in *Inbox) post(tx *gorm.DB, n Notice) (bool, error) {
	var user struct{ ID uuid.UUID }
	if err := tx.Table("users").
		Clauses(clause.Locking{Strength: "NO KEY UPDATE"}).
		Select("id").
		Take(&user, "id = ?", n.UserID).Error; err != nil {
		return false, err
	}
	var last int64
	if err := tx.Model(&Message{}).Where("user_id = ?", n.UserID).Select("COALESCE(MAX(sequence), 0)").Scan(&last).Error; err != nil {
		return false, err
	}
	m := Message{ID: models.NewID(), CompanyID: n.CompanyID, UserID: n.UserID, ProjectID: n.ProjectID,
		Sequence: last + 1, Kind: n.Kind, Title: cut(strings.TrimSpace(n.Title), maxTitle), Body: cut(n.Body, maxBody),
		SubjectType: n.SubjectType, SubjectID: n.SubjectID, DedupeKey: n.DedupeKey, CreatedAt: in.now()}
	res := tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "user_id"}, {Name: "dedupe_key"}}, DoNothing: true}).Create(&m)
	return res.RowsAffected == 1, res.Error
}

// Filter narrows a list: Unread keeps the messages not acknowledged yet.
type Filter struct {
	Unread bool
}

// List answers a page of the user's messages, unread first, newest first within each, and
// how many are unread in all. The cursor is the position of the last message of the page.
// Errors: invalid (cursor), internal.
func (in *Inbox) List(ctx context.Context, userID uuid.UUID, f Filter, page models.PageRequest) ([]Message, string, int64, error) {
	q := in.visible(ctx, userID)
	if f.Unread {
		q = q.Where("acked_at IS NULL")
	}
	if page.Cursor != "" {
		pos, err := decodePosition(page.Cursor)
		if err != nil {
			return nil, "", 0, models.Invalid("invalid_cursor", "cursor")
		}
		if pos.read {
			q = q.Where("acked_at IS NOT NULL AND sequence < ?", pos.sequence)
		} else {
			q = q.Where("(acked_at IS NULL AND sequence < ?) OR acked_at IS NOT NULL", pos.sequence)
		}
	}
	var rows []Message
	err := q.Order("CASE WHEN acked_at IS NULL THEN 0 ELSE 1 END").Order("sequence DESC").Limit(page.Limit + 1).Find(&rows).Error
	if err != nil {
		return nil, "", 0, models.Internal("list desktop messages: %w", err)
	}
	var unread int64
	if err := in.visible(ctx, userID).Where("acked_at IS NULL").Count(&unread).Error; err != nil {
		return nil, "", 0, models.Internal("count unread desktop messages: %w", err)
	}
	next := ""
	if len(rows) > page.Limit {
		rows = rows[:page.Limit]
		last := rows[len(rows)-1]
		next = position{read: last.AckedAt != nil, sequence: last.Sequence}.encode()
	}
	return rows, next, unread, nil
}

// After answers the user's messages stored after sequence, oldest first, at most limit:
// what a stream sends next. Errors: internal.
func (in *Inbox) After(ctx context.Context, userID uuid.UUID, sequence int64, limit int) ([]Message, error) {
	var rows []Message
	err := in.visible(ctx, userID).Where("sequence > ?", sequence).Order("sequence").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, models.Internal("read desktop messages: %w", err)
	}
	return rows, nil
}

// LastSequence answers the sequence number of the user's newest message, 0 when none: where
// a stream that does not resume starts. Errors: internal.
func (in *Inbox) LastSequence(ctx context.Context, userID uuid.UUID) (int64, error) {
	var last int64
	err := in.DB.WithContext(ctx).Model(&Message{}).Where("user_id = ?", userID).Select("COALESCE(MAX(sequence), 0)").Scan(&last).Error
	if err != nil {
		return 0, models.Internal("read last desktop message: %w", err)
	}
	return last, nil
}

// Ack marks the user's message read and answers it; acknowledging it again changes
// nothing. Errors: not_found (not the user's message, or of a company the user left),
// internal.
func (in *Inbox) Ack(ctx context.Context, userID, messageID uuid.UUID) (*Message, error) {
	err := in.DB.WithContext(ctx).Model(&Message{}).Where("id = ? AND user_id = ? AND acked_at IS NULL", messageID, userID).
		Update("acked_at", in.now()).Error
	if err != nil {
		return nil, models.Internal("acknowledge desktop message: %w", err)
	}
	var m Message
	if err := in.visible(ctx, userID).Take(&m, "id = ?", messageID).Error; err != nil {
		if models.IsNotFound(err) {
			return nil, models.NotFound("desktop_message_not_found")
		}
		return nil, models.Internal("read desktop message: %w", err)
	}
	return &m, nil
}

// visible is the user's messages of the companies the user belongs to now: leaving a
// company takes its messages out of the inbox.
func (in *Inbox) visible(ctx context.Context, userID uuid.UUID) *gorm.DB {
	return in.DB.WithContext(ctx).Model(&Message{}).Where("user_id = ?", userID).
		Where("company_id IN (SELECT company_id FROM company_members WHERE user_id = ?)", userID)
}

func (in *Inbox) now() time.Time { return in.Now().UTC().Truncate(time.Microsecond) }

// position is where a page of the list ends: unread messages come before read ones, each
// newest first.
type position struct {
	read     bool
	sequence int64
}

func (p position) encode() string {
	raw, _ := json.Marshal([2]any{p.read, p.sequence})
	return base64.RawURLEncoding.EncodeToString(raw)
}

func decodePosition(cursor string) (position, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return position{}, err
	}
	var parts [2]json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil {
		return position{}, err
	}
	var p position
	if err := json.Unmarshal(parts[0], &p.read); err != nil {
		return position{}, err
	}
	if p.sequence, err = strconv.ParseInt(string(parts[1]), 10, 64); err != nil || p.sequence < 1 {
		return position{}, fmt.Errorf("bad position %q", raw)
	}
	return p, nil
}

// cut shortens s to at most n characters.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
