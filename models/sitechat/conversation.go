package sitechat

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/platform/filestore"
)

// Conversation statuses.
const (
	ConversationOpen   = "open"
	ConversationClosed = "closed"
)

// Message authors.
const (
	AuthorVisitor  = "visitor"
	AuthorOperator = "operator"
	AuthorSystem   = "system"
)

// MaxMessageRunes is the longest message body.
const MaxMessageRunes = 10000

// Conversation is a chat between a visitor and the project's operators.
type Conversation struct {
	ID             uuid.UUID `gorm:"primaryKey"`
	CompanyID      uuid.UUID
	ProjectID      uuid.UUID
	ChatWidgetID   uuid.UUID
	VisitorID      uuid.UUID
	VisitSessionID *uuid.UUID
	Status         string
	Title          string
	// LastMessageID and LastVisitorMessageID are the newest message and the newest of the
	// visitor's (nil before any): the desk's preview and unread state.
	LastMessageID        *uuid.UUID
	LastVisitorMessageID *uuid.UUID
	ClosedAt             *time.Time
	CreatedAt            time.Time
	UpdatedAt            time.Time
}

func (Conversation) TableName() string { return "site_chat_conversations" }

// ConversationView is a conversation with its visitor's name and contact.
type ConversationView struct {
	Conversation
	VisitorName    string
	VisitorContact string
}

// Message is one message of a conversation, with the attachments it carries.
type Message struct {
	ID             uuid.UUID `gorm:"primaryKey"`
	CompanyID      uuid.UUID
	ConversationID uuid.UUID
	AuthorKind     string
	AuthorUserID   *uuid.UUID
	AuthorName     string
	Body           string
	CreatedAt      time.Time
	Attachments    []Attachment `gorm:"foreignKey:MessageID"`
}

func (Message) TableName() string { return "site_chat_messages" }

// Attachment is a file sent in a conversation, kept in the blob store under StorageKey.
type Attachment struct {
	ID             uuid.UUID `gorm:"primaryKey"`
	CompanyID      uuid.UUID
	ConversationID uuid.UUID
	MessageID      uuid.UUID
	filestore.Meta `gorm:"embedded"`
	CreatedAt      time.Time
}

func (Attachment) TableName() string { return "site_chat_attachments" }

// AttachmentLimits are what a chat attachment may be: at most 10 MiB of an image, a PDF or
// plain text, by the type sniffed from its bytes (never HTML, scripts or executables).
var AttachmentLimits = filestore.Limits{
	MaxBytes:     10 << 20,
	AllowedTypes: []string{"image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf", "text/plain"},
}

// MessageInput is a message to post: its body, and on the visitor side the name and
// contact the visitor gives.
type MessageInput struct {
	Body           string
	AuthorName     string
	VisitorContact string
}

func (in *MessageInput) check() error {
	in.Body = strings.TrimSpace(in.Body)
	in.AuthorName = strings.TrimSpace(in.AuthorName)
	in.VisitorContact = strings.TrimSpace(in.VisitorContact)
	var bad fieldCheck
	bad.check("body", in.Body != "")
	bad.text("body", in.Body, MaxMessageRunes)
	bad.text("author_name", in.AuthorName, 200)
	bad.text("visitor_contact", in.VisitorContact, 320)
	return bad.err("invalid_site_chat_message")
}

// ConversationAccess returns a conversation and the caller's standing in its company.
// Errors: not_found.
func (s *Service) ConversationAccess(ctx context.Context, userID, id uuid.UUID) (*Conversation, *company.Access, error) {
	return loadOwned(ctx, s, userID, id, "conversation_not_found", func(c *Conversation) uuid.UUID { return c.CompanyID })
}

// VisitorConversation is the visitor's conversation id: one that does not exist is
// not_found; another visitor's is refused like a bad token, whatever the token.
// Errors: not_found, unauthenticated (X-Visitor-Token).
func (s *Service) VisitorConversation(ctx context.Context, v *VisitorAccess, id uuid.UUID) (*Conversation, error) {
	c, _, err := s.PublicConversation(ctx, id, func() (*VisitorAccess, error) { return v, nil })
	return c, err
}

