package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"agencyhub/engine"
	"agencyhub/models"
	"agencyhub/models/aiemployee"
	"agencyhub/models/automation"
	"agencyhub/models/billing"
	"agencyhub/models/company"
)

// Risk levels of the employee's tools. Reads and proposals change nothing and never need
// approval; writes always do, unless the employee allows low-risk writes and the tool is
// low risk (changing a draft, which publishing still guards).
const (
	RiskRead     = "read"
	RiskProposal = "proposal"
	RiskLow      = "low"
	RiskHigh     = "high"
)

// AgentTool is one tool of the employee: the model sees its name, description and input
// schema; the runner checks the input against the schema, the caller's role against
// Permission, and runs it on the session's project only. Ids in the input are looked up
// inside that project: one of anywhere else is "not found".
type AgentTool struct {
	Name        string
	Description string
	Input       map[string]any
	Risk        string
	Permission  company.Permission
	// sessionOnly tools keep a session's state (remember): an ai.agent action has none.
	sessionOnly bool
	run         func(ctx context.Context, t *toolScope, in map[string]any) (map[string]any, error)
	schema      *jsonschema.Schema
}

// engine.Writes reports whether the tool changes the project.
func (t *AgentTool) Writes() bool { return t.Risk == RiskLow || t.Risk == RiskHigh }

// toolScope is what a tool runs on: the session, its project and the caller's standing
// there, read when the tool runs.
type toolScope struct {
	agent   *Agent
	session *aiemployee.Session
	project *company.Project
	access  *company.Access
}

func obj(required []string, props map[string]any) map[string]any {
	if required == nil {
		required = []string{}
	}
	return map[string]any{"type": "object", "additionalProperties": false, "required": required, "properties": props}
}

func idField(what string) map[string]any {
	return map[string]any{"type": "string", "format": "uuid", "description": what}
}

// agentTools is the one registry of the employee's tools.
func agentTools() []*AgentTool {
	read, work := company.PermRead, company.PermWork
	return []*AgentTool{
		{Name: "list_workflows", Risk: RiskRead, Permission: read,
			Description: "List the project's workflows: id, name, whether a version is published.",
			Input:       obj(nil, map[string]any{}), run: toolListWorkflows},
		{Name: "get_workflow", Risk: RiskRead, Permission: read,
			Description: "Read a workflow's draft graph (actions and connections) and its diagnostics.",
			Input:       obj([]string{"workflow_id"}, map[string]any{"workflow_id": idField("The workflow.")}), run: toolGetWorkflow},
		{Name: "list_runs", Risk: RiskRead, Permission: read,
			Description: "List the latest runs of a workflow (at most 20), optionally of one status.",
			Input: obj([]string{"workflow_id"}, map[string]any{"workflow_id": idField("The workflow."),
				"status": map[string]any{"type": "string", "enum": []any{"pending", "running", "waiting", "succeeded", "failed", "cancelled"}}}),
			run: toolListRuns},
		{Name: "get_run", Risk: RiskRead, Permission: read,
			Description: "Read a run: its status, each action's status, error, retry class and output, and its last events.",
			Input:       obj([]string{"workflow_run_id"}, map[string]any{"workflow_run_id": idField("The run.")}), run: toolGetRun},
		{Name: "list_clients", Risk: RiskRead, Permission: read,
			Description: "List the company's active clients, optionally matching a query.",
			Input:       obj(nil, map[string]any{"query": map[string]any{"type": "string", "maxLength": 200}}), run: toolListClients},
		{Name: "list_payment_actions", Risk: RiskRead, Permission: read,
			Description: "List the project's payments awaiting confirmation (pending, snoozed, needs_decision) with their due dates and totals.",
			Input:       obj(nil, map[string]any{}), run: toolListPaymentActions},
		{
			Name:        "search_integration_docs",
			Risk:        RiskRead,
			Permission:  read,
			Description: "Search the integration and action documents (how to configure each action type, the patch format).",
			Input:       obj([]string{"q"}, map[string]any{"q": map[string]any{"type": "string", "minLength": 1, "maxLength": 300}}),
			run:         toolSearchDocs,
		},
		{
			Name:        "remember",
			Risk:        RiskRead,
			Permission:  read,
			sessionOnly: true,
			Description: "Keep short notes in the session's working memory for later turns (a null value forgets a key).",
			Input:       obj([]string{"values"}, map[string]any{"values": map[string]any{"type": "object", "maxProperties": 20}}),
			run:         toolRemember,
		},
		{
			Name:       "propose_workflow_patch",
			Risk:       RiskProposal,
			Permission: read,
			Description: "Propose a change to a workflow's draft as a service-workflow-patch-v1 document. " +
				"The patch is checked without saving anything and becomes the session's active proposal; " +
				"apply_patch_proposal applies it.",
			Input: obj([]string{"workflow_id", "patch"}, map[string]any{"workflow_id": idField("The workflow to change."),
				"patch": map[string]any{"type": "object", "description": "The service-workflow-patch-v1 document."}}),
			run: toolProposePatch,
		},
		{Name: "apply_patch_proposal", Risk: RiskLow, Permission: work,
			Description: "Apply a patch proposal (the session's active one when none is named) to its workflow's draft. Nothing is published.",
			Input:       obj(nil, map[string]any{"patch_proposal_id": idField("The proposal; default the active one.")}), run: toolApplyProposal},
		{Name: "start_test_run", Risk: RiskHigh, Permission: work,
			Description: "Start a test run of a workflow's draft, with its test input or the input given. Its actions really run.",
			Input: obj([]string{"workflow_id"}, map[string]any{"workflow_id": idField("The workflow."),
				"input": map[string]any{"type": "object"}}), run: toolStartTestRun},
		{Name: "retry_failed_action", Risk: RiskHigh, Permission: work,
			Description: "Run a failed action of a failed run again and continue the run from it.",
			Input: obj([]string{"workflow_run_id", "action_key"}, map[string]any{"workflow_run_id": idField("The failed run."),
				"action_key": map[string]any{"type": "string", "minLength": 1, "maxLength": 100}}), run: toolRetryAction},
	}
}

