package sitechat

import (
	"context"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/company"
)

// ConversationOpened is recorded when a visitor opens a conversation, in the transaction
// that creates it: the notifier tells the company's operators (models/notify).
type ConversationOpened struct {
	ConversationID uuid.UUID `json:"conversation_id"`
}

func (ConversationOpened) EventName() string { return "site_chat.conversation_opened" }

// OpenedConversation is what an operator is told of a new conversation.
type OpenedConversation struct {
	Conversation
	WidgetName string
}

// Operators answers the conversation and the users who may answer it: the members of its
// company whose role may work (owners, admins and members; viewers only read). Errors: not
// found (conversation_not_found), internal.
func (s *Service) Operators(ctx context.Context, conversationID uuid.UUID) (*OpenedConversation, []uuid.UUID, error) {
	db := s.DB.WithContext(ctx)
	c, err := take[Conversation](db, "conversation_not_found", "id = ?", conversationID)
	if err != nil {
		return nil, nil, err
	}
	w, err := take[Widget](db, "chat_widget_not_found", "id = ?", c.ChatWidgetID)
	if err != nil {
		return nil, nil, err
	}
	var working []company.Role
	for _, r := range company.Roles {
		if r.Can(company.PermWork) {
			working = append(working, r)
		}
	}
	var users []uuid.UUID
	err = db.Model(&company.Member{}).Where("company_id = ? AND role IN ?", c.CompanyID, working).Order("user_id").Pluck("user_id", &users).Error
	if err != nil {
		return nil, nil, models.Internal("read operators of a conversation: %w", err)
	}
	return &OpenedConversation{Conversation: *c, WidgetName: w.Name}, users, nil
}
