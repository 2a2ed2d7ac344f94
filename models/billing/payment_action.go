package billing

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/models/money"
)

// PaymentActionStatus is a payment action's state (the specification's
// PaymentAction.status). A new one is pending; snoozed until a date, after which the billing
// cycle makes it pending again; paid once its facts cover its total, needs_decision when a
// confirmation left it short. sent and cancelled are states no operation sets yet.
type PaymentActionStatus string

const (
	PaymentActionPending       PaymentActionStatus = "pending"
	PaymentActionSent          PaymentActionStatus = "sent"
	PaymentActionSnoozed       PaymentActionStatus = "snoozed"
	PaymentActionPaid          PaymentActionStatus = "paid"
	PaymentActionCancelled     PaymentActionStatus = "cancelled"
	PaymentActionNeedsDecision PaymentActionStatus = "needs_decision"
)

// PaymentActionStatuses are the states of a payment action.
var PaymentActionStatuses = []PaymentActionStatus{
	PaymentActionPending,
	PaymentActionSent,
	PaymentActionSnoozed,
	PaymentActionPaid,
	PaymentActionCancelled,
	PaymentActionNeedsDecision,
}

// PaymentMethods are how a client actually paid.
var PaymentMethods = []string{"cash", "legal_invoice", "bank_transfer", "card", "other"}

// Sources of a payment: how the service learned of it.
const (
	SourceManual = "manual"
	SourceAPIKey = "api_key"
)

// PaymentSources are every source the specification names.
var PaymentSources = []string{
	SourceManual,
	SourceAPIKey,
	"bank",
	"workflow",
	"email",
	"incoming_email",
	"accounting_service",
	"integration",
	"other_integration",
}

// methodUnknown is the payment method of an action no fact has told yet.
const methodUnknown = "other"

// PaymentAction is a payment due from a client in a project on DueDate for the period from
// PeriodStart to PeriodEnd: the sum of its items, in one currency. Source and
// PaymentMethod are those of its latest fact (manual and other before any).
type PaymentAction struct {
	ID            uuid.UUID `gorm:"primaryKey"`
	CompanyID     uuid.UUID
	ClientID      uuid.UUID
	ProjectID     uuid.UUID
	Status        PaymentActionStatus
	Source        string
	PaymentMethod string
	PeriodStart   models.Date
	PeriodEnd     models.Date
	DueDate       models.Date
	Total         money.Amount `gorm:"column:total_minor"`
	Currency      string
	Comment       string
	SnoozedUntil  *models.Date
	ConfirmedAt   *time.Time
	WorkflowRunID *uuid.UUID
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// closed reports whether the action takes no more confirmations or snoozes.
func (a *PaymentAction) closed() bool {
	return a.Status == PaymentActionPaid || a.Status == PaymentActionCancelled
}

// PaymentActionItem is one service's share of an action: what it costs for the period
// starting on DueDate. A service has at most one item per due date (a unique index).
type PaymentActionItem struct {
	ID              uuid.UUID `gorm:"primaryKey"`
	CompanyID       uuid.UUID
	PaymentActionID uuid.UUID
	ClientServiceID uuid.UUID
	ServiceTypeKey  string
	Title           string
	DueDate         models.Date
	Amount          money.Amount `gorm:"column:amount_minor"`
	Currency        string
}

// PaymentFact is a payment received on an action. EventID is the payment.recorded event
// it produced.
type PaymentFact struct {
	ID              uuid.UUID `gorm:"primaryKey"`
	CompanyID       uuid.UUID
	PaymentActionID uuid.UUID
	EventID         uuid.UUID
	Source          string
	PaymentMethod   string
	Amount          money.Amount `gorm:"column:amount_minor"`
	Currency        string
	PaidAt          time.Time
	Comment         string
	CreatedAt       time.Time
}

// PaymentActionDetail is an action with the names of its client and project, its items
// and its facts, as PaymentActionView shows it.
type PaymentActionDetail struct {
	PaymentAction
	ClientName  string
	ProjectName string
	Items       []PaymentActionItem
	Facts       []PaymentFact
}

// PaymentActionAccess returns a payment action and the caller's standing in its company.
// Errors: not_found.
func (s *Service) PaymentActionAccess(ctx context.Context, userID, id uuid.UUID) (*PaymentAction, *company.Access, error) {
	return company.LoadOwned(ctx, s.Companies, userID, id, "payment_action_not_found", func(a *PaymentAction) uuid.UUID { return a.CompanyID })
}

// PaymentActionFilter selects the actions of one client or one project (the other id is
// uuid.Nil) by status (none: all) and due date (nil bounds: open).
type PaymentActionFilter struct {
	ClientID, ProjectID uuid.UUID
	Statuses            []PaymentActionStatus
	DueFrom, DueTo      *models.Date
}

// PaymentActions lists a page of the actions the filter selects, with their details.
func (s *Service) PaymentActions(ctx context.Context, f PaymentActionFilter,
	page models.PageRequest) ([]PaymentActionDetail, string, error) {
	q := s.DB.WithContext(ctx).Model(&PaymentAction{})
	if f.ClientID != uuid.Nil {
		q = q.Where("client_id = ?", f.ClientID)
	}
	if f.ProjectID != uuid.Nil {
		q = q.Where("project_id = ?", f.ProjectID)
	}
	if len(f.Statuses) > 0 {
		q = q.Where("status IN ?", f.Statuses)
	}
	if f.DueFrom != nil {
		q = q.Where("due_date >= ?", *f.DueFrom)
	}
	if f.DueTo != nil {
		q = q.Where("due_date <= ?", *f.DueTo)
	}
	var rows []PaymentAction
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list payment actions: %w", err)
	}
	rows, next := models.Page(page, rows, func(a PaymentAction) uuid.UUID { return a.ID })
	details, err := s.details(s.DB.WithContext(ctx), rows)
	return details, next, err
}

