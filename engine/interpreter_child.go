package engine

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"agencyhub/activities"
	"agencyhub/models/automation"
)

const (
	// AgentActionWorkflowName is the child workflow that runs an ai.agent action (the AI
	// employee's, engine/agent): the interpreter starts it by this name.
	AgentActionWorkflowName = "ai.agent.run"
	// agentActionChange is the workflow.GetVersion change id under which the interpreter
	// runs ai.agent as a child workflow instead of an activity.
	agentActionChange = "ai.agent-child-workflow"
)

// actionChild runs an ai.agent action as a child workflow of the run.
func (r *interpreter) actionChild(a automation.Action, config map[string]any, selector workflow.Selector) {
	policy := r.in.Policies[a.ActionKey]
	now := workflow.Now(r.ctx)
	attempt := r.attempts[a.ActionKey] + 1
	r.status[a.ActionKey] = automation.ActionRunning
	r.action(automation.ActionUpdate{
		ActionKey:   a.ActionKey,
		Status:      automation.ActionRunning,
		Input:       config,
		StartedAt:   &now,
		MaxAttempts: attempt,
	})
	r.event("action.started", a.ActionKey, string(automation.ActionRunning), "", nil)
	ctx := workflow.WithChildOptions(r.ctx, workflow.ChildWorkflowOptions{
		WorkflowID:               fmt.Sprintf("%s/%s/%d", workflow.GetInfo(r.ctx).WorkflowExecution.ID, r.key(a.ActionKey), attempt),
		WorkflowExecutionTimeout: policy.Timeout,
	})
	req := activities.Request{RunID: r.in.RunID, CompanyID: r.in.CompanyID, ProjectID: r.in.ProjectID,
		ActionKey: r.key(a.ActionKey), ActionType: a.ActionTypeKey, Config: config, Attempt: attempt}
	r.inflight++
	r.runStatus()
	selector.AddFuture(workflow.ExecuteChildWorkflow(ctx, AgentActionWorkflowName, req), func(f workflow.Future) {
		r.settle(a, f, func(res activities.Result) { r.succeed(a, res.Output, nil) })
	})
}
