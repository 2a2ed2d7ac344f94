package billing

import (
	"context"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/company"
)

// PaymentActionDue is the domain event of an open payment action whose due date has come.
// The billing cycle records it with the payment_action.due event it queues for workflows:
// once per action.
type PaymentActionDue struct {
	PaymentActionID uuid.UUID `json:"payment_action_id"`
}

func (PaymentActionDue) EventName() string { return EventActionDue }

// Answerers reads a payment action with the people who answer for it: the client's
// responsibles, or, when it has none, the company's owners and admins. Errors: not_found
// (the action is gone), internal.
func (s *Service) Answerers(ctx context.Context, actionID uuid.UUID) (*PaymentActionDetail, []uuid.UUID, error) {
	db := s.DB.WithContext(ctx)
	d, err := s.detailOf(db, actionID)
	if models.IsNotFound(err) {
		return nil, nil, models.NotFound("payment_action_not_found")
	}
	if err != nil {
		return nil, nil, err
	}
	var users []uuid.UUID
	if err := db.Model(&Responsible{}).Where("client_id = ?", d.ClientID).Distinct().Pluck("user_id", &users).Error; err != nil {
		return nil, nil, models.Internal("read responsibles of a payment action: %w", err)
	}
	if len(users) == 0 {
		managers := []company.Role{company.RoleOwner, company.RoleAdmin}
		err := db.Model(&company.Member{}).Where("company_id = ? AND role IN ?", d.CompanyID, managers).Pluck("user_id", &users).Error
		if err != nil {
			return nil, nil, models.Internal("read managers of a payment action: %w", err)
		}
	}
	return d, users, nil
}
