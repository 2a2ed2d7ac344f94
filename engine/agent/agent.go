// Package agent is the project's AI employee on the engine: its sessions (a Temporal
// workflow per session, whose model steps and tool calls are activities), the tool registry
// and its runner, the deterministic preview without a model, the model lists and the
// evaluation of models, and the ai.agent action a run starts as a child workflow.
package agent

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"agencyhub/engine"
	"agencyhub/models"
	"agencyhub/models/aiemployee"
	"agencyhub/models/automation"
	"agencyhub/models/billing"
	"agencyhub/models/company"
	"agencyhub/models/integration"
	"agencyhub/schemas"
)

// TypeAIModelProvider is the dependency type of a model provider integration.
const TypeAIModelProvider = integration.TypeAIModelProvider

// ProviderOpenAICompatible is the one wire format model providers speak: OpenAI-compatible
// chat completions (activities/llm).
const ProviderOpenAICompatible = "openai_compatible"

// Agent is the project's AI employee at work: it computes the capability, opens sessions,
// hands user messages, approvals and cancellations to each session's Temporal workflow
// (AgentSession), and runs the turns' model steps and tools as that workflow's activities.
type Agent struct {
	Store        *aiemployee.Service
	Companies    *company.Service
	Workflows    *automation.Service
	Integrations *integration.Service
	Billing      *billing.Service
	Drafts       *engine.Drafts
	Runs         *engine.Runs
	Catalog      *schemas.Catalog
	Docs         *schemas.IntegrationDocs
	// Client and TaskQueue are where the sessions' workflows run.
	Client    client.Client
	TaskQueue string
	// HTTP is the egress client model providers are called through.
	HTTP *http.Client

	tools map[string]*AgentTool
}

// NewAgent builds the agent with its tool registry and the integration documents its
// search tool reads.
func NewAgent(a Agent) (*Agent, error) {
	tools, err := compileTools(agentTools())
	if err != nil {
		return nil, err
	}
	a.tools = tools
	if a.Docs == nil {
		if a.Docs, err = schemas.LoadIntegrationDocs(); err != nil {
			return nil, err
		}
	}
	return &a, nil
}

// Tool answers a tool of the registry.
func (a *Agent) Tool(name string) (*AgentTool, bool) {
	t, ok := a.tools[name]
	return t, ok
}

// RuntimeUp tells whether the agent runtime (Temporal, where sessions run) answers.
func (a *Agent) RuntimeUp(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	_, err := a.Client.CheckHealth(ctx, &client.CheckHealthRequest{})
	return err == nil
}

// Provider finds the model provider the employee (or a session) uses: the one chosen,
// else the project's tested one, else its first; and tells how healthy it is.
func (a *Agent) Provider(ctx context.Context, p *company.Project,
	chosen *uuid.UUID) (aiemployee.ProviderHealth, *integration.ActionDependency, error) {
	if chosen != nil {
		d, err := a.Integrations.ActionDependencyOf(ctx, p.CompanyID, p.ID, *chosen)
		if models.IsKind(err, models.KindNotFound) || err == nil && d.DependencyTypeKey != TypeAIModelProvider {
			return aiemployee.ProviderHealth{Status: aiemployee.DependencyMissing}, nil, nil
		}
		if err != nil {
			return aiemployee.ProviderHealth{}, nil, err
		}
		return providerHealth(d), d, nil
	}
	deps, err := a.ModelProviders(ctx, p)
	if err != nil {
		return aiemployee.ProviderHealth{}, nil, err
	}
	var best *integration.ActionDependency
	for i := range deps {
		d := &deps[i]
		if best == nil || providerHealth(d).Status == aiemployee.DependencyOK && providerHealth(best).Status != aiemployee.DependencyOK {
			best = d
		}
	}
	if best == nil {
		return aiemployee.ProviderHealth{Status: aiemployee.DependencyMissing}, nil, nil
	}
	return providerHealth(best), best, nil
}

// ModelProviders are the project's model provider integrations.
func (a *Agent) ModelProviders(ctx context.Context, p *company.Project) ([]integration.ActionDependency, error) {
	deps, err := a.dependencies(ctx, p)
	var out []integration.ActionDependency
	for _, d := range deps {
		if d.DependencyTypeKey == TypeAIModelProvider {
			out = append(out, d)
		}
	}
	return out, err
}

// dependencies are all the project's integrations.
func (a *Agent) dependencies(ctx context.Context, p *company.Project) ([]integration.ActionDependency, error) {
	var out []integration.ActionDependency
	page := models.PageRequest{Limit: models.MaxPageLimit}
	for {
		rows, next, err := a.Integrations.ActionDependencies(ctx, p.CompanyID, p.ID, page)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
		if next == "" {
			return out, nil
		}
		page.Cursor = next
	}
}

func providerHealth(d *integration.ActionDependency) aiemployee.ProviderHealth {
	h := aiemployee.ProviderHealth{ID: d.ID.String(), Name: d.Name}
	last := d.LastTest()
	switch {
	case d.Status != integration.StatusActive:
		h.Status = aiemployee.DependencyDisabled
	case last == nil:
		h.Status = aiemployee.DependencyUntested
	case last.Status == integration.TestOK:
		h.Status = aiemployee.DependencyOK
	default:
		h.Status = aiemployee.DependencyFailed
	}
	return h
}