// PublicConversation reads conversation id for a public route, then the visitor verify
// answers (from the request's token), and answers both when the conversation is that
// visitor's: an unknown id is not_found whoever asks, a known one unauthenticated unless
// the token is its visitor's. Errors: not_found, unauthenticated (X-Visitor-Token).
func (s *Service) PublicConversation(ctx context.Context, id uuid.UUID,
	verify func() (*VisitorAccess, error)) (*Conversation, *VisitorAccess, error) {
	return visitorOwned(ctx, s, id, "conversation_not_found", verify, func(c *Conversation, v *VisitorAccess) bool {
		return c.VisitorID == v.Visitor.ID && c.ChatWidgetID == v.Widget.ID
	})
}

// visitorOwned reads the row of T with id, then verifies the visitor, and answers both
// when owns says the row is the visitor's.
func visitorOwned[T any](ctx context.Context, s *Service, id uuid.UUID, notFoundKey string, verify func() (*VisitorAccess, error),
	owns func(*T, *VisitorAccess) bool) (*T, *VisitorAccess, error) {
	row, err := take[T](s.DB.WithContext(ctx), notFoundKey, "id = ?", id)
	if err != nil {
		return nil, nil, err
	}
	v, err := verify()
	if err != nil {
		return nil, nil, err
	}
	if !owns(row, v) {
		return nil, nil, errVisitorToken
	}
	return row, v, nil
}

// ConversationView adds the visitor's name and contact to a conversation.
func (s *Service) ConversationView(ctx context.Context, c *Conversation) (*ConversationView, error) {
	visitor, err := take[Visitor](s.DB.WithContext(ctx), "visitor_not_found", "id = ?", c.VisitorID)
	if err != nil {
		return nil, err
	}
	return &ConversationView{Conversation: *c, VisitorName: visitor.Name, VisitorContact: visitor.Contact}, nil
}

// OpenConversation opens the conversation the visitor's session reserved, or answers the
// open one; created tells which. Its title is the visitor's page title, or "Site visitor".
func (s *Service) OpenConversation(ctx context.Context, v *VisitorAccess) (*Conversation, bool, error) {
	var c *Conversation
	var created bool
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		c, created, err = s.openConversation(tx, v)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	if created {
		s.conversationOpened(ctx, v.Session)
	}
	return c, created, nil
}

// conversationOpened tells the operators' sockets the session has a conversation now, and
// wakes the notifier for the event its transaction recorded.
func (s *Service) conversationOpened(ctx context.Context, session *VisitSession) {
	n := sessionNotice(NoticePresenceUpdate, session)
	n.Status = ConversationOpen
	s.publish(ctx, n)
	models.AnnounceEvents(ctx, s.Bus)
}

// openConversation locks the session, then answers the visitor's open conversation or
// creates the one the session reserved (a new id when that one was closed meanwhile).
func (s *Service) openConversation(tx *gorm.DB, v *VisitorAccess) (*Conversation, bool, error) {
	session, err := lockRow[VisitSession](tx, "visit_session_not_found", v.Session.ID)
	if err != nil {
		return nil, false, err
	}
	v.Session = session
	c, err := take[Conversation](tx, "conversation_not_found", "id = ?", session.ConversationID)
	switch {
	case err == nil && c.Status == ConversationOpen:
		return c, false, nil
	case err == nil:
		session.ConversationID = models.NewID()
	case !models.IsKind(err, models.KindNotFound):
		return nil, false, err
	}
	now := s.now()
	title := session.CurrentTitle
	if title == "" {
		title = "Site visitor"
	}
	c = &Conversation{ID: session.ConversationID, CompanyID: session.CompanyID, ProjectID: session.ProjectID,
		ChatWidgetID: session.ChatWidgetID, VisitorID: session.VisitorID, VisitSessionID: &session.ID,
		Status: ConversationOpen, Title: clip(title, 200), CreatedAt: now, UpdatedAt: now}
	if err := tx.Create(c).Error; err != nil {
		return nil, false, models.Internal("create conversation: %w", err)
	}
	if err := models.RecordEvent(tx, now, ConversationOpened{ConversationID: c.ID}); err != nil {
		return nil, false, err
	}
	err = tx.Model(session).Updates(map[string]any{"conversation_id": session.ConversationID, "chat_open": true, "updated_at": now}).Error
	if err != nil {
		return nil, false, models.Internal("reserve conversation: %w", err)
	}
	session.ChatOpen = true
	return c, true, nil
}

