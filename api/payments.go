package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/billing"
	"agencyhub/models/money"
)

// paymentActionItemView is the specification's PaymentActionItem.
type paymentActionItemView struct {
	PaymentActionItemID uuid.UUID    `json:"payment_action_item_id"`
	ClientServiceID     uuid.UUID    `json:"client_service_id"`
	ServiceTypeKey      string       `json:"service_type_key"`
	Title               string       `json:"title"`
	DueDate             models.Date  `json:"due_date"`
	Amount              money.Amount `json:"amount"`
	Currency            string       `json:"currency"`
}

// paymentFactView is the specification's PaymentFactView.
type paymentFactView struct {
	PaymentFactID uuid.UUID    `json:"payment_fact_id"`
	Source        string       `json:"source"`
	PaymentMethod string       `json:"payment_method"`
	Amount        money.Amount `json:"amount"`
	Currency      string       `json:"currency"`
	PaidAt        time.Time    `json:"paid_at"`
	CreatedAt     time.Time    `json:"created_at"`
}

// paymentActionView is the specification's PaymentActionView.
type paymentActionView struct {
	PaymentActionID uuid.UUID                   `json:"payment_action_id"`
	CompanyID       uuid.UUID                   `json:"company_id"`
	ClientID        uuid.UUID                   `json:"client_id"`
	ClientName      string                      `json:"client_name"`
	ProjectID       uuid.UUID                   `json:"project_id"`
	ProjectName     string                      `json:"project_name"`
	Status          billing.PaymentActionStatus `json:"status"`
	Source          string                      `json:"source"`
	PaymentMethod   string                      `json:"payment_method"`
	PeriodStart     models.Date                 `json:"period_start"`
	PeriodEnd       models.Date                 `json:"period_end"`
	DueDate         models.Date                 `json:"due_date"`
	TotalAmount     money.Amount                `json:"total_amount"`
	Currency        string                      `json:"currency"`
	Comment         string                      `json:"comment"`
	ConfirmedAt     *time.Time                  `json:"confirmed_at,omitempty"`
	WorkflowRunID   *uuid.UUID                  `json:"workflow_run_id,omitempty"`
	Items           []paymentActionItemView     `json:"items"`
	Facts           []paymentFactView           `json:"facts"`
}

func viewPaymentAction(d billing.PaymentActionDetail) paymentActionView {
	v := paymentActionView{
		PaymentActionID: d.ID, CompanyID: d.CompanyID, ClientID: d.ClientID, ClientName: d.ClientName,
		ProjectID: d.ProjectID, ProjectName: d.ProjectName, Status: d.Status, Source: d.Source, PaymentMethod: d.PaymentMethod,
		PeriodStart: d.PeriodStart, PeriodEnd: d.PeriodEnd, DueDate: d.DueDate, TotalAmount: d.Total, Currency: d.Currency,
		Comment: d.Comment, ConfirmedAt: d.ConfirmedAt, WorkflowRunID: d.WorkflowRunID,
		Items: make([]paymentActionItemView, len(d.Items)), Facts: make([]paymentFactView, len(d.Facts)),
	}
	for i, it := range d.Items {
		v.Items[i] = paymentActionItemView{PaymentActionItemID: it.ID, ClientServiceID: it.ClientServiceID, ServiceTypeKey: it.ServiceTypeKey,
			Title: it.Title, DueDate: it.DueDate, Amount: it.Amount, Currency: it.Currency}
	}
	for i, f := range d.Facts {
		v.Facts[i] = paymentFactView{PaymentFactID: f.ID, Source: f.Source, PaymentMethod: f.PaymentMethod, Amount: f.Amount,
			Currency: f.Currency, PaidAt: f.PaidAt, CreatedAt: f.CreatedAt}
	}
	return v
}

// servePaymentActions answers a page of the actions of one client or project, filtered by
// the query's status (comma-separated; all by default), due_from and due_to (dates,
// inclusive).
func (s *Server) servePaymentActions(c *gin.Context, f billing.PaymentActionFilter) {
	servePage(c, func(page models.PageRequest) ([]billing.PaymentActionDetail, string, error) {
		var err error
		if f.Statuses, err = billing.StatusFilter(c.Query("status"), billing.PaymentActionStatuses); err != nil {
			return nil, "", err
		}
		if f.DueFrom, err = queryDate(c, "due_from"); err != nil {
			return nil, "", err
		}
		if f.DueTo, err = queryDate(c, "due_to"); err != nil {
			return nil, "", err
		}
		return s.Billing.PaymentActions(c, f, page)
	}, each(viewPaymentAction))
}

// queryDate reads an optional YYYY-MM-DD query parameter. Errors: invalid (name).
func queryDate(c *gin.Context, name string) (*models.Date, error) {
	raw := c.Query(name)
	if raw == "" {
		return nil, nil
	}
	d, err := models.ParseDate(raw)
	if err != nil {
		return nil, models.Invalid("invalid_date", name)
	}
	return &d, nil
}