// compileTools compiles each tool's input schema.
func compileTools(tools []*AgentTool) (map[string]*AgentTool, error) {
	out := map[string]*AgentTool{}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	for _, t := range tools {
		url := "tool:" + t.Name
		raw, _ := json.Marshal(t.Input)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		if err := c.AddResource(url, doc); err != nil {
			return nil, err
		}
		s, err := c.Compile(url)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", t.Name, err)
		}
		t.schema = s
		out[t.Name] = t
	}
	return out, nil
}

// CheckInput tells what is wrong with an input, "" when nothing is.
func (t *AgentTool) CheckInput(in map[string]any) string {
	var doc any
	raw, _ := json.Marshal(in)
	_ = json.Unmarshal(raw, &doc)
	if err := t.schema.Validate(doc); err != nil {
		return strings.ReplaceAll(err.Error(), "tool:"+t.Name, "input")
	}
	return ""
}

// toolFailure is a tool error the model is told about, as the tool's output.
type toolFailure struct{ message string }

func (f *toolFailure) Error() string { return f.message }

func failTool(format string, args ...any) error { return &toolFailure{fmt.Sprintf(format, args...)} }

func inputID(in map[string]any, field string) uuid.UUID {
	s, _ := in[field].(string)
	id, _ := uuid.Parse(s)
	return id
}

// workflowIn loads a workflow of the session's project; any other is not found.
func (t *toolScope) workflowIn(ctx context.Context, id uuid.UUID) (*automation.Workflow, error) {
	w, err := t.agent.Workflows.WorkflowOf(ctx, t.project.CompanyID, id)
	if models.IsKind(err, models.KindNotFound) || err == nil && w.ProjectID != t.project.ID {
		return nil, failTool("The project has no workflow %s.", id)
	}
	return w, err
}

// runIn loads a run of the session's project; any other is not found.
func (t *toolScope) runIn(ctx context.Context, id uuid.UUID) (*automation.Run, error) {
	r, err := t.agent.Workflows.Run(ctx, id)
	if models.IsKind(err, models.KindNotFound) || err == nil && (r.CompanyID != t.project.CompanyID || r.ProjectID != t.project.ID) {
		return nil, failTool("The project has no run %s.", id)
	}
	return r, err
}

func toolListWorkflows(ctx context.Context, t *toolScope, _ map[string]any) (map[string]any, error) {
	rows, _, err := t.agent.Workflows.List(ctx, t.project.ID, "", false, models.PageRequest{Limit: models.MaxPageLimit})
	if err != nil {
		return nil, err
	}
	list := []any{}
	for _, w := range rows {
		list = append(list, map[string]any{"workflow_id": w.ID, "name": w.Name, "published": w.CurrentVersionID != nil,
			"actions": len(w.Draft().Graph.Actions)})
	}
	return map[string]any{"workflows": list}, nil
}

func toolGetWorkflow(ctx context.Context, t *toolScope, in map[string]any) (map[string]any, error) {
	w, err := t.workflowIn(ctx, inputID(in, "workflow_id"))
	if err != nil {
		return nil, err
	}
	d := w.Draft()
	diags, err := t.agent.Drafts.Validate(ctx, w, d.Graph)
	if err != nil {
		return nil, err
	}
	return map[string]any{"workflow_id": w.ID, "name": w.Name, "published": w.CurrentVersionID != nil,
		"draft": map[string]any{"actions": d.Graph.Actions, "connections": d.Graph.Connections}, "diagnostics": diags}, nil
}

