package automation

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/schemas"
)

// TypeApproval waits for a person's decision: approved, rejected, or none before its
// timeout (docs/workflows.md, "Approvals").
const TypeApproval = "approval.wait"

// Branches of an approval.wait: the decision taken, or "timeout" when none came in time.
const (
	BranchApproved = "approved"
	BranchRejected = "rejected"
)

// Statuses of an approval, and the decisions a person may take (approved, rejected).
const (
	ApprovalPending  = "pending"
	ApprovalApproved = "approved"
	ApprovalRejected = "rejected"
	ApprovalTimedOut = "timed_out"
)

// DecidedByLink is the decided_by of a decision taken through the signed link.
const DecidedByLink = "link"

// maxApprovalComment bounds a decision's comment, in characters.
const maxApprovalComment = 2000

// Approval is one approval.wait of a run: what it asks, who may decide, and the decision.
type Approval struct {
	ID           uuid.UUID `gorm:"primaryKey"`
	CompanyID    uuid.UUID
	ProjectID    uuid.UUID
	WorkflowID   uuid.UUID
	RunID        uuid.UUID
	ActionKey    string
	Title        string
	Message      string
	ApproverRole company.Role
	// FormSchema is the JSON Schema of the data the approver fills (JSON); nil for none.
	FormSchema      *string
	Status          string
	DecidedByUserID *uuid.UUID
	// DecidedBy is the deciding member's e-mail address, DecidedByLink, or "" (pending, timed out).
	DecidedBy string
	Comment   string
	// Data is what the approver filled (JSON); nil for nothing.
	Data       *string
	ExpiresAt  time.Time
	DecidedAt  *time.Time
	LinkUsedAt *time.Time
	// DeliveredAt is when the run was handed the decision; nil before (Undelivered).
	DeliveredAt *time.Time
	CreatedAt   time.Time
}

func (Approval) TableName() string { return "workflow_approvals" }

// FormSchemaJSON decodes the approval's form schema; nil when it has none.
func (a Approval) FormSchemaJSON() map[string]any {
	if a.FormSchema == nil {
		return nil
	}
	return DecodeObject(*a.FormSchema)
}

// DataJSON decodes what the approver filled; nil when nothing.
func (a Approval) DataJSON() map[string]any {
	if a.Data == nil {
		return nil
	}
	return DecodeObject(*a.Data)
}

// Output is steps.<action_key> once the approval is decided or timed out, as the
// interpreter hands it on; decision is the status (approved, rejected, timed_out).
func (a Approval) Output() map[string]any {
	data := a.DataJSON()
	if data == nil {
		data = map[string]any{}
	}
	return map[string]any{
		"approval_id": a.ID.String(), "decide_url": ApprovalLinkMarker(a.RunID, a.ActionKey),
		"decision": a.Status, "decided_by": a.DecidedBy, "comment": a.Comment, "data": data,
	}
}

// ApprovalID is the id of a run's approval.wait: derived from the run and the action, so
// that the run knows it (and its link) before the wait begins, and a wait recorded again
// (a retried activity) is the same approval.
func ApprovalID(runID uuid.UUID, actionKey string) uuid.UUID {
	return uuid.NewSHA1(runID, []byte(TypeApproval+"/"+actionKey))
}

// approvalLinkPrefix starts the marker a run's templates see for an approval's link.
const approvalLinkPrefix = "approval-link:"

// ApprovalLinkMarker is steps.<action_key>.decide_url as templates render it in the
// workflow: a marker, not the signed link, which must not enter Temporal's history. The
// worker swaps it for the link in the config of the action it runs (ApprovalLinks.Resolve).
func ApprovalLinkMarker(runID uuid.UUID, actionKey string) string {
	return approvalLinkPrefix + runID.String() + "/" + actionKey
}

// ApprovalScope is what templates see of a run's approval.wait actions that have not
// finished: steps.<key>.approval_id and steps.<key>.decide_url (its marker).
func ApprovalScope(g Graph, runID uuid.UUID) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, a := range g.Actions {
		if a.ActionTypeKey == TypeApproval {
			out[a.ActionKey] = map[string]any{
				"approval_id": ApprovalID(runID, a.ActionKey).String(), "decide_url": ApprovalLinkMarker(runID, a.ActionKey),
			}
		}
	}
	return out
}

// ApprovalLinks signs the decide links of approvals: a link's token is an HMAC of the
// approval's id under Key, so no token is stored and a forged one is found out without a
// read. BaseURL is the service's public address, where /api/v1/approval-links answers.
type ApprovalLinks struct {
	Key     []byte
	BaseURL string
}

