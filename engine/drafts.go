package engine

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"agencyhub/activities"
	"agencyhub/activities/egress"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/integration"
	"agencyhub/schemas"
)

// ActionWorkflowCall is the action type that runs another workflow of the project
// (intake.CallWorkflow).
const ActionWorkflowCall = "workflow.call"

// MaxCallDepth is how deep workflow.call nests: a run started by a call started by a call …
// A cycle through workflows published before it existed still ends here.
const MaxCallDepth = 5

// Drafts validates what a workflow's graph names beyond itself. A graph is checked
// against the catalog (automation.Validate) and against its project: an integration or a
// template id the project does not hold (unknown, another project's or another company's),
// or an integration of another type than the action needs, is an error naming the config
// field, like any other unknown reference, so that such a draft is not published to fail
// at run time. A disabled integration is a warning: runs treat it as missing until it is
// enabled again. A workflow.call must name a published workflow of the project that does
// not lead back to this one through its own calls (call_cycle). A run.event_trigger's
// workflow_ids must be workflows of the project other than this one (run_event_self). A URL whose host the egress
// policy refuses as it is written (egress_refused) is an error on its field.
type Drafts struct {
	Catalog      *schemas.Catalog
	Integrations *integration.Service
	Workflows    *automation.Service
	// Egress is APP_EGRESS_ALLOW parsed: a URL whose host it refuses as written is an error.
	Egress egress.Policy
}

// Validate reports every problem of a graph of the workflow's project, worded in the
// language ctx carries. Errors: only a lookup that failed.
func (d *Drafts) Validate(ctx context.Context, w *automation.Workflow, g automation.Graph) ([]automation.Diagnostic, error) {
	ds := automation.Validate(g, d.Catalog)
	flagged := map[string]bool{} // action key + field the schema already refused
	for _, diag := range ds {
		flagged[diag.ActionKey+" "+diag.Field] = true
	}
	for _, a := range g.Actions {
		t, ok := d.Catalog.Action(a.ActionTypeKey)
		if !ok {
			continue
		}
		ds = append(ds, d.egressDiagnostics(a, flagged)...)
		if id, named := a.Config["workflow_id"].(string); named && a.ActionTypeKey == ActionWorkflowCall &&
			!flagged[a.ActionKey+" config.workflow_id"] {
			diag, err := d.call(ctx, w, id)
			if err != nil {
				return nil, err
			}
			if diag != nil {
				diag.ActionKey, diag.Field = a.ActionKey, "config.workflow_id"
				ds = append(ds, *diag)
			}
		}
		if a.ActionTypeKey == automation.TypeRunEvent && !flagged[a.ActionKey+" config.workflow_ids"] {
			watched, err := d.watched(ctx, w, a, flagged)
			if err != nil {
				return nil, err
			}
			ds = append(ds, watched...)
		}
		for _, field := range []string{t.DependencyField, templateField(a)} {
			id, named := a.Config[field].(string)
			if field == "" || !named || id == "" || flagged[a.ActionKey+" config."+field] {
				continue
			}
			diag, err := d.reference(ctx, w, t, field, id)
			if err != nil {
				return nil, err
			}
			if diag != nil {
				diag.ActionKey, diag.Field = a.ActionKey, "config."+field
				ds = append(ds, *diag)
			}
		}
	}
	return automation.Localize(models.Language(ctx), ds), nil
}

// Require answers invalid input naming every error Validate finds in the graph.
func (d *Drafts) Require(ctx context.Context, w *automation.Workflow, g automation.Graph) error {
	ds, err := d.Validate(ctx, w, g)
	if err != nil {
		return err
	}
	return automation.RequireValid(ds)
}

