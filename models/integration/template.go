package integration

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"agencyhub/models"
)

// Template bounds, the same as the send actions' own fields: a subject is one header line,
// a message text is what a messenger takes in one message.
const (
	maxSubjectLength = 998
	maxBodyLength    = 200_000
	maxTextLength    = 4096
)

// ParseModes are the message formats a message template may name, as
// messenger_a.send_message's parse_mode: "" is plain text.
var ParseModes = []string{"", "HTML", "MarkdownV2", "Markdown"}

// EmailTemplate is a project's reusable e-mail: subject and plain-text body, both of which
// may contain {{ path }} templates that email.send renders with the run's variables. The
// paths are checked where a workflow uses the template, not here.
type EmailTemplate struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	ProjectID uuid.UUID
	Name      string
	Subject   string
	Body      string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// MessageTemplate is a project's reusable messenger text with its parse mode; the text may
// contain {{ path }} templates.
type MessageTemplate struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	ProjectID uuid.UUID
	Name      string
	Text      string
	ParseMode string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// EmailTemplateFields are the writable fields; in a patch nil means "leave alone", in a
// create every field is required.
type EmailTemplateFields struct {
	Name, Subject, Body *string
}

// MessageTemplateFields are the writable fields; in a patch nil means "leave alone", in a
// create Name and Text are required and ParseMode defaults to plain text.
type MessageTemplateFields struct {
	Name, Text, ParseMode *string
}

// fieldCheck collects every offending field of a template at once.
type fieldCheck struct{ bad []string }

func (c *fieldCheck) check(field string, ok bool) {
	if !ok {
		c.bad = append(c.bad, field)
	}
}

func (c *fieldCheck) err() error {
	if len(c.bad) == 0 {
		return nil
	}
	return models.Invalid("invalid_template", c.bad...)
}

func length(s string) int { return utf8.RuneCountInString(s) }

func (t *EmailTemplate) apply(f EmailTemplateFields) error {
	var c fieldCheck
	if f.Name != nil {
		t.Name = strings.TrimSpace(*f.Name)
	}
	if f.Subject != nil {
		t.Subject = strings.TrimSpace(*f.Subject)
	}
	if f.Body != nil {
		t.Body = *f.Body
	}
	c.check("name", length(t.Name) >= 1 && length(t.Name) <= 200)
	c.check("subject", length(t.Subject) >= 1 && length(t.Subject) <= maxSubjectLength && !strings.ContainsAny(t.Subject, "\r\n"))
	c.check("body", strings.TrimSpace(t.Body) != "" && length(t.Body) <= maxBodyLength)
	return c.err()
}

func (t *MessageTemplate) apply(f MessageTemplateFields) error {
	var c fieldCheck
	if f.Name != nil {
		t.Name = strings.TrimSpace(*f.Name)
	}
	if f.Text != nil {
		t.Text = *f.Text
	}
	if f.ParseMode != nil {
		t.ParseMode = *f.ParseMode
	}
	c.check("name", length(t.Name) >= 1 && length(t.Name) <= 200)
	c.check("text", strings.TrimSpace(t.Text) != "" && length(t.Text) <= maxTextLength)
	c.check("parse_mode", slices.Contains(ParseModes, t.ParseMode))
	return c.err()
}

// CreateEmailTemplate adds an e-mail template to a project.
// Errors: invalid (name, subject, body), conflict (name).
func (s *Service) CreateEmailTemplate(ctx context.Context, companyID, projectID uuid.UUID, f EmailTemplateFields) (*EmailTemplate, error) {
	now := s.now()
	t := &EmailTemplate{ID: models.NewID(), CompanyID: companyID, ProjectID: projectID, CreatedAt: now, UpdatedAt: now}
	if err := t.apply(f); err != nil {
		return nil, err
	}
	err := s.DB.WithContext(ctx).Create(t).Error
	if models.IsUniqueViolation(err) {
		return nil, models.Conflict("template_name_taken", "name")
	}
	if err != nil {
		return nil, models.Internal("create e-mail template: %w", err)
	}
	return t, nil
}

// EmailTemplateOf reads a project's e-mail template; one of another project or company is
// not found. Errors: not_found.
func (s *Service) EmailTemplateOf(ctx context.Context, companyID, projectID, id uuid.UUID) (*EmailTemplate, error) {
	return loadInProject[EmailTemplate](s.DB.WithContext(ctx), companyID, projectID, id, "email_template_not_found")
}

