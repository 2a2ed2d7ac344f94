package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"agencyhub/models"
)

// orderTarget is the outside system the workflow posts orders to: it counts the requests
// it answers, answers with the status set, and holds them while held.
type orderTarget struct {
	*httptest.Server
	mu       sync.Mutex
	status   int
	held     chan struct{}
	answered int
}

func newOrderTarget(t *testing.T) *orderTarget {
	o := &orderTarget{status: http.StatusOK}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		held := o.held
		o.mu.Unlock()
		if held != nil {
			select {
			case <-held:
			case <-r.Context().Done():
				return
			}
		}
		o.mu.Lock()
		o.answered++
		status := o.status
		o.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"accepted":true}`))
	}))
	t.Cleanup(o.Close)
	return o
}

// hold makes requests wait until release.
func (o *orderTarget) hold() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.held = make(chan struct{})
}

func (o *orderTarget) release() {
	o.mu.Lock()
	defer o.mu.Unlock()
	close(o.held)
	o.held = nil
}

// answer makes the target answer every request with status from now on.
func (o *orderTarget) answer(status int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.status = status
}

func (o *orderTarget) count() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.answered
}

// apiLogin signs in as an API client, for the test's own requests as that person.
func (s *consoleSite) apiLogin(email string) user {
	s.t.Helper()
	login := s.do(req{method: "POST", path: "/api/v1/auth/login", body: map[string]any{"email": email, "password": password, "client_type": "api"}})
	return user{email: email, token: login.expect(s.t, http.StatusOK).str("access_token")}
}

// deliver sends an order to the workflow's endpoint, signed as its sender signs, and
// answers the run it started.
func (s *consoleSite) deliver(u user, workflowID, secret, body string) string {
	s.t.Helper()
	endpoints := s.do(req{method: "GET", path: "/api/v1/workflows/" + workflowID + "/webhook-endpoints", token: u.token}).expect(s.t, http.StatusOK).items()
	if len(endpoints) != 1 {
		s.t.Fatalf("the workflow has %d webhook endpoints, want 1", len(endpoints))
	}
	path := strings.TrimPrefix(endpoints[0]["url"].(string), "http://api.test")
	accepted := s.post(path, body, signed(s.t, secret, "msg_"+models.NewID().String(), s.now, body)).expect(s.t, http.StatusAccepted)
	return accepted.str("workflow_run_id")
}

// TestConsoleJourney is issue 22's journey in the browser: a new person signs up, sets up
// a company and a project, builds webhook → http.request → condition → stop by dragging
// from the palette and filling the forms, publishes, and makes the webhook reachable; a
// signed delivery's run turns green live in the inspector; when the target fails, the
// http action is dead-lettered with its diagnostic; once the target is fixed, the retry's
// preview lists the http action as acting again, not idempotent, and the retry succeeds.
func TestConsoleJourney(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	target := newOrderTarget(t)
	tb := site.tab(t)

	tb.signUpAndSetUp("Grace", "grace@example.com")
	tb.at("/workflows")
	tb.click("New workflow")
	tb.fill("Name", "Paid orders")
	tb.click("Create")
	tb.seeHeading("Actions")
	var workflowID string
	tb.eval(`location.pathname.split("/")[2]`, &workflowID)

	// Two rows, so the four fit beside the settings panel without zooming out.
	tb.drag("Webhook", "Workflow canvas", 0.15, 0.25)
	tb.fill("Endpoint key", "order_paid")
	tb.drag("HTTP request", "Workflow canvas", 0.7, 0.25)
	tb.choose("Method", "POST")
	tb.fill("URL", target.URL+"/orders")
	tb.drag("Condition", "Workflow canvas", 0.2, 0.7)
	tb.fill("Text", "steps.http_request.status_code == 200")
	tb.drag("Stop", "Workflow canvas", 0.7, 0.7)
	tb.connect("webhook_trigger", "out", "http_request")
	tb.connect("http_request", "out", "condition_branch")
	tb.connect("condition_branch", "true", "stop")
	tb.click("Save")
	tb.see("Saved")
	tb.accessible("the editor")

	tb.click("Versions")
	tb.fill("What changed", "Orders go to the warehouse")
	tb.click("Publish")
	tb.see("Version 1 is published.")

	tb.click("Webhooks")
	tb.click("New endpoint")
	tb.click("Create")
	secret := tb.valueOf("Secret")
	tb.click("I have copied it")

	grace := site.apiLogin("grace@example.com")
	target.hold()
	run := site.deliver(grace, workflowID, secret, `{"order_id":"A-1","total":120}`)
	tb.click("Runs")
	tb.clickLinkTo("/runs/" + run)
	tb.statuses(map[string]string{"webhook_trigger": "succeeded", "http_request": "running", "condition_branch": "pending", "stop": "pending"})
	target.release()
	tb.statuses(map[string]string{"webhook_trigger": "succeeded", "http_request": "succeeded", "condition_branch": "succeeded", "stop": "succeeded"})
	tb.accessible("the run inspector")

	target.answer(http.StatusTooManyRequests)
	failing := site.deliver(grace, workflowID, secret, `{"order_id":"A-2","total":80}`)
	tb.click("Runs")
	tb.clickLinkTo("/runs/" + failing)
	tb.statuses(map[string]string{"webhook_trigger": "succeeded", "http_request": "dead_lettered", "condition_branch": "skipped", "stop": "skipped"})
	tb.clickNode("http_request")
	tb.seeIn("Details", "answered 429 Too Many Requests")
	tb.seeIn("Details", "rate limited")

	target.answer(http.StatusOK)
	answered := target.count()
	tb.click("Retry this action…")
	tb.seeIn("Retry “HTTP request”?", "Will act again")
	tb.waitJS("the preview to list the HTTP request as acting again, not idempotent", `[...document.querySelectorAll("dialog[open] li")]
		.some((li) => li.innerText.includes("HTTP request") && li.innerText.includes("Not idempotent"))`)
	tb.click("Retry")
	tb.statuses(map[string]string{"webhook_trigger": "succeeded", "http_request": "succeeded", "condition_branch": "succeeded", "stop": "succeeded"})
	if got := target.count() - answered; got != 1 {
		tb.fail("the retry posted %d orders, want 1", got)
	}
}
