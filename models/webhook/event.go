package webhook

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/company"
)

// Event statuses: received while its run is being started, accepted once it started,
// failed when the engine did not take the run (a retry of the delivery, or a replay, may
// start it later). Requests that fail authentication or validation are never events.
const (
	EventReceived = "received"
	EventAccepted = "accepted"
	EventFailed   = "failed"
)

// Timing of duplicate deliveries: a duplicate waits up to Service.DuplicateWait for the
// first delivery's answer, and a delivery whose run has not started claimTimeout after it
// was claimed (its process died) may be claimed by a duplicate.
const (
	DefaultDuplicateWait = 5 * time.Second
	duplicatePoll        = 25 * time.Millisecond
	claimTimeout         = 2 * time.Minute
	startTimeout         = 30 * time.Second
)

// Event is one request an endpoint accepted, stored as it arrived.
type Event struct {
	ID          uuid.UUID `gorm:"primaryKey"`
	CompanyID   uuid.UUID
	ProjectID   uuid.UUID
	WorkflowID  uuid.UUID
	EndpointID  uuid.UUID
	DeliveryID  *string
	BodySHA256  string `gorm:"column:body_sha256"`
	Status      string
	ContentType string
	Body        []byte
	Payload     map[string]any    `gorm:"serializer:json"`
	Fields      map[string]any    `gorm:"column:extracted_fields;serializer:json"`
	Headers     map[string]string `gorm:"serializer:json"`
	SourceIP    string
	ReceivedAt  time.Time
	Attempts    int
	ClaimedAt   time.Time
	// PlannedRunID is the id the delivery's run gets, chosen before it starts, so a retry
	// after a crash finds a run that did start instead of starting a second one.
	PlannedRunID *uuid.UUID
	// WorkflowRunID is the run the delivery started (replays are EventRuns).
	WorkflowRunID  *uuid.UUID
	ResponseStatus int
	ResponseBody   string
	Error          string
}

func (Event) TableName() string { return "webhook_events" }

// EventRun links a run to the event it started from: the delivery's run, or a replay.
type EventRun struct {
	WorkflowRunID  uuid.UUID `gorm:"primaryKey"`
	WebhookEventID uuid.UUID
	EndpointID     uuid.UUID
	CompanyID      uuid.UUID
	Replay         bool
	StartedBy      *uuid.UUID
	CreatedAt      time.Time
}

func (EventRun) TableName() string { return "webhook_event_runs" }

// Target is what a request to /hooks/{hook_key}/{endpoint_key} reaches: an active endpoint
// whose workflow's current version has the endpoint's trigger.
type Target struct {
	Endpoint   *Endpoint
	Workflow   *automation.Workflow
	HookKey    string
	JSONFields []string
}

// notFound is the one answer to every request that reaches no target, whichever key was
// wrong, so senders cannot probe for valid keys.
func notFound() error { return models.NotFound("webhook_not_found") }

// Resolve finds the target of a hook request. Errors: not_found (unknown hook or endpoint
// key, disabled endpoint, workflow not published or without the trigger), all alike.
func (s *Service) Resolve(ctx context.Context, hookKey, endpointKey string) (*Target, error) {
	if hookKey == "" || endpointKey == "" {
		return nil, notFound()
	}
	var e Endpoint
	err := s.DB.WithContext(ctx).Joins("JOIN projects ON projects.id = webhook_endpoints.project_id").
		Where("projects.hook_key = ? AND webhook_endpoints.endpoint_key = ? AND webhook_endpoints.status = ?", hookKey, endpointKey, StatusActive).
		Take(&e).Error
	if models.IsNotFound(err) {
		return nil, notFound()
	}
	if err != nil {
		return nil, models.Internal("resolve webhook endpoint: %w", err)
	}
	w, err := s.workflow(ctx, &e)
	if err != nil {
		return nil, err
	}
	if w.CurrentVersionID == nil {
		return nil, notFound()
	}
	v, err := s.Workflows.CurrentVersion(ctx, w)
	if err != nil {
		return nil, err
	}
	trigger, ok := TriggerFor(v.Graph(), endpointKey)
	if !ok {
		return nil, notFound()
	}
	return &Target{Endpoint: &e, Workflow: w, HookKey: hookKey, JSONFields: jsonFields(trigger.Config)}, nil
}