// PaymentActionDetail reads an action's details.
func (s *Service) PaymentActionDetail(ctx context.Context, a *PaymentAction) (*PaymentActionDetail, error) {
	return s.detailOf(s.DB.WithContext(ctx), a.ID)
}

func (s *Service) detailOf(db *gorm.DB, id uuid.UUID) (*PaymentActionDetail, error) {
	var a PaymentAction
	if err := db.Take(&a, "id = ?", id).Error; err != nil {
		return nil, models.Internal("read payment action: %w", err)
	}
	d, err := s.details(db, []PaymentAction{a})
	if err != nil {
		return nil, err
	}
	return &d[0], nil
}

// details adds names, items and facts to actions, in four queries whatever their number.
func (s *Service) details(db *gorm.DB, actions []PaymentAction) ([]PaymentActionDetail, error) {
	out := make([]PaymentActionDetail, len(actions))
	if len(actions) == 0 {
		return out, nil
	}
	var ids, clientIDs, projectIDs []uuid.UUID
	for _, a := range actions {
		ids, clientIDs, projectIDs = append(ids, a.ID), append(clientIDs, a.ClientID), append(projectIDs, a.ProjectID)
	}
	type named struct {
		ID   uuid.UUID
		Name string
	}
	var clients, projects []named
	var items []PaymentActionItem
	var facts []PaymentFact
	for _, read := range []*gorm.DB{
		db.Table("clients").Select("id, name").Where("id IN ?", clientIDs).Find(&clients),
		db.Table("projects").Select("id, name").Where("id IN ?", projectIDs).Find(&projects),
		db.Where("payment_action_id IN ?", ids).Order("due_date, id").Find(&items),
		db.Where("payment_action_id IN ?", ids).Order("id").Find(&facts),
	} {
		if read.Error != nil {
			return nil, models.Internal("read payment action details: %w", read.Error)
		}
	}
	names := map[uuid.UUID]string{}
	for _, n := range append(clients, projects...) {
		names[n.ID] = n.Name
	}
	byAction := map[uuid.UUID]*PaymentActionDetail{}
	for i, a := range actions {
		out[i] = PaymentActionDetail{PaymentAction: a, ClientName: names[a.ClientID], ProjectName: names[a.ProjectID],
			Items: []PaymentActionItem{}, Facts: []PaymentFact{}}
		byAction[a.ID] = &out[i]
	}
	for _, it := range items {
		byAction[it.PaymentActionID].Items = append(byAction[it.PaymentActionID].Items, it)
	}
	for _, f := range facts {
		byAction[f.PaymentActionID].Facts = append(byAction[f.PaymentActionID].Facts, f)
	}
	return out, nil
}

