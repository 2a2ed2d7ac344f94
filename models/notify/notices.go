package notify

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/aiemployee"
	"agencyhub/models/automation"
	"agencyhub/models/billing"
	"agencyhub/models/desktop"
	"agencyhub/models/sitechat"
	"agencyhub/models/work"
)

// runStarted counts the run.
func (n *Notifier) runStarted(_ context.Context, ev automation.RunStarted) (func(), error) {
	return func() { n.Metrics.RunStarted(ev.TriggerType) }, nil
}

// runFinished counts the run, and tells the owner of its workflow when it failed (a test
// run's author watches it already). A workflow that is gone has nobody to tell.
func (n *Notifier) runFinished(ctx context.Context, ev automation.RunFinished) (func(), error) {
	count := func() { n.Metrics.RunFinished(ev.TriggerType, string(ev.Status)) }
	if ev.Status != automation.RunFailed || ev.IsTest {
		return count, nil
	}
	w, err := n.Workflows.WorkflowOf(ctx, ev.CompanyID, ev.WorkflowID)
	if models.IsKind(err, models.KindNotFound) {
		return count, nil
	}
	if err != nil {
		return nil, err
	}
	notice := desktop.Notice{
		CompanyID:   ev.CompanyID,
		ProjectID:   &ev.ProjectID,
		Kind:        desktop.KindRunFailed,
		SubjectType: "workflow_run",
		SubjectID:   ev.RunID.String(),
		DedupeKey:   fmt.Sprintf("%s:%s:%d", desktop.KindRunFailed, ev.RunID, ev.FinishedAt.UnixMicro()),
	}
	return count, n.tell(ctx, notice, map[string]value{"workflow": plain(w.Name), "reason": plain(ev.Reason)}, w.CreatedBy)
}

// paymentDue tells the people who answer for the action, each of them once.
func (n *Notifier) paymentDue(ctx context.Context, ev billing.PaymentActionDue) (func(), error) {
	d, users, err := n.Billing.Answerers(ctx, ev.PaymentActionID)
	if models.IsKind(err, models.KindNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	notice := desktop.Notice{
		CompanyID:   d.CompanyID,
		ProjectID:   &d.ProjectID,
		Kind:        desktop.KindPaymentActionDue,
		SubjectType: "payment_action",
		SubjectID:   d.ID.String(),
		DedupeKey:   desktop.KindPaymentActionDue + ":" + d.ID.String(),
	}
	values := map[string]value{
		"client":   plain(d.ClientName),
		"amount":   sum{d.Total, d.Currency},
		"due_date": day(d.DueDate),
		"project":  plain(d.ProjectName),
	}
	return nil, n.tell(ctx, notice, values, users...)
}

// taskAssigned tells the assignee the task is theirs now, unless they assigned it
// themselves.
func (n *Notifier) taskAssigned(ctx context.Context, ev work.TaskAssigned) (func(), error) {
	if ev.By != nil && *ev.By == ev.AssigneeID {
		return nil, nil
	}
	notice := desktop.Notice{
		CompanyID:   ev.CompanyID,
		ProjectID:   ev.ProjectID,
		Kind:        desktop.KindTaskAssigned,
		SubjectType: "task",
		SubjectID:   ev.TaskID.String(),
		DedupeKey:   fmt.Sprintf("%s:%s:%s:%d", desktop.KindTaskAssigned, ev.TaskID, ev.AssigneeID, ev.Revision),
	}
	return nil, n.tell(ctx, notice, map[string]value{"task": plain(ev.Title), "description": plain(ev.Description)}, ev.AssigneeID)
}

// toolCallAwaitingApproval tells the session's user that a call waits for them.
func (n *Notifier) toolCallAwaitingApproval(ctx context.Context, ev aiemployee.ToolCallAwaitingApproval) (func(), error) {
	notice := desktop.Notice{
		CompanyID:   ev.CompanyID,
		ProjectID:   &ev.ProjectID,
		Kind:        desktop.KindToolCallNeedsApprove,
		SubjectType: "ai_tool_call",
		SubjectID:   ev.ToolCallID.String(),
		DedupeKey:   desktop.KindToolCallNeedsApprove + ":" + ev.ToolCallID.String(),
	}
	return nil, n.tell(ctx, notice, map[string]value{"tool": plain(ev.ToolKey)}, ev.UserID)
}

// conversationOpened tells the company's operators that a visitor started a conversation.
func (n *Notifier) conversationOpened(ctx context.Context, ev sitechat.ConversationOpened) (func(), error) {
	c, users, err := n.SiteChat.Operators(ctx, ev.ConversationID)
	if models.IsKind(err, models.KindNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	notice := desktop.Notice{
		CompanyID:   c.CompanyID,
		ProjectID:   &c.ProjectID,
		Kind:        desktop.KindConversationOpened,
		SubjectType: "site_chat_conversation",
		SubjectID:   c.ID.String(),
		DedupeKey:   desktop.KindConversationOpened + ":" + c.ID.String(),
	}
	return nil, n.tell(ctx, notice, map[string]value{"widget": plain(c.WidgetName), "page": plain(c.Title)}, users...)
}

// approvalRequested tells the members who may decide an approval that it waits for them.
func (n *Notifier) approvalRequested(ctx context.Context, ev automation.ApprovalRequested) (func(), error) {
	a, users, err := n.Workflows.Approvers(ctx, ev.ApprovalID)
	if models.IsKind(err, models.KindNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	notice := desktop.Notice{
		CompanyID:   a.CompanyID,
		ProjectID:   &a.ProjectID,
		Kind:        desktop.KindApprovalRequested,
		SubjectType: "workflow_run",
		SubjectID:   a.RunID.String(),
		DedupeKey:   desktop.KindApprovalRequested + ":" + a.ID.String(),
	}
	return nil, n.tell(ctx, notice, map[string]value{"title": plain(a.Title)}, users...)
}

// tell posts notice to each of users whose account still exists, its title and body the
// catalog's texts of its kind in the user's language, filled with values. Errors: internal.
func (n *Notifier) tell(ctx context.Context, notice desktop.Notice, values map[string]value, users ...uuid.UUID) error {
	if len(users) == 0 {
		return nil
	}
	langs, err := n.Users.LanguagesOf(ctx, users)
	if err != nil {
		return err
	}
	var notices []desktop.Notice
	for _, u := range users {
		lang, ok := langs[u]
		if !ok {
			continue
		}
		m := notice
		m.UserID = u
		m.Title, m.Body = text(lang, notice.Kind, values)
		notices = append(notices, m)
	}
	return n.Inbox.Post(ctx, notices...)
}