// Token is the token of an approval's link.
func (l ApprovalLinks) Token(id uuid.UUID) string {
	m := hmac.New(sha256.New, l.Key)
	m.Write([]byte("approval-link|" + id.String()))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// URL is an approval's decide link.
func (l ApprovalLinks) URL(id uuid.UUID) string {
	return strings.TrimRight(l.BaseURL, "/") + "/api/v1/approval-links/" + id.String() + "/" + l.Token(id)
}

// Valid reports whether token signs id.
func (l ApprovalLinks) Valid(id uuid.UUID, token string) bool {
	return len(l.Key) > 0 && hmac.Equal([]byte(token), []byte(l.Token(id)))
}

// Resolve swaps the approval link markers of runID in the strings of v (an action's
// rendered config) for the links, and answers the result with the links it put in. A
// marker of another run stays as it is, so a template cannot mint another run's link.
func (l ApprovalLinks) Resolve(runID uuid.UUID, v any) (any, map[string]string) {
	put := map[string]string{}
	prefix := approvalLinkPrefix + runID.String() + "/"
	out := mapStrings(v, func(s string) any {
		if !strings.Contains(s, prefix) {
			return s
		}
		var b strings.Builder
		for {
			i := strings.Index(s, prefix)
			if i < 0 {
				b.WriteString(s)
				return b.String()
			}
			b.WriteString(s[:i])
			rest := s[i+len(prefix):]
			n := 0
			for n < len(rest) && (rest[n] == '_' || rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= '0' && rest[n] <= '9') {
				n++
			}
			key := rest[:n]
			if ActionKeyPattern.MatchString(key) {
				url := l.URL(ApprovalID(runID, key))
				put[url] = ApprovalLinkMarker(runID, key)
				b.WriteString(url)
			} else {
				b.WriteString(prefix + key)
			}
			s = rest[n:]
		}
	})
	return out, put
}

// Unresolve puts the markers back for the links Resolve put in, in what an action answered
// (a message echoed back), so that no link reaches Temporal's history that way either.
func Unresolve(v any, put map[string]string) any {
	if m, ok := v.(map[string]any); len(put) == 0 || v == nil || ok && m == nil {
		return v
	}
	pairs := make([]string, 0, 2*len(put))
	for url, marker := range put {
		pairs = append(pairs, url, marker)
	}
	r := strings.NewReplacer(pairs...)
	return mapStrings(v, func(s string) any { return r.Replace(s) })
}

// mapStrings answers v with every string inside it replaced by what fn makes of it, copying
// the maps and lists on the way (Render, Resolve and Unresolve walk configs with it).
func mapStrings(v any, fn func(string) any) any {
	switch x := v.(type) {
	case string:
		return fn(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = mapStrings(e, fn)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = mapStrings(e, fn)
		}
		return out
	}
	return v
}

// RoleAtLeast reports whether a member's role is approver or a more privileged one (an
// owner may decide what waits for an admin).
func RoleAtLeast(have, approver company.Role) bool {
	h, a := slices.Index(company.Roles, have), slices.Index(company.Roles, approver)
	return h >= 0 && a >= 0 && h <= a
}

// ApprovalRequested is the domain event of an approval that began waiting: its approvers
// get a desktop notice.
type ApprovalRequested struct {
	ApprovalID uuid.UUID `json:"approval_id"`
}

func (ApprovalRequested) EventName() string { return "workflow_approval.requested" }

// ApprovalRequest is what an approval.wait records as it begins waiting.
type ApprovalRequest struct {
	CompanyID, ProjectID, RunID uuid.UUID
	ActionKey                   string
	Title, Message              string
	ApproverRole                company.Role
	FormSchema                  map[string]any
	Timeout                     time.Duration
}

// RequestApproval records that a run's action waits for a decision until Timeout from now,
// and announces it to the approvers (ApprovalRequested); it answers the approval and the
// time left to wait. Recording it again (a retried activity) answers the approval as it
// stands, decided or not, with the time left of the first. Errors: not_found (the run),
// internal.
func (s *Service) RequestApproval(ctx context.Context, r ApprovalRequest) (*Approval, time.Duration, error) {
	run, err := s.Run(ctx, r.RunID)
	if err != nil {
		return nil, 0, err
	}
	if run.CompanyID != r.CompanyID {
		return nil, 0, models.NotFound("run_not_found")
	}
	now := s.now()
	a := Approval{
		ID: ApprovalID(r.RunID, r.ActionKey), CompanyID: run.CompanyID, ProjectID: run.ProjectID, WorkflowID: run.WorkflowID,
		RunID: run.ID, ActionKey: r.ActionKey, Title: r.Title, Message: r.Message, ApproverRole: r.ApproverRole,
		Status: ApprovalPending, ExpiresAt: now.Add(r.Timeout), CreatedAt: now,
	}
	if r.FormSchema != nil {
		raw, _ := json.Marshal(r.FormSchema)
		text := string(raw)
		a.FormSchema = &text
	}
	err = s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&a)
		if res.Error != nil || res.RowsAffected == 0 {
			return res.Error
		}
		return models.RecordEvent(tx, now, ApprovalRequested{ApprovalID: a.ID})
	})
	if err != nil {
		return nil, 0, models.Internal("record approval: %w", err)
	}
	models.AnnounceEvents(ctx, s.Bus)
	stored, err := s.approval(ctx, a.ID)
	if err != nil {
		return nil, 0, err
	}
	return stored, stored.ExpiresAt.Sub(now), nil
}

