package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/desktop"
)

// desktopStreamBatch is how many messages a stream reads at a time.
const desktopStreamBatch = 100

type desktopMessageView struct {
	DesktopMessageID uuid.UUID  `json:"desktop_message_id"`
	CompanyID        uuid.UUID  `json:"company_id"`
	ProjectID        *uuid.UUID `json:"project_id"`
	Sequence         int64      `json:"sequence"`
	Kind             string     `json:"kind"`
	Title            string     `json:"title"`
	Body             string     `json:"body"`
	SubjectType      string     `json:"subject_type"`
	SubjectID        string     `json:"subject_id"`
	CreatedAt        time.Time  `json:"created_at"`
	AckedAt          *time.Time `json:"acked_at"`
}

func viewDesktopMessage(m desktop.Message) desktopMessageView {
	return desktopMessageView{DesktopMessageID: m.ID, CompanyID: m.CompanyID, ProjectID: m.ProjectID, Sequence: m.Sequence,
		Kind: m.Kind, Title: m.Title, Body: m.Body, SubjectType: m.SubjectType, SubjectID: m.SubjectID,
		CreatedAt: m.CreatedAt, AckedAt: m.AckedAt}
}

// desktopMessageList is the list shape plus the caller's unread count, for the app's badge.
type desktopMessageList struct {
	list[desktopMessageView]
	UnreadCount int64 `json:"unread_count"`
}

// desktopMessages serves GET /api/v1/desktop/messages: the caller's messages, unread first,
// newest first within each; ?unread=true keeps the unread ones.
func (s *Server) desktopMessages(c *gin.Context) {
	limit, err := httpx.Limit(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	unread, err := strconv.ParseBool(c.DefaultQuery("unread", "false"))
	if err != nil {
		httpx.WriteError(c, models.Invalid("invalid_unread", "unread"))
		return
	}
	page := models.PageRequest{Limit: limit, Cursor: c.Query("cursor")}
	rows, next, unreadCount, err := s.Desktop.List(c, actor(c).UserID, desktop.Filter{Unread: unread}, page)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	items, _ := each(viewDesktopMessage)(rows)
	c.JSON(http.StatusOK, desktopMessageList{list: list[desktopMessageView]{Items: items, NextCursor: next}, UnreadCount: unreadCount})
}

// desktopMessageAck serves POST /api/v1/desktop/messages/{desktop_message_id}/ack. It is
// idempotent: acknowledging again answers the message as it is. Another user's message is
// 404.
func (s *Server) desktopMessageAck(c *gin.Context) {
	id, err := models.ParseID("desktop_message_id", c.Param("desktop_message_id"))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	m, err := s.Desktop.Ack(c, actor(c).UserID, id)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewDesktopMessage(*m))
}

// desktopMessagesStream serves GET /api/v1/desktop/messages/stream as Server-Sent Events:
// each message is an event `desktop.message` whose id is its sequence number. A client
// reconnecting with Last-Event-ID (or ?cursor=) gets every message stored after it;
// without one the stream starts with the next message. A message is read as soon as the
// bus says the caller's inbox changed; comments keep the connection alive meanwhile.
func (s *Server) desktopMessagesStream(c *gin.Context) {
	userID := actor(c).UserID
	watch := s.watch(desktop.Topic(userID)) // before reading, so that nothing falls between
	defer watch.close()
	after, err := s.desktopResumePoint(c, userID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	beginEventStream(c)
	keepAlive := time.NewTicker(streamKeepAlive)
	defer keepAlive.Stop()
	for {
		rows, err := s.Desktop.After(c, userID, after, desktopStreamBatch)
		if err != nil {
			return
		}
		for _, m := range rows {
			data, _ := json.Marshal(viewDesktopMessage(m))
			fmt.Fprintf(c.Writer, "id: %d\nevent: desktop.message\ndata: %s\n\n", m.Sequence, data)
			after = m.Sequence
		}
		if len(rows) > 0 {
			c.Writer.Flush()
			keepAlive.Reset(streamKeepAlive)
			continue
		}
		for !watch.wait(c.Request.Context(), keepAlive.C) {
			if c.Request.Context().Err() != nil {
				return
			}
			fmt.Fprint(c.Writer, ": keep-alive\n\n")
			c.Writer.Flush()
		}
	}
}

// desktopResumePoint is the sequence number a stream sends after: the Last-Event-ID header
// or ?cursor= of a reconnecting client, else the caller's newest message.
func (s *Server) desktopResumePoint(c *gin.Context, userID uuid.UUID) (int64, error) {
	resume := c.GetHeader("Last-Event-ID")
	if resume == "" {
		resume = c.Query("cursor")
	}
	if resume == "" {
		return s.Desktop.LastSequence(c, userID)
	}
	after, err := afterSequence(resume, "cursor")
	return int64(after), err
}
