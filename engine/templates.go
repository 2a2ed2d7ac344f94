package engine

import (
	"context"
	"maps"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/integration"
)

// withTemplates fills the texts of send actions that name a project template: an empty
// subject or body of email.send takes the e-mail template's, an empty text or parse mode
// of a messenger send takes the message template's. The run stores the filled graph, so
// a later edit of a template changes no run that already started.
// Errors: invalid (a template that does not exist in the project).
func (s *Runs) withTemplates(ctx context.Context, companyID, projectID uuid.UUID, g automation.Graph) (automation.Graph, error) {
	out := automation.Graph{Actions: make([]automation.Action, len(g.Actions)), Connections: g.Connections}
	for i, a := range g.Actions {
		out.Actions[i] = a
		fill := func(field, value string) {
			if s, _ := a.Config[field].(string); s == "" && value != "" {
				out.Actions[i].Config[field] = value
			}
		}
		field := templateField(a)
		raw, _ := a.Config[field].(string)
		id, err := uuid.Parse(raw)
		if err != nil {
			continue // Drafts.Validate refuses a malformed id before any run
		}
		out.Actions[i].Config = maps.Clone(a.Config)
		switch field {
		case "email_template_id":
			var t *integration.EmailTemplate
			if t, err = s.Templates.EmailTemplateOf(ctx, companyID, projectID, id); err == nil {
				fill("subject", t.Subject)
				fill("body", t.Body)
			}
		case "message_template_id":
			var t *integration.MessageTemplate
			if t, err = s.Templates.MessageTemplateOf(ctx, companyID, projectID, id); err == nil {
				fill("text", t.Text)
				fill("parse_mode", t.ParseMode)
			}
		}
		if models.IsKind(err, models.KindNotFound) {
			return g, models.Invalid("template_not_found", "actions."+a.ActionKey+".config."+field)
		}
		if err != nil {
			return g, err
		}
	}
	return out, nil
}

// templateField is the config field naming the template an action uses, "" when none.
func templateField(a automation.Action) string {
	for _, field := range []string{"email_template_id", "message_template_id"} {
		if s, _ := a.Config[field].(string); s != "" {
			return field
		}
	}
	return ""
}
