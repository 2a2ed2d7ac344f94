package engine

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"go.temporal.io/api/serviceerror"

	"agencyhub/activities"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// approvalExpireActivity records that an approval.wait's time is up (ExpireApproval).
const approvalExpireActivity = "automation.approval_expire"

// ApprovalExpiry names the approval whose wait timed out.
type ApprovalExpiry struct {
	CompanyID  string `json:"company_id"`
	ApprovalID string `json:"approval_id"`
}

// expireApproval is the activity of approvalExpireActivity: it records timed_out unless a
// decision was recorded first, and answers the action's output either way.
func expireApproval(approvals *automation.Service) func(context.Context, ApprovalExpiry) (map[string]any, error) {
	return func(ctx context.Context, e ApprovalExpiry) (map[string]any, error) {
		id, err := uuid.Parse(e.ApprovalID)
		if err != nil {
			return nil, ApplicationError(activities.Failed(activities.ClassPermanent, "approval_not_found", "approval_not_found", "", nil))
		}
		a, err := approvals.ExpireApproval(ctx, id)
		if models.IsKind(err, models.KindNotFound) || err == nil && a.CompanyID.String() != e.CompanyID {
			return nil, ApplicationError(activities.Failed(activities.ClassPermanent, "approval_not_found", "approval_not_found", "", nil))
		}
		if err != nil {
			return nil, err
		}
		return a.Output(), nil
	}
}

// withApprovalLinks is where the signed decide links enter an action: templates render
// steps.<key>.decide_url in the workflow as a marker, and this swaps the run's markers in
// the action's config for the links just before the action runs, and puts the markers back
// in what it answers, so that no link is written to Temporal's history or the projection.
// approval.wait itself keeps its config as it is: its title and message are shown to
// anyone who reads the run.
func withApprovalLinks(links automation.ApprovalLinks, fn activities.Func) activities.Func {
	return func(ctx context.Context, req activities.Request) (activities.Result, error) {
		if req.ActionType == automation.TypeApproval {
			return fn(ctx, req)
		}
		config, put := links.Resolve(req.RunID, req.Config)
		if len(put) == 0 {
			return fn(ctx, req)
		}
		req.Config, _ = config.(map[string]any)
		res, err := fn(ctx, req)
		if err != nil {
			f := *activities.AsFailure(err)
			f.HumanReason, _ = automation.Unresolve(f.HumanReason, put).(string)
			f.ProviderResponse, _ = automation.Unresolve(f.ProviderResponse, put).(map[string]any)
			return activities.Result{}, &f
		}
		res.Output, _ = automation.Unresolve(res.Output, put).(map[string]any)
		res.ProviderResponse, _ = automation.Unresolve(res.ProviderResponse, put).(map[string]any)
		return res, nil
	}
}

// DeliverDecision hands a recorded decision to the run waiting for it and records that it
// did. A run that has ended (cancelled meanwhile) no longer takes it. Should the signal not
// get through (the engine is down, or the server stopped in between), the decision stays
// undelivered, and the dispatcher hands it over (intake.Dispatcher); at the latest the run
// takes it when its wait times out, for the timeout's activity answers the decision that
// was recorded first. A decision signalled twice is taken once: the first ends the wait.
func (s *Runs) DeliverDecision(ctx context.Context, a *automation.Approval) error {
	err := s.Client.SignalWorkflow(ctx, a.RunID.String(), "", ApprovalSignal(a.ActionKey), a.Output())
	var ended *serviceerror.NotFound
	if err != nil && !errors.As(err, &ended) {
		if s.OnQueued != nil {
			s.OnQueued()
		}
		return err
	}
	return s.Workflows.DecisionDelivered(ctx, a.ID)
}
