package billing

import (
	"context"
	"maps"
	"slices"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/models/company"
)

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
// pending again, every active service due within its project's billing horizon that has
// no item for its next due date is billed, one action per client, project, due date and
// currency with one item per service, and every open action due by today has its
// payment_action.due event. Running it again the same day creates nothing: a billed
// service has its item (a unique index on service and due date, so a payment recorded
// meanwhile by hand is not billed twice either). Errors: internal.
func (s *Service) RunCycle(ctx context.Context, today models.Date) (CycleResult, error) {
	var res CycleResult
	db := s.DB.WithContext(ctx)
	now := s.now()
	woken := db.Model(&PaymentAction{}).Where("status = ? AND snoozed_until <= ?", PaymentActionSnoozed, today).
		Updates(map[string]any{"status": PaymentActionPending, "snoozed_until": nil, "updated_at": now})
	if woken.Error != nil {
		return res, models.Internal("wake snoozed payment actions: %w", woken.Error)
	}
	res.Woken = int(woken.RowsAffected)

	due, err := dueServices(db, today)
	if err != nil {
		return res, err
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
		if created != nil {
			res.Created++
			res.Billed += len(groups[g])
		}
	}
	res.Due, err = queueDueEvents(db, today, s.now())
	if res.Due > 0 {
		models.AnnounceEvents(ctx, s.Bus)
	}
	return res, err
}

// billGroup creates the pending action of one group in a transaction of its own (a
// savepoint when db is one) and answers it; a service billed meanwhile (its item exists)
// leaves the whole group for the next cycle, and the answer is nil.
func (s *Service) billGroup(db *gorm.DB, g dueGroup, services []TypedService) (*PaymentAction, error) {
	var a PaymentAction
	err := db.Transaction(func(tx *gorm.DB) error {
		now := s.now()
		a = PaymentAction{ID: models.NewID(), CompanyID: services[0].CompanyID, ClientID: g.clientID, ProjectID: g.projectID,
			Status: PaymentActionPending, Source: SourceManual, PaymentMethod: methodUnknown, PeriodStart: g.due, PeriodEnd: g.due,
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
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// billIfDue bills an active service whose next due date has come (today or before) and
// has no item for it, inside tx, the transaction that set its date or status: what the
// next cycle would do, done now, so the payment queue shows it at once and the cycle
// finds it billed. Services due later, within their project's horizon, are left to the
// cycle, which bills those of a client due on one day together. Reports whether it billed
// the service; call AnnounceEvents once tx has committed.
func (s *Service) billIfDue(tx *gorm.DB, ts TypedService) (bool, error) {
	if ts.Status != ServiceActive || ts.NextDueDate == nil || ts.NextDueDate.Compare(models.DateOf(s.now())) > 0 {
		return false, nil
	}
	a, err := s.billService(tx, ts)
	return a != nil, err
}

// BillNow bills an active service's next due date now, whether or not it has come, as the
// cycle would bill the service alone, and answers the action with created true; a service
// already billed for that date answers the action that bills it. Errors: not_found,
// conflict (the service is not active: client_service_id; it has no next due date:
// next_due_date), internal.
func (s *Service) BillNow(ctx context.Context, cs *ClientService) (*PaymentActionDetail, bool, error) {
	created := false
	d, err := s.writeAction(ctx, func(tx *gorm.DB) (uuid.UUID, error) {
		var fresh ClientService // as it is now: a change may have billed it meanwhile
		if err := tx.Take(&fresh, "id = ?", cs.ID).Error; err != nil {
			return uuid.Nil, models.Internal("read client service: %w", err)
		}
		switch {
		case fresh.Status != ServiceActive:
			return uuid.Nil, models.Conflict("bill_now_inactive", "client_service_id")
		case fresh.NextDueDate == nil:
			return uuid.Nil, models.Conflict("bill_now_undated", "next_due_date")
		}
		typed, err := typedIn(tx, []ClientService{fresh})
		if err != nil {
			return uuid.Nil, err
		}
		a, err := s.billService(tx, typed[0])
		if err != nil {
			return uuid.Nil, err
		}
		if created = a != nil; created {
			return a.ID, nil
		}
		var item PaymentActionItem
		if err := tx.Take(&item, "client_service_id = ? AND due_date = ?", fresh.ID, *fresh.NextDueDate).Error; err != nil {
			return uuid.Nil, models.Internal("read the item of a billed service: %w", err)
		}
		return item.PaymentActionID, nil
	})
	if created {
		models.AnnounceEvents(ctx, s.Bus)
	}
	return d, created, err
}

// billService bills ts alone for its next due date, as the cycle bills a group, and
// queues the action's due event when the date has come; nil when the service has an item
// for that date already.
func (s *Service) billService(tx *gorm.DB, ts TypedService) (*PaymentAction, error) {
	now := s.now()
	a, err := s.billGroup(tx, dueGroup{ts.ClientID, ts.ProjectID, *ts.NextDueDate, ts.Currency}, []TypedService{ts})
	if a == nil || err != nil || a.DueDate.Compare(models.DateOf(now)) > 0 {
		return a, err
	}
	return a, queueDueEvent(tx, a, now)
}

// dueServices answers the active services due within their project's billing horizon of
// today that have no item for their due date, by client, project and due date. The
// services due within the longest horizon are read, then each is held to its own
// project's, which keeps the date arithmetic out of SQL.
func dueServices(db *gorm.DB, today models.Date) ([]ClientService, error) {
	var longest *int
	if err := db.Model(&company.Project{}).Select("MAX(billing_horizon_days)").Scan(&longest).Error; err != nil {
		return nil, models.Internal("read billing horizons: %w", err)
	}
	if longest == nil {
		return nil, nil // no project
	}
	var candidates []ClientService
	err := db.Where("status = ? AND next_due_date <= ?", StatusActive, today.AddDays(*longest)).
		Where("NOT EXISTS (SELECT 1 FROM payment_action_items i " +
			"WHERE i.client_service_id = client_services.id AND i.due_date = client_services.next_due_date)").
		Order("client_id, project_id, next_due_date, id").Find(&candidates).Error
	if err != nil {
		return nil, models.Internal("read due services: %w", err)
	}
	if len(candidates) == 0 {
		return nil, nil
	}
	horizons := map[uuid.UUID]int{}
	for _, cs := range candidates {
		horizons[cs.ProjectID] = 0
	}
	var projects []company.Project
	if err := db.Select("id", "billing_horizon_days").Where("id IN ?", slices.Collect(maps.Keys(horizons))).Find(&projects).Error; err != nil {
		return nil, models.Internal("read billing horizons: %w", err)
	}
	for _, p := range projects {
		horizons[p.ID] = p.BillingHorizonDays
	}
	due := candidates[:0]
	for _, cs := range candidates {
		if cs.NextDueDate.Compare(today.AddDays(horizons[cs.ProjectID])) <= 0 {
			due = append(due, cs)
		}
	}
	return due, nil
}
