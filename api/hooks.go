package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/webhook"
)

// maxReceiptWait bounds a receipt's ?wait=, in seconds.
const maxReceiptWait = 30

// hookIngest serves POST /hooks/{hook_key}/{endpoint_key}, the public address of a
// webhook endpoint: no session, the endpoint's auth type decides. In order: 404 for any
// unknown key, disabled endpoint or unpublished workflow (one answer for all), 413 over the
// endpoint's max_body_bytes, 401 when authentication fails (nothing stored), 415/400 for a
// body the endpoint does not take; then the request is stored and its run started (202).
// A delivery id seen before gets the first answer again, with Idempotent-Replayed: true.
// Each request is counted accepted, or refused with its error's message key as the reason.
func (s *Server) hookIngest(c *gin.Context) {
	answer, err := s.ingestDelivery(c)
	if err != nil {
		s.Metrics.WebhookRefused(models.AsError(err).Key)
		httpx.WriteError(c, err)
		return
	}
	s.Metrics.WebhookAccepted(answer.Replayed)
	if answer.Replayed {
		c.Header("Idempotent-Replayed", "true")
	}
	c.Data(answer.Status, "application/json; charset=utf-8", answer.Body)
}

// ingestDelivery takes one request to a webhook address through its steps, in hookIngest's
// order; the first that refuses it answers the error.
func (s *Server) ingestDelivery(c *gin.Context) (*webhook.Answer, error) {
	t, err := s.Webhooks.Resolve(c, c.Param("hook_key"), c.Param("endpoint_key"))
	if err != nil {
		return nil, err
	}
	body, err := httpx.ReadBodyUpTo(c, int64(t.Endpoint.MaxBodyBytes))
	if err != nil {
		return nil, err
	}
	if err := s.Webhooks.Authenticate(c, t.Endpoint, c.Request.Header, body); err != nil {
		if t.Endpoint.AuthType == webhook.AuthBasic {
			c.Header("WWW-Authenticate", `Basic realm="webhook", charset="UTF-8"`)
		}
		return nil, err
	}
	id, err := idempotencyKey("invalid_delivery_id", false,
		keySource{field: webhook.HeaderID, value: c.GetHeader(webhook.HeaderID)},
		keySource{field: webhook.HeaderIdempotency, value: c.GetHeader(webhook.HeaderIdempotency)})
	if err != nil {
		return nil, err
	}
	d, err := webhook.NewDelivery(t, c.Request.Header, body, c.ClientIP())
	if err != nil {
		return nil, err
	}
	d.ID, d.IDHeader = id.value, id.field
	return s.Intake.Webhook(c, t, d)
}

type webhookActionReceipt struct {
	ActionKey      string                  `json:"action_key"`
	ActionTypeKey  string                  `json:"action_type_key"`
	Status         automation.ActionStatus `json:"status"`
	AttemptCount   int                     `json:"attempt_count"`
	MaxAttempts    int                     `json:"max_attempts"`
	RetryCount     int                     `json:"retry_count"`
	RetryClass     string                  `json:"retry_class,omitempty"`
	TerminalReason string                  `json:"terminal_reason"`
	StartedAt      *time.Time              `json:"started_at,omitempty"`
	FinishedAt     *time.Time              `json:"finished_at,omitempty"`
}

type webhookRunReceipt struct {
	WorkflowRunID  uuid.UUID              `json:"workflow_run_id"`
	Status         automation.RunStatus   `json:"status"`
	Terminal       bool                   `json:"terminal"`
	TerminalReason string                 `json:"terminal_reason"`
	StartedAt      *time.Time             `json:"started_at,omitempty"`
	FinishedAt     *time.Time             `json:"finished_at,omitempty"`
	Actions        []webhookActionReceipt `json:"actions"`
}

// viewReceipt is the receipt of r as a reader of lang sees it: reasons worded in their
// language where the failure table has them.
func viewReceipt(lang string, r *automation.Run, actions []automation.ActionRun) webhookRunReceipt {
	v := webhookRunReceipt{
		WorkflowRunID: r.ID, Status: r.Status, Terminal: r.Terminal(), TerminalReason: terminalReason(lang, r.TerminalReason, actions),
		StartedAt: r.StartedAt, FinishedAt: r.FinishedAt, Actions: make([]webhookActionReceipt, len(actions)),
	}
	for i, a := range actions {
		reason := ""
		if a.Error != nil {
			reason = *a.Error
			if worded, _, ok := failureText(lang, automation.DecodeObject(a.Diagnostics)); ok {
				reason = worded
			}
		}
		v.Actions[i] = webhookActionReceipt{
			ActionKey: a.ActionKey, ActionTypeKey: a.ActionTypeKey, Status: receiptStatus(a), AttemptCount: a.SeriesAttempts(),
			MaxAttempts: max(a.SeriesMaxAttempts(), 1), RetryCount: a.RetryCount, RetryClass: a.RetryClass, TerminalReason: reason,
			StartedAt: a.StartedAt, FinishedAt: a.FinishedAt,
		}
	}
	return v
}

// hookReceipt serves GET /hooks/{hook_key}/{endpoint_key}/runs/{workflow_run_id}/receipt:
// the state of a run started through the endpoint, to whoever knows both keys and the run
// id: 404 for a wrong key or a run the endpoint did not start, alike. ?wait=N (at most 30)
// holds the answer until the run has finished or N seconds passed, reading the run again
// whenever the bus says it changed.
func (s *Server) hookReceipt(c *gin.Context) {
	e, err := s.Webhooks.ReceiptEndpoint(c, c.Param("hook_key"), c.Param("endpoint_key"))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	runID, err := httpx.PathID(c, "workflow_run_id")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	wait := 0
	if v := c.Query("wait"); v != "" {
		if wait, err = strconv.Atoi(v); err != nil || wait < 0 || wait > maxReceiptWait {
			httpx.WriteError(c, models.Invalid("invalid_wait", "wait"))
			return
		}
	}
	watch := s.watchRun(runID)
	defer watch.close()
	r, err := s.Webhooks.Receipt(c, e, runID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	deadline := time.NewTimer(time.Duration(wait) * time.Second)
	defer deadline.Stop()
	for !r.Terminal() && watch.wait(c.Request.Context(), deadline.C) {
		if r, err = s.Workflows.Run(c, runID); err != nil {
			httpx.WriteError(c, err)
			return
		}
	}
	if c.Request.Context().Err() != nil {
		return
	}
	actions, err := s.Workflows.ActionRuns(c, r)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewReceipt(httpx.Lang(c), r, actions))
}

// receiptStatus is an action's status in the specification's words, which have no
// cancelled: an action the cancellation interrupted failed (retry_class canceled), one it
// never let start was skipped.
func receiptStatus(a automation.ActionRun) automation.ActionStatus {
	switch {
	case a.Status != automation.ActionCancelled:
		return a.Status
	case a.StartedAt != nil:
		return automation.ActionFailed
	}
	return automation.ActionSkipped
}