// lockAction reads an action inside tx, holding its row until tx ends so that concurrent
// confirmations and payments of one action take turns (SQLite's write transactions take
// turns anyway).
func lockAction(tx *gorm.DB, id uuid.UUID) (*PaymentAction, error) {
	var a PaymentAction
	err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&a, "id = ?", id).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("payment_action_not_found")
	}
	if err != nil {
		return nil, models.Internal("lock payment action: %w", err)
	}
	return &a, nil
}

// ItemAmount is one service's amount in a manual action; nil takes the service's amount.
type ItemAmount struct {
	ClientServiceID uuid.UUID
	Amount          *money.Amount
}

// ManualAction is a payment action created by hand for one client of a project: items
// name services of that client in that project.
type ManualAction struct {
	ClientID uuid.UUID
	// ItemsField names the request field the items came from (client_service_id or
	// items), for errors.
	ItemsField string
	Items      []ItemAmount
	DueDate    models.Date
	// Total, when given, must equal the sum of the items.
	Total   *money.Amount
	Comment string
}

// CreateManualAction adds a pending action to a project. Errors: invalid (client_id not a
// client of the project's company; a service that is not the client's in this project,
// named twice, or of another currency; amount not the items' sum; comment), conflict
// (client deleted; a service already has an action for the due date).
func (s *Service) CreateManualAction(ctx context.Context, p *company.Project, in ManualAction) (*PaymentActionDetail, error) {
	return s.writeAction(ctx, func(tx *gorm.DB) (uuid.UUID, error) {
		var client Client
		err := tx.Take(&client, "id = ? AND company_id = ?", in.ClientID, p.CompanyID).Error
		if models.IsNotFound(err) {
			return uuid.Nil, models.Invalid("payment_client_unknown", "client_id")
		}
		if err != nil {
			return uuid.Nil, models.Internal("read client: %w", err)
		}
		if client.Status == StatusDeleted {
			return uuid.Nil, models.Conflict("client_deleted", "client_id")
		}
		services, err := servicesOfClient(tx, &client, p.ID, in)
		if err != nil {
			return uuid.Nil, err
		}
		now := s.now()
		a := PaymentAction{ID: models.NewID(), CompanyID: p.CompanyID, ClientID: client.ID, ProjectID: p.ID, Status: PaymentActionPending,
			Source: SourceManual, PaymentMethod: methodUnknown, PeriodStart: in.DueDate, PeriodEnd: in.DueDate, DueDate: in.DueDate,
			Currency: services[0].Currency, Comment: in.Comment, CreatedAt: now, UpdatedAt: now}
		items := make([]PaymentActionItem, len(in.Items))
		for i, want := range in.Items {
			ts := services[i]
			amount := ts.Amount
			if want.Amount != nil {
				amount = *want.Amount
			}
			items[i] = itemOf(ts, in.DueDate, amount)
			a.Total += amount
			if i == 0 || periodEnd(ts.ClientService, in.DueDate).Compare(a.PeriodEnd) < 0 {
				a.PeriodEnd = periodEnd(ts.ClientService, in.DueDate)
			}
		}
		if in.Total != nil && *in.Total != a.Total {
			return uuid.Nil, models.Invalid("payment_amount_not_items_sum", "amount")
		}
		return a.ID, createAction(tx, &a, items, in.ItemsField)
	})
}

// writeAction runs write in a transaction and answers the details of the action it names,
// as the transaction leaves them.
func (s *Service) writeAction(ctx context.Context, write func(tx *gorm.DB) (uuid.UUID, error)) (*PaymentActionDetail, error) {
	var out *PaymentActionDetail
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		id, err := write(tx)
		if err != nil {
			return err
		}
		out, err = s.detailOf(tx, id)
		return err
	})
	if err != nil {
		return nil, models.AsError(err)
	}
	return out, nil
}