func (s *Service) approval(ctx context.Context, id uuid.UUID) (*Approval, error) {
	var a Approval
	err := s.DB.WithContext(ctx).Take(&a, "id = ?", id).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("approval_not_found")
	}
	if err != nil {
		return nil, models.Internal("read approval: %w", err)
	}
	return &a, nil
}

// ApprovalAccess reads an approval with the caller's standing in its company. Errors:
// not_found (also another company's).
func (s *Service) ApprovalAccess(ctx context.Context, userID, id uuid.UUID) (*Approval, *company.Access, error) {
	return company.LoadOwned(ctx, s.Company, userID, id, "approval_not_found", func(a *Approval) uuid.UUID { return a.CompanyID })
}

// ApprovalByLink reads the approval a decide link names, while it is open or decided: a
// token that does not sign the id, or an approval whose time is up or whose run ended while
// it waited, is not found.
// Errors: not_found.
func (s *Service) ApprovalByLink(ctx context.Context, id uuid.UUID, token string) (*Approval, error) {
	if !s.ApprovalLinks.Valid(id, token) {
		return nil, models.NotFound("approval_not_found")
	}
	a, err := s.approval(ctx, id)
	if err != nil {
		return nil, err
	}
	if a.Status == ApprovalTimedOut || a.Status == ApprovalPending && !s.now().Before(a.ExpiresAt) {
		return nil, models.NotFound("approval_not_found")
	}
	if a.Status == ApprovalPending {
		var open int64
		if err := s.DB.WithContext(ctx).Model(&Approval{}).Where("id = ?", a.ID).Where(openRun, openStatuses).Count(&open).Error; err != nil {
			return nil, models.Internal("read approval's run: %w", err)
		}
		if open == 0 {
			return nil, models.NotFound("approval_not_found") // its run ended while it waited
		}
	}
	return a, nil
}

// RunApprovals lists a run's approvals in the order they began. Errors: internal.
func (s *Service) RunApprovals(ctx context.Context, runID uuid.UUID) ([]Approval, error) {
	var out []Approval
	if err := s.DB.WithContext(ctx).Where("run_id = ?", runID).Order("created_at, id").Find(&out).Error; err != nil {
		return nil, models.Internal("list approvals: %w", err)
	}
	return out, nil
}

// openRun narrows approvals to those of runs that have not ended: a run cancelled while its
// approval waited takes no decision any more.
const openRun = "EXISTS (SELECT 1 FROM workflow_runs WHERE workflow_runs.id = workflow_approvals.run_id AND workflow_runs.status IN ?)"

// openStatuses are the statuses of a run that has not ended.
var openStatuses = []RunStatus{RunPending, RunRunning, RunWaiting}

// maxWaitingApprovals bounds the list of what waits for one person.
const maxWaitingApprovals = 200

// ApprovalsWaitingFor lists the pending, unexpired approvals a user may decide, in every
// company they belong to, the soonest to expire first. Errors: internal.
func (s *Service) ApprovalsWaitingFor(ctx context.Context, userID uuid.UUID) ([]Approval, error) {
	var rows []struct {
		Approval
		MemberRole company.Role
	}
	err := s.DB.WithContext(ctx).Table("workflow_approvals").
		Select("workflow_approvals.*, company_members.role AS member_role").
		Joins("JOIN company_members ON company_members.company_id = workflow_approvals.company_id AND company_members.user_id = ?", userID).
		Where("workflow_approvals.status = ? AND workflow_approvals.expires_at > ?", ApprovalPending, s.now()).Where(openRun, openStatuses).
		Order("workflow_approvals.expires_at, workflow_approvals.id").Limit(maxWaitingApprovals).Find(&rows).Error
	if err != nil {
		return nil, models.Internal("list waiting approvals: %w", err)
	}
	out := []Approval{}
	for _, r := range rows {
		if RoleAtLeast(r.MemberRole, r.ApproverRole) {
			out = append(out, r.Approval)
		}
	}
	return out, nil
}

