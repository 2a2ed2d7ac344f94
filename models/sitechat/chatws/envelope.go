package chatws

import (
	"bytes"
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"agencyhub/models"
)

// Type is the kind of an envelope, one of the specification's list.
type Type string

// The envelope types, grouped as the specification groups them.
const (
	VisitorHeartbeat Type = "visitor.heartbeat"
	VisitorLeft      Type = "visitor.left"
	PresenceUpdate   Type = "presence.update"
	EventBatch       Type = "event.batch"

	ChatMessage Type = "chat.message"
	ChatTyping  Type = "chat.typing"

	OperatorInvite Type = "operator.invite"
	InviteSeen     Type = "invite.seen"
	InviteAccepted Type = "invite.accepted"
	InviteDeclined Type = "invite.declined"

	MonitoringStart       Type = "monitoring.start"
	MonitoringStop        Type = "monitoring.stop"
	MonitoringSnapshot    Type = "monitoring.snapshot"
	MonitoringIncremental Type = "monitoring.incremental"

	CursorMove   Type = "cursor.move"
	TouchMove    Type = "touch.move"
	Click        Type = "click"
	Scroll       Type = "scroll"
	Viewport     Type = "viewport"
	PageNavigate Type = "page.navigate"

	CallRequest Type = "call.request"
	CallOffer   Type = "call.offer"
	CallAccept  Type = "call.accept"
	CallReject  Type = "call.reject"
	CallCancel  Type = "call.cancel"
	CallEnd     Type = "call.end"

	WebRTCOffer  Type = "webrtc.offer"
	WebRTCAnswer Type = "webrtc.answer"
	WebRTCICE    Type = "webrtc.ice"

	ConsentAccepted Type = "consent.accepted"
	ConsentDeclined Type = "consent.declined"

	Ack   Type = "ack"
	Error Type = "error"
)

// Side is one of the two channels: the widget's visitor socket or the operator socket.
type Side string

const (
	SideVisitor  Side = "visitor"
	SideOperator Side = "operator"
)

// senders says which side may send each type; a type with no sender (visitor.left, ack,
// error) only ever comes from the server. docs/site-chat-sockets.md and the contract's
// descriptions of the two socket operations repeat this table.
var senders = map[Type][]Side{
	VisitorHeartbeat: {SideVisitor},
	VisitorLeft:      nil,
	PresenceUpdate:   {SideVisitor},
	EventBatch:       {SideVisitor},

	ChatMessage: {SideVisitor, SideOperator},
	ChatTyping:  {SideVisitor, SideOperator},

	OperatorInvite: {SideOperator},
	InviteSeen:     {SideVisitor},
	InviteAccepted: {SideVisitor},
	InviteDeclined: {SideVisitor},

	MonitoringStart:       {SideOperator},
	MonitoringStop:        {SideOperator},
	MonitoringSnapshot:    {SideVisitor},
	MonitoringIncremental: {SideVisitor},

	CursorMove:   {SideVisitor},
	TouchMove:    {SideVisitor},
	Click:        {SideVisitor},
	Scroll:       {SideVisitor},
	Viewport:     {SideVisitor},
	PageNavigate: {SideVisitor},

	CallRequest: {SideVisitor},
	CallOffer:   {SideOperator},
	CallAccept:  {SideVisitor, SideOperator},
	CallReject:  {SideVisitor, SideOperator},
	CallCancel:  {SideVisitor, SideOperator},
	CallEnd:     {SideVisitor, SideOperator},

	WebRTCOffer:  {SideVisitor, SideOperator},
	WebRTCAnswer: {SideVisitor, SideOperator},
	WebRTCICE:    {SideVisitor, SideOperator},

	ConsentAccepted: {SideVisitor},
	ConsentDeclined: {SideVisitor},

	Ack:   nil,
	Error: nil,
}