// changeOpenAction locks an action and changes it with change, unless it is paid or
// cancelled (conflict).
func (s *Service) changeOpenAction(ctx context.Context, id uuid.UUID,
	change func(tx *gorm.DB, a *PaymentAction) error) (*PaymentActionDetail, error) {
	return s.writeAction(ctx, func(tx *gorm.DB) (uuid.UUID, error) {
		a, err := lockAction(tx, id)
		if err != nil {
			return id, err
		}
		if a.closed() {
			return id, models.Conflict("payment_action_closed", "payment_action_id")
		}
		return id, change(tx, a)
	})
}

// servicesOfClient reads the services a manual action names, in its order: each the
// client's, in the project, not deleted, named once, all in one currency.
func servicesOfClient(tx *gorm.DB, client *Client, projectID uuid.UUID, in ManualAction) ([]TypedService, error) {
	ids := make([]uuid.UUID, len(in.Items))
	for i, it := range in.Items {
		if slices.Contains(ids[:i], it.ClientServiceID) {
			return nil, models.Invalid("payment_service_twice", in.ItemsField)
		}
		ids[i] = it.ClientServiceID
	}
	var rows []ClientService
	err := tx.Where("id IN ? AND client_id = ? AND project_id = ? AND status <> ?", ids, client.ID, projectID, StatusDeleted).Find(&rows).Error
	if err != nil {
		return nil, models.Internal("read services of a payment action: %w", err)
	}
	if len(rows) != len(ids) {
		return nil, models.Invalid("payment_service_unknown", in.ItemsField)
	}
	byID := map[uuid.UUID]ClientService{}
	for _, cs := range rows {
		byID[cs.ID] = cs
	}
	ordered := make([]ClientService, len(ids))
	for i, id := range ids {
		ordered[i] = byID[id]
		if ordered[i].Currency != ordered[0].Currency {
			return nil, models.Invalid("payment_currencies_differ", in.ItemsField)
		}
	}
	return typedIn(tx, ordered)
}

// itemOf is a service's item for the period starting on due.
func itemOf(ts TypedService, due models.Date, amount money.Amount) PaymentActionItem {
	return PaymentActionItem{ID: models.NewID(), CompanyID: ts.CompanyID, ClientServiceID: ts.ID, ServiceTypeKey: ts.Type.Key,
		Title: ts.Name, DueDate: due, Amount: amount, Currency: ts.Currency}
}

// createAction stores an action and its items, and queues its payment_action.created event;
// a service that already has an item for its due date is a conflict naming field.
func createAction(tx *gorm.DB, a *PaymentAction, items []PaymentActionItem, field string) error {
	if err := tx.Create(a).Error; err != nil {
		return models.Internal("create payment action: %w", err)
	}
	for i := range items {
		items[i].PaymentActionID = a.ID
	}
	res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&items)
	if res.Error != nil {
		return models.Internal("create payment action items: %w", res.Error)
	}
	if res.RowsAffected != int64(len(items)) {
		return models.Conflict("payment_already_due", field)
	}
	return recordEvent(tx, EventActionCreated, a, nil, a.CreatedAt)
}

// SnoozeAction hides an action until a date after today; the billing cycle makes it
// pending again on that date. Errors: invalid (snoozed_until not after today), conflict
// (paid or cancelled).
func (s *Service) SnoozeAction(ctx context.Context, a *PaymentAction, until models.Date, comment *string) (*PaymentActionDetail, error) {
	if until.Compare(models.DateOf(s.now())) <= 0 {
		return nil, models.Invalid("snooze_not_in_future", "snoozed_until")
	}
	return s.changeOpenAction(ctx, a.ID, func(tx *gorm.DB, fresh *PaymentAction) error {
		fresh.Status, fresh.SnoozedUntil, fresh.UpdatedAt = PaymentActionSnoozed, &until, s.now()
		setText(&fresh.Comment, comment)
		if err := tx.Select("status", "snoozed_until", "comment", "updated_at").Updates(fresh).Error; err != nil {
			return models.Internal("snooze payment action: %w", err)
		}
		return nil
	})
}

// Confirmation is what a confirmation says of a payment; nil fields take their defaults:
// the amount still owed (or the sum of Items when given), now, manual, the action's method.
type Confirmation struct {
	Amount        *money.Amount
	Comment       string
	PaidAt        *time.Time
	PaymentMethod *string
	NextDueDate   *models.Date
	Source        *string
	Items         []ConfirmedItem
}

