package api_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/migrations/dbtest"
	"agencyhub/models/automation"
)

// approvalDraft sends the decide link to the approver first, then waits for the decision
// (with a form asking an amount) and posts the outcome along its branch.
func approvalDraft(target string, timeout int) map[string]any {
	post := func(key, path, body string) map[string]any {
		return act(key, "http.request", map[string]any{"method": "POST", "url": target + path, "body": body})
	}
	return draft([]any{
		act("start", "manual.trigger", map[string]any{}),
		post("ask", "/ask", "{{ steps.approve.decide_url }}"),
		act("approve", "approval.wait", map[string]any{"title": "Refund {{ start.amount }}", "message": "Order {{ start.order }}",
			"approver_role": "admin", "timeout_seconds": timeout, "form_schema_json": map[string]any{
				"type": "object", "properties": map[string]any{"amount": map[string]any{"type": "number"}}, "additionalProperties": false}}),
		post("on_approved", "/approved", "{{ steps.approve.decided_by }}|{{ steps.approve.comment }}|{{ steps.approve.data.amount }}"),
		post("on_rejected", "/rejected", "{{ steps.approve.decided_by }}|{{ steps.approve.comment }}"),
		post("on_timeout", "/timeout", "{{ steps.approve.decision }}"),
	}, edge("start", "ask", ""), edge("ask", "approve", ""), edge("approve", "on_approved", "approved"),
		edge("approve", "on_rejected", "rejected"), edge("approve", "on_timeout", "timeout"))
}

// approvalOf answers a run's one approval as u sees it.
func (j *journey) approvalOf(u user, runID string) map[string]any {
	j.t.Helper()
	items := j.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/approvals", token: u.token}).expect(j.t, http.StatusOK).items()
	if len(items) != 1 {
		j.t.Fatalf("the run has approvals %v, want one", items)
	}
	return items[0]
}

// linkPath is the path of a decide link on this server.
func linkPath(t *testing.T, approval map[string]any) string {
	t.Helper()
	url, _ := approval["decide_url"].(string)
	path, ok := strings.CutPrefix(url, "http://api.test")
	if !ok || !strings.HasPrefix(path, "/api/v1/approval-links/") {
		t.Fatalf("decide_url %q is not a link of this server", url)
	}
	return path
}

