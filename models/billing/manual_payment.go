package billing

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/models/money"
)

// ManualPayment is a payment a client made for one service's period, recorded by hand or
// by an API key. Currency nil is RUB (the specification's default), which must be the
// service's; PeriodEnd nil is the day before the service's next due date after PeriodStart.
type ManualPayment struct {
	ClientServiceID uuid.UUID       `json:"client_service_id"`
	ProjectID       *uuid.UUID      `json:"project_id"`
	Amount          money.Amount    `json:"amount"`
	Currency        *string         `json:"currency"`
	PeriodStart     models.Date     `json:"period_start"`
	PeriodEnd       *models.Date    `json:"period_end"`
	PaidAt          time.Time       `json:"paid_at"`
	PaymentMethod   string          `json:"payment_method"`
	Comment         string          `json:"comment"`
	Metadata        json.RawMessage `json:"metadata"`
	NextDueDate     *models.Date    `json:"next_due_date"`
}

// hash identifies what a payment says, whatever carried its idempotency key: a retry must
// say the same.
func (p ManualPayment) hash(clientID uuid.UUID) string {
	body, _ := json.Marshal(struct {
		ClientID uuid.UUID `json:"client_id"`
		ManualPayment
	}{clientID, p})
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

// ManualPaymentRequest is an idempotency key of the company: the first recording under it
// and what it said.
type ManualPaymentRequest struct {
	CompanyID       uuid.UUID `gorm:"primaryKey"`
	IdempotencyKey  string    `gorm:"primaryKey"`
	RequestHash     string
	ClientID        uuid.UUID
	ClientServiceID uuid.UUID
	PaymentFactID   uuid.UUID
	CreatedAt       time.Time
}

// RecordedPayment is the answer of a manual payment: the fact, its action and its event;
// Duplicate when the key had been used with the same payment before.
type RecordedPayment struct {
	Fact            PaymentFact
	ClientID        uuid.UUID
	ClientServiceID uuid.UUID
	IdempotencyKey  string
	Duplicate       bool
}

// RecordManualPayment records a payment fact on the action of the service's period (the
// one whose item for the service is due on PeriodStart), creating a pending action for the
// amount paid when there is none, settles the action as a confirmation does and moves the
// service's due date on. The company's idempotency key decides first, by a unique key
// rather than a read: a key used before with the same payment answers the first recording
// (Duplicate), with another payment it is a conflict; concurrent duplicates wait for the
// first one and record nothing. Errors: invalid (client_service_id not the client's,
// project_id not its project, currency, RUB when omitted, not its currency), conflict
// (idempotency_key reused; the action is cancelled; client deleted).
func (s *Service) RecordManualPayment(ctx context.Context, client *Client, key, source string, p ManualPayment) (*RecordedPayment, error) {
	now := s.now()
	if p.Currency == nil {
		rub := money.DefaultCurrency
		p.Currency = &rub // before the hash: an omitted currency and RUB are the same payment
	}
	claim := ManualPaymentRequest{CompanyID: client.CompanyID, IdempotencyKey: key, RequestHash: p.hash(client.ID),
		ClientID: client.ID, ClientServiceID: p.ClientServiceID, PaymentFactID: models.NewID(), CreatedAt: now}
	var out *RecordedPayment
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&claim)
		if res.Error != nil {
			return models.Internal("claim idempotency key: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			var err error
			out, err = firstRecording(tx, claim)
			return err
		}
		fact, err := s.recordManualPayment(tx, client, source, claim.PaymentFactID, p, now)
		if err != nil {
			return err
		}
		out = &RecordedPayment{Fact: *fact, ClientID: client.ID, ClientServiceID: p.ClientServiceID, IdempotencyKey: key}
		return nil
	})
	if err != nil {
		return nil, models.AsError(err)
	}
	return out, nil
}

