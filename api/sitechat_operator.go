package api

import (
	"errors"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/sitechat"
	"agencyhub/platform/filestore"
)

// siteChatActiveVisitors serves GET /api/v1/projects/{project_id}/site-visitors/active:
// the project's visit sessions active in the last two minutes.
func (s *Server) siteChatActiveVisitors(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]sitechat.VisitSession, string, error) {
		return s.SiteChat.ActiveVisitors(c, project(c).ID, page)
	}, func(rows []sitechat.VisitSession) ([]siteVisitorSessionView, error) {
		out := make([]siteVisitorSessionView, len(rows))
		for i := range rows {
			v, err := s.viewVisitSession(c, &rows[i])
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	})
}

// renderVisitSession answers a visit session with 200, or the error.
func (s *Server) renderVisitSession(c *gin.Context, v *sitechat.VisitSession, err error) {
	if err == nil {
		var view siteVisitorSessionView
		if view, err = s.viewVisitSession(c, v); err == nil {
			c.JSON(http.StatusOK, view)
			return
		}
	}
	httpx.WriteError(c, err)
}

// siteChatMonitoringStart serves POST /api/v1/site-visit-sessions/{visit_session_id}/monitoring/start:
// asks the visitor to share their screen (requested); it becomes active only when the
// visitor consents.
func (s *Server) siteChatMonitoringStart(c *gin.Context) {
	v, err := s.SiteChat.StartMonitoring(c, visitSession(c))
	s.renderVisitSession(c, v, err)
}

// siteChatMonitoringStop serves POST /api/v1/site-visit-sessions/{visit_session_id}/monitoring/stop.
func (s *Server) siteChatMonitoringStop(c *gin.Context) {
	v, err := s.SiteChat.StopMonitoring(c, visitSession(c))
	s.renderVisitSession(c, v, err)
}

// siteChatInviteInput is the specification's SiteChatInviteInput.
type siteChatInviteInput struct {
	Force    bool   `json:"force"`
	Message  string `json:"message"`
	Template string `json:"template"`
}

// siteChatVisitorInvite serves POST /api/v1/site-visit-sessions/{visit_session_id}/invite:
// the widget shows the invitation; force opens the chat panel at once.
func (s *Server) siteChatVisitorInvite(c *gin.Context) {
	var req siteChatInviteInput
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	session := visitSession(c)
	w, _, err := s.SiteChat.WidgetAccess(c, actor(c).UserID, session.ChatWidgetID)
	if err == nil {
		session, err = s.SiteChat.Invite(c, w, session, sitechat.InviteInput{Force: req.Force, Message: req.Message, Template: req.Template})
	}
	s.renderVisitSession(c, session, err)
}

// siteChatOperatorCallOffer serves POST /api/v1/site-visit-sessions/{visit_session_id}/call-offer:
// the operator calls the visitor (operator_to_visitor, offered).
func (s *Server) siteChatOperatorCallOffer(c *gin.Context) {
	var req siteChatCallInput
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	session := visitSession(c)
	if err := s.sameSession(req, session); err != nil {
		httpx.WriteError(c, err)
		return
	}
	call, err := s.SiteChat.OfferCall(c, session, actor(c).UserID, req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewCall(call))
}

// siteChatVisitCalls serves GET /api/v1/site-visit-sessions/{visit_session_id}/calls
// (extension): the visit's calls, so the console finds the recordings of each.
func (s *Server) siteChatVisitCalls(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]sitechat.CallSession, string, error) {
		return s.SiteChat.VisitCalls(c, visitSession(c), page)
	}, each(func(call sitechat.CallSession) siteChatCallView { return viewCall(&call) }))
}

// sameSession refuses a call offer whose body names ids of another visit than its path's.
// Errors: invalid (visit_session_id, visitor_id, conversation_id, public_key).
func (s *Server) sameSession(req siteChatCallInput, v *sitechat.VisitSession) error {
	var bad []string
	if req.VisitSessionID != nil && *req.VisitSessionID != v.ID {
		bad = append(bad, "visit_session_id")
	}
	if req.VisitorID != nil && *req.VisitorID != v.VisitorID {
		bad = append(bad, "visitor_id")
	}
	if req.ConversationID != nil && *req.ConversationID != v.ConversationID {
		bad = append(bad, "conversation_id")
	}
	if req.PublicKey != "" {
		bad = append(bad, "public_key")
	}
	if len(bad) > 0 {
		return models.Invalid("call_ids_of_another_visit", bad...)
	}
	return nil
}

