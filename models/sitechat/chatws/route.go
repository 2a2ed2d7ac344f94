package chatws

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/sitechat"
)

// frameTypes maps the visitor's co-browse envelope types to SiteCobrowseFrame kinds, and
// frameKindTypes back for what watchers receive.
var frameTypes = map[Type]string{
	MonitoringSnapshot:    sitechat.FrameSnapshot,
	MonitoringIncremental: sitechat.FrameMutation,
	CursorMove:            "cursor",
	TouchMove:             "touch",
	Click:                 "click",
	Scroll:                "scroll",
	Viewport:              "viewport",
	PageNavigate:          "navigation",
}

var frameKindTypes = func() map[string]Type {
	out := map[string]Type{"diagnostic": MonitoringIncremental}
	for t, k := range frameTypes {
		out[k] = t
	}
	return out
}()

// Route re-reads what a notice names and answers the envelopes for the sockets it
// concerns: messages and call moves for the project's operators and the visit session's
// sockets, presence and invitation answers for the operators, invitations and monitoring
// requests for the visitor too, co-browse frames for the operators watching the session.
func (p *Protocol) Route(ctx context.Context, projectID uuid.UUID, data json.RawMessage) ([]Delivery, error) {
	n, err := sitechat.ParseNotice(data)
	if err != nil {
		return nil, err
	}
	companyID, err := p.companyOf(projectID)
	if err != nil {
		return nil, err
	}
	both := Target{Operators: true, VisitSessionID: n.VisitSessionID}
	switch n.Type {
	case sitechat.NoticeChatMessage:
		m, err := p.siteChat.Message(ctx, companyID, n.MessageID)
		if err != nil {
			return nil, err
		}
		return envelope(ChatMessage, both, p.views.Message(*m), noticeIDs(n))
	case sitechat.NoticeMonitoringSnapshot, sitechat.NoticeMonitoringIncremental:
		return p.frames(ctx, companyID, n)
	case sitechat.NoticeCallRequest, sitechat.NoticeCallOffer, sitechat.NoticeCallAccept, sitechat.NoticeCallReject,
		sitechat.NoticeCallCancel, sitechat.NoticeCallEnd:
		call, err := p.siteChat.SocketCall(ctx, companyID, n.CallSessionID)
		if err != nil {
			return nil, err
		}
		return envelope(Type(n.Type), both, p.views.Call(call), callIDs(call))
	}
	v, err := p.siteChat.Session(ctx, companyID, n.VisitSessionID)
	if err != nil {
		return nil, err
	}
	view, err := p.views.VisitSession(ctx, v)
	if err != nil {
		return nil, err
	}
	to := Target{Operators: true}
	switch n.Type {
	case sitechat.NoticeOperatorInvite, sitechat.NoticeMonitoringStart, sitechat.NoticeMonitoringStop:
		// The visitor's widget shows the invitation (invite_message, invite_force) and asks
		// for consent to monitoring.
		to = both
	}
	return envelope(Type(n.Type), to, view, visitIDs(v))
}

// VisitSessionOf answers the visit session a notice is about; uuid.Nil when it names none,
// or cannot be read (Route then says why).
func (p *Protocol) VisitSessionOf(notice json.RawMessage) uuid.UUID {
	n, err := sitechat.ParseNotice(notice)
	if err != nil {
		return uuid.Nil
	}
	return n.VisitSessionID
}

// frames answers the co-browse frames stored since the last ones passed on, for the
// operators watching the session. An instance that has passed on none of the session's
// frames yet starts with the batch the notice announces (at most a batch's worth).
func (p *Protocol) frames(ctx context.Context, companyID uuid.UUID, n sitechat.Notice) ([]Delivery, error) {
	v, err := p.siteChat.Session(ctx, companyID, n.VisitSessionID)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	after, seen := p.relayed[v.ID]
	if !seen || after >= n.Sequence {
		after = max(0, n.Sequence-sitechat.MaxEventsPerBatch)
	}
	p.mu.Unlock()
	frames, _, err := p.siteChat.Frames(ctx, v, after, sitechat.MaxEventsPerBatch)
	if err != nil {
		return nil, err
	}
	var out []Delivery
	for _, f := range frames {
		d, err := envelope(frameKindTypes[f.Kind], Target{Operators: true, Watching: v.ID}, p.views.Frame(f), visitIDs(v))
		if err != nil {
			return nil, err
		}
		out = append(out, d...)
		after = max(after, f.Sequence)
	}
	p.mu.Lock()
	p.relayed[v.ID] = after
	p.mu.Unlock()
	return out, nil
}

// envelope is one delivery of a server envelope.
func envelope(t Type, to Target, payload any, ids EnvelopeIDs) ([]Delivery, error) {
	e, err := NewEnvelope(t, payload)
	if err != nil {
		return nil, err
	}
	e.IDs(ids)
	return []Delivery{{To: to, Envelope: e}}, nil
}

func noticeIDs(n sitechat.Notice) EnvelopeIDs {
	return EnvelopeIDs{
		ConversationID: n.ConversationID,
		VisitSessionID: n.VisitSessionID,
		VisitorID:      n.VisitorID,
		ChatWidgetID:   n.ChatWidgetID,
		ProjectID:      n.ProjectID,
		CallSessionID:  n.CallSessionID,
	}
}

func visitIDs(v *sitechat.VisitSession) EnvelopeIDs {
	return EnvelopeIDs{
		ConversationID: v.ConversationID,
		VisitSessionID: v.ID,
		VisitorID:      v.VisitorID,
		ChatWidgetID:   v.ChatWidgetID,
		ProjectID:      v.ProjectID,
	}
}

func callIDs(c *sitechat.CallSession) EnvelopeIDs {
	ids := EnvelopeIDs{
		VisitSessionID: c.VisitSessionID,
		VisitorID:      c.VisitorID,
		ChatWidgetID:   c.ChatWidgetID,
		ProjectID:      c.ProjectID,
		CallSessionID:  c.ID,
	}
	if c.ConversationID != nil {
		ids.ConversationID = *c.ConversationID
	}
	return ids
}

// companyOf answers the company of a project whose sockets are let in here (Follow).
func (p *Protocol) companyOf(projectID uuid.UUID) (uuid.UUID, error) {
	if c, ok := p.companies.Load(projectID); ok {
		return c.(uuid.UUID), nil
	}
	return uuid.Nil, models.Internal("site chat notice of project %s, which no socket here follows", projectID)
}
