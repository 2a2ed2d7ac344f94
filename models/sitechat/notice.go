package sitechat

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/google/uuid"
)

// Notice is what the site chat publishes on the event bus after every committed change a
// WebSocket should see, under the topic of the change's project (Topic). Type is the
// SiteChatWSEnvelope type the change maps to; the ids say what changed and Status its new
// state, so a subscriber (the sockets' protocol, chatws) re-reads what it forwards and filters by id: a
// visitor's socket takes only notices of its visit session or visitor, an operator's
// those of the projects it may read. Like every bus message it carries ids and statuses,
// never documents (see platform/realtime).
//
// Types and what publishes them:
//
//	presence.update        presence (new or resumed session), a session back from left,
//	                       chat panel opened or closed, a conversation opened or closed
//	                       (Status open/closed, ConversationID)
//	visitor.left           MarkVisitorLeft
//	chat.message           a message created (MessageID, ConversationID, AuthorKind)
//	operator.invite        Invite (Status pending)
//	invite.seen, invite.accepted, invite.declined   AnswerInvite
//	monitoring.start       StartMonitoring (Status requested), consent accepted (active)
//	monitoring.stop        StopMonitoring, consent declined (Status stopped)
//	monitoring.snapshot    an event batch stored a DOM snapshot frame (Sequence: last)
//	monitoring.incremental an event batch stored other co-browse frames (Sequence: last)
//	event.batch            an event batch with activity events only
//	call.request           a visitor's call request (Status offered), and its ringing
//	call.offer             an operator's call offer (Status offered), and its ringing
//	call.accept, call.reject, call.end   those moves (end: Status ended or failed)
//	call.cancel            the caller hung up before an answer (cancelled), or nobody
//	                       answered within CallRingTimeout (missed)
type Notice struct {
	Type           string    `json:"type"`
	ProjectID      uuid.UUID `json:"project_id"`
	ChatWidgetID   uuid.UUID `json:"chat_widget_id,omitzero"`
	VisitorID      uuid.UUID `json:"visitor_id,omitzero"`
	VisitSessionID uuid.UUID `json:"visit_session_id,omitzero"`
	ConversationID uuid.UUID `json:"conversation_id,omitzero"`
	MessageID      uuid.UUID `json:"message_id,omitzero"`
	CallSessionID  uuid.UUID `json:"call_session_id,omitzero"`
	Status         string    `json:"status,omitempty"`
	AuthorKind     string    `json:"author_kind,omitempty"`
	Sequence       int64     `json:"sequence,omitempty"`
}

// Notice types, named as the SiteChatWSEnvelope types they map to.
const (
	NoticePresenceUpdate        = "presence.update"
	NoticeVisitorLeft           = "visitor.left"
	NoticeEventBatch            = "event.batch"
	NoticeChatMessage           = "chat.message"
	NoticeOperatorInvite        = "operator.invite"
	NoticeInviteSeen            = "invite.seen"
	NoticeInviteAccepted        = "invite.accepted"
	NoticeInviteDeclined        = "invite.declined"
	NoticeMonitoringStart       = "monitoring.start"
	NoticeMonitoringStop        = "monitoring.stop"
	NoticeMonitoringSnapshot    = "monitoring.snapshot"
	NoticeMonitoringIncremental = "monitoring.incremental"
	NoticeCallRequest           = "call.request"
	NoticeCallOffer             = "call.offer"
	NoticeCallAccept            = "call.accept"
	NoticeCallReject            = "call.reject"
	NoticeCallCancel            = "call.cancel"
	NoticeCallEnd               = "call.end"
)

// Topic is the bus topic of a project's site chat notices.
func Topic(projectID uuid.UUID) string { return "chat:" + projectID.String() }

// ParseNotice reads a notice from a bus message's data.
func ParseNotice(data json.RawMessage) (Notice, error) {
	var n Notice
	err := json.Unmarshal(data, &n)
	return n, err
}

func sessionNotice(typ string, v *VisitSession) Notice {
	return Notice{Type: typ, ProjectID: v.ProjectID, ChatWidgetID: v.ChatWidgetID, VisitorID: v.VisitorID,
		VisitSessionID: v.ID, ConversationID: v.ConversationID}
}

// publish hands n to the bus after its change is committed. A lost notice costs a socket a
// live update, never data (subscribers keep a safety poll), so a failure is logged only.
func (s *Service) publish(ctx context.Context, n Notice) {
	if s.Bus == nil {
		return
	}
	data, err := json.Marshal(n)
	if err == nil {
		err = s.Bus.Publish(context.WithoutCancel(ctx), Topic(n.ProjectID), data)
	}
	if err != nil {
		slog.WarnContext(ctx, "publish site chat notice", "type", n.Type, "project_id", n.ProjectID, "err", err)
	}
}
