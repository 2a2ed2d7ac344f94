package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
	"agencyhub/models/sitechat"
)

// The operations of the operator's desk (extensions): a project's conversations with each
// operator's unread counts, one conversation, reading it, closing and reopening it.

// siteChatConversationList is the list shape plus how many of the project's conversations
// hold a visitor's message the caller has not read, for the console's badge.
type siteChatConversationList struct {
	list[siteChatConversationView]
	UnreadConversations int64 `json:"unread_conversations"`
}

// siteChatConversationList serves GET /api/v1/projects/{project_id}/site-chat-conversations:
// the project's conversations, the newest activity first, ?status= open or closed.
func (s *Server) siteChatConversationList(c *gin.Context) {
	limit, err := httpx.Limit(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	page, err := s.SiteChat.Conversations(c, project(c).ID, actor(c).UserID, sitechat.ConversationFilter{Status: c.Query("status")},
		limit, c.Query("cursor"))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	items, _ := each(s.viewConversationSummary)(page.Items)
	c.JSON(http.StatusOK, siteChatConversationList{list: list[siteChatConversationView]{Items: items, NextCursor: page.NextCursor},
		UnreadConversations: page.UnreadConversations})
}

// siteChatConversationGet serves GET /api/v1/site-chat-conversations/{conversation_id}.
func (s *Server) siteChatConversationGet(c *gin.Context) {
	s.renderConversationSummary(c, conversation(c), nil)
}

// siteChatConversationRead serves POST /api/v1/site-chat-conversations/{conversation_id}/read:
// the caller has read the conversation to its newest message; answers it with no unread.
func (s *Server) siteChatConversationRead(c *gin.Context) {
	conv := conversation(c)
	s.renderConversationSummary(c, conv, s.SiteChat.MarkRead(c, conv, actor(c).UserID))
}

// siteChatConversationPatchInput is SiteChatConversationPatch.
type siteChatConversationPatchInput struct {
	Status string `json:"status"`
}

// siteChatConversationPatch serves PATCH /api/v1/site-chat-conversations/{conversation_id}:
// closes the conversation or opens it again.
func (s *Server) siteChatConversationPatch(c *gin.Context) {
	var req siteChatConversationPatchInput
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	conv, err := s.SiteChat.SetConversationStatus(c, conversation(c), req.Status)
	s.renderConversationSummary(c, conv, err)
}

// renderConversationSummary answers the conversation as the caller's desk shows it, or err.
func (s *Server) renderConversationSummary(c *gin.Context, conv *sitechat.Conversation, err error) {
	if err == nil {
		var cs *sitechat.ConversationSummary
		if cs, err = s.SiteChat.ConversationSummary(c, conv, actor(c).UserID); err == nil {
			c.JSON(http.StatusOK, s.viewConversationSummary(*cs))
			return
		}
	}
	httpx.WriteError(c, err)
}
