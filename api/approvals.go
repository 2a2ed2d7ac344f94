package api

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/company"
)

// approvalView is an approval.wait of a run as its company's members see it (an extension
// of the spec). DecideURL is the signed link, given only to those who may decide while it
// waits.
type approvalView struct {
	ApprovalID     uuid.UUID      `json:"approval_id"`
	CompanyID      uuid.UUID      `json:"company_id"`
	ProjectID      uuid.UUID      `json:"project_id"`
	WorkflowID     uuid.UUID      `json:"workflow_id"`
	WorkflowRunID  uuid.UUID      `json:"workflow_run_id"`
	ActionKey      string         `json:"action_key"`
	Status         string         `json:"status"`
	Title          string         `json:"title"`
	Message        string         `json:"message"`
	ApproverRole   company.Role   `json:"approver_role"`
	FormSchemaJSON map[string]any `json:"form_schema_json"`
	CanDecide      bool           `json:"can_decide"`
	DecideURL      *string        `json:"decide_url"`
	DecidedBy      string         `json:"decided_by"`
	Comment        string         `json:"comment"`
	DataJSON       map[string]any `json:"data"`
	ExpiresAt      time.Time      `json:"expires_at"`
	DecidedAt      *time.Time     `json:"decided_at"`
	CreatedAt      time.Time      `json:"created_at"`
}

// viewApproval is an approval as a member of role sees it; runEnded says its run is over,
// when a pending approval takes no decision any more.
func (s *Server) viewApproval(a automation.Approval, role company.Role, runEnded bool) approvalView {
	v := approvalView{
		ApprovalID: a.ID, CompanyID: a.CompanyID, ProjectID: a.ProjectID, WorkflowID: a.WorkflowID, WorkflowRunID: a.RunID,
		ActionKey: a.ActionKey, Status: a.Status, Title: a.Title, Message: a.Message, ApproverRole: a.ApproverRole,
		FormSchemaJSON: a.FormSchemaJSON(), DecidedBy: a.DecidedBy, Comment: a.Comment, DataJSON: a.DataJSON(),
		ExpiresAt: a.ExpiresAt, DecidedAt: a.DecidedAt, CreatedAt: a.CreatedAt,
	}
	v.CanDecide = a.Status == automation.ApprovalPending && !runEnded && s.Now().Before(a.ExpiresAt) && automation.RoleAtLeast(role, a.ApproverRole)
	if v.CanDecide {
		url := s.Workflows.ApprovalLinks.URL(a.ID)
		v.DecideURL = &url
	}
	return v
}

// approvalLinkView is what the signed link shows someone without an account.
type approvalLinkView struct {
	ApprovalID     uuid.UUID      `json:"approval_id"`
	Status         string         `json:"status"`
	Title          string         `json:"title"`
	Message        string         `json:"message"`
	FormSchemaJSON map[string]any `json:"form_schema_json"`
	ExpiresAt      time.Time      `json:"expires_at"`
	DecidedAt      *time.Time     `json:"decided_at"`
}

func viewApprovalLink(a *automation.Approval) approvalLinkView {
	return approvalLinkView{ApprovalID: a.ID, Status: a.Status, Title: a.Title, Message: a.Message,
		FormSchemaJSON: a.FormSchemaJSON(), ExpiresAt: a.ExpiresAt, DecidedAt: a.DecidedAt}
}

// decisionRequest is the body of a decision, by a member or through the link.
type decisionRequest struct {
	Decision string         `json:"decision"`
	Comment  string         `json:"comment"`
	Data     map[string]any `json:"data"`
}

// runApprovals serves GET /api/v1/runs/{workflow_run_id}/approvals (extension): the run's
// approvals in the order they began.
func (s *Server) runApprovals(c *gin.Context) {
	rows, err := s.Workflows.RunApprovals(c, run(c).ID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	role, ended := access(c).Role, run(c).Terminal()
	renderList(c, rows, "", func(a automation.Approval) approvalView { return s.viewApproval(a, role, ended) })
}

// approvalsWaiting serves GET /api/v1/approvals (extension): what waits for the caller's
// decision, in every company of theirs, the soonest to expire first.
func (s *Server) approvalsWaiting(c *gin.Context) {
	rows, err := s.Workflows.ApprovalsWaitingFor(c, actor(c).UserID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	// Every row is one the caller may decide, of a run still waiting: the list is filtered so.
	renderList(c, rows, "", func(a automation.Approval) approvalView { return s.viewApproval(a, company.RoleOwner, false) })
}

// approvalDecide serves POST /api/v1/approvals/{approval_id}/decision (extension): a member
// with the approver role (or a higher one) decides. Errors: 404 (another company's, or
// none), 403 approval_role_too_low, 400 (decision, comment, data), 409 approval_closed.
func (s *Server) approvalDecide(c *gin.Context) {
	id, err := httpx.PathID(c, "approval_id")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	a, acc, err := s.Workflows.ApprovalAccess(c, actor(c).UserID, id)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	if !automation.RoleAtLeast(acc.Role, a.ApproverRole) {
		httpx.WriteError(c, models.Forbidden("approval_role_too_low"))
		return
	}
	var req decisionRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	user, err := s.Auth.User(c, actor(c).UserID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	userID := user.ID
	decided, err := s.decide(c, a, automation.Decision{Decision: req.Decision, Comment: req.Comment, Data: req.Data, ByUserID: &userID, By: user.Email})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, s.viewApproval(*decided, acc.Role, false))
}

// decide records a decision and hands it to the waiting run.
func (s *Server) decide(c *gin.Context, a *automation.Approval, d automation.Decision) (*automation.Approval, error) {
	decided, err := s.Workflows.Decide(c, a, d)
	if err != nil {
		return nil, err
	}
	if err := s.Runs.DeliverDecision(c, decided); err != nil {
		// Recorded all the same: the run takes it when its wait times out.
		slog.WarnContext(c, "approval decided, the run not told yet", "approval_id", decided.ID, "err", err)
	}
	return decided, nil
}

// approvalLink reads the approval of a signed link's path. Errors: 404 (forged, expired).
func (s *Server) approvalLink(c *gin.Context) (*automation.Approval, error) {
	id, err := httpx.PathID(c, "approval_id")
	if err != nil {
		return nil, models.NotFound("approval_not_found")
	}
	return s.Workflows.ApprovalByLink(c, id, c.Param("token"))
}

// approvalLinkGet serves GET /api/v1/approval-links/{approval_id}/{token} (extension,
// public): a browser (which asks for HTML) is sent to the console's page of the link; a
// client asking for JSON gets what the link decides. Errors: 404 (forged, expired).
func (s *Server) approvalLinkGet(c *gin.Context) {
	a, err := s.approvalLink(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	if accept := c.GetHeader("Accept"); strings.Contains(accept, "text/html") && !strings.Contains(accept, "application/json") {
		c.Redirect(http.StatusSeeOther, "/approve/"+a.ID.String()+"/"+c.Param("token"))
		return
	}
	c.JSON(http.StatusOK, viewApprovalLink(a))
}

// approvalLinkDecide serves POST /api/v1/approval-links/{approval_id}/{token} (extension,
// public): the link's holder decides, once. Errors: 404 (forged, expired), 400 (decision,
// comment, data), 409 approval_closed (decided already, through the link or otherwise).
func (s *Server) approvalLinkDecide(c *gin.Context) {
	a, err := s.approvalLink(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	var req decisionRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	decided, err := s.decide(c, a, automation.Decision{Decision: req.Decision, Comment: req.Comment, Data: req.Data, ViaLink: true})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewApprovalLink(decided))
}
