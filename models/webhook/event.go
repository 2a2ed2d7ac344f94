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
// first delivery's answer. What follows a claim (starting the delivery's run and recording
// its answer, engine/intake) is bounded by StartTimeout, so a claim older than claimTimeout
// is one whose process died, never one still at work, and a duplicate may take it over.
const (
	DefaultDuplicateWait = 5 * time.Second
	duplicatePoll        = 25 * time.Millisecond
	StartTimeout         = 30 * time.Second
	claimTimeout         = StartTimeout + 5*time.Second
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
// and its webhook.trigger in the trigger index (the workflow's current version).
type Target struct {
	Endpoint   *Endpoint
	Trigger    automation.Trigger
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
		Where(
			"projects.hook_key = ? AND webhook_endpoints.endpoint_key = ? AND webhook_endpoints.status = ?",
			hookKey, endpointKey, StatusActive,
		).
		Take(&e).Error
	if models.IsNotFound(err) {
		return nil, notFound()
	}
	if err != nil {
		return nil, models.Internal("resolve webhook endpoint: %w", err)
	}
	trigger, ok, err := s.PublishedTrigger(ctx, &e)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, notFound()
	}
	return &Target{Endpoint: &e, Trigger: trigger, HookKey: hookKey, JSONFields: jsonFields(trigger.Config)}, nil
}

// PublishedTrigger finds the endpoint's webhook.trigger in its workflow's current version,
// through the trigger index; ok is false when the workflow is not published or its current
// version lacks the trigger. Errors: internal.
func (s *Service) PublishedTrigger(ctx context.Context, e *Endpoint) (trigger automation.Trigger, ok bool, err error) {
	triggers, err := s.Workflows.Triggers(ctx, automation.TriggerQuery{ActionTypeKey: automation.TypeWebhook,
		CompanyID: e.CompanyID, ProjectID: e.ProjectID, WorkflowID: e.WorkflowID, TriggerKey: e.EndpointKey})
	if err != nil || len(triggers) == 0 {
		return automation.Trigger{}, false, err
	}
	return triggers[0], true, nil
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

// Receive stores a delivery, or finds the one that came before it with the same delivery
// id. It answers either the event whose run the caller must now start (a new delivery, or
// one taken over from a start that failed or was abandoned), or the answer the first
// delivery got, to repeat. The unique index on (endpoint, delivery id) makes sure that of
// concurrent duplicates exactly one is handed out for starting. Errors: conflict (the id was
// used with another body; the first delivery is still being started), internal.
func (s *Service) Receive(ctx context.Context, t *Target, d Delivery) (*Event, *Answer, error) {
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
		return nil, nil, models.Internal("store webhook event: %w", err)
	}
	return ev, nil, nil
}

// duplicate answers a delivery whose id was seen: the first answer once there is one; the
// event itself, taken over, when the first delivery failed to start its run or was
// abandoned.
func (s *Service) duplicate(ctx context.Context, t *Target, d Delivery) (*Event, *Answer, error) {
	deadline := time.Now().Add(s.DuplicateWait)
	for {
		var ev Event
		err := s.DB.WithContext(ctx).Take(&ev, "endpoint_id = ? AND delivery_id = ?", t.Endpoint.ID, d.ID).Error
		if err != nil {
			return nil, nil, models.Internal("read duplicate webhook event: %w", err)
		}
		switch {
		case ev.BodySHA256 != d.BodySHA256:
			return nil, nil, models.Conflict("webhook_delivery_id_reused", d.IDHeader)
		case ev.ResponseStatus != 0:
			return nil, &Answer{Status: ev.ResponseStatus, Body: []byte(ev.ResponseBody), Replayed: true}, nil
		case ev.Status == EventFailed || s.now().Sub(ev.ClaimedAt) > claimTimeout:
			claimed, err := s.claim(ctx, &ev)
			if err != nil {
				return nil, nil, err
			}
			if claimed {
				return &ev, nil, nil
			}
		}
		if time.Now().After(deadline) {
			return nil, nil, &models.Error{
				Kind:              models.KindConflict,
				Key:               "webhook_delivery_in_progress",
				Fields:            []string{d.IDHeader},
				RetryAfterSeconds: 1,
			}
		}
		select {
		case <-ctx.Done():
			return nil, nil, models.Internal("wait for a duplicate webhook delivery: %w", ctx.Err())
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

// Accept records that the event's run started, and the answer its sender gets (and any
// duplicate of it after).
func (s *Service) Accept(ctx context.Context, t *Target, ev *Event, runID uuid.UUID) (*Answer, error) {
	body, _ := json.Marshal(Accepted{
		WorkflowRunID:  runID,
		WebhookEventID: ev.ID,
		ReceiptURL:     s.ReceiptURL(t.HookKey, t.Endpoint.EndpointKey, runID),
	})
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&EventRun{
			WorkflowRunID:  runID,
			WebhookEventID: ev.ID,
			EndpointID:     ev.EndpointID,
			CompanyID:      ev.CompanyID,
			CreatedAt:      s.now(),
		}).Error; err != nil {
			return err
		}
		return tx.Model(&Event{}).Where("id = ?", ev.ID).Updates(map[string]any{
			"status": EventAccepted, "workflow_run_id": runID, "response_status": http.StatusAccepted,
			"response_body": string(body), "error": "",
		}).Error
	})
	if err != nil {
		return nil, models.Internal("record webhook run %s: %w", runID, err)
	}
	return &Answer{Status: http.StatusAccepted, Body: body}, nil
}

// Refuse records that the event's run did not start because of cause, and answers the
// error its sender gets: the same not_found as for an unknown key when the workflow changed
// since Resolve (a template it names is gone), cause itself otherwise (the engine is
// unavailable: a retry with the same delivery id may start it).
func (s *Service) Refuse(ctx context.Context, ev *Event, cause error) error {
	if err := s.DB.WithContext(ctx).Model(&Event{}).Where("id = ?", ev.ID).
		Updates(map[string]any{"status": EventFailed, "error": models.AsError(cause).Error()}).Error; err != nil {
		return models.Internal("record failed webhook event: %w (start: %v)", err, cause)
	}
	if k := models.AsError(cause).Kind; k == models.KindInvalid || k == models.KindConflict || k == models.KindNotFound {
		return notFound()
	}
	return cause
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

// EventEndpoint reads the endpoint an event came to. Errors: internal.
func (s *Service) EventEndpoint(ctx context.Context, ev *Event) (*Endpoint, error) {
	var e Endpoint
	if err := s.DB.WithContext(ctx).Take(&e, "id = ? AND company_id = ?", ev.EndpointID, ev.CompanyID).Error; err != nil {
		return nil, models.Internal("read endpoint of webhook event %s: %w", ev.ID, err)
	}
	return &e, nil
}

// LinkReplay records that a user's replay of an event started a run.
func (s *Service) LinkReplay(ctx context.Context, ev *Event, runID, userID uuid.UUID) error {
	link := EventRun{
		WorkflowRunID:  runID,
		WebhookEventID: ev.ID,
		EndpointID:     ev.EndpointID,
		CompanyID:      ev.CompanyID,
		Replay:         true,
		StartedBy:      &userID,
		CreatedAt:      s.now(),
	}
	if err := s.DB.WithContext(ctx).Create(&link).Error; err != nil {
		return models.Internal("link replayed run %s: %w", runID, err)
	}
	return nil
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