// Known reports whether t is one of the specification's types.
func (t Type) Known() bool {
	_, ok := senders[t]
	return ok
}

// MaySend reports whether side may send envelopes of type t.
func (side Side) MaySend(t Type) bool {
	for _, s := range senders[t] {
		if s == side {
			return true
		}
	}
	return false
}

// maxEnvelopeID bounds the client's id, which the server repeats in its answer.
const maxEnvelopeID = 128

// Envelope is SiteChatWSEnvelope, the one shape of every message on both sockets.
type Envelope struct {
	ID             string          `json:"id"`
	Type           Type            `json:"type"`
	SentAt         time.Time       `json:"sent_at"`
	Payload        json.RawMessage `json:"payload,omitempty"`
	ConversationID *uuid.UUID      `json:"conversation_id,omitempty"`
	VisitSessionID *uuid.UUID      `json:"visit_session_id,omitempty"`
	VisitorID      *uuid.UUID      `json:"visitor_id,omitempty"`
	ChatWidgetID   *uuid.UUID      `json:"chat_widget_id,omitempty"`
	ProjectID      *uuid.UUID      `json:"project_id,omitempty"`
	CallSessionID  *uuid.UUID      `json:"call_session_id,omitempty"`
}

// Decode reads one envelope a client sent. It answers the id it could read even when the
// envelope is invalid, so that the error can name the envelope it refuses. Errors: invalid
// (id, type, sent_at, payload, or the envelope as a whole when it is not a JSON object).
func Decode(raw []byte) (Envelope, error) {
	var e Envelope
	if !utf8.Valid(raw) {
		return e, models.Invalid("invalid_envelope", "envelope")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&e); err != nil {
		// The id alone may still be readable, from an envelope whose other fields are wrong.
		var idOnly struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(raw, &idOnly)
		e = Envelope{ID: idOnly.ID}
		if len(e.ID) > maxEnvelopeID {
			e.ID = ""
		}
		return e, models.Invalid("invalid_envelope", "envelope")
	}
	var missing []string
	if e.ID == "" || len(e.ID) > maxEnvelopeID {
		e.ID = ""
		missing = append(missing, "id")
	}
	if !e.Type.Known() {
		missing = append(missing, "type")
	}
	if e.SentAt.IsZero() {
		missing = append(missing, "sent_at")
	}
	if len(e.Payload) > 0 && e.Payload[0] != '{' && !bytes.Equal(e.Payload, []byte("null")) {
		missing = append(missing, "payload")
	}
	if len(missing) > 0 {
		return e, models.Invalid("invalid_envelope", missing...)
	}
	return e, nil
}

// NewEnvelope is an envelope the server sends, with a fresh id.
func NewEnvelope(t Type, payload any) (Envelope, error) {
	e := Envelope{ID: models.NewID().String(), Type: t, SentAt: time.Now().UTC()}
	if payload != nil {
		b, err := json.Marshal(payload)
		if err != nil {
			return e, models.Internal("encode %s payload: %w", t, err)
		}
		e.Payload = b
	}
	return e, nil
}

// IDs fills the envelope's optional ids; uuid.Nil leaves one out.
func (e *Envelope) IDs(ids EnvelopeIDs) {
	set := func(dst **uuid.UUID, id uuid.UUID) {
		if id != uuid.Nil {
			*dst = &id
		}
	}
	set(&e.ConversationID, ids.ConversationID)
	set(&e.VisitSessionID, ids.VisitSessionID)
	set(&e.VisitorID, ids.VisitorID)
	set(&e.ChatWidgetID, ids.ChatWidgetID)
	set(&e.ProjectID, ids.ProjectID)
	set(&e.CallSessionID, ids.CallSessionID)
}

// EnvelopeIDs are the optional ids of an envelope.
type EnvelopeIDs struct {
	ConversationID, VisitSessionID, VisitorID, ChatWidgetID, ProjectID, CallSessionID uuid.UUID
}