// EmailTemplates lists a project's e-mail templates.
func (s *Service) EmailTemplates(ctx context.Context, companyID, projectID uuid.UUID, page models.PageRequest) ([]EmailTemplate, string, error) {
	return listInProject[EmailTemplate](s.DB.WithContext(ctx), companyID, projectID, page, func(t EmailTemplate) uuid.UUID { return t.ID })
}

// PatchEmailTemplate changes an e-mail template.
// Errors: invalid (name, subject, body), conflict (name).
func (s *Service) PatchEmailTemplate(ctx context.Context, t *EmailTemplate, f EmailTemplateFields) (*EmailTemplate, error) {
	out := *t
	if err := out.apply(f); err != nil {
		return nil, err
	}
	out.UpdatedAt = s.now()
	err := s.DB.WithContext(ctx).Model(&EmailTemplate{ID: t.ID}).Where("company_id = ? AND project_id = ?", t.CompanyID, t.ProjectID).
		Select("name", "subject", "body", "updated_at").Updates(&out).Error
	if models.IsUniqueViolation(err) {
		return nil, models.Conflict("template_name_taken", "name")
	}
	if err != nil {
		return nil, models.Internal("update e-mail template: %w", err)
	}
	return &out, nil
}

// DeleteEmailTemplate removes an e-mail template.
func (s *Service) DeleteEmailTemplate(ctx context.Context, t *EmailTemplate) error {
	err := s.DB.WithContext(ctx).Where("company_id = ? AND project_id = ?", t.CompanyID, t.ProjectID).Delete(&EmailTemplate{ID: t.ID}).Error
	if err != nil {
		return models.Internal("delete e-mail template: %w", err)
	}
	return nil
}

// CreateMessageTemplate adds a message template to a project.
// Errors: invalid (name, text, parse_mode), conflict (name).
func (s *Service) CreateMessageTemplate(ctx context.Context, companyID, projectID uuid.UUID, f MessageTemplateFields) (*MessageTemplate, error) {
	now := s.now()
	t := &MessageTemplate{ID: models.NewID(), CompanyID: companyID, ProjectID: projectID, CreatedAt: now, UpdatedAt: now}
	if err := t.apply(f); err != nil {
		return nil, err
	}
	err := s.DB.WithContext(ctx).Create(t).Error
	if models.IsUniqueViolation(err) {
		return nil, models.Conflict("template_name_taken", "name")
	}
	if err != nil {
		return nil, models.Internal("create message template: %w", err)
	}
	return t, nil
}

// MessageTemplateOf reads a project's message template; one of another project or company
// is not found. Errors: not_found.
func (s *Service) MessageTemplateOf(ctx context.Context, companyID, projectID, id uuid.UUID) (*MessageTemplate, error) {
	return loadInProject[MessageTemplate](s.DB.WithContext(ctx), companyID, projectID, id, "message_template_not_found")
}

// MessageTemplates lists a project's message templates.
func (s *Service) MessageTemplates(ctx context.Context, companyID, projectID uuid.UUID, page models.PageRequest) ([]MessageTemplate, string, error) {
	return listInProject[MessageTemplate](s.DB.WithContext(ctx), companyID, projectID, page, func(t MessageTemplate) uuid.UUID { return t.ID })
}

// PatchMessageTemplate changes a message template.
// Errors: invalid (name, text, parse_mode), conflict (name).
func (s *Service) PatchMessageTemplate(ctx context.Context, t *MessageTemplate, f MessageTemplateFields) (*MessageTemplate, error) {
	out := *t
	if err := out.apply(f); err != nil {
		return nil, err
	}
	out.UpdatedAt = s.now()
	err := s.DB.WithContext(ctx).Model(&MessageTemplate{ID: t.ID}).Where("company_id = ? AND project_id = ?", t.CompanyID, t.ProjectID).
		Select("name", "text", "parse_mode", "updated_at").Updates(&out).Error
	if models.IsUniqueViolation(err) {
		return nil, models.Conflict("template_name_taken", "name")
	}
	if err != nil {
		return nil, models.Internal("update message template: %w", err)
	}
	return &out, nil
}

// DeleteMessageTemplate removes a message template.
func (s *Service) DeleteMessageTemplate(ctx context.Context, t *MessageTemplate) error {
	err := s.DB.WithContext(ctx).Where("company_id = ? AND project_id = ?", t.CompanyID, t.ProjectID).Delete(&MessageTemplate{ID: t.ID}).Error
	if err != nil {
		return models.Internal("delete message template: %w", err)
	}
	return nil
}