// clientPaymentActionList serves GET /api/v1/clients/{client_id}/payment-actions.
func (s *Server) clientPaymentActionList(c *gin.Context) {
	s.servePaymentActions(c, billing.PaymentActionFilter{ClientID: client(c).ID})
}

// projectPaymentActionList serves GET /api/v1/projects/{project_id}/payment-actions.
func (s *Server) projectPaymentActionList(c *gin.Context) {
	s.servePaymentActions(c, billing.PaymentActionFilter{ProjectID: project(c).ID})
}

// clientServiceBillNow serves POST /api/v1/client-services/{client_service_id}/bill-now, an
// extension: 201 with the action billing the service's next due date, or 200 with the one
// that bills it already.
func (s *Server) clientServiceBillNow(c *gin.Context) {
	d, created, err := s.Billing.BillNow(c, clientService(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(httpx.CreatedOrOK(created), viewPaymentAction(*d))
}

// paymentActionGet serves GET /api/v1/payment-actions/{payment_action_id}.
func (s *Server) paymentActionGet(c *gin.Context) {
	d, err := s.Billing.PaymentActionDetail(c, paymentAction(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewPaymentAction(*d))
}

// manualActionRequest is the body of projectPaymentActionManualCreate: one service
// (client_service_id, with amount) or several (items).
type manualActionRequest struct {
	ClientID        uuid.UUID     `json:"client_id"`
	ClientServiceID *uuid.UUID    `json:"client_service_id"`
	Items           []itemAmount  `json:"items"`
	DueDate         models.Date   `json:"due_date"`
	Amount          *money.Amount `json:"amount"`
	Comment         string        `json:"comment"`
}

type itemAmount struct {
	ClientServiceID uuid.UUID     `json:"client_service_id"`
	Amount          *money.Amount `json:"amount"`
}

// projectPaymentActionManualCreate serves POST /api/v1/projects/{project_id}/payment-actions/manual.
func (s *Server) projectPaymentActionManualCreate(c *gin.Context) {
	var req manualActionRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	if (req.ClientServiceID == nil) == (len(req.Items) == 0) {
		httpx.WriteError(c, models.Invalid("payment_items_one_way", "client_service_id", "items"))
		return
	}
	in := billing.ManualAction{ClientID: req.ClientID, ItemsField: "items", DueDate: req.DueDate, Total: req.Amount, Comment: req.Comment}
	if req.ClientServiceID != nil {
		in.ItemsField, in.Total = "client_service_id", nil
		in.Items = []billing.ItemAmount{{ClientServiceID: *req.ClientServiceID, Amount: req.Amount}}
	}
	for _, it := range req.Items {
		in.Items = append(in.Items, billing.ItemAmount{ClientServiceID: it.ClientServiceID, Amount: it.Amount})
	}
	d, err := s.Billing.CreateManualAction(c, project(c), in)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewPaymentAction(*d))
}

// paymentActionSnoozeRequest is the specification's PaymentActionSnoozeRequest.
type paymentActionSnoozeRequest struct {
	SnoozedUntil models.Date `json:"snoozed_until"`
	Comment      *string     `json:"comment"`
}

// paymentActionSnooze serves POST /api/v1/payment-actions/{payment_action_id}/snooze.
func (s *Server) paymentActionSnooze(c *gin.Context) {
	var req paymentActionSnoozeRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	d, err := s.Billing.SnoozeAction(c, paymentAction(c), req.SnoozedUntil, req.Comment)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewPaymentAction(*d))
}

// paymentActionConfirmRequest is the specification's PaymentActionConfirmRequest.
type paymentActionConfirmRequest struct {
	Amount        *money.Amount   `json:"amount"`
	Comment       string          `json:"comment"`
	PaidAt        *time.Time      `json:"paid_at"`
	PaymentMethod *string         `json:"payment_method"`
	NextDueDate   *models.Date    `json:"next_due_date"`
	Source        *string         `json:"source"`
	Items         []confirmedItem `json:"items"`
}

type confirmedItem struct {
	PaymentActionItemID *uuid.UUID    `json:"payment_action_item_id"`
	ClientServiceID     *uuid.UUID    `json:"client_service_id"`
	Amount              *money.Amount `json:"amount"`
}

// paymentActionConfirm serves POST /api/v1/payment-actions/{payment_action_id}/confirm.
func (s *Server) paymentActionConfirm(c *gin.Context) {
	var req paymentActionConfirmRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	conf := billing.Confirmation{Amount: req.Amount, Comment: req.Comment, PaidAt: req.PaidAt, PaymentMethod: req.PaymentMethod,
		NextDueDate: req.NextDueDate, Source: req.Source}
	for _, it := range req.Items {
		conf.Items = append(conf.Items, billing.ConfirmedItem{
			PaymentActionItemID: it.PaymentActionItemID,
			ClientServiceID:     it.ClientServiceID,
			Amount:              it.Amount,
		})
	}
	d, err := s.Billing.ConfirmAction(c, paymentAction(c), conf)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewPaymentAction(*d))
}

