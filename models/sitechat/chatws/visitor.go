package chatws

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/sitechat"
)

// visitorMessage is the payload of a visitor's chat.message.
type visitorMessage struct {
	Body           string `json:"body"`
	AuthorName     string `json:"author_name"`
	VisitorContact string `json:"visitor_contact"`
}

// callPayload is the payload of the call moves: SiteChatCallInput's fields.
type callPayload struct {
	MediaKind                string `json:"media_kind"`
	RecordingEnabled         bool   `json:"recording_enabled"`
	RecordingConsentAccepted bool   `json:"recording_consent_accepted"`
	PrivacyConsentAccepted   bool   `json:"privacy_consent_accepted"`
	EndReason                string `json:"end_reason"`
}

func (c callPayload) input(conversationID *uuid.UUID) sitechat.CallInput {
	return sitechat.CallInput{
		ConversationID:           conversationID,
		MediaKind:                c.MediaKind,
		RecordingEnabled:         c.RecordingEnabled,
		RecordingConsentAccepted: c.RecordingConsentAccepted,
		PrivacyConsentAccepted:   c.PrivacyConsentAccepted,
		EndReason:                c.EndReason,
	}
}

// fromVisitor acts on an envelope of the visitor whose token gave v.
func (p *Protocol) fromVisitor(ctx context.Context, v *sitechat.VisitorAccess, e Envelope) (Reply, error) {
	switch e.Type {
	case VisitorHeartbeat:
		return Reply{}, p.siteChat.TouchSession(ctx, v)
	case PresenceUpdate:
		var in sitechat.PresenceInput
		if err := payload(e, &in); err != nil {
			return Reply{}, err
		}
		in.PublicKey, in.VisitSessionID, in.AnonymousID = v.Widget.PublicKey, &v.Session.ID, v.Visitor.AnonymousID
		_, err := p.siteChat.Presence(ctx, in)
		return Reply{}, err
	case EventBatch:
		var in struct {
			Events []sitechat.Event `json:"events"`
		}
		if err := payload(e, &in); err != nil {
			return Reply{}, err
		}
		return p.recordEvents(ctx, v, in.Events)
	case ChatMessage:
		var in visitorMessage
		if err := payload(e, &in); err != nil {
			return Reply{}, err
		}
		m, conv, err := p.siteChat.PostVisitorMessage(ctx, v,
			sitechat.MessageInput{Body: in.Body, AuthorName: in.AuthorName, VisitorContact: in.VisitorContact})
		if err != nil {
			return Reply{}, err
		}
		return Reply{Ack: map[string]uuid.UUID{"message_id": m.ID, "conversation_id": conv.ID}}, nil
	case ChatTyping:
		return relay(v.Widget.ProjectID, Target{Operators: true}, e, visitIDs(v.Session)), nil
	case InviteSeen, InviteAccepted, InviteDeclined:
		return Reply{}, p.siteChat.AnswerInvite(ctx, v, strings.TrimPrefix(string(e.Type), "invite."))
	case ConsentAccepted, ConsentDeclined:
		var in struct {
			Subject string `json:"subject"`
		}
		if err := payload(e, &in); err != nil {
			return Reply{}, err
		}
		if in.Subject != "" && in.Subject != "monitoring" {
			// A call's consents travel with call.accept (privacy_consent_accepted,
			// recording_consent_accepted).
			return Reply{}, models.Invalid("invalid_envelope", "payload.subject")
		}
		return Reply{}, p.siteChat.AnswerMonitoring(ctx, v, e.Type == ConsentAccepted)
	case CallRequest:
		var in callPayload
		if err := payload(e, &in); err != nil {
			return Reply{}, err
		}
		call, err := p.siteChat.RequestCall(ctx, v, in.input(e.ConversationID))
		if err != nil {
			return Reply{}, err
		}
		return Reply{Ack: map[string]uuid.UUID{"call_session_id": call.ID}}, nil
	case CallAccept, CallReject, CallCancel, CallEnd:
		call, err := p.visitorCall(ctx, v, e)
		if err != nil {
			return Reply{}, err
		}
		return Reply{}, p.moveCall(ctx, call, sitechat.VisitorParty(), e)
	case WebRTCOffer, WebRTCAnswer, WebRTCICE:
		call, err := p.visitorCall(ctx, v, e)
		if err != nil {
			return Reply{}, err
		}
		if err := p.siteChat.SignalCall(ctx, call); err != nil {
			return Reply{}, err
		}
		return relay(call.ProjectID, Target{Operators: true, Watching: call.ID}, e, callIDs(call)), nil
	}
	// The co-browse types: stored as frames, passed on live to the watchers.
	return p.recordEvents(ctx, v, []sitechat.Event{{EventType: "cobrowse." + frameTypes[e.Type], OccurredAt: &e.SentAt, Payload: e.Payload}})
}

func (p *Protocol) recordEvents(ctx context.Context, v *sitechat.VisitorAccess, events []sitechat.Event) (Reply, error) {
	r, err := p.siteChat.RecordEvents(ctx, v, events)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Ack: map[string]any{
		"accepted":       r.Accepted,
		"frames":         r.Frames,
		"first_sequence": r.FirstSequence,
		"last_sequence":  r.LastSequence,
	}}, nil
}

func (p *Protocol) visitorCall(ctx context.Context, v *sitechat.VisitorAccess, e Envelope) (*sitechat.CallSession, error) {
	if e.CallSessionID == nil {
		return nil, models.Invalid("invalid_envelope", "call_session_id")
	}
	return p.siteChat.VisitorCall(ctx, v, *e.CallSessionID)
}

// moveCall applies a call.accept, reject, cancel or end; cancel is the caller hanging up
// before an answer, which EndCall records as cancelled.
func (p *Protocol) moveCall(ctx context.Context, call *sitechat.CallSession, by sitechat.Party, e Envelope) error {
	var in callPayload
	if err := payload(e, &in); err != nil {
		return err
	}
	var err error
	switch e.Type {
	case CallAccept:
		_, err = p.siteChat.AcceptCall(ctx, call, by, in.input(nil))
	case CallReject:
		_, err = p.siteChat.RejectCall(ctx, call, by, in.EndReason)
	default:
		_, err = p.siteChat.EndCall(ctx, call, by, in.EndReason)
	}
	return err
}
