package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/models/webhook"
)

const (
	webhookEndpointKey = "api.webhook_endpoint"
	webhookEventKey    = "api.webhook_event"
)

func webhookEndpoint(c *gin.Context) *webhook.Endpoint {
	return c.MustGet(webhookEndpointKey).(*webhook.Endpoint)
}

func webhookEvent(c *gin.Context) *webhook.Event { return c.MustGet(webhookEventKey).(*webhook.Event) }

// inWebhookEndpoint loads the endpoint of :webhook_endpoint_id and the caller's role.
func (s *Server) inWebhookEndpoint(perm company.Permission) gin.HandlerFunc {
	return inResource("webhook_endpoint_id", webhookEndpointKey, perm, s.Webhooks.EndpointAccess)
}

// inWebhookEvent loads the event of :webhook_event_id and the caller's role.
func (s *Server) inWebhookEvent(perm company.Permission) gin.HandlerFunc {
	return inResource("webhook_event_id", webhookEventKey, perm, s.Webhooks.EventAccess)
}

type webhookEndpointView struct {
	WebhookEndpointID       uuid.UUID  `json:"webhook_endpoint_id"`
	CompanyID               uuid.UUID  `json:"company_id"`
	ProjectID               uuid.UUID  `json:"project_id"`
	WorkflowID              uuid.UUID  `json:"workflow_id"`
	EndpointKey             string     `json:"endpoint_key"`
	URL                     string     `json:"url"`
	Description             string     `json:"description"`
	AuthType                string     `json:"auth_type"`
	Status                  string     `json:"status"`
	ContentType             string     `json:"content_type"`
	MaxBodyBytes            int        `json:"max_body_bytes"`
	BasicUsername           string     `json:"basic_username"`
	SecretMasked            string     `json:"secret_masked"`
	PreviousSecretExpiresAt *time.Time `json:"previous_secret_expires_at"`
	RejectedCount           int        `json:"rejected_count"`
	LastRejectedAt          *time.Time `json:"last_rejected_at"`
	LastRejection           string     `json:"last_rejection"`
	CreatedAt               time.Time  `json:"created_at"`
	UpdatedAt               time.Time  `json:"updated_at"`
}

// webhookEndpointWithSecret is the answer of create and rotate-secret: the only ones that
// show the secret.
type webhookEndpointWithSecret struct {
	webhookEndpointView
	Secret string `json:"secret"`
}

func (s *Server) viewWebhookEndpoint(e *webhook.Endpoint, hookKey string) webhookEndpointView {
	return webhookEndpointView{
		WebhookEndpointID: e.ID, CompanyID: e.CompanyID, ProjectID: e.ProjectID, WorkflowID: e.WorkflowID,
		EndpointKey: e.EndpointKey, URL: s.Webhooks.URL(hookKey, e), Description: e.Description, AuthType: e.AuthType,
		Status: e.Status, ContentType: e.ContentType, MaxBodyBytes: e.MaxBodyBytes, BasicUsername: e.BasicUsername,
		SecretMasked: s.Webhooks.MaskedSecret(e), PreviousSecretExpiresAt: s.Webhooks.PreviousSecretValidUntil(e),
		RejectedCount: e.RejectedCount, LastRejectedAt: e.LastRejectedAt, LastRejection: e.LastRejection,
		CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt,
	}
}