// manualPaymentRequest is the specification's ManualPaymentRecordRequest.
type manualPaymentRequest struct {
	billing.ManualPayment
	IdempotencyKey string `json:"idempotency_key"`
}

// manualPaymentResponse is the specification's ManualPaymentRecordResponse.
type manualPaymentResponse struct {
	EventID         uuid.UUID `json:"event_id"`
	EventType       string    `json:"event_type"`
	EventSource     string    `json:"event_source"`
	EventSubject    string    `json:"event_subject"`
	IdempotencyKey  string    `json:"idempotency_key"`
	PaymentActionID uuid.UUID `json:"payment_action_id"`
	PaymentFactID   uuid.UUID `json:"payment_fact_id"`
	Status          string    `json:"status"`
	Duplicate       bool      `json:"duplicate"`
}

// clientManualPaymentRecord serves POST /api/v1/clients/{client_id}/payments/manual. The
// idempotency key is the body's idempotency_key or the Idempotency-Key header (both
// present must agree); a repeat answers the first recording with 200 and duplicate true.
func (s *Server) clientManualPaymentRecord(c *gin.Context) {
	var req manualPaymentRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	key, err := idempotencyKey("invalid_idempotency_key", true,
		keySource{field: "idempotency_key", value: req.IdempotencyKey},
		keySource{field: "idempotency_key", value: c.GetHeader("Idempotency-Key")})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	source := billing.SourceManual
	if actor(c).APIKeyID != uuid.Nil {
		source = billing.SourceAPIKey
	}
	rec, err := s.Billing.RecordManualPayment(c, client(c), key.value, source, req.ManualPayment)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	status := http.StatusCreated
	if rec.Duplicate {
		status = http.StatusOK
	}
	c.JSON(status, manualPaymentResponse{
		EventID: rec.Fact.EventID, EventType: billing.EventPaymentRecorded, EventSource: rec.Fact.Source,
		EventSubject:   "client/" + rec.ClientID.String() + "/service/" + rec.ClientServiceID.String(),
		IdempotencyKey: rec.IdempotencyKey, PaymentActionID: rec.Fact.PaymentActionID, PaymentFactID: rec.Fact.ID,
		Status: "processed", Duplicate: rec.Duplicate,
	})
}

// scheduledPaymentView is one coming due date of a service in a payment schedule.
type scheduledPaymentView struct {
	ClientServiceID uuid.UUID    `json:"client_service_id"`
	ClientID        uuid.UUID    `json:"client_id"`
	ClientName      string       `json:"client_name"`
	ServiceName     string       `json:"service_name"`
	ServiceTypeKey  string       `json:"service_type_key"`
	BillingPeriod   string       `json:"billing_period"`
	DueDate         models.Date  `json:"due_date"`
	Amount          money.Amount `json:"amount"`
	Currency        string       `json:"currency"`
}

type monthTotalView struct {
	Month    string       `json:"month"`
	Currency string       `json:"currency"`
	Amount   money.Amount `json:"amount"`
	Count    int          `json:"count"`
}

// paymentScheduleView is the answer of projectPaymentSchedule.
type paymentScheduleView struct {
	From   models.Date            `json:"from"`
	To     models.Date            `json:"to"`
	Items  []scheduledPaymentView `json:"items"`
	Totals []monthTotalView       `json:"totals"`
}

// projectPaymentSchedule serves GET /api/v1/projects/{project_id}/payment-schedule: the
// coming due dates of the project's active services from `from` (default today) to `to`
// (default 90 days after from; at most 400 days after it), with totals per month and
// currency.
func (s *Server) projectPaymentSchedule(c *gin.Context) {
	from, err := queryDate(c, "from")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	if from == nil {
		today := models.DateOf(s.Now())
		from = &today
	}
	to, err := queryDate(c, "to")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	if to == nil {
		end := from.AddDays(90)
		to = &end
	}
	payments, totals, err := s.Billing.PaymentSchedule(c, project(c).ID, *from, *to)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	v := paymentScheduleView{
		From:   *from,
		To:     *to,
		Items:  make([]scheduledPaymentView, len(payments)),
		Totals: make([]monthTotalView, len(totals)),
	}
	for i, p := range payments {
		v.Items[i] = scheduledPaymentView{ClientServiceID: p.ID, ClientID: p.ClientID, ClientName: p.ClientName, ServiceName: p.Name,
			ServiceTypeKey: p.ServiceTypeKey, BillingPeriod: p.BillingPeriod, DueDate: p.DueDate, Amount: p.Amount, Currency: p.Currency}
	}
	for i, t := range totals {
		v.Totals[i] = monthTotalView{Month: t.Month, Currency: t.Currency, Amount: t.Amount, Count: t.Count}
	}
	c.JSON(http.StatusOK, v)
}