// siteChatVisitEvents serves GET /api/v1/site-visit-sessions/{visit_session_id}/events:
// the session's co-browse frames after after_sequence, in order; next_cursor is the
// after_sequence of the next page ("" on the last).
func (s *Server) siteChatVisitEvents(c *gin.Context) {
	limit, err := httpx.Limit(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	var after int64
	if raw := c.Query("after_sequence"); raw != "" {
		if after, err = strconv.ParseInt(raw, 10, 64); err != nil || after < 0 {
			httpx.WriteError(c, models.Invalid("invalid_after_sequence", "after_sequence"))
			return
		}
	}
	frames, more, err := s.SiteChat.Frames(c, visitSession(c), after, limit)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	next := ""
	if more {
		next = strconv.FormatInt(frames[len(frames)-1].Sequence, 10)
	}
	renderList(c, frames, next, viewFrame)
}

// siteChatVisitSession serves GET /api/v1/site-visit-sessions/{visit_session_id}: the
// visit as the notices about it carry it (extension).
func (s *Server) siteChatVisitSession(c *gin.Context) { s.renderVisitSession(c, visitSession(c), nil) }

// siteChatVisitSnapshot serves GET /api/v1/site-visit-sessions/{visit_session_id}/snapshot:
// the visit's VisitorStateSnapshot as of now.
func (s *Server) siteChatVisitSnapshot(c *gin.Context) {
	snapshot, err := s.SiteChat.Snapshot(c, visitSession(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, snapshot)
}

// operatorCallMove is the shape of an operator's call moves: bind, move, render.
func (s *Server) operatorCallMove(c *gin.Context,
	move func(call *sitechat.CallSession, by sitechat.Party, in sitechat.CallInput) (*sitechat.CallSession, error)) {
	var req siteChatCallInput
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	call, err := move(callSession(c), sitechat.OperatorParty(actor(c).UserID), req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewCall(call))
}

// siteChatOperatorCallAccept serves POST /api/v1/site-chat/calls/{call_session_id}/accept:
// an operator answers a visitor's call request.
func (s *Server) siteChatOperatorCallAccept(c *gin.Context) {
	s.operatorCallMove(c, func(call *sitechat.CallSession, by sitechat.Party, in sitechat.CallInput) (*sitechat.CallSession, error) {
		return s.SiteChat.AcceptCall(c, call, by, in)
	})
}

// siteChatOperatorCallReject serves POST /api/v1/site-chat/calls/{call_session_id}/reject.
func (s *Server) siteChatOperatorCallReject(c *gin.Context) {
	s.operatorCallMove(c, func(call *sitechat.CallSession, by sitechat.Party, in sitechat.CallInput) (*sitechat.CallSession, error) {
		return s.SiteChat.RejectCall(c, call, by, in.EndReason)
	})
}

// siteChatOperatorCallEnd serves POST /api/v1/site-chat/calls/{call_session_id}/end:
// hangs up, or cancels the operator's own offer before an answer.
func (s *Server) siteChatOperatorCallEnd(c *gin.Context) {
	s.operatorCallMove(c, func(call *sitechat.CallSession, by sitechat.Party, in sitechat.CallInput) (*sitechat.CallSession, error) {
		return s.SiteChat.EndCall(c, call, by, in.EndReason)
	})
}

// siteChatCallRecordings serves GET /api/v1/site-chat/calls/{call_session_id}/recordings.
func (s *Server) siteChatCallRecordings(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]sitechat.Recording, string, error) {
		return s.SiteChat.Recordings(c, callSession(c), page)
	}, s.viewRecordings(c))
}

// siteChatCallRecordingCreate serves POST /api/v1/site-chat/calls/{call_session_id}/recordings
// (extension): the operator's browser uploads the call's recording; only a recordable call
// (recording enabled, both consents of the visitor stored) takes one.
func (s *Server) siteChatCallRecordingCreate(c *gin.Context) {
	fh, ok := multipartFile(c, sitechat.RecordingLimits)
	if !ok {
		return
	}
	file, err := fh.Open()
	if err != nil {
		httpx.WriteError(c, models.Internal("open uploaded recording: %w", err))
		return
	}
	defer file.Close()
	r, err := s.SiteChat.AddRecording(c, callSession(c), actor(c).UserID, fh.Filename, file)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	views, err := s.viewRecordings(c)([]sitechat.Recording{*r})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, views[0])
}