// Answer is what an ingested request is answered: kept with its event, so a duplicate
// delivery gets the very same answer.
type Answer struct {
	Status int
	Body   []byte
	// Replayed is true when the answer is the one a delivery with the same id got.
	Replayed bool
}

// Accepted is the body of a 202 answer.
type Accepted struct {
	WorkflowRunID  uuid.UUID `json:"workflow_run_id"`
	WebhookEventID uuid.UUID `json:"webhook_event_id"`
	ReceiptURL     string    `json:"receipt_url"`
}

// Ingest stores a delivery and starts its run. A delivery whose id the endpoint has seen
// gets the first delivery's answer and starts nothing; the unique index on (endpoint,
// delivery id) makes sure that of concurrent duplicates exactly one starts a run.
// Errors: conflict (the id was used with another body; the first delivery is still being
// started), not_found (the trigger vanished meanwhile), unavailable (the engine did not
// take the run; the delivery may be retried with the same id).
func (s *Service) Ingest(ctx context.Context, t *Target, d Delivery) (*Answer, error) {
	now := s.now()
	e := t.Endpoint
	ev := &Event{
		ID: models.NewID(), CompanyID: e.CompanyID, ProjectID: e.ProjectID, WorkflowID: e.WorkflowID, EndpointID: e.ID,
		BodySHA256: d.BodySHA256, Status: EventReceived, ContentType: d.ContentType, Body: d.Body,
		Payload: d.Payload, Fields: d.Fields, Headers: d.Headers, SourceIP: d.SourceIP, ReceivedAt: now,
		Attempts: 1, ClaimedAt: now, PlannedRunID: ptr(models.NewID()),
	}
	if ev.Body == nil {
		ev.Body = []byte{}
	}
	if d.ID != "" {
		ev.DeliveryID = &d.ID
	}
	err := s.DB.WithContext(ctx).Create(ev).Error
	if models.IsUniqueViolation(err) {
		return s.duplicate(ctx, t, d)
	}
	if err != nil {
		return nil, models.Internal("store webhook event: %w", err)
	}
	return s.startDelivery(ctx, t, ev)
}

// duplicate answers a delivery whose id was seen: the first answer once there is one; the
// start itself when the first delivery failed to start its run, or was abandoned.
func (s *Service) duplicate(ctx context.Context, t *Target, d Delivery) (*Answer, error) {
	deadline := time.Now().Add(s.DuplicateWait)
	for {
		var ev Event
		err := s.DB.WithContext(ctx).Take(&ev, "endpoint_id = ? AND delivery_id = ?", t.Endpoint.ID, d.ID).Error
		if err != nil {
			return nil, models.Internal("read duplicate webhook event: %w", err)
		}
		switch {
		case ev.BodySHA256 != d.BodySHA256:
			return nil, models.Conflict("webhook_delivery_id_reused", d.IDHeader)
		case ev.ResponseStatus != 0:
			return &Answer{Status: ev.ResponseStatus, Body: []byte(ev.ResponseBody), Replayed: true}, nil
		case ev.Status == EventFailed || s.now().Sub(ev.ClaimedAt) > claimTimeout:
			claimed, err := s.claim(ctx, &ev)
			if err != nil {
				return nil, err
			}
			if claimed {
				return s.startDelivery(ctx, t, &ev)
			}
		}
		if time.Now().After(deadline) {
			return nil, &models.Error{Kind: models.KindConflict, Key: "webhook_delivery_in_progress", Fields: []string{d.IDHeader}, RetryAfterSeconds: 1}
		}
		select {
		case <-ctx.Done():
			return nil, models.Internal("wait for a duplicate webhook delivery: %w", ctx.Err())
		case <-time.After(duplicatePoll):
		}
	}
}

