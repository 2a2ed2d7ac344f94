package sitechat

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/models/company"
)

// CallStatus is a call session's state (the specification's CallSession.status): offered
// and ringing wait for the callee; accepted is a live call; the others are final.
type CallStatus string

const (
	CallOffered   CallStatus = "offered"
	CallRinging   CallStatus = "ringing"
	CallAccepted  CallStatus = "accepted"
	CallRejected  CallStatus = "rejected"
	CallMissed    CallStatus = "missed"
	CallEnded     CallStatus = "ended"
	CallFailed    CallStatus = "failed"
	CallCancelled CallStatus = "cancelled"
)

// Call directions and the sides of a call.
const (
	DirectionOperatorToVisitor = "operator_to_visitor"
	DirectionVisitorToOperator = "visitor_to_operator"
	PartyOperator              = "operator"
	PartyVisitor               = "visitor"
)

// CallRingTimeout is how long a call waits for an answer before it is missed.
const CallRingTimeout = 45 * time.Second

// CallSession is an audio or video call between a visitor and an operator.
type CallSession struct {
	ID                         uuid.UUID `gorm:"primaryKey;column:id"`
	CompanyID                  uuid.UUID
	ProjectID                  uuid.UUID
	ChatWidgetID               uuid.UUID
	VisitorID                  uuid.UUID
	VisitSessionID             uuid.UUID
	ConversationID             *uuid.UUID
	Direction                  string
	RequestedBy                string
	RequestedByUserID          *uuid.UUID
	AnsweredByUserID           *uuid.UUID
	Status                     CallStatus
	MediaKind                  string
	RecordingEnabled           bool
	EndReason                  string
	MetadataJSON               string `gorm:"column:metadata_json"`
	StartedAt                  *time.Time
	EndedAt                    *time.Time
	LastSignalAt               *time.Time
	PrivacyConsentAcceptedAt   *time.Time
	RecordingConsentAcceptedAt *time.Time
	CreatedAt                  time.Time
	UpdatedAt                  time.Time
}

func (CallSession) TableName() string { return "site_chat_calls" }

// Live reports whether the call still waits for an answer or is in progress.
func (c *CallSession) Live() bool {
	return c.Status == CallOffered || c.Status == CallRinging || c.Status == CallAccepted
}

// callee is the side that answers the call.
func (c *CallSession) callee() string {
	if c.Direction == DirectionOperatorToVisitor {
		return PartyVisitor
	}
	return PartyOperator
}

// Party is who moves a call: the visitor, or an operator (UserID).
type Party struct {
	Kind   string
	UserID uuid.UUID
}

// VisitorParty is the visitor's side of a call.
func VisitorParty() Party { return Party{Kind: PartyVisitor} }

// OperatorParty is an operator's side of a call.
func OperatorParty(userID uuid.UUID) Party { return Party{Kind: PartyOperator, UserID: userID} }

// CallInput is the specification's SiteChatCallInput: what a request, an offer or an
// answer says about media, recording and the visitor's consents.
type CallInput struct {
	ConversationID           *uuid.UUID
	MediaKind                string
	RecordingEnabled         bool
	RecordingConsentAccepted bool
	PrivacyConsentAccepted   bool
	EndReason                string
}

func (in CallInput) check(visitor bool) error {
	var bad fieldCheck
	bad.check("media_kind", in.MediaKind == "" || in.MediaKind == "audio" || in.MediaKind == "video")
	bad.text("end_reason", in.EndReason, 200)
	if visitor {
		// The widget asks before any call; a call the visitor did not agree to is refused.
		bad.check("privacy_consent_accepted", in.PrivacyConsentAccepted)
	}
	return bad.err("invalid_call")
}

// consent stores the visitor's consents with their time; recording stays on only with both.
func (c *CallSession) consent(in CallInput, now time.Time) {
	if in.PrivacyConsentAccepted && c.PrivacyConsentAcceptedAt == nil {
		c.PrivacyConsentAcceptedAt = &now
	}
	if in.RecordingConsentAccepted && c.RecordingEnabled && c.RecordingConsentAcceptedAt == nil {
		c.RecordingConsentAcceptedAt = &now
	}
	if c.RecordingConsentAcceptedAt == nil {
		c.RecordingEnabled = false
	}
}

// CallAccess returns a call and the caller's standing in its company. Errors: not_found.
func (s *Service) CallAccess(ctx context.Context, userID, id uuid.UUID) (*CallSession, *company.Access, error) {
	return loadOwned(ctx, s, userID, id, "call_session_not_found", func(c *CallSession) uuid.UUID { return c.CompanyID })
}