// PostVisitorMessage posts the visitor's message into their open conversation, opening it
// first when needed (the session's reserved one), and remembers the name and contact the
// visitor gave. Errors: invalid (body, author_name, visitor_contact).
func (s *Service) PostVisitorMessage(ctx context.Context, v *VisitorAccess, in MessageInput) (*Message, *Conversation, error) {
	if err := in.check(); err != nil {
		return nil, nil, err
	}
	var m *Message
	var c *Conversation
	var opened bool
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		if c, opened, err = s.openConversation(tx, v); err != nil {
			return err
		}
		if in.AuthorName != "" || in.VisitorContact != "" {
			if err := s.rememberVisitor(tx, v.Visitor, in); err != nil {
				return err
			}
		}
		name := v.Visitor.Name
		if name == "" {
			name = "Visitor"
		}
		m, err = s.addMessage(tx, c, AuthorVisitor, nil, name, in.Body)
		if err != nil {
			return err
		}
		return tx.Model(&VisitSession{}).Where("id = ?", v.Session.ID).Update("last_activity_at", m.CreatedAt).Error
	})
	if err != nil {
		return nil, nil, err
	}
	if opened {
		s.conversationOpened(ctx, v.Session)
	}
	s.publish(ctx, messageNotice(c, m))
	return m, c, nil
}

func (s *Service) rememberVisitor(tx *gorm.DB, visitor *Visitor, in MessageInput) error {
	if in.AuthorName != "" {
		visitor.Name = in.AuthorName
	}
	if in.VisitorContact != "" {
		visitor.Contact = in.VisitorContact
	}
	err := tx.Model(visitor).Updates(map[string]any{"name": visitor.Name, "contact": visitor.Contact}).Error
	if err != nil {
		return models.Internal("remember visitor: %w", err)
	}
	return nil
}

// PostOperatorMessage posts an operator's message into a conversation, under authorName.
// Errors: invalid (body, author_name), conflict (a closed conversation).
func (s *Service) PostOperatorMessage(ctx context.Context, c *Conversation, userID uuid.UUID, authorName string,
	in MessageInput) (*Message, error) {
	in.AuthorName = authorName
	if err := in.check(); err != nil {
		return nil, err
	}
	if c.Status != ConversationOpen {
		return nil, models.Conflict("conversation_closed", "conversation_id")
	}
	m, err := s.addMessage(s.DB.WithContext(ctx), c, AuthorOperator, &userID, in.AuthorName, in.Body)
	if err != nil {
		return nil, err
	}
	s.publish(ctx, messageNotice(c, m))
	return m, nil
}

func (s *Service) addMessage(tx *gorm.DB, c *Conversation, kind string, userID *uuid.UUID, name, body string) (*Message, error) {
	m := &Message{ID: models.NewID(), CompanyID: c.CompanyID, ConversationID: c.ID, AuthorKind: kind, AuthorUserID: userID,
		AuthorName: name, Body: body, CreatedAt: s.now()}
	if err := tx.Omit("Attachments").Create(m).Error; err != nil {
		return nil, models.Internal("create message: %w", err)
	}
	touch := map[string]any{"updated_at": m.CreatedAt, "last_message_id": m.ID}
	if kind == AuthorVisitor {
		touch["last_visitor_message_id"] = m.ID
	}
	if err := tx.Model(c).Updates(touch).Error; err != nil {
		return nil, models.Internal("touch conversation: %w", err)
	}
	m.Attachments = []Attachment{}
	return m, nil
}

func messageNotice(c *Conversation, m *Message) Notice {
	n := Notice{Type: NoticeChatMessage, ProjectID: c.ProjectID, ChatWidgetID: c.ChatWidgetID, VisitorID: c.VisitorID,
		ConversationID: c.ID, MessageID: m.ID, AuthorKind: m.AuthorKind}
	if c.VisitSessionID != nil {
		n.VisitSessionID = *c.VisitSessionID
	}
	return n
}

