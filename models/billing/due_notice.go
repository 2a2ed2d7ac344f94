package billing

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/models/desktop"
)

// noticeDue tells the people who answer for a due payment action: the client's
// responsibles, or, when it has none, the company's owners and admins. The event is
// dispatched until it is marked so, and the notice's key is the action's, so each of them
// hears of it once. Errors: internal.
func (s *Service) noticeDue(ctx context.Context, ev PaymentEvent) error {
	db := s.DB.WithContext(ctx)
	d, err := s.detailOf(db, ev.PaymentActionID)
	if err != nil {
		return err
	}
	var users []uuid.UUID
	if err := db.Model(&Responsible{}).Where("client_id = ?", d.ClientID).Distinct().Pluck("user_id", &users).Error; err != nil {
		return models.Internal("read responsibles of a due payment: %w", err)
	}
	if len(users) == 0 {
		err := db.Model(&company.Member{}).Where("company_id = ? AND role IN ?", d.CompanyID, []company.Role{company.RoleOwner, company.RoleAdmin}).
			Pluck("user_id", &users).Error
		if err != nil {
			return models.Internal("read managers of a due payment: %w", err)
		}
	}
	notices := make([]desktop.Notice, len(users))
	for i, u := range users {
		notices[i] = desktop.Notice{CompanyID: d.CompanyID, UserID: u, ProjectID: &d.ProjectID, Kind: desktop.KindPaymentActionDue,
			Title:       fmt.Sprintf("Payment due from %s", d.ClientName),
			Body:        fmt.Sprintf("%s %s due on %s (%s)", d.Total, d.Currency, d.DueDate, d.ProjectName),
			SubjectType: "payment_action", SubjectID: d.ID.String(), DedupeKey: ev.EventKey}
	}
	return s.Inbox.Post(ctx, notices...)
}
