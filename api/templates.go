package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/models/integration"
)

const (
	emailTemplateKey   = "api.email_template"
	messageTemplateKey = "api.message_template"
)

func emailTemplate(c *gin.Context) *integration.EmailTemplate {
	return c.MustGet(emailTemplateKey).(*integration.EmailTemplate)
}

func messageTemplate(c *gin.Context) *integration.MessageTemplate {
	return c.MustGet(messageTemplateKey).(*integration.MessageTemplate)
}

// inEmailTemplate loads the e-mail template of :email_template_id in :project_id.
func (s *Server) inEmailTemplate(perm company.Permission) gin.HandlerFunc {
	return inProjectResource(s, "email_template_id", emailTemplateKey, perm, s.Integrations.EmailTemplateOf)
}

// inMessageTemplate loads the message template of :message_template_id in :project_id.
func (s *Server) inMessageTemplate(perm company.Permission) gin.HandlerFunc {
	return inProjectResource(s, "message_template_id", messageTemplateKey, perm, s.Integrations.MessageTemplateOf)
}

type emailTemplateView struct {
	EmailTemplateID uuid.UUID `json:"email_template_id"`
	CompanyID       uuid.UUID `json:"company_id"`
	ProjectID       uuid.UUID `json:"project_id"`
	Name            string    `json:"name"`
	Subject         string    `json:"subject"`
	Body            string    `json:"body"`
	CreatedAt       time.Time `json:"created_at"`
	UpdatedAt       time.Time `json:"updated_at"`
}

func viewEmailTemplate(t integration.EmailTemplate) emailTemplateView {
	return emailTemplateView{
		EmailTemplateID: t.ID, CompanyID: t.CompanyID, ProjectID: t.ProjectID,
		Name: t.Name, Subject: t.Subject, Body: t.Body, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
	}
}

type emailTemplateRequest struct {
	Name    *string `json:"name"`
	Subject *string `json:"subject"`
	Body    *string `json:"body"`
}

func (r emailTemplateRequest) fields() integration.EmailTemplateFields {
	return integration.EmailTemplateFields{Name: r.Name, Subject: r.Subject, Body: r.Body}
}

// emailTemplateList serves GET /api/v1/projects/{project_id}/email-templates.
func (s *Server) emailTemplateList(c *gin.Context) {
	listTemplates(c, s.Integrations.EmailTemplates, viewEmailTemplate)
}

// emailTemplateCreate serves POST /api/v1/projects/{project_id}/email-templates.
func (s *Server) emailTemplateCreate(c *gin.Context) {
	createTemplate[emailTemplateRequest](c, s.Integrations.CreateEmailTemplate, viewEmailTemplate)
}

// emailTemplateGet serves GET /api/v1/projects/{project_id}/email-templates/{email_template_id}.
func (s *Server) emailTemplateGet(c *gin.Context) {
	c.JSON(http.StatusOK, viewEmailTemplate(*emailTemplate(c)))
}

// emailTemplatePatch serves PATCH /api/v1/projects/{project_id}/email-templates/{email_template_id}.
func (s *Server) emailTemplatePatch(c *gin.Context) {
	patchTemplate[emailTemplateRequest](c, emailTemplate(c), s.Integrations.PatchEmailTemplate, viewEmailTemplate)
}

// emailTemplateDelete serves DELETE /api/v1/projects/{project_id}/email-templates/{email_template_id}.
func (s *Server) emailTemplateDelete(c *gin.Context) {
	deleteTemplate(c, emailTemplate(c), s.Integrations.DeleteEmailTemplate)
}

type messageTemplateView struct {
	MessageTemplateID uuid.UUID `json:"message_template_id"`
	CompanyID         uuid.UUID `json:"company_id"`
	ProjectID         uuid.UUID `json:"project_id"`
	Name              string    `json:"name"`
	Text              string    `json:"text"`
	ParseMode         string    `json:"parse_mode"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
}

func viewMessageTemplate(t integration.MessageTemplate) messageTemplateView {
	return messageTemplateView{
		MessageTemplateID: t.ID, CompanyID: t.CompanyID, ProjectID: t.ProjectID,
		Name: t.Name, Text: t.Text, ParseMode: t.ParseMode, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
	}
}

type messageTemplateRequest struct {
	Name      *string `json:"name"`
	Text      *string `json:"text"`
	ParseMode *string `json:"parse_mode"`
}

func (r messageTemplateRequest) fields() integration.MessageTemplateFields {
	return integration.MessageTemplateFields{Name: r.Name, Text: r.Text, ParseMode: r.ParseMode}
}

// messageTemplateList serves GET /api/v1/projects/{project_id}/message-templates.
func (s *Server) messageTemplateList(c *gin.Context) {
	listTemplates(c, s.Integrations.MessageTemplates, viewMessageTemplate)
}

// messageTemplateCreate serves POST /api/v1/projects/{project_id}/message-templates.
func (s *Server) messageTemplateCreate(c *gin.Context) {
	createTemplate[messageTemplateRequest](c, s.Integrations.CreateMessageTemplate, viewMessageTemplate)
}

// messageTemplateGet serves GET /api/v1/projects/{project_id}/message-templates/{message_template_id}.
func (s *Server) messageTemplateGet(c *gin.Context) {
	c.JSON(http.StatusOK, viewMessageTemplate(*messageTemplate(c)))
}

// messageTemplatePatch serves PATCH /api/v1/projects/{project_id}/message-templates/{message_template_id}.
func (s *Server) messageTemplatePatch(c *gin.Context) {
	patchTemplate[messageTemplateRequest](c, messageTemplate(c), s.Integrations.PatchMessageTemplate, viewMessageTemplate)
}

// messageTemplateDelete serves DELETE /api/v1/projects/{project_id}/message-templates/{message_template_id}.
func (s *Server) messageTemplateDelete(c *gin.Context) {
	deleteTemplate(c, messageTemplate(c), s.Integrations.DeleteMessageTemplate)
}

// The handlers of the two kinds of template differ only in their types, so these do their
// work: T is a kind's row, V its view on the wire and R its request body.

// templateRequest is a request body that carries a kind's writable fields F.
type templateRequest[F any] interface{ fields() F }

// listTemplates renders a page of the project's templates that list returns.
func listTemplates[T, V any](c *gin.Context,
	list func(ctx context.Context, companyID, projectID uuid.UUID, page models.PageRequest) ([]T, string, error), view func(T) V) {
	p := project(c)
	servePage(c, func(page models.PageRequest) ([]T, string, error) { return list(c, p.CompanyID, p.ID, page) }, each(view))
}

// createTemplate binds the body, creates a template of the project from it and renders it
// with 201.
func createTemplate[R templateRequest[F], F, T, V any](c *gin.Context,
	create func(ctx context.Context, companyID, projectID uuid.UUID, f F) (*T, error), view func(T) V) {
	var req R
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	p := project(c)
	t, err := create(c, p.CompanyID, p.ID, req.fields())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, view(*t))
}

// patchTemplate binds the body, patches t with it and renders the result.
func patchTemplate[R templateRequest[F], F, T, V any](c *gin.Context, t *T,
	patch func(ctx context.Context, t *T, f F) (*T, error), view func(T) V) {
	var req R
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	t, err := patch(c, t, req.fields())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, view(*t))
}

// deleteTemplate deletes t and answers 204.
func deleteTemplate[T any](c *gin.Context, t *T, del func(ctx context.Context, t *T) error) {
	if err := del(c, t); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