// Capability is what the project's employee can do now, with the employee.
func (a *Agent) Capability(ctx context.Context, p *company.Project) (aiemployee.Capability, *aiemployee.Employee, error) {
	e, err := a.Store.EmployeeOf(ctx, p)
	if err != nil {
		return aiemployee.Capability{}, nil, err
	}
	health, _, err := a.Provider(ctx, p, e.ActionDependencyID)
	if err != nil {
		return aiemployee.Capability{}, nil, err
	}
	return aiemployee.Ladder(e, health, a.RuntimeUp(ctx)), e, nil
}

// PatchEmployee changes the employee's settings. Errors: invalid (action_dependency_id
// when it is no model provider of the project; the settings' own).
func (a *Agent) PatchEmployee(ctx context.Context, p *company.Project, patch aiemployee.EmployeePatch) (*aiemployee.Employee, error) {
	if id := patch.ActionDependencyID; id != nil && *id != uuid.Nil {
		d, err := a.Integrations.ActionDependencyOf(ctx, p.CompanyID, p.ID, *id)
		if models.IsKind(err, models.KindNotFound) || err == nil && d.DependencyTypeKey != TypeAIModelProvider {
			return nil, models.Invalid("ai_provider_not_found", "action_dependency_id")
		}
		if err != nil {
			return nil, err
		}
	}
	return a.Store.PatchEmployee(ctx, p, patch)
}

// CreateSession opens a session. Errors: conflict (the employee is disabled), invalid
// (action_dependency_id when it is no model provider of the project; the input's own).
func (a *Agent) CreateSession(ctx context.Context, p *company.Project, in aiemployee.SessionInput) (*aiemployee.Session, error) {
	capability, _, err := a.Capability(ctx, p)
	if err != nil {
		return nil, err
	}
	if capability.State == aiemployee.StateDisabled {
		return nil, models.Conflict("ai_employee_disabled")
	}
	if in.ActionDependencyID != nil {
		health, _, err := a.Provider(ctx, p, in.ActionDependencyID)
		if err != nil {
			return nil, err
		}
		if health.Status == aiemployee.DependencyMissing {
			return nil, models.Invalid("ai_provider_not_found", "action_dependency_id")
		}
	}
	return a.Store.CreateSession(ctx, p, capability.Runtime, in)
}

// PostMessage stores a user message and hands the turn to the session's workflow,
// starting it if it is not running. Errors: those of aiemployee.PostMessage; unavailable
// when Temporal did not take the turn (the turn is closed again as failed).
func (a *Agent) PostMessage(ctx context.Context, sess *aiemployee.Session, in aiemployee.MessageInput) (*aiemployee.Session, error) {
	posted, _, err := a.Store.PostMessage(ctx, sess, in)
	if err != nil {
		return nil, err
	}
	_, err = a.Client.SignalWithStartWorkflow(ctx, posted.AgentThreadID, agentMessageSignal, AgentTurn{Turn: posted.Turn},
		client.StartWorkflowOptions{ID: posted.AgentThreadID, TaskQueue: a.TaskQueue}, AgentWorkflowName, AgentInput{SessionID: posted.ID})
	if err != nil {
		if _, endErr := a.Store.EndTurn(
			context.WithoutCancel(ctx),
			posted.ID,
			posted.Turn,
			aiemployee.TurnFailed,
			aiemployee.TurnDetail{Text: "the agent runtime did not take the message", TextKey: "ai_runtime_refused"},
		); endErr != nil {
			return nil, endErr
		}
		return nil, models.Unavailable("engine_unavailable", err)
	}
	return posted, nil
}

// Decide approves or rejects a tool call that waits, and tells its session's workflow.
// Deciding again the same way tells it again (the first signal may have been lost).
// Errors: conflict (status), unavailable.
func (a *Agent) Decide(ctx context.Context, c *aiemployee.ToolCall, approve bool, userID uuid.UUID) (*aiemployee.ToolCall, error) {
	out, _, err := a.Store.Decide(ctx, c, approve, &userID, "rejected by the user")
	if err != nil {
		return nil, err
	}
	err = a.Client.SignalWorkflow(ctx, aiemployee.AgentThreadID(c.SessionID), "", agentDecisionSignal, AgentDecision{
		ToolCallID: c.ID,
		Approved:   approve,
	})
	if err != nil {
		return nil, models.Unavailable("engine_unavailable", err)
	}
	return out, nil
}

// PatchToolCall replaces the input of a call that waits for approval. Errors: invalid
// (input_json, against the tool's schema), conflict (status).
func (a *Agent) PatchToolCall(ctx context.Context, c *aiemployee.ToolCall, input map[string]any) (*aiemployee.ToolCall, error) {
	t, ok := a.Tool(c.ToolKey)
	if !ok || t.CheckInput(input) != "" {
		return nil, models.Invalid("invalid_tool_input", "input_json")
	}
	return a.Store.PatchInput(ctx, c, input)
}

// Cancel stops the session's turn in progress; the transcript stays. A session between
// turns has nothing to stop. Errors: unavailable.
func (a *Agent) Cancel(ctx context.Context, sess *aiemployee.Session) (*aiemployee.Session, error) {
	if sess.Status == aiemployee.SessionIdle {
		return sess, nil
	}
	err := a.Client.SignalWorkflow(ctx, sess.AgentThreadID, "", agentCancelSignal, AgentTurn{Turn: sess.Turn})
	if err != nil {
		return nil, models.Unavailable("engine_unavailable", err)
	}
	return sess, nil
}
