package integration

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/automation"
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

// TemplateRow is what every kind of template has: its id, the project it belongs to and
// its timestamps. The kinds embed it, so its fields read as their own.
type TemplateRow struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	ProjectID uuid.UUID
	CreatedAt time.Time
	UpdatedAt time.Time
}

func (r *TemplateRow) row() *TemplateRow { return r }

// EmailTemplate is a project's reusable e-mail: subject and plain-text body, both of which
// may contain {{ path }} templates that email.send renders with the run's variables. The
// paths are checked where a workflow uses the template, not here.
type EmailTemplate struct {
	TemplateRow
	Name    string
	Subject string
	Body    string
}

// MessageTemplate is a project's reusable messenger text with its parse mode; the text may
// contain {{ path }} templates.
type MessageTemplate struct {
	TemplateRow
	Name      string
	Text      string
	ParseMode string
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
	if err := c.err(); err != nil {
		return err
	}
	return wholeTemplates(templateText{"subject", t.Subject}, templateText{"body", t.Body})
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
	if err := c.err(); err != nil {
		return err
	}
	return wholeTemplates(templateText{"text", t.Text})
}

type templateText struct{ name, text string }

// wholeTemplates refuses a text with a {{ that begins no {{ path }}: sent, it would reach
// the reader as it is. Errors: invalid (broken_template, the fields).
func wholeTemplates(fields ...templateText) error {
	var broken []string
	for _, f := range fields {
		if len(automation.BrokenTemplates(f.text)) > 0 {
			broken = append(broken, f.name)
		}
	}
	if len(broken) > 0 {
		return models.Invalid("broken_template", broken...)
	}
	return nil
}

// templateKind is the create, read, list, patch and delete of one kind of template, shared
// by the kinds: T is its row, F its writable fields and P the row's pointer, which applies
// them. Besides their types, the kinds differ only in these fields.
type templateKind[T, F any, P templateRowPtr[T, F]] struct {
	what     string   // the kind in internal errors
	notFound string   // the error key of a template that is not in the project
	columns  []string // what a patch writes
}

// templateRowPtr is a pointer to a template row whose apply sets the fields of F that are
// not nil and then checks the row, naming every offending field.
type templateRowPtr[T, F any] interface {
	*T
	row() *TemplateRow
	apply(F) error
}

var (
	emailTemplates = templateKind[EmailTemplate, EmailTemplateFields, *EmailTemplate]{
		what: "e-mail template", notFound: "email_template_not_found",
		columns: []string{"name", "subject", "body", "updated_at"},
	}
	messageTemplates = templateKind[MessageTemplate, MessageTemplateFields, *MessageTemplate]{
		what: "message template", notFound: "message_template_not_found",
		columns: []string{"name", "text", "parse_mode", "updated_at"},
	}
)

func (k templateKind[T, F, P]) create(ctx context.Context, s *Service, companyID, projectID uuid.UUID, f F) (*T, error) {
	now := s.now()
	t := P(new(T))
	*t.row() = TemplateRow{ID: models.NewID(), CompanyID: companyID, ProjectID: projectID, CreatedAt: now, UpdatedAt: now}
	if err := t.apply(f); err != nil {
		return nil, err
	}
	err := s.DB.WithContext(ctx).Create(t).Error
	if models.IsUniqueViolation(err) {
		return nil, models.Conflict("template_name_taken", "name")
	}
	if err != nil {
		return nil, models.Internal("create %s: %w", k.what, err)
	}
	return t, nil
}

func (k templateKind[T, F, P]) of(ctx context.Context, s *Service, companyID, projectID, id uuid.UUID) (*T, error) {
	return loadInProject[T](s.DB.WithContext(ctx), companyID, projectID, id, k.notFound)
}

func (k templateKind[T, F, P]) list(ctx context.Context, s *Service, companyID, projectID uuid.UUID,
	page models.PageRequest) ([]T, string, error) {
	return listInProject(s.DB.WithContext(ctx), companyID, projectID, page, func(t T) uuid.UUID { return P(&t).row().ID })
}

