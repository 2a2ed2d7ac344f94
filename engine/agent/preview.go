package agent

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/aiemployee"
	"agencyhub/models/automation"
	"agencyhub/models/billing"
	"agencyhub/models/company"
)

var uuidPattern = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

// paymentWords make the preview answer with the due payments.
var paymentWords = []string{"pay", "due", "invoice", "bill", "оплат", "плат", "счет", "счёт", "долг"}

// preview is the deterministic answer of an employee without a usable model: what it
// can tell from the project's data alone (a run the message or the page names, with its
// failure and retry class; the due payments when asked; else what the project holds),
// followed by what to configure for a model to answer.
func (a *Agent) preview(ctx context.Context, sess *aiemployee.Session, p *company.Project, c aiemployee.Capability) (string, error) {
	msgs, _, err := a.Store.Transcript(ctx, sess.ID)
	if err != nil {
		return "", err
	}
	question := ""
	for _, m := range msgs {
		if m.Role == aiemployee.RoleUser {
			question = m.Content
		}
	}
	var parts []string
	if run := a.previewRun(ctx, sess, p, question); run != "" {
		parts = append(parts, run)
	}
	lower := strings.ToLower(question)
	for _, w := range paymentWords {
		if strings.Contains(lower, w) {
			due, err := a.previewPayments(ctx, p)
			if err != nil {
				return "", err
			}
			parts = append(parts, due)
			break
		}
	}
	if len(parts) == 0 {
		overview, err := a.previewOverview(ctx, p)
		if err != nil {
			return "", err
		}
		parts = append(parts, overview)
	}
	parts = append(parts, previewSetup(c))
	return strings.Join(parts, "\n\n"), nil
}

// previewRun describes the run named in the question or the page, if it is the project's.
func (a *Agent) previewRun(ctx context.Context, sess *aiemployee.Session, p *company.Project, question string) string {
	candidates := uuidPattern.FindAllString(question, -1)
	if id, _ := sess.PageContext["workflowRunId"].(string); id != "" {
		candidates = append(candidates, id)
	}
	for _, raw := range candidates {
		id, err := uuid.Parse(raw)
		if err != nil {
			continue
		}
		r, err := a.Workflows.Run(ctx, id)
		if err != nil || r.CompanyID != p.CompanyID || r.ProjectID != p.ID {
			continue
		}
		actions, err := a.Workflows.ActionRuns(ctx, r)
		if err != nil {
			continue
		}
		return describeRun(r, actions)
	}
	return ""
}

func describeRun(r *automation.Run, actions []automation.ActionRun) string {
	text := fmt.Sprintf("Run %s is %s.", r.ID, r.Status)
	for _, ar := range actions {
		if ar.Status != automation.ActionFailed && ar.Status != automation.ActionDeadLettered {
			continue
		}
		reason := ""
		if ar.Error != nil {
			reason = *ar.Error
		}
		text += fmt.Sprintf(" Action %s (%s) %s after %d attempt(s): %s Retry class: %s — %s", ar.ActionKey, ar.ActionTypeKey,
			ar.Status, ar.AttemptCount, reason, ar.RetryClass, retryAdvice(ar.RetryClass))
	}
	return text
}

// retryAdvice says what a retry class means for the user.
func retryAdvice(class string) string {
	switch class {
	case "transient", "rate_limited":
		return "a passing failure: retrying the action (retry-action) should work."
	case "validation":
		return "the action's configuration or input is wrong: fix the draft, publish, then retry."
	case "auth":
		return "the integration's credential was refused: rotate it, then retry."
	case "timeout_unknown", "unknown_outcome":
		return "it may have taken effect: check the target before retrying."
	case "canceled":
		return "the run was cancelled: replay it if it is still needed."
	}
	return "the target refused for good: change the action before retrying."
}

func (a *Agent) previewPayments(ctx context.Context, p *company.Project) (string, error) {
	rows, _, err := a.Billing.PaymentActions(
		ctx,
		billing.PaymentActionFilter{ProjectID: p.ID, Statuses: openPayments},
		models.PageRequest{Limit: 20},
	)
	if err != nil {
		return "", err
	}
	if len(rows) == 0 {
		return "No payments of this project await confirmation.", nil
	}
	lines := []string{fmt.Sprintf("Payments awaiting confirmation (%d):", len(rows))}
	for _, r := range rows {
		lines = append(lines, fmt.Sprintf("- %s: %s %s due %s (%s)", r.ClientName, r.Total.String(), r.Currency, r.DueDate.String(), r.Status))
	}
	return strings.Join(lines, "\n"), nil
}

func (a *Agent) previewOverview(ctx context.Context, p *company.Project) (string, error) {
	workflows, _, err := a.Workflows.List(ctx, p.ID, "", false, models.PageRequest{Limit: models.MaxPageLimit})
	if err != nil {
		return "", err
	}
	published, failed := 0, 0
	for _, w := range workflows {
		if w.CurrentVersionID != nil {
			published++
		}
		runs, _, err := a.Workflows.Runs(ctx, &w, automation.RunFilter{Status: automation.RunFailed}, models.PageRequest{Limit: 20})
		if err != nil {
			return "", err
		}
		failed += len(runs)
	}
	due, _, err := a.Billing.PaymentActions(
		ctx,
		billing.PaymentActionFilter{ProjectID: p.ID, Statuses: openPayments},
		models.PageRequest{Limit: models.MaxPageLimit},
	)
	if err != nil {
		return "", err
	}
	text := fmt.Sprintf("Project %s has %d workflow(s), %d published; %d recent failed run(s); %d payment(s) awaiting confirmation.",
		p.Name, len(workflows), published, failed, len(due))
	if failed > 0 {
		text += " Ask me about a run by its id to see why it failed."
	}
	return text, nil
}

// previewSetup says what to configure for a model to answer.
func previewSetup(c aiemployee.Capability) string {
	switch c.Dependencies[aiemployee.DependencyModelProvider].Status {
	case aiemployee.DependencyUntested:
		return "This is a preview answered without a model. Test the project's AI model provider integration (its " +
			"test action) so that a model can answer."
	case aiemployee.DependencyFailed:
		return "This is a preview answered without a model: the AI model provider integration failed its last " +
			"test. Check its base_url and api_key, then test it again."
	case aiemployee.DependencyDisabled:
		return "This is a preview answered without a model: the chosen AI model provider integration is disabled. Enable it or choose another."
	}
	return "This is a preview answered without a model. Add an ai.model_provider integration (any " +
		"OpenAI-compatible chat completions API: base_url and api_key) and test it, " +
		"so that a model can answer and use tools."
}