// TestAnApprovalIsDecidedOnceByAnApproverOrItsLink: while a run waits, its approvers (an
// admin, the owner) are told and see the link the run sent before the wait; a member is
// refused (403), another company's user does not find it (404), form data is checked; a
// decision moves the run on along its branch with decided_by, comment and data, and a
// second decision, through the link too, is 409. The link decides without an account,
// once; forged or past its time it is 404; a wait nobody answers times out.
func TestAnApprovalIsDecidedOnceByAnApproverOrItsLink(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		owner := e.signUp("Ada")
		companyID := e.companyOf(owner, "Northwind")
		j := &journey{env: e, u: owner, projectID: e.projectIn(owner, companyID, "Shop"), target: startTarget(t)}
		boss, clerk, stranger := e.signUp("Bea"), e.signUp("Cid"), e.signUp("Dan")
		e.addToCompany(owner, companyID, boss, "admin")
		e.addToCompany(owner, companyID, clerk, "member")
		e.companyOf(stranger, "Elsewhere")
		id := j.create("Refunds", approvalDraft(j.target.URL, 3600))
		j.publish(id, 1)
		decide := func(s *journey, u user, approvalID string, body map[string]any) *response {
			return s.do(req{method: "POST", path: "/api/v1/approvals/" + approvalID + "/decision", token: u.token, body: body})
		}

		t.Run("an admin decides; others are refused, and a second decision changes nothing", func(t *testing.T) {
			s := j.sub(t)
			runID := s.runManual(id, map[string]any{"amount": 120.0, "order": "A-1"}).str("workflow_run_id")
			s.waitStatus(runID, "waiting")
			a := s.approvalOf(boss, runID)
			approvalID := a["approval_id"].(string)
			if a["status"] != "pending" || a["title"] != "Refund 120" || a["message"] != "Order A-1" || a["can_decide"] != true || a["action_key"] != "approve" {
				t.Fatalf("the approval reads %v", a)
			}
			if sent := s.target.bodiesOf("/ask"); !slices.Equal(sent, []string{a["decide_url"].(string)}) {
				t.Errorf("the message before the wait carried %q, want the link %v", sent, a["decide_url"])
			}
			if seen := s.approvalOf(clerk, runID); seen["decide_url"] != nil || seen["can_decide"] != false {
				t.Errorf("a member who may not decide sees %v", seen)
			}
			e.notified()
			if titles, _ := s.inbox(t, boss, ""); !slices.Contains(titles, "Waiting for your approval: Refund 120") {
				t.Errorf("the admin's inbox has %v", titles)
			}
			if titles, _ := s.inbox(t, clerk, ""); slices.Contains(titles, "Waiting for your approval: Refund 120") {
				t.Errorf("a member who may not decide was told: %v", titles)
			}
			waiting := s.do(req{method: "GET", path: "/api/v1/approvals", token: boss.token}).expect(t, http.StatusOK).items()
			if len(waiting) != 1 || waiting[0]["approval_id"] != approvalID {
				t.Errorf("what waits for the admin: %v", waiting)
			}
			if none := s.do(req{method: "GET", path: "/api/v1/approvals", token: clerk.token}).expect(t, http.StatusOK).items(); len(none) != 0 {
				t.Errorf("what waits for a member: %v", none)
			}

			decide(s, clerk, approvalID, map[string]any{"decision": "approved"}).expect(t, http.StatusForbidden)
			decide(s, stranger, approvalID, map[string]any{"decision": "approved"}).expect(t, http.StatusNotFound)
			decide(s, boss, approvalID, map[string]any{"decision": "approved", "data": map[string]any{"amount": "lots"}}).expect(t, http.StatusBadRequest, "data")
			got := decide(s, boss, approvalID, map[string]any{"decision": "approved", "comment": "fine", "data": map[string]any{"amount": 100}}).expect(t, http.StatusOK)
			if got.str("status") != "approved" || got.str("decided_by") != boss.email || got.str("comment") != "fine" || got.json["decide_url"] != nil {
				t.Errorf("the decision answered %s", got.Body)
			}
			s.finish(runID, "succeeded")
			if posted := s.target.bodiesOf("/approved"); !slices.Equal(posted, []string{boss.email + "|fine|100"}) {
				t.Errorf("the approved branch posted %q", posted)
			}
			if n := len(s.target.bodiesOf("/rejected")) + len(s.target.bodiesOf("/timeout")); n != 0 {
				t.Errorf("other branches ran %d times", n)
			}

			decide(s, owner, approvalID, map[string]any{"decision": "rejected"}).expect(t, http.StatusConflict)
			s.do(req{method: "POST", path: linkPath(t, a), body: map[string]any{"decision": "rejected"}}).expect(t, http.StatusConflict)
			if after := s.approvalOf(boss, runID); after["status"] != "approved" || after["decided_by"] != boss.email {
				t.Errorf("a second decision changed the approval: %v", after)
			}
		})

		t.Run("the link decides once without an account; a forged one is not found", func(t *testing.T) {
			s := j.sub(t)
			runID := s.runManual(id, map[string]any{"amount": 7.0, "order": "A-2"}).str("workflow_run_id")
			s.waitStatus(runID, "waiting")
			path := linkPath(t, s.approvalOf(owner, runID))
			forged := path[:len(path)-4] + "AAAA"
			s.do(req{method: "GET", path: forged}).expect(t, http.StatusNotFound)
			s.do(req{method: "POST", path: forged, body: map[string]any{"decision": "approved"}}).expect(t, http.StatusNotFound)

			page := s.do(req{method: "GET", path: path, header: map[string]string{"Accept": "text/html,application/xhtml+xml"}}).expect(t, http.StatusSeeOther)
			if loc := page.Header().Get("Location"); !strings.HasPrefix(loc, "/approve/") || !strings.HasSuffix(path, strings.TrimPrefix(loc, "/approve")) {
				t.Errorf("a browser is sent to %q", loc)
			}
			shown := s.do(req{method: "GET", path: path}).expect(t, http.StatusOK)
			if shown.str("title") != "Refund 7" || shown.str("status") != "pending" {
				t.Errorf("the link shows %s", shown.Body)
			}
			s.do(req{method: "POST", path: path}).expect(t, http.StatusBadRequest, "decision")
			s.do(req{method: "POST", path: path, body: map[string]any{"decision": "rejected", "comment": "no"}}).expect(t, http.StatusOK)
			s.do(req{method: "POST", path: path, body: map[string]any{"decision": "approved"}}).expect(t, http.StatusConflict)
			s.finish(runID, "succeeded")
			if posted := s.target.bodiesOf("/rejected"); !slices.Equal(posted, []string{"link|no"}) {
				t.Errorf("the rejected branch posted %q", posted)
			}
		})

		t.Run("a decision whose signal did not get through reaches the run all the same", func(t *testing.T) {
			s := j.sub(t)
			runID := s.runManual(id, map[string]any{"amount": 3.0, "order": "A-5"}).str("workflow_run_id")
			s.waitStatus(runID, "waiting")
			approvals, err := e.server.Workflows.RunApprovals(context.Background(), uuid.MustParse(runID))
			if err != nil || len(approvals) != 1 {
				t.Fatalf("approvals %v, %v", approvals, err)
			}
			// Recorded as the API records it, the server then gone before it signalled the run.
			if _, err := e.server.Workflows.Decide(context.Background(), &approvals[0], automation.Decision{Decision: "approved", Comment: "later", By: boss.email}); err != nil {
				t.Fatal(err)
			}
			s.finish(runID, "succeeded")
			if posted := s.target.bodiesOf("/approved"); !slices.Contains(posted, boss.email+"|later|") {
				t.Errorf("the approved branch posted %q", posted)
			}
		})

		t.Run("past its time, or its run cancelled, the link is not found and a decision is refused", func(t *testing.T) {
			s := j.sub(t)
			minute := s.create("Refunds within a minute", approvalDraft(j.target.URL, 60))
			s.publish(minute, 1)
			runID := s.runManual(minute, map[string]any{"amount": 9.0, "order": "A-3"}).str("workflow_run_id")
			s.waitStatus(runID, "waiting")
			a := s.approvalOf(owner, runID)
			path := linkPath(t, a)
			e.advance(2 * time.Minute)
			s.do(req{method: "GET", path: path}).expect(t, http.StatusNotFound)
			decide(s, boss, a["approval_id"].(string), map[string]any{"decision": "approved"}).expect(t, http.StatusConflict)
			e.advance(-2 * time.Minute)
			// Within its time again, but its run cancelled: nothing decides it any more.
			s.do(req{method: "POST", path: "/api/v1/runs/" + runID + "/cancel", token: owner.token}).expect(t, http.StatusAccepted)
			s.finish(runID, "cancelled")
			if after := s.approvalOf(boss, runID); after["can_decide"] != false || after["decide_url"] != nil {
				t.Errorf("the approval of a cancelled run reads %v", after)
			}
			s.do(req{method: "GET", path: path}).expect(t, http.StatusNotFound)
			decide(s, boss, a["approval_id"].(string), map[string]any{"decision": "approved"}).expect(t, http.StatusConflict)
			if waiting := s.do(req{method: "GET", path: "/api/v1/approvals", token: boss.token}).expect(t, http.StatusOK).items(); len(waiting) != 0 {
				t.Errorf("a cancelled run's approval still waits for the admin: %v", waiting)
			}
		})

		t.Run("a wait nobody answers times out", func(t *testing.T) {
			s := j.sub(t)
			quick := s.create("Quick refunds", approvalDraft(j.target.URL, 1))
			s.publish(quick, 1)
			runID := s.runManual(quick, map[string]any{"amount": 1.0, "order": "A-4"}).str("workflow_run_id")
			s.finish(runID, "succeeded")
			a := s.approvalOf(owner, runID)
			if posted := s.target.bodiesOf("/timeout"); !slices.Equal(posted, []string{"timed_out"}) {
				t.Errorf("the timeout branch posted %q", posted)
			}
			decide(s, boss, a["approval_id"].(string), map[string]any{"decision": "approved"}).expect(t, http.StatusConflict)
			if after := s.approvalOf(owner, runID); after["status"] != "timed_out" {
				t.Errorf("the approval is %v", after["status"])
			}
		})
	})
}