// renderWebhookEndpoint answers one endpoint, with its secret when one is given.
func (s *Server) renderWebhookEndpoint(c *gin.Context, status int, e *webhook.Endpoint, secret string) {
	hookKey, err := s.Webhooks.HookKey(c, e.CompanyID, e.ProjectID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	v := s.viewWebhookEndpoint(e, hookKey)
	if secret == "" {
		c.JSON(status, v)
		return
	}
	c.JSON(status, webhookEndpointWithSecret{webhookEndpointView: v, Secret: secret})
}

type webhookEndpointSettings struct {
	Description   *string `json:"description"`
	AuthType      *string `json:"auth_type"`
	Status        *string `json:"status"`
	ContentType   *string `json:"content_type"`
	MaxBodyBytes  *int    `json:"max_body_bytes"`
	BasicUsername *string `json:"basic_username"`
}

func (r webhookEndpointSettings) settings() webhook.Settings {
	return webhook.Settings{Description: r.Description, AuthType: r.AuthType, Status: r.Status, ContentType: r.ContentType,
		MaxBodyBytes: r.MaxBodyBytes, BasicUsername: r.BasicUsername}
}

type webhookEndpointCreateRequest struct {
	EndpointKey string `json:"endpoint_key"`
	webhookEndpointSettings
}

// webhookEndpointList serves GET /api/v1/workflows/{workflow_id}/webhook-endpoints.
func (s *Server) webhookEndpointList(c *gin.Context) {
	w := workflow(c)
	servePage(c, func(page models.PageRequest) ([]webhook.Endpoint, string, error) {
		return s.Webhooks.List(c, w.ID, page)
	},
		func(rows []webhook.Endpoint) ([]webhookEndpointView, error) {
			hookKey, err := s.Webhooks.HookKey(c, w.CompanyID, w.ProjectID)
			if err != nil {
				return nil, err
			}
			return each(func(e webhook.Endpoint) webhookEndpointView { return s.viewWebhookEndpoint(&e, hookKey) })(rows)
		})
}

// webhookEndpointCreate serves POST /api/v1/workflows/{workflow_id}/webhook-endpoints.
func (s *Server) webhookEndpointCreate(c *gin.Context) {
	var req webhookEndpointCreateRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	e, secret, err := s.Webhooks.Create(c, workflow(c), actor(c).UserID, req.EndpointKey, req.settings())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderWebhookEndpoint(c, http.StatusCreated, e, secret)
}

// webhookEndpointGet serves GET /api/v1/webhook-endpoints/{webhook_endpoint_id}.
func (s *Server) webhookEndpointGet(c *gin.Context) {
	s.renderWebhookEndpoint(c, http.StatusOK, webhookEndpoint(c), "")
}

// webhookEndpointPatch serves PATCH /api/v1/webhook-endpoints/{webhook_endpoint_id}.
func (s *Server) webhookEndpointPatch(c *gin.Context) {
	var req webhookEndpointSettings
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	e, err := s.Webhooks.Patch(c, webhookEndpoint(c), req.settings())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderWebhookEndpoint(c, http.StatusOK, e, "")
}

type webhookRotateRequest struct {
	GracePeriodSeconds *int `json:"grace_period_seconds"`
}

// webhookEndpointRotateSecret serves POST /api/v1/webhook-endpoints/{webhook_endpoint_id}/rotate-secret.
func (s *Server) webhookEndpointRotateSecret(c *gin.Context) {
	var req webhookRotateRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	grace := webhook.DefaultGrace
	if req.GracePeriodSeconds != nil {
		grace = time.Duration(*req.GracePeriodSeconds) * time.Second
	}
	e, secret, err := s.Webhooks.RotateSecret(c, webhookEndpoint(c), min(grace, webhook.MaxGrace))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderWebhookEndpoint(c, http.StatusOK, e, secret)
}

type webhookSnippetsView struct {
	WebhookEndpointID uuid.UUID         `json:"webhook_endpoint_id"`
	URL               string            `json:"url"`
	AuthType          string            `json:"auth_type"`
	SecretEnv         string            `json:"secret_env"`
	Body              string            `json:"body"`
	Snippets          []webhook.Snippet `json:"snippets"`
}

// webhookSnippets serves GET /api/v1/webhook-endpoints/{webhook_endpoint_id}/snippets.
func (s *Server) webhookSnippets(c *gin.Context) {
	e := webhookEndpoint(c)
	hookKey, err := s.Webhooks.HookKey(c, e.CompanyID, e.ProjectID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	sample, err := s.Webhooks.SamplePayload(c, e)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	url, body := s.Webhooks.URL(hookKey, e), webhook.SampleBody(sample)
	c.JSON(http.StatusOK, webhookSnippetsView{
		WebhookEndpointID: e.ID, URL: url, AuthType: e.AuthType, SecretEnv: webhook.SecretEnv, Body: body,
		Snippets: webhook.Snippets(e.AuthType, e.BasicUsername, url, body),
	})
}

type webhookEventSummary struct {
	WebhookEventID    uuid.UUID      `json:"webhook_event_id"`
	WebhookEndpointID uuid.UUID      `json:"webhook_endpoint_id"`
	WorkflowID        uuid.UUID      `json:"workflow_id"`
	ProjectID         uuid.UUID      `json:"project_id"`
	Status            string         `json:"status"`
	DeliveryID        string         `json:"delivery_id"`
	ContentType       string         `json:"content_type"`
	SourceIP          string         `json:"source_ip"`
	ReceivedAt        time.Time      `json:"received_at"`
	WorkflowRunID     *uuid.UUID     `json:"workflow_run_id"`
	ReplayRunIDs      []uuid.UUID    `json:"replay_run_ids"`
	ResponseStatus    int            `json:"response_status"`
	Error             string         `json:"error"`
	FieldsJSON        map[string]any `json:"fields_json"`
}

// webhookEventView is one event in full: the summary and the request as it arrived.
type webhookEventView struct {
	webhookEventSummary
	Headers     map[string]string `json:"headers"`
	Body        string            `json:"body"`
	PayloadJSON map[string]any    `json:"payload_json"`
}

func viewWebhookEventSummary(e *webhook.Event, replays []uuid.UUID) webhookEventSummary {
	v := webhookEventSummary{
		WebhookEventID: e.ID, WebhookEndpointID: e.EndpointID, WorkflowID: e.WorkflowID, ProjectID: e.ProjectID,
		Status: e.Status, ContentType: e.ContentType, SourceIP: e.SourceIP, ReceivedAt: e.ReceivedAt,
		WorkflowRunID: e.WorkflowRunID, ReplayRunIDs: nonNil(replays), ResponseStatus: e.ResponseStatus,
		Error: e.Error, FieldsJSON: e.Fields,
	}
	if e.DeliveryID != nil {
		v.DeliveryID = *e.DeliveryID
	}
	if v.FieldsJSON == nil {
		v.FieldsJSON = map[string]any{}
	}
	return v
}

// webhookEventList serves GET /api/v1/webhook-endpoints/{webhook_endpoint_id}/events: the
// requests the endpoint accepted, oldest first or newest first, without their bodies.
func (s *Server) webhookEventList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]webhook.Event, string, error) {
		return s.Webhooks.Events(c, webhookEndpoint(c).ID, page)
	},
		func(rows []webhook.Event) ([]webhookEventSummary, error) {
			ids := make([]uuid.UUID, len(rows))
			for i, r := range rows {
				ids[i] = r.ID
			}
			replays, err := s.Webhooks.ReplayRuns(c, ids)
			if err != nil {
				return nil, err
			}
			return each(func(e webhook.Event) webhookEventSummary { return viewWebhookEventSummary(&e, replays[e.ID]) })(rows)
		})
}

// webhookEventGet serves GET /api/v1/webhook-events/{webhook_event_id}.
func (s *Server) webhookEventGet(c *gin.Context) {
	e := webhookEvent(c)
	replays, err := s.Webhooks.ReplayRuns(c, []uuid.UUID{e.ID})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	v := webhookEventView{webhookEventSummary: viewWebhookEventSummary(e, replays[e.ID]), Headers: e.Headers,
		Body: strings.ToValidUTF8(string(e.Body), "\uFFFD"), PayloadJSON: e.Payload}
	if v.Headers == nil {
		v.Headers = map[string]string{}
	}
	if v.PayloadJSON == nil {
		v.PayloadJSON = map[string]any{}
	}
	c.JSON(http.StatusOK, v)
}

// webhookEventReplay serves POST /api/v1/webhook-events/{webhook_event_id}/replay: a new run
// of the current version from the stored request.
func (s *Server) webhookEventReplay(c *gin.Context) {
	r, err := s.Intake.ReplayWebhookEvent(c, webhookEvent(c), actor(c).UserID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusAccepted, s.viewRun(r))
}