func toolListRuns(ctx context.Context, t *toolScope, in map[string]any) (map[string]any, error) {
	w, err := t.workflowIn(ctx, inputID(in, "workflow_id"))
	if err != nil {
		return nil, err
	}
	status, _ := in["status"].(string)
	rows, _, err := t.agent.Workflows.Runs(
		ctx,
		w,
		automation.RunFilter{Status: automation.RunStatus(status)},
		models.PageRequest{Limit: 20},
	)
	if err != nil {
		return nil, err
	}
	list := []any{}
	for _, r := range rows {
		list = append(list, map[string]any{
			"workflow_run_id": r.ID,
			"status":          r.Status,
			"error":           r.Error,
			"created_at":      r.CreatedAt,
			"is_test":         r.IsTest,
		})
	}
	return map[string]any{"runs": list}, nil
}

func toolGetRun(ctx context.Context, t *toolScope, in map[string]any) (map[string]any, error) {
	r, err := t.runIn(ctx, inputID(in, "workflow_run_id"))
	if err != nil {
		return nil, err
	}
	return runSummary(ctx, t.agent, r)
}

// runSummary is a run as the tools and the preview tell it: each action with its error
// and retry class, and the last events.
func runSummary(ctx context.Context, a *Agent, r *automation.Run) (map[string]any, error) {
	actions, err := a.Workflows.ActionRuns(ctx, r)
	if err != nil {
		return nil, err
	}
	list := []any{}
	for _, ar := range actions {
		item := map[string]any{"action_key": ar.ActionKey, "action_type_key": ar.ActionTypeKey, "status": ar.Status,
			"attempt_count": ar.AttemptCount, "retry_class": ar.RetryClass, "output": automation.DecodeObject(ar.Output)}
		if ar.Error != nil {
			item["error"] = *ar.Error
		}
		list = append(list, item)
	}
	events, err := a.Workflows.Events(ctx, r.ID, 0, 50)
	if err != nil {
		return nil, err
	}
	evs := []any{}
	for _, e := range events {
		evs = append(evs, map[string]any{"event_type": e.EventType, "action_key": e.ActionKey, "message": e.Message})
	}
	return map[string]any{"workflow_run_id": r.ID, "workflow_id": r.WorkflowID, "status": r.Status, "error": r.Error,
		"terminal_reason": r.TerminalReason, "input": r.InputJSON(), "actions": list, "events": evs}, nil
}

func toolListClients(ctx context.Context, t *toolScope, in map[string]any) (map[string]any, error) {
	q, _ := in["query"].(string)
	rows, _, err := t.agent.Billing.Clients(ctx, t.project.CompanyID, billing.ClientFilter{Statuses: []string{billing.StatusActive}, Query: q},
		models.PageRequest{Limit: 50})
	if err != nil {
		return nil, err
	}
	list := []any{}
	for _, c := range rows {
		list = append(list, map[string]any{"client_id": c.ID, "name": c.Name, "client_type": c.ClientType, "status": c.Status})
	}
	return map[string]any{"clients": list}, nil
}

// openPayments are the statuses of payments that still await the user.
var openPayments = []billing.PaymentActionStatus{
	billing.PaymentActionPending,
	billing.PaymentActionSnoozed,
	billing.PaymentActionNeedsDecision,
}

func toolListPaymentActions(ctx context.Context, t *toolScope, _ map[string]any) (map[string]any, error) {
	rows, _, err := t.agent.Billing.PaymentActions(ctx, billing.PaymentActionFilter{ProjectID: t.project.ID, Statuses: openPayments},
		models.PageRequest{Limit: 50})
	if err != nil {
		return nil, err
	}
	list := []any{}
	for _, p := range rows {
		list = append(list, map[string]any{"payment_action_id": p.ID, "client": p.ClientName, "status": p.Status,
			"due_date": p.DueDate.String(), "total": p.Total.String(), "currency": p.Currency})
	}
	return map[string]any{"payment_actions": list}, nil
}

func toolSearchDocs(_ context.Context, t *toolScope, in map[string]any) (map[string]any, error) {
	q, _ := in["q"].(string)
	list := []any{}
	for _, m := range t.agent.Docs.Search(q, 5) {
		list = append(list, map[string]any{"slug": m.Doc.Slug, "title": m.Doc.Title, "snippet": m.Snippet})
	}
	return map[string]any{"documents": list}, nil
}

func toolRemember(ctx context.Context, t *toolScope, in map[string]any) (map[string]any, error) {
	values, _ := in["values"].(map[string]any)
	sess, err := t.agent.Store.SetWorkingMemory(ctx, t.session.ID, values)
	if err != nil {
		return nil, err
	}
	return map[string]any{"working_memory": sess.WorkingMemory}, nil
}

