package sitechat

import (
	"context"

	"github.com/google/uuid"
)

// SocketVisit reads afresh what a visitor's socket stands for, without its token: the
// socket's arrival and departure are recorded even after the token expired or the widget
// was paused while it was open. Errors: not_found.
func (s *Service) SocketVisit(ctx context.Context, companyID, visitSessionID uuid.UUID) (*VisitorAccess, error) {
	db := s.DB.WithContext(ctx)
	session, err := take[VisitSession](db, "visit_session_not_found", "id = ? AND company_id = ?", visitSessionID, companyID)
	if err != nil {
		return nil, err
	}
	visitor, err := take[Visitor](db, "visitor_not_found", "id = ?", session.VisitorID)
	if err != nil {
		return nil, err
	}
	widget, err := take[Widget](db, "site_chat_widget_not_found", "id = ?", session.ChatWidgetID)
	if err != nil {
		return nil, err
	}
	return &VisitorAccess{Visitor: visitor, Session: session, Widget: widget}, nil
}

// SocketCall reads a call of a company, for the sockets that pass its moves on.
// Errors: not_found.
func (s *Service) SocketCall(ctx context.Context, companyID, id uuid.UUID) (*CallSession, error) {
	return take[CallSession](s.DB.WithContext(ctx), "call_session_not_found", "id = ? AND company_id = ?", id, companyID)
}
