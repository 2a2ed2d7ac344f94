package billing

import (
	"context"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// DefaultHorizonDays is how far ahead the billing cycle bills: a service due within a week
// gets its payment action now.
const DefaultHorizonDays = 7

// CycleResult is what one billing cycle did.
type CycleResult struct {
	// Created counts the payment actions created, Billed the services they bill.
	Created, Billed int
	// Woken counts the snoozed actions whose date came, back to pending; Due the actions
	// whose payment_action.due event this cycle queued.
	Woken, Due int
}

// dueGroup is one payment action of a cycle: a client's services in a project due on one
// date, in one currency.
type dueGroup struct {
	clientID, projectID uuid.UUID
	due                 models.Date
	currency            string
}

// RunCycle is one billing cycle on day today: snoozed actions whose date has come are
// pending again, every active service due within horizonDays that has no item for its
// next due date is billed, one action per client, project, due date and currency with one
// item per service, and every open action due by today has its payment_action.due event. Running it again the same day creates nothing: a billed service has
// its item (a unique index on service and due date, so a payment recorded meanwhile by
// hand is not billed twice either). Errors: internal.
func (s *Service) RunCycle(ctx context.Context, today models.Date, horizonDays int) (CycleResult, error) {
	var res CycleResult
	db := s.DB.WithContext(ctx)
	now := s.now()
	woken := db.Model(&PaymentAction{}).Where("status = ? AND snoozed_until <= ?", ActionSnoozed, today).
		Updates(map[string]any{"status": ActionPending, "snoozed_until": nil, "updated_at": now})
	if woken.Error != nil {
		return res, models.Internal("wake snoozed payment actions: %w", woken.Error)
	}
	res.Woken = int(woken.RowsAffected)

	var due []ClientService
	err := db.Where("status = ? AND next_due_date <= ?", StatusActive, today.AddDays(horizonDays)).
		Where("NOT EXISTS (SELECT 1 FROM payment_action_items i WHERE i.client_service_id = client_services.id AND i.due_date = client_services.next_due_date)").
		Order("client_id, project_id, next_due_date, id").Find(&due).Error
	if err != nil {
		return res, models.Internal("read due services: %w", err)
	}
	typed, err := typedIn(db, due)
	if err != nil {
		return res, err
	}
	groups := map[dueGroup][]TypedService{}
	var order []dueGroup // as the services were read: by client, project and due date
	for _, ts := range typed {
		g := dueGroup{ts.ClientID, ts.ProjectID, *ts.NextDueDate, ts.Currency}
		if _, seen := groups[g]; !seen {
			order = append(order, g)
		}
		groups[g] = append(groups[g], ts)
	}
	for _, g := range order {
		created, err := s.billGroup(db, g, groups[g])
		if err != nil {
			return res, err
		}
		if created {
			res.Created++
			res.Billed += len(groups[g])
		}
	}
	res.Due, err = queueDueEvents(db, today, s.now())
	return res, err
}

// billGroup creates the pending action of one group in a transaction of its own; a
// service billed meanwhile (its item exists) leaves the whole group for the next cycle.
func (s *Service) billGroup(db *gorm.DB, g dueGroup, services []TypedService) (bool, error) {
	err := db.Transaction(func(tx *gorm.DB) error {
		now := s.now()
		a := PaymentAction{ID: models.NewID(), CompanyID: services[0].CompanyID, ClientID: g.clientID, ProjectID: g.projectID,
			Status: ActionPending, Source: SourceManual, PaymentMethod: methodUnknown, PeriodStart: g.due, PeriodEnd: g.due,
			DueDate: g.due, Currency: g.currency, CreatedAt: now, UpdatedAt: now}
		items := make([]PaymentActionItem, len(services))
		for i, ts := range services {
			items[i] = itemOf(ts, g.due, ts.Amount)
			a.Total += ts.Amount
			if end := periodEnd(ts.ClientService, g.due); i == 0 || end.Compare(a.PeriodEnd) < 0 {
				a.PeriodEnd = end
			}
		}
		return createAction(tx, &a, items, "client_service_id")
	})
	if models.IsKind(err, models.KindConflict) {
		return false, nil
	}
	return err == nil, err
}