// claim takes an event over for starting its run; only one of concurrent claimers wins.
func (s *Service) claim(ctx context.Context, ev *Event) (bool, error) {
	now := s.now()
	set := map[string]any{"attempts": ev.Attempts + 1, "claimed_at": now, "status": EventReceived, "error": ""}
	if ev.PlannedRunID == nil { // stored before runs had their ids planned
		ev.PlannedRunID = ptr(models.NewID())
		set["planned_run_id"] = *ev.PlannedRunID
	}
	res := s.DB.WithContext(ctx).Model(&Event{}).Where("id = ? AND attempts = ? AND response_status = 0", ev.ID, ev.Attempts).
		Updates(set)
	if res.Error != nil {
		return false, models.Internal("claim webhook event: %w", res.Error)
	}
	ev.Attempts++
	return res.RowsAffected == 1, nil
}

// startDelivery starts the run of a claimed event and records the answer. The request's
// own cancellation does not interrupt it: a sender that hung up finds the run started
// when it retries.
func (s *Service) startDelivery(ctx context.Context, t *Target, ev *Event) (*Answer, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), startTimeout)
	defer cancel()
	run, err := s.Runs.StartWebhook(ctx, t.Workflow, t.Endpoint.EndpointKey, ev.Payload, *ev.PlannedRunID, nil)
	if err != nil {
		if uerr := s.DB.WithContext(ctx).Model(&Event{}).Where("id = ?", ev.ID).
			Updates(map[string]any{"status": EventFailed, "error": models.AsError(err).Error()}).Error; uerr != nil {
			return nil, models.Internal("record failed webhook event: %w (start: %v)", uerr, err)
		}
		if k := models.AsError(err).Kind; k == models.KindInvalid || k == models.KindConflict || k == models.KindNotFound {
			return nil, notFound() // the workflow changed since Resolve
		}
		return nil, err
	}
	body, _ := json.Marshal(Accepted{WorkflowRunID: run.ID, WebhookEventID: ev.ID, ReceiptURL: s.ReceiptURL(t.HookKey, t.Endpoint.EndpointKey, run.ID)})
	err = s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&EventRun{WorkflowRunID: run.ID, WebhookEventID: ev.ID, EndpointID: ev.EndpointID, CompanyID: ev.CompanyID, CreatedAt: s.now()}).Error; err != nil {
			return err
		}
		return tx.Model(&Event{}).Where("id = ?", ev.ID).Updates(map[string]any{
			"status": EventAccepted, "workflow_run_id": run.ID, "response_status": http.StatusAccepted,
			"response_body": string(body), "error": "",
		}).Error
	})
	if err != nil {
		return nil, models.Internal("record webhook run %s: %w", run.ID, err)
	}
	return &Answer{Status: http.StatusAccepted, Body: body}, nil
}

// ReceiptURL is where a sender reads the receipt of a run it started.
func (s *Service) ReceiptURL(hookKey, endpointKey string, runID uuid.UUID) string {
	return s.PublicURL + "/hooks/" + hookKey + "/" + endpointKey + "/runs/" + runID.String() + "/receipt"
}

// EventAccess returns an event and the caller's standing in its company. Errors: not_found.
func (s *Service) EventAccess(ctx context.Context, userID, id uuid.UUID) (*Event, *company.Access, error) {
	return company.LoadOwned(ctx, s.Company, userID, id, "webhook_event_not_found", func(e *Event) uuid.UUID { return e.CompanyID })
}