// Approvers reads an approval and the members who may decide it. Errors: not_found,
// internal.
func (s *Service) Approvers(ctx context.Context, id uuid.UUID) (*Approval, []uuid.UUID, error) {
	a, err := s.approval(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	var members []company.Member
	if err := s.DB.WithContext(ctx).Where("company_id = ?", a.CompanyID).Order("user_id").Find(&members).Error; err != nil {
		return nil, nil, models.Internal("read approvers: %w", err)
	}
	var users []uuid.UUID
	for _, m := range members {
		if RoleAtLeast(m.Role, a.ApproverRole) {
			users = append(users, m.UserID)
		}
	}
	return a, users, nil
}

// Decision is a person's answer to an approval.
type Decision struct {
	Decision string
	Comment  string
	Data     map[string]any
	// ByUserID and By are the deciding member and their e-mail address; for a decision
	// through the signed link, ByUserID is nil and ViaLink is set.
	ByUserID *uuid.UUID
	By       string
	ViaLink  bool
}

// Decide records a decision of a pending approval whose time is not up, by a conditional
// update, so of two decisions at once one wins and the other is a conflict; data must
// match the approval's form schema. Errors: invalid (decision, comment, data), conflict
// (approval_closed: decided already, timed out, or its run ended), internal.
func (s *Service) Decide(ctx context.Context, a *Approval, d Decision) (*Approval, error) {
	if d.Decision != ApprovalApproved && d.Decision != ApprovalRejected {
		return nil, models.Invalid("invalid_decision", "decision")
	}
	if utf8.RuneCountInString(d.Comment) > maxApprovalComment {
		return nil, models.Invalid("comment_too_long", "comment")
	}
	var data *string
	if doc := a.FormSchemaJSON(); doc != nil || d.Data != nil {
		if d.Data == nil {
			d.Data = map[string]any{}
		}
		if doc != nil {
			compiled, err := schemas.CompileJSONSchema(doc)
			if err != nil || compiled.Validate(any(d.Data)) != nil {
				return nil, models.Invalid("approval_data_invalid", "data")
			}
		}
		raw, _ := json.Marshal(d.Data)
		text := string(raw)
		data = &text
	}
	now := s.now()
	updates := map[string]any{
		"status": d.Decision, "decided_by_user_id": d.ByUserID, "decided_by": d.By, "comment": d.Comment,
		"data": data, "decided_at": now,
	}
	if d.ViaLink {
		updates["decided_by"], updates["link_used_at"] = DecidedByLink, now
	}
	res := s.DB.WithContext(ctx).Model(&Approval{}).
		Where("id = ? AND status = ? AND expires_at > ?", a.ID, ApprovalPending, now).Where(openRun, openStatuses).Updates(updates)
	if res.Error != nil {
		return nil, models.Internal("record decision: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return nil, models.Conflict("approval_closed")
	}
	return s.approval(ctx, a.ID)
}

// ExpireApproval records that an approval's wait timed out, unless a decision came first,
// and answers the approval as it stands: a decision that won the race is honoured.
// Errors: not_found, internal.
func (s *Service) ExpireApproval(ctx context.Context, id uuid.UUID) (*Approval, error) {
	err := s.DB.WithContext(ctx).Model(&Approval{}).Where("id = ? AND status = ?", id, ApprovalPending).
		Update("status", ApprovalTimedOut).Error
	if err != nil {
		return nil, models.Internal("record approval timeout: %w", err)
	}
	return s.approval(ctx, id)
}

// maxUndelivered bounds one read of the decisions not handed to their runs yet.
const maxUndelivered = 64

// UndeliveredDecisions lists decisions recorded but not yet handed to their runs (the
// signal failed, or the server stopped in between), oldest first. Errors: internal.
func (s *Service) UndeliveredDecisions(ctx context.Context) ([]Approval, error) {
	var out []Approval
	err := s.DB.WithContext(ctx).Where("decided_at IS NOT NULL AND delivered_at IS NULL").
		Order("decided_at, id").Limit(maxUndelivered).Find(&out).Error
	if err != nil {
		return nil, models.Internal("read undelivered decisions: %w", err)
	}
	return out, nil
}

// DecisionDelivered records that an approval's run has its decision. Errors: internal.
func (s *Service) DecisionDelivered(ctx context.Context, id uuid.UUID) error {
	if err := s.DB.WithContext(ctx).Model(&Approval{}).Where("id = ?", id).Update("delivered_at", s.now()).Error; err != nil {
		return models.Internal("record decision delivered: %w", err)
	}
	return nil
}
