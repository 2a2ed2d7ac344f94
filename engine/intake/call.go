package intake

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"agencyhub/activities"
	"agencyhub/engine"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// TriggerCall is the trigger type of a run that workflow.call started.
const TriggerCall = "call"

// callNamespace is the template namespace of a called run: the calling run and the depth.
const callNamespace = "call"

// CallWorkflow is the workflow.call action. It runs the current version of another
// workflow of the calling run's project from its manual trigger with input_json, under a
// run id derived from the calling run and action, so that a retried attempt finds the run
// it started instead of starting a second one; with wait, it waits for that run to end and
// answers the outputs of its actions. The called run's templates read
// {{ call.caller_run_id }} and {{ call.depth }}.
//
// Failures: a workflow that is not the project's, not published or without a manual
// trigger, or calls nested deeper than 5, are validation; a called run that fails or is
// cancelled is permanent; Temporal unreachable is transient.
func (in *Intake) CallWorkflow(ctx context.Context, req activities.Request) (activities.Result, error) {
	raw, _ := req.Config["workflow_id"].(string)
	calleeID, err := uuid.Parse(raw)
	if err != nil {
		return activities.Result{}, activities.Failed(activities.ClassValidation, "invalid_config", "call_workflow_id", "", nil)
	}
	caller, err := in.Workflows.Run(ctx, req.RunID)
	if err != nil {
		return activities.Result{}, err
	}
	called, _ := caller.NamespacesJSON()[callNamespace].(map[string]any) // nil unless the caller was called
	depth := engine.ToInt(called["depth"]) + 1
	if depth > engine.MaxCallDepth {
		return activities.Result{}, activities.Failed(activities.ClassValidation, "call_too_deep", "call_too_deep", "",
			activities.Args{"limit": strconv.Itoa(engine.MaxCallDepth), "count": strconv.Itoa(depth)})
	}
	trigger, err := in.calleeTrigger(ctx, req, calleeID)
	if err != nil {
		return activities.Result{}, err
	}
	input, _ := req.Config["input_json"].(map[string]any)
	run, err := in.fire(ctx, trigger, TriggerCall, engine.Start{
		RunID: uuid.NewSHA1(req.RunID, []byte(req.ActionKey)), Payload: input,
		Namespaces: map[string]any{callNamespace: map[string]any{"caller_run_id": req.RunID.String(), "depth": depth}},
	})
	if err != nil {
		return activities.Result{}, activities.Failed(activities.ClassTransient, "engine_unavailable", "call_not_started", "retried.next",
			activities.Args{"error": err.Error()})
	}
	if req.Config["wait"] == false {
		return activities.Result{Output: map[string]any{"workflow_run_id": run.ID.String(), "status": "started", "output": map[string]any{}}}, nil
	}
	return in.awaitCall(ctx, req, run)
}

// calleeTrigger finds the manual trigger of the called workflow's current version, which
// must be of the calling run's project.
func (in *Intake) calleeTrigger(ctx context.Context, req activities.Request, calleeID uuid.UUID) (automation.Trigger, error) {
	refuse := func(code string, args activities.Args) (automation.Trigger, error) {
		return automation.Trigger{}, activities.Failed(activities.ClassValidation, code, "call_"+code, "call_callee.next", args)
	}
	callee, err := in.Workflows.WorkflowOf(ctx, req.CompanyID, calleeID)
	if models.IsKind(err, models.KindNotFound) || err == nil && callee.ProjectID != req.ProjectID {
		return refuse("workflow_not_found", activities.Args{"id": calleeID.String()})
	}
	if err != nil {
		return automation.Trigger{}, err
	}
	triggers, err := in.Workflows.Triggers(ctx, automation.TriggerQuery{
		ActionTypeKey: automation.TypeManual,
		CompanyID:     req.CompanyID,
		WorkflowID:    calleeID,
	})
	if err != nil {
		return automation.Trigger{}, err
	}
	if len(triggers) == 0 {
		return refuse("workflow_not_callable", activities.Args{"name": callee.Name})
	}
	return triggers[0], nil
}

// awaitCall waits for the called run's execution to close, then answers its outputs.
func (in *Intake) awaitCall(ctx context.Context, req activities.Request, run *automation.Run) (activities.Result, error) {
	timeout := time.Duration(max(engine.ToInt(req.Config["timeout_seconds"]), 1)) * time.Second
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := in.Runs.Client.GetWorkflow(waitCtx, run.ID.String(), "").Get(waitCtx, nil)
	var canceled *temporal.CanceledError
	switch {
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		return activities.Result{}, activities.Failed(activities.ClassPermanent, "call_timeout", "call_timeout", "",
			activities.Args{"id": run.ID.String(), "wait": timeout.String()})
	case ctx.Err() != nil:
		return activities.Result{}, ctx.Err()
	case err != nil && !errors.As(err, &canceled):
		return activities.Result{}, activities.Failed(activities.ClassTransient, "engine_unavailable", "call_not_followed", "retried.next",
			activities.Args{"error": err.Error()})
	}
	ended, err := in.Workflows.Run(ctx, run.ID)
	if err != nil {
		return activities.Result{}, err
	}
	if ended.Status != automation.RunSucceeded {
		return activities.Result{}, activities.Failed(activities.ClassPermanent, "called_run_"+string(ended.Status), "call_ended", "",
			activities.Args{"id": run.ID.String(), "status": string(ended.Status), "reason": ended.TerminalReason})
	}
	actions, err := in.Workflows.ActionRuns(ctx, ended)
	if err != nil {
		return activities.Result{}, err
	}
	output := map[string]any{}
	for _, a := range actions {
		if a.Status == automation.ActionSucceeded {
			output[a.ActionKey] = automation.DecodeObject(a.Output)
		}
	}
	return activities.Result{
		Output: map[string]any{"workflow_run_id": run.ID.String(), "status": automation.RunSucceeded, "output": output},
	}, nil
}