// VisitorCall is a call of the visitor's session: one that does not exist is not_found;
// another session's is refused like a bad token. Errors: not_found, unauthenticated.
func (s *Service) VisitorCall(ctx context.Context, v *VisitorAccess, id uuid.UUID) (*CallSession, error) {
	c, _, err := s.PublicCall(ctx, id, func() (*VisitorAccess, error) { return v, nil })
	return c, err
}

// PublicCall is PublicConversation for a call: the visitor's token must be of the call's
// visit session. Errors: not_found, unauthenticated (X-Visitor-Token).
func (s *Service) PublicCall(ctx context.Context, id uuid.UUID,
	verify func() (*VisitorAccess, error)) (*CallSession, *VisitorAccess, error) {
	return visitorOwned(ctx, s, id, "call_session_not_found", verify, func(c *CallSession, v *VisitorAccess) bool {
		return c.VisitSessionID == v.Session.ID
	})
}

// VisitCalls lists a page of the calls of a visit session, by id (so by creation time),
// the visit's company only.
func (s *Service) VisitCalls(ctx context.Context, v *VisitSession, page models.PageRequest) ([]CallSession, string, error) {
	var rows []CallSession
	q := s.DB.WithContext(ctx).Where("company_id = ? AND visit_session_id = ?", v.CompanyID, v.ID)
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list visit calls: %w", err)
	}
	rows, next := models.Page(page, rows, func(c CallSession) uuid.UUID { return c.ID })
	return rows, next, nil
}

// RequestCall is the visitor asking an operator to call: a visitor_to_operator call,
// offered, with the visitor's consents. Errors: invalid (media_kind,
// privacy_consent_accepted), conflict (a live call in the session).
func (s *Service) RequestCall(ctx context.Context, v *VisitorAccess, in CallInput) (*CallSession, error) {
	if err := in.check(true); err != nil {
		return nil, err
	}
	call := s.newCall(v.Session, DirectionVisitorToOperator, PartyVisitor, nil, in)
	call.consent(in, call.CreatedAt)
	return s.startCall(ctx, call, NoticeCallRequest)
}

// OfferCall is an operator calling the visitor of a session: an operator_to_visitor call,
// offered; recording needs the visitor's consents when they accept. Errors: invalid
// (media_kind), conflict (a live call in the session, or the visitor has left).
func (s *Service) OfferCall(ctx context.Context, v *VisitSession, userID uuid.UUID, in CallInput) (*CallSession, error) {
	if err := in.check(false); err != nil {
		return nil, err
	}
	if !s.isActive(v) {
		return nil, models.Conflict("visitor_not_active", "visit_session_id")
	}
	return s.startCall(ctx, s.newCall(v, DirectionOperatorToVisitor, PartyOperator, &userID, in), NoticeCallOffer)
}

func (s *Service) newCall(v *VisitSession, direction, by string, userID *uuid.UUID, in CallInput) *CallSession {
	now := s.now()
	media := in.MediaKind
	if media == "" {
		media = "audio"
	}
	conversationID := in.ConversationID
	if conversationID == nil {
		conversationID = &v.ConversationID
	}
	return &CallSession{ID: models.NewID(), CompanyID: v.CompanyID, ProjectID: v.ProjectID, ChatWidgetID: v.ChatWidgetID,
		VisitorID: v.VisitorID, VisitSessionID: v.ID, ConversationID: conversationID, Direction: direction, RequestedBy: by,
		RequestedByUserID: userID, Status: CallOffered, MediaKind: media, RecordingEnabled: in.RecordingEnabled,
		MetadataJSON: "{}", CreatedAt: now, UpdatedAt: now}
}

// startCall stores a new call unless its session has a live one; calls left ringing past
// CallRingTimeout are missed first, so they do not block it.
func (s *Service) startCall(ctx context.Context, call *CallSession, typ string) (*CallSession, error) {
	var missed []CallSession
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if _, err := lockRow[VisitSession](tx, "visit_session_not_found", call.VisitSessionID); err != nil {
			return err
		}
		var err error
		if missed, err = s.missCalls(tx, "visit_session_id = ?", call.VisitSessionID); err != nil {
			return err
		}
		var live int64
		err = tx.Model(&CallSession{}).Where("visit_session_id = ? AND status IN ?", call.VisitSessionID, []CallStatus{
			CallOffered,
			CallRinging,
			CallAccepted,
		}).
			Count(&live).Error
		if err != nil {
			return models.Internal("count live calls: %w", err)
		}
		if live > 0 {
			return models.Conflict("call_in_progress", "visit_session_id")
		}
		if err := tx.Create(call).Error; err != nil {
			return models.Internal("create call: %w", err)
		}
		return nil
	})
	for i := range missed {
		s.publish(ctx, callNotice(NoticeCallCancel, &missed[i]))
	}
	if err != nil {
		return nil, err
	}
	s.publish(ctx, callNotice(typ, call))
	return call, nil
}