// Messages lists a page of a conversation's messages, oldest first, with their attachments.
func (s *Service) Messages(ctx context.Context, c *Conversation, page models.PageRequest) ([]Message, string, error) {
	var rows []Message
	q := s.DB.WithContext(ctx).Preload("Attachments", func(db *gorm.DB) *gorm.DB { return db.Order("id") }).Where("conversation_id = ?", c.ID)
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list messages: %w", err)
	}
	rows, next := models.Page(page, rows, func(m Message) uuid.UUID { return m.ID })
	return rows, next, nil
}

// Message reads one message of a company with its attachments (for the sockets, which
// forward what a notice names). Errors: not_found.
func (s *Service) Message(ctx context.Context, companyID, id uuid.UUID) (*Message, error) {
	return take[Message](s.DB.WithContext(ctx).Preload("Attachments"), "message_not_found", "id = ? AND company_id = ?", id, companyID)
}

// AddAttachment stores body in the blob store as a file of the conversation and posts a
// message carrying it (its body is the file name), by the visitor (userID nil) or an
// operator; a message that fails to record removes the file again. Errors: invalid
// (file: too large, of a type AttachmentLimits refuses; file_name), conflict (closed).
func (s *Service) AddAttachment(ctx context.Context, c *Conversation, kind string, userID *uuid.UUID,
	authorName, name string, body io.Reader) (*Message, error) {
	name, ok := filestore.BaseName(name)
	if !ok {
		return nil, models.Invalid("invalid_site_chat_file_name", "file")
	}
	if c.Status != ConversationOpen {
		return nil, models.Conflict("conversation_closed", "conversation_id")
	}
	a := Attachment{
		ID:             models.NewID(),
		CompanyID:      c.CompanyID,
		ConversationID: c.ID,
		Meta:           filestore.Meta{FileName: name},
		CreatedAt:      s.now(),
	}
	a.StorageKey = "site-chat/" + c.CompanyID.String() + "/" + c.ID.String() + "/" + a.ID.String()
	obj, err := s.Files.Put(ctx, a.StorageKey, body, AttachmentLimits)
	if err != nil {
		return nil, err
	}
	a.Fill(obj)
	var m *Message
	err = s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		if m, err = s.addMessage(tx, c, kind, userID, authorName, name); err != nil {
			return err
		}
		a.MessageID = m.ID
		if err := tx.Create(&a).Error; err != nil {
			return models.Internal("record attachment: %w", err)
		}
		return nil
	})
	if err != nil {
		if derr := s.Files.Delete(context.WithoutCancel(ctx), a.StorageKey); derr != nil {
			slog.Warn("remove the file of an unrecorded attachment", "key", a.StorageKey, "err", derr)
		}
		return nil, err
	}
	m.Attachments = []Attachment{a}
	s.publish(ctx, messageNotice(c, m))
	return m, nil
}

// AttachmentLink is the path-relative download credential of an attachment:
// /api/v1/site-chat/attachments/{attachment_id}/{DownloadToken}, valid until Expires.
type AttachmentLink struct {
	DownloadToken string
	Expires       time.Time
}

// LinkAttachment signs a download token of a for Settings.AttachmentLinkTTL.
func (s *Service) LinkAttachment(a *Attachment) AttachmentLink {
	expires := s.now().Add(s.Settings.AttachmentLinkTTL).Truncate(time.Second)
	return AttachmentLink{DownloadToken: s.attachmentToken(a.ID, expires), Expires: expires}
}

// OpenAttachment checks a download token and opens the attachment's file; the caller
// closes it. A bad, forged or expired token and an unknown attachment are the same
// not_found. Errors: not_found.
func (s *Service) OpenAttachment(ctx context.Context, id uuid.UUID, token string) (*Attachment, io.ReadCloser, error) {
	if !s.checkAttachmentToken(id, token) {
		return nil, nil, models.NotFound("attachment_not_found")
	}
	a, err := take[Attachment](s.DB.WithContext(ctx), "attachment_not_found", "id = ?", id)
	if err != nil {
		return nil, nil, err
	}
	body, err := s.Files.Open(ctx, a.StorageKey)
	if err != nil {
		return nil, nil, err
	}
	return a, body, nil
}
