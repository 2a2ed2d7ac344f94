package engine

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	"agencyhub/models"
	"agencyhub/models/automation"
)

// approvalFlow mails the approver the decide link, waits for the decision and mails the
// outcome along the branch the decision takes.
func approvalFlow() automation.Graph {
	return graph([]automation.Action{
		manualTrigger("start"),
		emailSend("ask", map[string]any{"body": "Decide at {{ steps.approve.decide_url }}"}),
		approvalWait("approve", 3600),
		emailSend("on_approved", map[string]any{"body": "{{ steps.approve.decided_by }}: {{ steps.approve.comment }}"}),
		emailSend("on_rejected", nil),
		emailSend("on_timeout", nil),
	}, edge("start", "ask"), edge("ask", "approve"), branch("approve", "on_approved", automation.BranchApproved),
		branch("approve", "on_rejected", automation.BranchRejected), branch("approve", "on_timeout", automation.BranchTimeout))
}

// decideAfter records a decision of the run's approval after d, as the API does, and
// signals it to the run unless lost is set (the signal never got through).
func (h *engineTest) decideAfter(in RunInput, d time.Duration, decision automation.Decision, lost bool) func(*testsuite.TestWorkflowEnvironment) {
	return func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(func() {
			a := h.onlyApproval(in)
			decided, err := h.workflows.Decide(context.Background(), &a, decision)
			if err != nil {
				h.t.Errorf("decide: %v", err)
				return
			}
			if !lost {
				env.SignalWorkflow(ApprovalSignal(a.ActionKey), decided.Output())
			}
		}, d)
	}
}

func (h *engineTest) onlyApproval(in RunInput) automation.Approval {
	h.t.Helper()
	list, err := h.workflows.RunApprovals(context.Background(), in.RunID)
	if err != nil || len(list) != 1 {
		h.t.Fatalf("approvals %v, %v; want one", list, err)
	}
	return list[0]
}

// wantBranch asserts which of the outcome mails ran.
func wantBranch(t *testing.T, p projection, ran string) {
	t.Helper()
	for _, key := range []string{"on_approved", "on_rejected", "on_timeout"} {
		want := automation.ActionSkipped
		if key == ran {
			want = automation.ActionSucceeded
		}
		if got := p.status(key); got != want {
			t.Errorf("%s is %s, want %s", key, got, want)
		}
	}
}

func TestAnApprovalGoesOnAlongTheDecisionTaken(t *testing.T) {
	boss := models.NewID()
	for _, tc := range []struct {
		name     string
		decision automation.Decision
		ran      string
	}{
		{"approved", automation.Decision{Decision: "approved", Comment: "fine", ByUserID: &boss, By: "boss@example.com"}, "on_approved"},
		{"rejected", automation.Decision{Decision: "rejected", Comment: "too much", ByUserID: &boss, By: "boss@example.com"}, "on_rejected"},
		{"approved through the link", automation.Decision{Decision: "approved", ViaLink: true}, "on_approved"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newEngineTest(t)
			h.workflows.ApprovalLinks = automation.ApprovalLinks{Key: []byte("approval-test-key"), BaseURL: "https://hub.test"}
			in := h.newRun(approvalFlow(), "start", map[string]any{"amount": 120})
			p := h.execute(in, h.decideAfter(in, 10*time.Minute, tc.decision, false))
			h.succeeded()
			wantRun(t, p, automation.RunSucceeded)
			wantBranch(t, p, tc.ran)
			out := p.action(t, "approve").Output
			wantBy := tc.decision.By
			if tc.decision.ViaLink {
				wantBy = automation.DecidedByLink
			}
			if out["decision"] != tc.decision.Decision || out["decided_by"] != wantBy || out["comment"] != tc.decision.Comment {
				t.Errorf("the approval answered %v", out)
			}
			a := h.onlyApproval(in)
			if a.Title != "Refund 120" || a.Status != tc.decision.Decision || a.ApproverRole != "admin" {
				t.Errorf("the approval is recorded as %+v", a)
			}
			// The mail got the signed link; what the run recorded keeps the marker.
			link := h.workflows.ApprovalLinks.URL(automation.ApprovalID(in.RunID, "approve"))
			if got := h.onlyRequest("ask").Config["body"]; got != "Decide at "+link {
				t.Errorf("the mail was sent %q, want the link %s", got, link)
			}
			echo, _ := p.action(t, "ask").Output["echo"].(map[string]any)
			if got := echo["body"]; got != "Decide at "+automation.ApprovalLinkMarker(in.RunID, "approve") {
				t.Errorf("the run recorded %q: the link left the worker", got)
			}
			if waited := p.indexOf("action.waiting", "approve"); waited < 0 {
				t.Errorf("the approval never waited: %v", p.eventsOf())
			}
		})
	}
}

func TestAnApprovalNobodyDecidesTimesOutAndRefusesALateDecision(t *testing.T) {
	h := newEngineTest(t)
	in := h.newRun(approvalFlow(), "start", map[string]any{"amount": 5})
	p := h.execute(in)
	h.succeeded()
	wantRun(t, p, automation.RunSucceeded)
	wantBranch(t, p, "on_timeout")
	if out := p.action(t, "approve").Output; out["decision"] != automation.ApprovalTimedOut {
		t.Errorf("the approval answered %v", out)
	}
	a := h.onlyApproval(in)
	if a.Status != automation.ApprovalTimedOut {
		t.Fatalf("the approval is %s, want timed_out", a.Status)
	}
	_, err := h.workflows.Decide(context.Background(), &a, automation.Decision{Decision: "approved", By: "late@example.com"})
	if e := models.AsError(err); e.Kind != models.KindConflict || e.Key != "approval_closed" {
		t.Errorf("a decision after the timeout answered %v, want the conflict approval_closed", err)
	}
	if a = h.onlyApproval(in); a.Status != automation.ApprovalTimedOut || a.DecidedBy != "" {
		t.Errorf("the late decision changed the approval: %+v", a)
	}
}

func TestADecisionWhoseSignalWasLostIsTakenWhenTheWaitTimesOut(t *testing.T) {
	h := newEngineTest(t)
	in := h.newRun(approvalFlow(), "start", nil)
	p := h.execute(in, h.decideAfter(in, 10*time.Minute, automation.Decision{Decision: "rejected", By: "boss@example.com"}, true))
	h.succeeded()
	wantBranch(t, p, "on_rejected")
	if out := p.action(t, "approve").Output; out["decision"] != "rejected" || out["decided_by"] != "boss@example.com" {
		t.Errorf("the approval answered %v", out)
	}
}