// siteChatMessageList serves GET /api/v1/site-chat-conversations/{conversation_id}/messages.
func (s *Server) siteChatMessageList(c *gin.Context) { s.serveMessages(c, conversation(c)) }

// siteChatMessageCreate serves POST /api/v1/site-chat-conversations/{conversation_id}/messages:
// an operator's answer, under author_name or the operator's own name.
func (s *Server) siteChatMessageCreate(c *gin.Context) {
	var req siteChatMessageInput
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	name, err := s.operatorName(c, req.AuthorName)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	m, err := s.SiteChat.PostOperatorMessage(c, conversation(c), actor(c).UserID, name, req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, s.viewMessage(*m))
}

// operatorName is the author name an operator posts under: the one given, else theirs.
func (s *Server) operatorName(c *gin.Context, given string) (string, error) {
	if given != "" {
		return given, nil
	}
	u, err := s.Auth.User(c, actor(c).UserID)
	if err != nil {
		return "", err
	}
	if u.Name == "" {
		return "Operator", nil
	}
	return u.Name, nil
}

// siteChatAttachmentCreate serves POST /api/v1/site-chat-conversations/{conversation_id}/attachments:
// a file an operator sends, as a message of theirs.
func (s *Server) siteChatAttachmentCreate(c *gin.Context) {
	name, err := s.operatorName(c, "")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	userID := actor(c).UserID
	s.uploadAttachment(c, conversation(c), sitechat.AuthorOperator, &userID, name)
}

// uploadAttachment stores the multipart `file` of the request as an attachment message of
// conv and answers the message with 201.
func (s *Server) uploadAttachment(c *gin.Context, conv *sitechat.Conversation, kind string, userID *uuid.UUID, authorName string) {
	fh, ok := multipartFile(c, sitechat.AttachmentLimits)
	if !ok {
		return
	}
	file, err := fh.Open()
	if err != nil {
		httpx.WriteError(c, models.Internal("open uploaded attachment: %w", err))
		return
	}
	defer file.Close()
	m, err := s.SiteChat.AddAttachment(c, conv, kind, userID, authorName, fh.Filename, file)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, s.viewMessage(*m))
}

// multipartFile reads the `file` part of a multipart/form-data body of at most the
// limit's size (plus the form's overhead). It writes the error and answers false when the
// body is not multipart (415), too large (413) or has no file (400 file).
func multipartFile(c *gin.Context, lim filestore.Limits) (*multipart.FileHeader, bool) {
	if mt, _, _ := mime.ParseMediaType(c.ContentType()); mt != "multipart/form-data" {
		httpx.WriteError(c, models.Invalid("unsupported_media_type", "body"))
		return nil, false
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, lim.MaxBytes+uploadOverhead)
	fh, err := c.FormFile("file")
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		httpx.WriteError(c, models.Invalid("body_too_large", "body"))
		return nil, false
	case err != nil:
		httpx.WriteError(c, models.Invalid("site_chat_file_required", "file"))
		return nil, false
	}
	return fh, true
}

// siteChatVoiceConfig serves GET /api/v1/site-chat/voice-config: ICE servers for an
// operator's calls, TURN credentials named after the operator.
func (s *Server) siteChatVoiceConfig(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, viewVoiceConfig(s.SiteChat.VoiceConfig("operator-"+actor(c).UserID.String())))
}

// siteChatAttachmentDownload serves GET
// /api/v1/site-chat/attachments/{attachment_id}/{download_token} (public: the expiring
// token is the credential, signed for this attachment alone). A bad, forged or expired
// token answers 404 like an unknown attachment, and so does anything not shaped like a
// token, before the id is even read. The file is served as an attachment,
// never sniffed into something the browser renders.
func (s *Server) siteChatAttachmentDownload(c *gin.Context) {
	token := c.Param("download_token")
	if !sitechat.IsAttachmentToken(token) {
		httpx.WriteError(c, models.NotFound("attachment_not_found"))
		return
	}
	id, err := httpx.PathID(c, "attachment_id")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	a, body, err := s.SiteChat.OpenAttachment(c, id, token)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	defer body.Close()
	c.DataFromReader(http.StatusOK, a.SizeBytes, a.ContentType, body, map[string]string{
		"Content-Disposition":    filestore.Link{Name: a.FileName}.ContentDisposition(),
		"X-Content-Type-Options": "nosniff",
		"Cache-Control":          "private, no-store",
	})
}