// ConfirmedItem is the amount paid for one item; nil Amount is the item's amount. The item
// is named by PaymentActionItemID, else by ClientServiceID (the action's item of that
// service), else it is the action's only item.
type ConfirmedItem struct {
	PaymentActionItemID *uuid.UUID
	ClientServiceID     *uuid.UUID
	Amount              *money.Amount
}

// itemIndex finds the action's item a confirmed item means and the request field that
// names it; -1 when none does. Errors: invalid (the item is not named and the action has
// several).
func (ci ConfirmedItem) itemIndex(items []PaymentActionItem, at string) (int, string, error) {
	switch {
	case ci.PaymentActionItemID != nil:
		i := slices.IndexFunc(items, func(it PaymentActionItem) bool { return it.ID == *ci.PaymentActionItemID })
		if i >= 0 && ci.ClientServiceID != nil && items[i].ClientServiceID != *ci.ClientServiceID {
			return -1, at + "client_service_id", nil
		}
		return i, at + "payment_action_item_id", nil
	case ci.ClientServiceID != nil:
		return slices.IndexFunc(
			items,
			func(it PaymentActionItem) bool { return it.ClientServiceID == *ci.ClientServiceID },
		), at + "client_service_id", nil
	case len(items) == 1:
		return 0, at + "payment_action_item_id", nil
	}
	return -1, "", models.Invalid("payment_item_ambiguous", at+"payment_action_item_id")
}

// ConfirmAction records a payment fact on an action: paid when its facts cover its total,
// needs_decision otherwise; the due dates of its services move on. Errors: invalid (an item
// not of the action, named twice, or not named where the action has several; amount not
// the items' sum), conflict (paid or cancelled).
func (s *Service) ConfirmAction(ctx context.Context, a *PaymentAction, c Confirmation) (*PaymentActionDetail, error) {
	return s.changeOpenAction(ctx, a.ID, func(tx *gorm.DB, fresh *PaymentAction) error {
		amount, err := confirmedAmount(tx, fresh, c)
		if err != nil {
			return err
		}
		now := s.now()
		fact := PaymentFact{ID: models.NewID(), EventID: models.NewID(), Source: SourceManual, PaymentMethod: fresh.PaymentMethod,
			Amount: amount, PaidAt: now, Comment: c.Comment, CreatedAt: now}
		if c.Source != nil {
			fact.Source = *c.Source
		}
		if c.PaymentMethod != nil {
			fact.PaymentMethod = *c.PaymentMethod
		}
		if c.PaidAt != nil {
			fact.PaidAt = c.PaidAt.UTC().Truncate(time.Microsecond)
		}
		return s.recordFact(tx, fresh, &fact, c.NextDueDate)
	})
}

// confirmedAmount is the amount a confirmation records: the items' sum when it names items
// (each an item of the action, once), else its amount, else what the facts leave owed.
func confirmedAmount(tx *gorm.DB, a *PaymentAction, c Confirmation) (money.Amount, error) {
	if len(c.Items) == 0 {
		if c.Amount != nil {
			return *c.Amount, nil
		}
		paid, err := paidOn(tx, a.ID)
		return max(a.Total-paid, 0), err
	}
	var items []PaymentActionItem
	if err := tx.Where("payment_action_id = ?", a.ID).Find(&items).Error; err != nil {
		return 0, models.Internal("read payment action items: %w", err)
	}
	var sum money.Amount
	seen := map[int]bool{}
	for n, ci := range c.Items {
		i, field, err := ci.itemIndex(items, "items."+strconv.Itoa(n)+".")
		if err != nil {
			return 0, err
		}
		if i < 0 || seen[i] {
			return 0, models.Invalid("payment_item_unknown", field)
		}
		seen[i] = true
		if ci.Amount != nil {
			sum += *ci.Amount
		} else {
			sum += items[i].Amount
		}
	}
	if c.Amount != nil && *c.Amount != sum {
		return 0, models.Invalid("payment_amount_not_items_sum", "amount")
	}
	return sum, nil
}

