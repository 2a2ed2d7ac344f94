package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
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
	return inProjectResource(s, "email_template_id", emailTemplateKey, perm, s.Integration.EmailTemplateOf)
}

// inMessageTemplate loads the message template of :message_template_id in :project_id.
func (s *Server) inMessageTemplate(perm company.Permission) gin.HandlerFunc {
	return inProjectResource(s, "message_template_id", messageTemplateKey, perm, s.Integration.MessageTemplateOf)
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
	page, err := httpx.Page(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	p := project(c)
	rows, next, err := s.Integration.EmailTemplates(c, p.CompanyID, p.ID, page)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	renderList(c, rows, next, viewEmailTemplate)
}

// emailTemplateCreate serves POST /api/v1/projects/{project_id}/email-templates.
func (s *Server) emailTemplateCreate(c *gin.Context) {
	var req emailTemplateRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	p := project(c)
	t, err := s.Integration.CreateEmailTemplate(c, p.CompanyID, p.ID, req.fields())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewEmailTemplate(*t))
}

// emailTemplateGet serves GET /api/v1/projects/{project_id}/email-templates/{email_template_id}.
func (s *Server) emailTemplateGet(c *gin.Context) {
	c.JSON(http.StatusOK, viewEmailTemplate(*emailTemplate(c)))
}

// emailTemplatePatch serves PATCH /api/v1/projects/{project_id}/email-templates/{email_template_id}.
func (s *Server) emailTemplatePatch(c *gin.Context) {
	var req emailTemplateRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	t, err := s.Integration.PatchEmailTemplate(c, emailTemplate(c), req.fields())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewEmailTemplate(*t))
}

// emailTemplateDelete serves DELETE /api/v1/projects/{project_id}/email-templates/{email_template_id}.
func (s *Server) emailTemplateDelete(c *gin.Context) {
	if err := s.Integration.DeleteEmailTemplate(c, emailTemplate(c)); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
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
	page, err := httpx.Page(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	p := project(c)
	rows, next, err := s.Integration.MessageTemplates(c, p.CompanyID, p.ID, page)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	renderList(c, rows, next, viewMessageTemplate)
}

// messageTemplateCreate serves POST /api/v1/projects/{project_id}/message-templates.
func (s *Server) messageTemplateCreate(c *gin.Context) {
	var req messageTemplateRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	p := project(c)
	t, err := s.Integration.CreateMessageTemplate(c, p.CompanyID, p.ID, req.fields())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewMessageTemplate(*t))
}

// messageTemplateGet serves GET /api/v1/projects/{project_id}/message-templates/{message_template_id}.
func (s *Server) messageTemplateGet(c *gin.Context) {
	c.JSON(http.StatusOK, viewMessageTemplate(*messageTemplate(c)))
}

// messageTemplatePatch serves PATCH /api/v1/projects/{project_id}/message-templates/{message_template_id}.
func (s *Server) messageTemplatePatch(c *gin.Context) {
	var req messageTemplateRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	t, err := s.Integration.PatchMessageTemplate(c, messageTemplate(c), req.fields())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewMessageTemplate(*t))
}

// messageTemplateDelete serves DELETE /api/v1/projects/{project_id}/message-templates/{message_template_id}.
func (s *Server) messageTemplateDelete(c *gin.Context) {
	if err := s.Integration.DeleteMessageTemplate(c, messageTemplate(c)); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