// call checks the workflow a workflow.call names: a published workflow of the project
// whose calls, followed through the current versions, never come back to w.
func (d *Drafts) call(ctx context.Context, w *automation.Workflow, raw string) (*automation.Diagnostic, error) {
	problem := func(code string, args ...any) (*automation.Diagnostic, error) {
		d := automation.Diagnosed(automation.SeverityError, code, code, args...)
		return &d, nil
	}
	id, err := uuid.Parse(raw)
	if err != nil {
		return problem("invalid_reference", "workflow_id", raw)
	}
	seen := map[uuid.UUID]bool{}
	next := []uuid.UUID{id}
	for depth := 0; len(next) > 0 && depth < MaxCallDepth; depth++ {
		var calls []uuid.UUID
		for _, id := range next {
			if id == w.ID {
				return problem("call_cycle")
			}
			if seen[id] {
				continue
			}
			seen[id] = true
			callee, err := d.Workflows.WorkflowOf(ctx, w.CompanyID, id)
			if models.IsKind(err, models.KindNotFound) || err == nil && callee.ProjectID != w.ProjectID {
				return problem("workflow_not_found", id)
			}
			if err != nil {
				return nil, err
			}
			if callee.CurrentVersionID == nil {
				if depth == 0 {
					return problem("workflow_not_published", callee.Name)
				}
				continue
			}
			v, err := d.Workflows.Version(ctx, callee.ID, *callee.CurrentVersionID)
			if err != nil {
				return nil, err
			}
			for _, a := range v.Graph().Actions {
				if s, ok := a.Config["workflow_id"].(string); ok && a.ActionTypeKey == ActionWorkflowCall {
					if id, err := uuid.Parse(s); err == nil {
						calls = append(calls, id)
					}
				}
			}
		}
		next = calls
	}
	return nil, nil
}

// watched checks the workflows a run.event_trigger's workflow_ids names: workflows of the
// project (published or not: a draft's runs fail once it is), other than w itself.
// A field the schema already refused (flagged) is not checked again.
func (d *Drafts) watched(ctx context.Context, w *automation.Workflow, a automation.Action, flagged map[string]bool) ([]automation.Diagnostic, error) {
	var ds []automation.Diagnostic
	ids, _ := a.Config["workflow_ids"].([]any)
	for i, raw := range ids {
		field := fmt.Sprintf("config.workflow_ids.%d", i)
		if flagged[a.ActionKey+" "+field] {
			continue
		}
		problem := func(code string, args ...any) {
			diag := automation.Diagnosed(automation.SeverityError, code, code, args...)
			diag.ActionKey, diag.Field = a.ActionKey, field
			ds = append(ds, diag)
		}
		s, _ := raw.(string)
		id, err := uuid.Parse(s)
		switch {
		case err != nil:
			problem("invalid_reference", fmt.Sprintf("workflow_ids.%d", i), s)
			continue
		case id == w.ID:
			problem("run_event_self")
			continue
		}
		watched, err := d.Workflows.WorkflowOf(ctx, w.CompanyID, id)
		switch {
		case models.IsKind(err, models.KindNotFound) || err == nil && watched.ProjectID != w.ProjectID:
			problem("workflow_not_found", id)
		case err != nil:
			return nil, err
		}
	}
	return ds, nil
}

// Writes tells whether the graph has a db.query that writes (read_only false): only an
// owner or admin may publish or test such a draft, since every run of it may change the
// project's database with the integration's rights.
func Writes(g automation.Graph) bool {
	for _, a := range g.Actions {
		if a.ActionTypeKey == activities.ActionDBQuery && a.Config["read_only"] == false {
			return true
		}
	}
	return false
}

// reference looks up the id in config field of an action of type t, and answers what is
// wrong with it (nil when nothing is).
func (d *Drafts) reference(ctx context.Context, w *automation.Workflow, t *schemas.ActionType,
	field, raw string) (*automation.Diagnostic, error) {
	problem := func(severity, code string, args ...any) (*automation.Diagnostic, error) {
		d := automation.Diagnosed(severity, code, code, args...)
		return &d, nil
	}
	id, err := uuid.Parse(raw)
	if err != nil {
		return problem(automation.SeverityError, "invalid_reference", field, raw)
	}
	var found error
	switch field {
	case t.DependencyField:
		var dep *integration.ActionDependency
		dep, found = d.Integrations.ActionDependencyOf(ctx, w.CompanyID, w.ProjectID, id)
		switch {
		case found != nil:
		case dep.DependencyTypeKey != t.DependencyTypeKey:
			return problem(automation.SeverityError, "integration_wrong_type",
				id, dep.DependencyTypeKey, t.Key, t.DependencyTypeKey)
		case dep.Status != integration.StatusActive:
			return problem(automation.SeverityWarning, "integration_disabled", dep.Name, id)
		}
	case "email_template_id":
		_, found = d.Integrations.EmailTemplateOf(ctx, w.CompanyID, w.ProjectID, id)
	case "message_template_id":
		_, found = d.Integrations.MessageTemplateOf(ctx, w.CompanyID, w.ProjectID, id)
	}
	switch {
	case models.IsKind(found, models.KindNotFound) && field == t.DependencyField:
		return problem(automation.SeverityError, "integration_not_found", id)
	case models.IsKind(found, models.KindNotFound):
		return problem(automation.SeverityError, "template_not_found", id)
	case found != nil:
		return nil, found
	}
	return nil, nil
}
