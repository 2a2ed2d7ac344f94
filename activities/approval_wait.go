package activities

import (
	"context"
	"math"
	"time"

	"agencyhub/models/automation"
	"agencyhub/models/company"
)

// Bounds of approval.wait's timeout_seconds: a day by default, 30 days at most.
const (
	approvalDefaultTimeout = 86400
	approvalMaxTimeout     = 30 * 24 * 3600
)

// Approvals records the approvals of approval.wait (automation.Service).
type Approvals interface {
	RequestApproval(ctx context.Context, r automation.ApprovalRequest) (*automation.Approval, time.Duration, error)
}

// ApprovalWait is the activity half of the approval.wait action: it records that the run
// waits for a decision, for timeout_seconds from when it was first recorded, and has the
// approvers told (automation.ApprovalRequested). The workflow half then waits durably for
// the decision the API signals, or for the time left.
//
// Config: title, message, approver_role (default admin), timeout_seconds (default 86400,
// at most 30 days), form_schema_json. Output: approval_id and the seconds left to wait
// (wait_seconds) while it is pending; the approval's output (Approval.Output) once a
// decision is recorded already (the activity ran again after it).
type ApprovalWait struct {
	Approvals Approvals
}

// Run records the approval.
func (a ApprovalWait) Run(ctx context.Context, req Request) (Result, error) {
	title, err := requiredString(req.Config, "title")
	if err != nil {
		return Result{}, err
	}
	message, err := rawString(req.Config, "message")
	if err != nil {
		return Result{}, err
	}
	role, err := optionalString(req.Config, "approver_role")
	if err != nil {
		return Result{}, err
	}
	if role == "" {
		role = string(company.RoleAdmin)
	}
	if !company.Role(role).Valid() {
		return Result{}, invalidField("approver_role", "field_role", nil)
	}
	seconds, err := optionalSeconds(req.Config, "timeout_seconds", approvalDefaultTimeout, approvalMaxTimeout)
	if err != nil {
		return Result{}, err
	}
	form, _ := req.Config["form_schema_json"].(map[string]any)
	approval, left, err := a.Approvals.RequestApproval(ctx, automation.ApprovalRequest{
		CompanyID: req.CompanyID, ProjectID: req.ProjectID, RunID: req.RunID, ActionKey: req.ActionKey,
		Title: title, Message: message, ApproverRole: company.Role(role), FormSchema: form,
		Timeout: time.Duration(math.Ceil(seconds)) * time.Second,
	})
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return Result{}, Failed(ClassTransient, "approval_not_recorded", "approval_not_recorded", "retried.next", nil)
	}
	if approval.Status != automation.ApprovalPending {
		return Result{Output: approval.Output()}, nil
	}
	wait := max(1, int(math.Ceil(left.Seconds())))
	return Result{Output: map[string]any{"approval_id": approval.ID.String(), "wait_seconds": wait}}, nil
}