// Events lists an endpoint's events in the order they arrived.
func (s *Service) Events(ctx context.Context, endpointID uuid.UUID, page models.PageRequest) ([]Event, string, error) {
	var rows []Event
	q := s.DB.WithContext(ctx).Omit("body", "payload", "headers").Where("endpoint_id = ?", endpointID)
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list webhook events: %w", err)
	}
	items, next := models.Page(page, rows, func(e Event) uuid.UUID { return e.ID })
	return items, next, nil
}

// ReplayRuns are the runs replays of the events started, per event id, oldest first.
func (s *Service) ReplayRuns(ctx context.Context, eventIDs []uuid.UUID) (map[uuid.UUID][]uuid.UUID, error) {
	out := map[uuid.UUID][]uuid.UUID{}
	if len(eventIDs) == 0 {
		return out, nil
	}
	var rows []EventRun
	err := s.DB.WithContext(ctx).Where("webhook_event_id IN ? AND replay = ?", eventIDs, true).Order("workflow_run_id").Find(&rows).Error
	if err != nil {
		return nil, models.Internal("list webhook replays: %w", err)
	}
	for _, r := range rows {
		out[r.WebhookEventID] = append(out[r.WebhookEventID], r.WorkflowRunID)
	}
	return out, nil
}

// Replay starts a new run of the workflow's current version from a stored event, as if it
// arrived now, linked to the event. It works on disabled endpoints too: the owner decides.
// Errors: invalid (the workflow is not published), conflict (its current version has no
// trigger for the endpoint), unavailable.
func (s *Service) Replay(ctx context.Context, ev *Event, userID uuid.UUID) (*automation.Run, error) {
	var e Endpoint
	if err := s.DB.WithContext(ctx).Take(&e, "id = ? AND company_id = ?", ev.EndpointID, ev.CompanyID).Error; err != nil {
		return nil, models.Internal("read endpoint of webhook event %s: %w", ev.ID, err)
	}
	w, err := s.workflow(ctx, &e)
	if err != nil {
		return nil, err
	}
	run, err := s.Runs.StartWebhook(ctx, w, e.EndpointKey, ev.Payload, models.NewID(), &userID)
	if run == nil {
		return nil, err
	}
	link := EventRun{WorkflowRunID: run.ID, WebhookEventID: ev.ID, EndpointID: e.ID, CompanyID: e.CompanyID, Replay: true, StartedBy: &userID, CreatedAt: s.now()}
	if lerr := s.DB.WithContext(context.WithoutCancel(ctx)).Create(&link).Error; lerr != nil {
		return nil, models.Internal("link replayed run %s: %w", run.ID, lerr)
	}
	return run, err
}

// ReceiptEndpoint finds the endpoint whose receipts a request reads, whatever its status:
// runs it started stay readable. Errors: not_found, alike for either wrong key.
func (s *Service) ReceiptEndpoint(ctx context.Context, hookKey, endpointKey string) (*Endpoint, error) {
	var e Endpoint
	err := s.DB.WithContext(ctx).Joins("JOIN projects ON projects.id = webhook_endpoints.project_id").
		Where("projects.hook_key = ? AND webhook_endpoints.endpoint_key = ?", hookKey, endpointKey).Take(&e).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("webhook_receipt_not_found")
	}
	if err != nil {
		return nil, models.Internal("find webhook endpoint: %w", err)
	}
	return &e, nil
}

// Receipt returns a run the endpoint started (by a delivery or a replay of its events).
// Errors: not_found, alike for a run of another endpoint and no run at all.
func (s *Service) Receipt(ctx context.Context, e *Endpoint, runID uuid.UUID) (*automation.Run, error) {
	var n int64
	err := s.DB.WithContext(ctx).Model(&EventRun{}).Where("workflow_run_id = ? AND endpoint_id = ?", runID, e.ID).Count(&n).Error
	if err != nil {
		return nil, models.Internal("find webhook run: %w", err)
	}
	if n == 0 {
		return nil, models.NotFound("webhook_receipt_not_found")
	}
	return s.Workflows.Run(ctx, runID)
}

func ptr[T any](v T) *T { return &v }