// firstRecording answers a key claimed before: the recording it made when the payment is
// the same, a conflict otherwise.
func firstRecording(tx *gorm.DB, claim ManualPaymentRequest) (*RecordedPayment, error) {
	var first ManualPaymentRequest
	if err := tx.Take(&first, "company_id = ? AND idempotency_key = ?", claim.CompanyID, claim.IdempotencyKey).Error; err != nil {
		return nil, models.Internal("read idempotency key: %w", err)
	}
	if first.RequestHash != claim.RequestHash {
		return nil, models.Conflict("idempotency_key_reused", "idempotency_key")
	}
	var fact PaymentFact
	if err := tx.Take(&fact, "id = ?", first.PaymentFactID).Error; err != nil {
		return nil, models.Internal("read first payment fact: %w", err)
	}
	return &RecordedPayment{Fact: fact, ClientID: first.ClientID, ClientServiceID: first.ClientServiceID,
		IdempotencyKey: first.IdempotencyKey, Duplicate: true}, nil
}

func (s *Service) recordManualPayment(tx *gorm.DB, client *Client, source string, factID uuid.UUID, p ManualPayment,
	now time.Time) (*PaymentFact, error) {
	if client.Status == StatusDeleted {
		return nil, models.Conflict("client_deleted", "client_id")
	}
	var cs ClientService
	err := tx.Take(&cs, "id = ? AND client_id = ? AND status <> ?", p.ClientServiceID, client.ID, StatusDeleted).Error
	if models.IsNotFound(err) {
		return nil, models.Invalid("payment_service_unknown", "client_service_id")
	}
	if err != nil {
		return nil, models.Internal("read paid service: %w", err)
	}
	var bad fieldCheck
	bad.check("project_id", p.ProjectID == nil || *p.ProjectID == cs.ProjectID)
	bad.check("currency", p.Currency == nil || *p.Currency == cs.Currency)
	bad.check("period_end", p.PeriodEnd == nil || p.PeriodEnd.Compare(p.PeriodStart) >= 0)
	bad.text("comment", p.Comment, 0, 2000)
	if err := bad.err("invalid_manual_payment"); err != nil {
		return nil, err
	}
	a, err := s.periodAction(tx, cs, p, now)
	if err != nil {
		return nil, err
	}
	fact := PaymentFact{ID: factID, EventID: models.NewID(), Source: source, PaymentMethod: p.PaymentMethod, Amount: p.Amount,
		PaidAt: p.PaidAt.UTC().Truncate(time.Microsecond), Comment: p.Comment, CreatedAt: now}
	if err := s.recordFact(tx, a, &fact, p.NextDueDate); err != nil {
		return nil, err
	}
	return &fact, nil
}

// periodAction locks the action of the service's period starting on p.PeriodStart, or
// creates one for the amount paid. Locks are taken action first, then services, as
// confirmations take them, so the two never wait on each other in a circle; two payments
// under different keys creating the same period's action at once get one action, and the
// later one a conflict to retry. Errors: conflict (the action is cancelled; created
// concurrently).
func (s *Service) periodAction(tx *gorm.DB, cs ClientService, p ManualPayment, now time.Time) (*PaymentAction, error) {
	var item PaymentActionItem
	err := tx.Take(&item, "client_service_id = ? AND due_date = ?", cs.ID, p.PeriodStart).Error
	if err == nil {
		a, err := lockAction(tx, item.PaymentActionID)
		if err == nil && a.Status == PaymentActionCancelled {
			return nil, models.Conflict("payment_action_closed", "period_start")
		}
		return a, err
	}
	if !models.IsNotFound(err) {
		return nil, models.Internal("read period item: %w", err)
	}
	typed, err := typedIn(tx, []ClientService{cs})
	if err != nil {
		return nil, err
	}
	end := periodEnd(cs, p.PeriodStart)
	if p.PeriodEnd != nil {
		end = *p.PeriodEnd
	}
	a := PaymentAction{
		ID:            models.NewID(),
		CompanyID:     cs.CompanyID,
		ClientID:      cs.ClientID,
		ProjectID:     cs.ProjectID,
		Status:        PaymentActionPending,
		Source:        SourceManual,
		PaymentMethod: methodUnknown,
		PeriodStart:   p.PeriodStart,
		PeriodEnd:     end,
		DueDate:       p.PeriodStart,
		Total:         p.Amount,
		Currency:      cs.Currency,
		Comment:       p.Comment,
		CreatedAt:     now,
		UpdatedAt:     now,
	}
	if err := createAction(tx, &a, []PaymentActionItem{itemOf(typed[0], p.PeriodStart, p.Amount)}, "period_start"); err != nil {
		return nil, err
	}
	return &a, nil
}