func toolProposePatch(ctx context.Context, t *toolScope, in map[string]any) (map[string]any, error) {
	w, err := t.workflowIn(ctx, inputID(in, "workflow_id"))
	if err != nil {
		return nil, err
	}
	patchDoc, _ := in["patch"].(map[string]any)
	raw, _ := json.Marshal(patchDoc)
	patch, err := automation.ParsePatch(raw, w.ID)
	if err != nil {
		return nil, failTool("The patch is not valid: %s.", strings.Join(models.AsError(err).Fields, ", "))
	}
	deps, err := t.agent.patchIntegrations(ctx, t.project)
	if err != nil {
		return nil, err
	}
	result, err := automation.ApplyPatch(w.Draft(), patch, t.agent.Catalog, deps)
	if err != nil {
		return nil, failTool("The patch cannot be applied: %s.", strings.Join(models.AsError(err).Fields, ", "))
	}
	diags := []any{}
	for _, d := range result.Diagnostics {
		diags = append(diags, map[string]any{
			"severity":   d.Severity,
			"code":       d.Code,
			"message":    d.Message,
			"action_key": d.ActionKey,
			"field":      d.Field,
		})
	}
	p, err := t.agent.Store.Propose(ctx, t.session, w.ID, patchDoc, diags)
	if err != nil {
		return nil, err
	}
	return map[string]any{"patch_proposal_id": p.ID, "workflow_id": w.ID, "diagnostics": diags, "applied_operations": result.Applied,
		"change_description": result.Draft.ChangeDescription}, nil
}

func toolApplyProposal(ctx context.Context, t *toolScope, in map[string]any) (map[string]any, error) {
	id := inputID(in, "patch_proposal_id")
	if id == uuid.Nil && t.session.ActivePatchProposalID != nil {
		id = *t.session.ActivePatchProposalID
	}
	p, err := t.agent.Store.ProposalOf(ctx, t.session, id)
	if models.IsKind(err, models.KindNotFound) {
		return nil, failTool("The session has no patch proposal %s.", id)
	}
	if err != nil {
		return nil, err
	}
	w, err := t.workflowIn(ctx, p.WorkflowID)
	if err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(p.Patch)
	patch, err := automation.ParsePatch(raw, w.ID)
	if err != nil {
		return nil, failTool("The proposal no longer parses: %s.", strings.Join(models.AsError(err).Fields, ", "))
	}
	deps, err := t.agent.patchIntegrations(ctx, t.project)
	if err != nil {
		return nil, err
	}
	saved, result, err := t.agent.Workflows.ImportPatch(ctx, w, patch, deps)
	if models.IsKind(err, models.KindInvalid) {
		return nil, failTool("The draft changed and the proposal no longer applies: %s.", strings.Join(models.AsError(err).Fields, ", "))
	}
	if err != nil {
		return nil, err
	}
	if err := t.agent.Store.MarkApplied(ctx, p); err != nil {
		return nil, err
	}
	return map[string]any{"patch_proposal_id": p.ID, "workflow_id": saved.ID, "applied_operations": result.Applied,
		"draft_actions": len(result.Draft.Graph.Actions), "published": false}, nil
}

func toolStartTestRun(ctx context.Context, t *toolScope, in map[string]any) (map[string]any, error) {
	w, err := t.workflowIn(ctx, inputID(in, "workflow_id"))
	if err != nil {
		return nil, err
	}
	if engine.Writes(w.Draft().Graph) && !t.access.Role.Can(company.PermManage) {
		return nil, failTool("The draft writes to a database: only an owner or admin may run it.")
	}
	input, _ := in["input"].(map[string]any)
	r, err := t.agent.Runs.StartTest(ctx, w, t.session.UserID, input)
	if models.IsKind(err, models.KindInvalid) {
		return nil, failTool("The draft cannot run: fix %s first.", strings.Join(models.AsError(err).Fields, ", "))
	}
	if err != nil {
		return nil, err
	}
	return map[string]any{"workflow_run_id": r.ID, "status": r.Status}, nil
}

func toolRetryAction(ctx context.Context, t *toolScope, in map[string]any) (map[string]any, error) {
	r, err := t.runIn(ctx, inputID(in, "workflow_run_id"))
	if err != nil {
		return nil, err
	}
	key, _ := in["action_key"].(string)
	r, err = t.agent.Runs.RetryAction(ctx, r, key)
	if e := models.AsError(err); err != nil && (e.Kind == models.KindInvalid || e.Kind == models.KindConflict) {
		return nil, failTool("The action cannot be retried (%s).", e.Key)
	}
	if err != nil {
		return nil, err
	}
	return map[string]any{"workflow_run_id": r.ID, "status": r.Status}, nil
}