// paidOn is the sum of an action's facts; it reads inside the caller's transaction, whose
// lock on the action keeps it current.
func paidOn(tx *gorm.DB, actionID uuid.UUID) (money.Amount, error) {
	var sum int64
	err := tx.Model(&PaymentFact{}).Where("payment_action_id = ?", actionID).Select("COALESCE(SUM(amount_minor), 0)").Scan(&sum).Error
	if err != nil {
		return 0, models.Internal("sum payment facts: %w", err)
	}
	return money.Amount(sum), nil
}

// recordFact stores a fact on a locked action, settles the action's status (paid when its
// facts cover its total, needs_decision otherwise), queues its payment.recorded event and
// moves its services' due dates on: to nextDue when given, else one billing period past
// each item's due date (never back); services billed once become completed.
func (s *Service) recordFact(tx *gorm.DB, a *PaymentAction, f *PaymentFact, nextDue *models.Date) error {
	f.CompanyID, f.PaymentActionID, f.Currency = a.CompanyID, a.ID, a.Currency
	if err := tx.Create(f).Error; err != nil {
		return models.Internal("create payment fact: %w", err)
	}
	paid, err := paidOn(tx, a.ID)
	if err != nil {
		return err
	}
	a.Status = PaymentActionNeedsDecision
	if paid >= a.Total {
		a.Status = PaymentActionPaid
	}
	a.Source, a.PaymentMethod, a.SnoozedUntil, a.ConfirmedAt, a.UpdatedAt = f.Source, f.PaymentMethod, nil, &f.CreatedAt, f.CreatedAt
	if err := tx.Select("status", "source", "payment_method", "snoozed_until", "confirmed_at", "updated_at").Updates(a).Error; err != nil {
		return models.Internal("settle payment action: %w", err)
	}
	if err := recordEvent(tx, EventPaymentRecorded, a, f, f.CreatedAt); err != nil {
		return err
	}
	var items []PaymentActionItem
	if err := tx.Where("payment_action_id = ?", a.ID).Find(&items).Error; err != nil {
		return models.Internal("read payment action items: %w", err)
	}
	for _, it := range items {
		if err := advanceService(tx, it, nextDue, f.CreatedAt); err != nil {
			return err
		}
	}
	return nil
}

// advanceService moves a service's due date on after a payment for the period starting on
// the item's due date.
func advanceService(tx *gorm.DB, it PaymentActionItem, nextDue *models.Date, now time.Time) error {
	var cs ClientService
	if err := tx.Take(&cs, "id = ?", it.ClientServiceID).Error; err != nil {
		return models.Internal("read paid service: %w", err)
	}
	changes := map[string]any{"updated_at": now}
	switch {
	case nextDue != nil:
		changes["next_due_date"], changes["due_anchor_day"] = *nextDue, nextDue.Day()
	case cs.BillingPeriod != "once":
		next := dueAfter(cs, it.DueDate)
		if cs.NextDueDate == nil || cs.NextDueDate.Compare(next) < 0 {
			changes["next_due_date"] = next
		}
	}
	if cs.BillingPeriod == "once" && (cs.Status == ServiceActive || cs.Status == ServicePaused) {
		changes["status"] = ServiceCompleted
	}
	if err := tx.Model(&ClientService{ID: cs.ID}).Updates(changes).Error; err != nil {
		return models.Internal("move due date: %w", err)
	}
	return nil
}

// dueAfter is a service's due date one billing period after due: weeks are counted in
// days, months land on the service's anchor day (due's day when it has none), clamped to
// the month's end, so that 31 Jan is followed by 28 Feb, 31 Mar and 30 Apr.
func dueAfter(cs ClientService, due models.Date) models.Date {
	anchor := cs.DueAnchorDay
	if anchor == 0 {
		anchor = due.Day()
	}
	switch cs.BillingPeriod {
	case "weekly":
		return due.AddDays(7)
	case "quarterly":
		return due.AddMonths(3, anchor)
	case "semiannual":
		return due.AddMonths(6, anchor)
	case "yearly":
		return due.AddMonths(12, anchor)
	case "once":
		return due
	}
	return due.AddMonths(1, anchor)
}

// periodEnd is the last day of a service's period starting on start: the day before the
// next due date, or start itself for a service billed once.
func periodEnd(cs ClientService, start models.Date) models.Date {
	if cs.BillingPeriod == "once" {
		return start
	}
	return dueAfter(cs, start).AddDays(-1)
}
