package chatws

import (
	"context"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/models/sitechat"
)

// fromOperator acts on an envelope of an operator's socket. Every move needs the work
// permission in the company of what it names (viewers are refused with role_too_low).
func (p *Protocol) fromOperator(ctx context.Context, c *Client, e Envelope) (Reply, error) {
	switch e.Type {
	case ChatMessage, ChatTyping:
		conv, err := p.operatorConversation(ctx, c, e)
		if err != nil {
			return Reply{}, err
		}
		if e.Type == ChatTyping {
			if conv.VisitSessionID == nil {
				return Reply{}, nil
			}
			return relay(conv.ProjectID, Target{VisitSessionID: *conv.VisitSessionID}, e, EnvelopeIDs{
				ConversationID: conv.ID,
				VisitSessionID: *conv.VisitSessionID,
				VisitorID:      conv.VisitorID,
				ChatWidgetID:   conv.ChatWidgetID,
				ProjectID:      conv.ProjectID,
			}), nil
		}
		var in struct {
			Body string `json:"body"`
		}
		if err := payload(e, &in); err != nil {
			return Reply{}, err
		}
		u, err := p.users.User(ctx, c.UserID)
		if err != nil {
			return Reply{}, err
		}
		m, err := p.siteChat.PostOperatorMessage(ctx, conv, c.UserID, u.Name, sitechat.MessageInput{Body: in.Body})
		if err != nil {
			return Reply{}, err
		}
		return Reply{Ack: map[string]uuid.UUID{"message_id": m.ID, "conversation_id": conv.ID}}, nil
	case OperatorInvite, MonitoringStart, MonitoringStop, CallOffer:
		return p.onVisitSession(ctx, c, e)
	}
	// The call moves and the WebRTC signalling.
	if e.CallSessionID == nil {
		return Reply{}, models.Invalid("invalid_envelope", "call_session_id")
	}
	call, a, err := p.siteChat.CallAccess(ctx, c.UserID, *e.CallSessionID)
	if err := mayWork(a, err); err != nil {
		return Reply{}, err
	}
	c.Watch(call.ID)
	switch e.Type {
	case WebRTCOffer, WebRTCAnswer, WebRTCICE:
		if err := p.siteChat.SignalCall(ctx, call); err != nil {
			return Reply{}, err
		}
		return relay(call.ProjectID, Target{VisitSessionID: call.VisitSessionID}, e, callIDs(call)), nil
	}
	return Reply{}, p.moveCall(ctx, call, sitechat.OperatorParty(c.UserID), e)
}

// mayWork passes on err from loading what an envelope names, and refuses an operator
// whose role there cannot work (a viewer).
func mayWork(a *company.Access, err error) error {
	if err == nil && !a.Role.Can(company.PermWork) {
		return models.Forbidden("role_too_low")
	}
	return err
}

// operatorConversation loads the conversation an operator's envelope names, requiring the
// work permission in its company; one of a company the operator is not in is not found.
func (p *Protocol) operatorConversation(ctx context.Context, c *Client, e Envelope) (*sitechat.Conversation, error) {
	if e.ConversationID == nil {
		return nil, models.Invalid("invalid_envelope", "conversation_id")
	}
	conv, a, err := p.siteChat.ConversationAccess(ctx, c.UserID, *e.ConversationID)
	return conv, mayWork(a, err)
}

// onVisitSession runs the operator's moves on a visit session: invitation, monitoring,
// call offer. A socket that starts monitoring watches the session's frames until it stops
// it; starting again what is already requested or active still makes it watch.
func (p *Protocol) onVisitSession(ctx context.Context, c *Client, e Envelope) (Reply, error) {
	if e.VisitSessionID == nil {
		return Reply{}, models.Invalid("invalid_envelope", "visit_session_id")
	}
	v, a, err := p.siteChat.SessionAccess(ctx, c.UserID, *e.VisitSessionID)
	if err := mayWork(a, err); err != nil {
		return Reply{}, err
	}
	switch e.Type {
	case OperatorInvite:
		var in struct {
			Force    bool   `json:"force"`
			Message  string `json:"message"`
			Template string `json:"template"`
		}
		if err := payload(e, &in); err != nil {
			return Reply{}, err
		}
		w, _, err := p.siteChat.WidgetAccess(ctx, c.UserID, v.ChatWidgetID)
		if err != nil {
			return Reply{}, err
		}
		_, err = p.siteChat.Invite(ctx, w, v, sitechat.InviteInput{Force: in.Force, Message: in.Message, Template: in.Template})
		return Reply{}, err
	case MonitoringStart:
		c.Watch(v.ID)
		_, err := p.siteChat.StartMonitoring(ctx, v)
		if models.IsKind(err, models.KindConflict) &&
			(v.MonitoringStatus == sitechat.MonitoringRequested || v.MonitoringStatus == sitechat.MonitoringActive) {
			return Reply{}, nil
		}
		return Reply{}, err
	case MonitoringStop:
		c.Unwatch(v.ID)
		_, err := p.siteChat.StopMonitoring(ctx, v)
		return Reply{}, err
	}
	var in callPayload
	if err := payload(e, &in); err != nil {
		return Reply{}, err
	}
	call, err := p.siteChat.OfferCall(ctx, v, c.UserID, in.input(e.ConversationID))
	if err != nil {
		return Reply{}, err
	}
	c.Watch(call.ID)
	return Reply{Ack: map[string]uuid.UUID{"call_session_id": call.ID}}, nil
}