// patch writes f over a copy of t, which is left as it was.
func (k templateKind[T, F, P]) patch(ctx context.Context, s *Service, t *T, f F) (*T, error) {
	out := *t
	if err := P(&out).apply(f); err != nil {
		return nil, err
	}
	r := P(&out).row()
	r.UpdatedAt = s.now()
	var model T
	P(&model).row().ID = r.ID
	err := s.DB.WithContext(ctx).Model(&model).Where("company_id = ? AND project_id = ?", r.CompanyID, r.ProjectID).
		Select(k.columns).UpdateColumns(&out).Error
	if models.IsUniqueViolation(err) {
		return nil, models.Conflict("template_name_taken", "name")
	}
	if err != nil {
		return nil, models.Internal("update %s: %w", k.what, err)
	}
	return &out, nil
}

func (k templateKind[T, F, P]) delete(ctx context.Context, s *Service, t *T) error {
	r := P(t).row()
	var model T
	P(&model).row().ID = r.ID
	err := s.DB.WithContext(ctx).Where("company_id = ? AND project_id = ?", r.CompanyID, r.ProjectID).Delete(&model).Error
	if err != nil {
		return models.Internal("delete %s: %w", k.what, err)
	}
	return nil
}

// CreateEmailTemplate adds an e-mail template to a project.
// Errors: invalid (name, subject, body), conflict (name).
func (s *Service) CreateEmailTemplate(ctx context.Context, companyID, projectID uuid.UUID, f EmailTemplateFields) (*EmailTemplate, error) {
	return emailTemplates.create(ctx, s, companyID, projectID, f)
}

// EmailTemplateOf reads a project's e-mail template; one of another project or company is
// not found. Errors: not_found.
func (s *Service) EmailTemplateOf(ctx context.Context, companyID, projectID, id uuid.UUID) (*EmailTemplate, error) {
	return emailTemplates.of(ctx, s, companyID, projectID, id)
}

// EmailTemplates lists a project's e-mail templates.
func (s *Service) EmailTemplates(ctx context.Context, companyID, projectID uuid.UUID,
	page models.PageRequest) ([]EmailTemplate, string, error) {
	return emailTemplates.list(ctx, s, companyID, projectID, page)
}

// PatchEmailTemplate changes an e-mail template.
// Errors: invalid (name, subject, body), conflict (name).
func (s *Service) PatchEmailTemplate(ctx context.Context, t *EmailTemplate, f EmailTemplateFields) (*EmailTemplate, error) {
	return emailTemplates.patch(ctx, s, t, f)
}

// DeleteEmailTemplate removes an e-mail template.
func (s *Service) DeleteEmailTemplate(ctx context.Context, t *EmailTemplate) error {
	return emailTemplates.delete(ctx, s, t)
}

// CreateMessageTemplate adds a message template to a project.
// Errors: invalid (name, text, parse_mode), conflict (name).
func (s *Service) CreateMessageTemplate(ctx context.Context, companyID, projectID uuid.UUID,
	f MessageTemplateFields) (*MessageTemplate, error) {
	return messageTemplates.create(ctx, s, companyID, projectID, f)
}

// MessageTemplateOf reads a project's message template; one of another project or company
// is not found. Errors: not_found.
func (s *Service) MessageTemplateOf(ctx context.Context, companyID, projectID, id uuid.UUID) (*MessageTemplate, error) {
	return messageTemplates.of(ctx, s, companyID, projectID, id)
}

// MessageTemplates lists a project's message templates.
func (s *Service) MessageTemplates(ctx context.Context, companyID, projectID uuid.UUID,
	page models.PageRequest) ([]MessageTemplate, string, error) {
	return messageTemplates.list(ctx, s, companyID, projectID, page)
}

// PatchMessageTemplate changes a message template.
// Errors: invalid (name, text, parse_mode), conflict (name).
func (s *Service) PatchMessageTemplate(ctx context.Context, t *MessageTemplate, f MessageTemplateFields) (*MessageTemplate, error) {
	return messageTemplates.patch(ctx, s, t, f)
}

// DeleteMessageTemplate removes a message template.
func (s *Service) DeleteMessageTemplate(ctx context.Context, t *MessageTemplate) error {
	return messageTemplates.delete(ctx, s, t)
}
