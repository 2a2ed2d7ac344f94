package billing

import (
	"context"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// Payment event types, the events payment.event_trigger starts runs on.
const (
	EventActionCreated   = "payment_action.created"
	EventActionDue       = "payment_action.due"
	EventPaymentRecorded = "payment.recorded"
)

// PaymentEvent is a change of a payment action that workflows may start on. It is written
// in the transaction of the change, once per change (EventKey), and DispatchedAt is set
// once the runs it starts are stored: until then it is queued.
type PaymentEvent struct {
	ID              uuid.UUID `gorm:"primaryKey"`
	CompanyID       uuid.UUID
	ProjectID       uuid.UUID
	PaymentActionID uuid.UUID
	PaymentFactID   *uuid.UUID
	EventType       string
	EventKey        string
	OccurredAt      time.Time
	DispatchedAt    *time.Time
}

func (PaymentEvent) TableName() string { return "payment_events" }

// recordEvent queues an event of action a; a second record of the same key (a retried
// cycle) is a no-op. A payment.recorded event takes the fact's event id, the one the
// recording answered.
func recordEvent(tx *gorm.DB, eventType string, a *PaymentAction, fact *PaymentFact, at time.Time) error {
	ev := PaymentEvent{ID: models.NewID(), CompanyID: a.CompanyID, ProjectID: a.ProjectID, PaymentActionID: a.ID,
		EventType: eventType, EventKey: eventType + ":" + a.ID.String(), OccurredAt: at}
	if fact != nil {
		ev.ID, ev.PaymentFactID, ev.EventKey = fact.EventID, &fact.ID, eventType+":"+fact.ID.String()
	}
	if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&ev).Error; err != nil {
		return models.Internal("queue payment event: %w", err)
	}
	return nil
}

// queueDueEvents queues payment_action.due for every open action due on or before today
// that has none yet, each in a transaction of its own. Answers how many it queued.
func queueDueEvents(db *gorm.DB, today models.Date, now time.Time) (int, error) {
	var due []PaymentAction
	err := db.Where(
		"status IN ? AND due_date <= ?",
		[]PaymentActionStatus{PaymentActionPending, PaymentActionSent, PaymentActionNeedsDecision}, today,
	).
		Where("NOT EXISTS (SELECT 1 FROM payment_events e WHERE e.payment_action_id = payment_actions.id AND e.event_type = ?)", EventActionDue).
		Order("due_date, id").Find(&due).Error
	if err != nil {
		return 0, models.Internal("read due payment actions: %w", err)
	}
	for i := range due {
		if err := queueDueEvent(db, &due[i], now); err != nil {
			return i, err
		}
	}
	return len(due), nil
}

// queueDueEvent queues the payment_action.due event of action a with its PaymentActionDue
// domain event, in a transaction (a savepoint when db is one).
func queueDueEvent(db *gorm.DB, a *PaymentAction, now time.Time) error {
	return db.Transaction(func(tx *gorm.DB) error {
		if err := recordEvent(tx, EventActionDue, a, nil, now); err != nil {
			return err
		}
		return models.RecordEvent(tx, now, PaymentActionDue{PaymentActionID: a.ID})
	})
}

// QueuedEvents lists payment events not dispatched yet, oldest first. Errors: internal.
func (s *Service) QueuedEvents(ctx context.Context, limit int) ([]PaymentEvent, error) {
	return models.QueuedEvents[PaymentEvent](s.DB.WithContext(ctx), limit)
}

// MarkEventDispatched records that the runs an event triggers are stored; the first of
// them becomes the action's workflow_run_id. Errors: internal.
func (s *Service) MarkEventDispatched(ctx context.Context, ev PaymentEvent, runIDs []uuid.UUID) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := models.MarkEventDispatched[PaymentEvent](tx, ev.ID, s.now()); err != nil {
			return err
		}
		if len(runIDs) == 0 {
			return nil
		}
		err := tx.Model(&PaymentAction{}).Where("id = ?", ev.PaymentActionID).Update("workflow_run_id", runIDs[0]).Error
		if err != nil {
			return models.Internal("link payment action to its run: %w", err)
		}
		return nil
	})
}

// EventScope is what a run started by an event reads under {{ payment.* }}: the event, the
// action with its items, its client, and for payment.recorded the payment.
func (s *Service) EventScope(ctx context.Context, ev PaymentEvent) (map[string]any, error) {
	db := s.DB.WithContext(ctx)
	d, err := s.detailOf(db, ev.PaymentActionID)
	if err != nil {
		return nil, err
	}
	var client Client
	if err := db.Take(&client, "id = ?", d.ClientID).Error; err != nil {
		return nil, models.Internal("read client of payment event: %w", err)
	}
	items := make([]any, len(d.Items))
	for i, it := range d.Items {
		items[i] = map[string]any{"client_service_id": it.ClientServiceID.String(), "service_type_key": it.ServiceTypeKey,
			"title": it.Title, "due_date": it.DueDate.String(), "amount": it.Amount.String(), "currency": it.Currency}
	}
	scope := map[string]any{
		"event_id": ev.ID.String(), "event_type": ev.EventType, "occurred_at": ev.OccurredAt.UTC().Format(time.RFC3339),
		"payment_action": map[string]any{
			"payment_action_id": d.ID.String(), "status": d.Status, "due_date": d.DueDate.String(),
			"period_start": d.PeriodStart.String(), "period_end": d.PeriodEnd.String(), "total_amount": d.Total.String(),
			"currency": d.Currency, "comment": d.Comment, "items": items, "project_id": d.ProjectID.String(), "project_name": d.ProjectName,
		},
		"client": map[string]any{"client_id": client.ID.String(), "name": client.Name, "inn": client.INN},
	}
	for _, f := range d.Facts {
		if ev.PaymentFactID != nil && f.ID == *ev.PaymentFactID {
			scope["payment"] = map[string]any{"payment_fact_id": f.ID.String(), "amount": f.Amount.String(), "currency": f.Currency,
				"paid_at": f.PaidAt.UTC().Format(time.RFC3339), "payment_method": f.PaymentMethod, "source": f.Source}
		}
	}
	return scope, nil
}
