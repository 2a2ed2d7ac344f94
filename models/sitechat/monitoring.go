package sitechat

import (
	"context"
	"encoding/json"
	"strings"

	"gorm.io/gorm"

	"agencyhub/models"
)

// Invitation statuses of a visit session.
const (
	InvitePending  = "pending"
	InviteSeen     = "seen"
	InviteAccepted = "accepted"
	InviteDeclined = "declined"
)

// DefaultInviteMessage is what an invitation says when it names neither message nor
// template.
const DefaultInviteMessage = "Hi! Can we help you with anything?"

// InviteInput is the specification's SiteChatInviteInput.
type InviteInput struct {
	Force    bool
	Message  string
	Template string
}

// moveSession runs move on the locked session and saves it; move answers the notice to
// publish once committed.
func (s *Service) moveSession(ctx context.Context, v *VisitSession,
	move func(tx *gorm.DB, session *VisitSession) (Notice, error)) (*VisitSession, error) {
	var session *VisitSession
	var n Notice
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		if session, err = lockRow[VisitSession](tx, "visit_session_not_found", v.ID); err != nil {
			return err
		}
		if n, err = move(tx, session); err != nil {
			return err
		}
		session.UpdatedAt = s.now()
		if err := tx.Save(session).Error; err != nil {
			return models.Internal("save visit session: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.publish(ctx, n)
	return session, nil
}

// Invite invites the visitor to chat with message, else the text of the widget's
// settings_json.invite_templates entry template, else DefaultInviteMessage. Without force
// a visitor who has left, already has a pending or seen invitation, or has the chat open
// is not invited again (conflict); force invites anyway and asks the widget to open the
// panel at once. Errors: invalid (message, template), conflict (visit_session_id).
func (s *Service) Invite(ctx context.Context, w *Widget, v *VisitSession, in InviteInput) (*VisitSession, error) {
	text, err := inviteText(w, in)
	if err != nil {
		return nil, err
	}
	return s.moveSession(ctx, v, func(_ *gorm.DB, session *VisitSession) (Notice, error) {
		pending := session.OperatorInvited && (session.InviteStatus == InvitePending || session.InviteStatus == InviteSeen)
		if !in.Force && (!s.isActive(session) || pending || session.ChatOpen) {
			return Notice{}, models.Conflict("visitor_not_invitable", "visit_session_id")
		}
		session.OperatorInvited, session.InviteStatus, session.InviteMessage, session.InviteForce = true, InvitePending, text, in.Force
		n := sessionNotice(NoticeOperatorInvite, session)
		n.Status = InvitePending
		return n, nil
	})
}

func inviteText(w *Widget, in InviteInput) (string, error) {
	if msg := strings.TrimSpace(in.Message); msg != "" {
		if len([]rune(msg)) > 1000 {
			return "", models.Invalid("invalid_invite", "message")
		}
		return msg, nil
	}
	if in.Template == "" {
		return DefaultInviteMessage, nil
	}
	var settings struct {
		InviteTemplates map[string]string `json:"invite_templates"`
	}
	_ = json.Unmarshal([]byte(w.SettingsJSON), &settings)
	text := strings.TrimSpace(settings.InviteTemplates[in.Template])
	if text == "" {
		return "", models.Invalid("unknown_invite_template", "template")
	}
	return text, nil
}

// AnswerInvite records the visitor's answer to a pending invitation: seen, accepted (the
// chat panel opens) or declined (the invitation is withdrawn). Errors: invalid (answer),
// conflict (no invitation waiting for that answer).
func (s *Service) AnswerInvite(ctx context.Context, v *VisitorAccess, answer string) error {
	types := map[string]string{InviteSeen: NoticeInviteSeen, InviteAccepted: NoticeInviteAccepted, InviteDeclined: NoticeInviteDeclined}
	typ, ok := types[answer]
	if !ok {
		return models.Invalid("invalid_invite_answer", "answer")
	}
	session, err := s.moveSession(ctx, v.Session, func(_ *gorm.DB, session *VisitSession) (Notice, error) {
		waiting := session.OperatorInvited &&
			(session.InviteStatus == InvitePending || (session.InviteStatus == InviteSeen && answer != InviteSeen))
		if !waiting {
			return Notice{}, models.Conflict("no_invitation_waiting", "answer")
		}
		session.InviteStatus = answer
		switch answer {
		case InviteAccepted:
			session.ChatOpen = true
		case InviteDeclined:
			session.OperatorInvited = false
		}
		n := sessionNotice(typ, session)
		n.Status = answer
		return n, nil
	})
	if err != nil {
		return err
	}
	v.Session = session
	return nil
}

// StartMonitoring asks the visitor to share their screen: idle or stopped becomes
// requested; the visitor's consent (AnswerMonitoring) makes it active. Errors: conflict
// (already requested or active; the visitor has left).
func (s *Service) StartMonitoring(ctx context.Context, v *VisitSession) (*VisitSession, error) {
	return s.moveSession(ctx, v, func(_ *gorm.DB, session *VisitSession) (Notice, error) {
		if session.MonitoringStatus != MonitoringIdle && session.MonitoringStatus != MonitoringStopped {
			return Notice{}, models.Conflict("monitoring_already_started", "visit_session_id")
		}
		if !s.isActive(session) {
			return Notice{}, models.Conflict("visitor_not_active", "visit_session_id")
		}
		return monitoringMove(session, MonitoringRequested, NoticeMonitoringStart), nil
	})
}

// StopMonitoring ends a requested or active monitoring. Errors: conflict (not started).
func (s *Service) StopMonitoring(ctx context.Context, v *VisitSession) (*VisitSession, error) {
	return s.moveSession(ctx, v, func(_ *gorm.DB, session *VisitSession) (Notice, error) {
		if session.MonitoringStatus != MonitoringRequested && session.MonitoringStatus != MonitoringActive {
			return Notice{}, models.Conflict("monitoring_not_started", "visit_session_id")
		}
		return monitoringMove(session, MonitoringStopped, NoticeMonitoringStop), nil
	})
}

// AnswerMonitoring records the visitor's consent to a requested monitoring: accepted makes
// it active, declined stops it; the visitor may also stop an active one (accepted false).
// Errors: conflict (nothing requested or active).
func (s *Service) AnswerMonitoring(ctx context.Context, v *VisitorAccess, accepted bool) error {
	session, err := s.moveSession(ctx, v.Session, func(_ *gorm.DB, session *VisitSession) (Notice, error) {
		switch {
		case accepted && session.MonitoringStatus == MonitoringRequested:
			return monitoringMove(session, MonitoringActive, NoticeMonitoringStart), nil
		case !accepted && (session.MonitoringStatus == MonitoringRequested || session.MonitoringStatus == MonitoringActive):
			return monitoringMove(session, MonitoringStopped, NoticeMonitoringStop), nil
		}
		return Notice{}, models.Conflict("monitoring_not_requested", "consent")
	})
	if err != nil {
		return err
	}
	v.Session = session
	return nil
}

func monitoringMove(session *VisitSession, status, typ string) Notice {
	session.MonitoringStatus = status
	n := sessionNotice(typ, session)
	n.Status = status
	return n
}