// missCalls marks the calls matching cond that nobody answered within CallRingTimeout as
// missed, and answers them.
func (s *Service) missCalls(tx *gorm.DB, cond string, args ...any) ([]CallSession, error) {
	now := s.now()
	var calls []CallSession
	err := tx.Where(cond, args...).Where("status IN ? AND created_at <= ?", []CallStatus{CallOffered, CallRinging}, now.Add(-CallRingTimeout)).
		Find(&calls).Error
	if err != nil {
		return nil, models.Internal("find unanswered calls: %w", err)
	}
	for i := range calls {
		c := &calls[i]
		c.Status, c.EndedAt, c.EndReason, c.UpdatedAt = CallMissed, &now, "no_answer", now
		res := tx.Model(&CallSession{}).Where("id = ? AND status IN ?", c.ID, []CallStatus{CallOffered, CallRinging}).
			Updates(map[string]any{"status": CallMissed, "ended_at": now, "end_reason": c.EndReason, "updated_at": now})
		if res.Error != nil {
			return nil, models.Internal("miss call: %w", res.Error)
		}
	}
	return calls, nil
}

// ExpireMissedCalls marks every call unanswered for CallRingTimeout as missed and
// publishes it; answers how many.
func (s *Service) ExpireMissedCalls(ctx context.Context) (int, error) {
	var missed []CallSession
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		missed, err = s.missCalls(tx, "1 = 1")
		return err
	})
	if err != nil {
		return 0, err
	}
	for i := range missed {
		s.publish(ctx, callNotice(NoticeCallCancel, &missed[i]))
	}
	return len(missed), nil
}

// callMove is one move of the call state machine: the states it leaves, who may make it,
// the state it reaches and the notice it publishes.
type callMove struct {
	from []CallStatus
	// by answers whether party may make the move on c.
	by   func(c *CallSession, party Party) bool
	to   func(c *CallSession, party Party) CallStatus
	note string
}

var (
	waiting  = []CallStatus{CallOffered, CallRinging}
	isCallee = func(c *CallSession, p Party) bool { return p.Kind == c.callee() }
	anyParty = func(*CallSession, Party) bool { return true }
	moveRing = callMove{from: []CallStatus{CallOffered}, by: isCallee, to: fixed(CallRinging)}
	moveAcc  = callMove{from: waiting, by: isCallee, to: fixed(CallAccepted), note: NoticeCallAccept}
	moveRej  = callMove{from: waiting, by: isCallee, to: fixed(CallRejected), note: NoticeCallReject}
	moveFail = callMove{from: []CallStatus{CallOffered, CallRinging, CallAccepted}, by: anyParty, to: fixed(CallFailed), note: NoticeCallEnd}
	// End hangs up: the caller cancels a call not yet answered; either side ends a live one.
	moveEnd = callMove{
		from: []CallStatus{CallOffered, CallRinging, CallAccepted},
		by:   func(c *CallSession, p Party) bool { return c.Status == CallAccepted || p.Kind != c.callee() },
		to: func(c *CallSession, _ Party) CallStatus {
			if c.Status == CallAccepted {
				return CallEnded
			}
			return CallCancelled
		},
	}
)

func fixed(status CallStatus) func(*CallSession, Party) CallStatus {
	return func(*CallSession, Party) CallStatus { return status }
}

// RingCall records that the call reached the callee's device (offered becomes ringing).
// Errors: conflict (any other state or party; a call unanswered too long is missed).
func (s *Service) RingCall(ctx context.Context, call *CallSession, by Party) (*CallSession, error) {
	return s.moveCall(ctx, call, by, moveRing, CallInput{})
}

// AcceptCall is the callee answering; a visitor's answer carries their consents (privacy
// required; recording stays on only with the recording consent too). Errors: invalid
// (privacy_consent_accepted), conflict (a move the state or party does not allow, or a
// call unanswered for CallRingTimeout, which is missed).
func (s *Service) AcceptCall(ctx context.Context, call *CallSession, by Party, in CallInput) (*CallSession, error) {
	if err := in.check(by.Kind == PartyVisitor); err != nil {
		return nil, err
	}
	return s.moveCall(ctx, call, by, moveAcc, in)
}

// RejectCall is the callee declining. Errors: conflict (as AcceptCall).
func (s *Service) RejectCall(ctx context.Context, call *CallSession, by Party, reason string) (*CallSession, error) {
	return s.moveCall(ctx, call, by, moveRej, CallInput{EndReason: reason})
}

// EndCall hangs up: the caller cancels a call not yet answered (cancelled), either side
// ends an accepted one (ended). Errors: conflict (a final call; the callee hanging up
// before answering, who rejects instead).
func (s *Service) EndCall(ctx context.Context, call *CallSession, by Party, reason string) (*CallSession, error) {
	return s.moveCall(ctx, call, by, moveEnd, CallInput{EndReason: reason})
}

// FailCall records that the media connection of a call could not be made or broke.
// Errors: conflict (a final call).
func (s *Service) FailCall(ctx context.Context, call *CallSession, by Party, reason string) (*CallSession, error) {
	return s.moveCall(ctx, call, by, moveFail, CallInput{EndReason: reason})
}

// moveCall makes m on the locked call. A call left unanswered past CallRingTimeout is
// missed instead (committed and published) and the move answers conflict.
func (s *Service) moveCall(ctx context.Context, call *CallSession, by Party, m callMove, in CallInput) (*CallSession, error) {
	if err := in.check(false); err != nil {
		return nil, err
	}
	var moved *CallSession
	var n Notice
	var refused error
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		missed, err := s.missCalls(tx, "id = ?", call.ID)
		if err != nil {
			return err
		}
		if len(missed) > 0 {
			moved, n = &missed[0], callNotice(NoticeCallCancel, &missed[0])
			refused = models.Conflict("call_missed", "call_session_id")
			return nil
		}
		c, err := lockRow[CallSession](tx, "call_session_not_found", call.ID)
		if err != nil {
			return err
		}
		if !slices.Contains(m.from, c.Status) || !m.by(c, by) {
			return models.Conflict("call_move_not_allowed", "call_session_id")
		}
		now := s.now()
		c.Status, c.UpdatedAt = m.to(c, by), now
		switch c.Status {
		case CallAccepted:
			c.StartedAt = &now
			if by.Kind == PartyOperator {
				c.AnsweredByUserID = &by.UserID
			} else {
				c.consent(in, now)
			}
		case CallRejected, CallEnded, CallCancelled, CallFailed:
			c.EndedAt = &now
			c.EndReason = strings.TrimSpace(in.EndReason)
		}
		if err := tx.Save(c).Error; err != nil {
			return models.Internal("save call: %w", err)
		}
		moved, n = c, callNotice(m.note, c)
		if m.note == "" { // ringing and hang-ups map by the call's origin and outcome
			n.Type = map[CallStatus]string{CallRinging: creationNotice(c), CallEnded: NoticeCallEnd, CallCancelled: NoticeCallCancel}[c.Status]
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.publish(ctx, n)
	if refused != nil {
		return nil, refused
	}
	return moved, nil
}

func creationNotice(c *CallSession) string {
	if c.Direction == DirectionVisitorToOperator {
		return NoticeCallRequest
	}
	return NoticeCallOffer
}

// SignalCall records that WebRTC signalling passed on a call (last_signal_at); only a
// live call is touched.
func (s *Service) SignalCall(ctx context.Context, call *CallSession) error {
	now := s.now()
	err := s.DB.WithContext(ctx).Model(&CallSession{}).Where("id = ? AND status IN ?", call.ID, []CallStatus{
		CallOffered,
		CallRinging,
		CallAccepted,
	}).
		Updates(map[string]any{"last_signal_at": now, "updated_at": now}).Error
	if err != nil {
		return models.Internal("record call signal: %w", err)
	}
	return nil
}

func callNotice(typ string, c *CallSession) Notice {
	n := Notice{Type: typ, ProjectID: c.ProjectID, ChatWidgetID: c.ChatWidgetID, VisitorID: c.VisitorID, VisitSessionID: c.VisitSessionID,
		CallSessionID: c.ID, Status: string(c.Status)}
	if c.ConversationID != nil {
		n.ConversationID = *c.ConversationID
	}
	return n
}

// RunJanitor expires old co-browse frames and misses unanswered calls every interval until
// ctx ends.
func (s *Service) RunJanitor(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := s.ExpireFrames(ctx); err != nil && ctx.Err() == nil {
			slog.Error("site chat: expire co-browse frames", "err", err)
		}
		if _, err := s.ExpireMissedCalls(ctx); err != nil && ctx.Err() == nil {
			slog.Error("site chat: miss unanswered calls", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
