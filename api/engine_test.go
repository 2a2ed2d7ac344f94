package api_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"agencyhub/activities"
	"agencyhub/activities/egress"
	"agencyhub/api"
	"agencyhub/engine"
	"agencyhub/engine/devserver"
	"agencyhub/engine/wiring"
	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/aiemployee"
	"agencyhub/models/automation"
	"agencyhub/models/desktop"
	"agencyhub/models/notify"
	"agencyhub/models/relay"
	"agencyhub/models/webhook"
	"agencyhub/platform/metrics"
	"agencyhub/platform/realtime"
)

// One embedded Temporal server serves the whole package; every test environment gets a
// task queue and a worker of its own, bound to its own database.
var (
	temporalOnce   sync.Once
	temporalServer *devserver.Server
	temporalClient client.Client
	temporalErr    error
)

func sharedTemporal(t testing.TB) client.Client {
	t.Helper()
	temporalOnce.Do(func() {
		temporalServer, temporalErr = devserver.Start(devserver.Options{Namespace: "api-test", SearchAttributes: engine.SearchAttributes})
		if temporalErr != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		temporalClient, temporalErr = engine.Dial(ctx, engine.ClientOptions{Address: temporalServer.Address(), Namespace: "api-test"})
	})
	if temporalErr != nil {
		t.Fatalf("embedded Temporal: %v", temporalErr)
	}
	return temporalClient
}

func stopSharedTemporal() {
	if temporalClient != nil {
		temporalClient.Close()
	}
	if temporalServer != nil {
		temporalServer.Stop()
	}
}

// testEgress lets actions and connection tests reach the local servers tests start.
var testEgress, _ = egress.ParsePolicy("127.0.0.0/8,::1/128,localhost")

// withEngine gives the server its workflow, webhook and relay stores and the engine's
// services, as Main does, and starts a worker for them on a task queue of the test's own.
func (e *env) withEngine(s *api.Server) {
	c := sharedTemporal(e.t)
	s.Bus = realtime.NewLocal()
	e.t.Cleanup(func() { s.Bus.Close() })
	s.Workflows = automation.NewService(e.db.DB, s.Company, s.Catalog, s.Bus)
	s.Workflows.Now = s.Now
	s.Workflows.ApprovalLinks = automation.ApprovalLinks{Key: dbtest.Keys(e.t).ApprovalLinks, BaseURL: s.PublicURL}
	s.Desktop = desktop.NewInbox(e.db.DB, s.Bus)
	s.Desktop.Now = s.Now
	s.Billing.Bus, s.Work.Bus, s.SiteChat.Bus = s.Bus, s.Bus, s.Bus
	s.Webhooks = webhook.NewService(e.db.DB, s.Company, s.Workflows, s.PublicURL)
	s.Webhooks.Now = s.Now
	s.Relays = relay.NewService(e.db.DB, s.Integrations.Sealer)
	s.Relays.Now = s.Now
	queue := "test-" + models.NewID().String()
	egressClient := egress.NewClient(testEgress, egress.DefaultMaxBody)
	ai := aiemployee.NewService(e.db.DB, s.Bus)
	ai.Now = s.Now
	services := wiring.NewServices(c, queue, s.PublicURL, s.Catalog, wiring.Stores{
		Workflows: s.Workflows, Integrations: s.Integrations, Webhooks: s.Webhooks, Relays: s.Relays, Billing: s.Billing, Work: s.Work,
		AI: ai, Companies: s.Company, Egress: egressClient, EgressPolicy: testEgress})
	s.Drafts, s.Runs, s.Intake, s.Publisher, s.Agent = services.Drafts, services.Runs, services.Intake, services.Publisher, services.Agent
	s.Bulk = services.Bulk
	services.Runs.Namespace = "api-test"
	dispatching, stopDispatching := context.WithCancel(context.Background())
	dispatched, notified := make(chan struct{}), make(chan struct{})
	go func() { services.Dispatcher.Run(dispatching); close(dispatched) }()
	e.notifier = &notify.Notifier{DB: e.db.DB, Bus: s.Bus, Inbox: s.Desktop, Metrics: metrics.Discard(), Users: s.Auth, Workflows: s.Workflows,
		Billing: s.Billing, SiteChat: s.SiteChat, Poll: s.SafetyPoll}
	go func() { e.notifier.Run(dispatching); close(notified) }()
	e.t.Cleanup(func() { stopDispatching(); <-dispatched; <-notified })
	s.ProviderCheck = &activities.ProviderCheck{Store: s.Integrations, Client: egressClient, Policy: testEgress}
	s.BotAPI = &activities.BotAPI{ActionDependencies: s.Integrations, Client: egressClient}
	s.PartyLookup = &activities.PartyLookup{Store: s.Integrations, Client: egressClient}
	e.temporal, e.taskQueue = c, queue
	w := wiring.NewWorker(c, queue, wiring.WorkerDeps{
		WorkerDeps: engine.WorkerDeps{Workflows: s.Workflows, BotSessions: s.Relays,
			Actions: activities.Registry(activities.Deps{ActionDependencies: s.Integrations, EgressPolicy: testEgress,
				Tasks: lossyTasks{TaskStore: s.Work, lose: e.lostTaskAnswers}})},
		Intake:  services.Intake,
		Billing: s.Billing,
		Agent:   s.Agent,
		Bulk:    s.Bulk,
	})
	e.worker = w
	if err := w.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(w.Stop)
}

// publishGraph creates a workflow of a project with graph as its draft, which must have no
// diagnostics, publishes it, and answers its id.
func (e *env) publishGraph(u user, projectID, name string, graph map[string]any) string {
	e.t.Helper()
	id := e.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/workflows", token: u.token,
		body: map[string]any{"name": name}}).expect(e.t, http.StatusCreated).str("workflow_id")
	draft := e.do(req{method: "PUT", path: "/api/v1/workflows/" + id + "/draft", token: u.token, body: graph}).expect(e.t, http.StatusOK)
	if ds, _ := draft.json["diagnostics"].([]any); len(ds) != 0 {
		e.t.Fatalf("draft diagnostics: %v", ds)
	}
	e.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/publish", token: u.token}).expect(e.t, http.StatusCreated)
	return id
}

// addWorkflowIDs creates a published workflow with one finished run in the fixture's
// project and records its workflow, version and run ids.
func (e *env) addWorkflowIDs(u user, ids map[string]string) {
	e.t.Helper()
	wf := e.do(req{method: "POST", path: "/api/v1/projects/" + ids["project_id"] + "/workflows", token: u.token,
		body: map[string]any{"name": "Fixture flow"}}).expect(e.t, 201)
	id := wf.str("workflow_id")
	e.do(req{method: "PUT", path: "/api/v1/workflows/" + id + "/draft", token: u.token, body: map[string]any{
		"actions": []any{
			map[string]any{"action_key": "start", "action_type_key": "manual.trigger", "config": map[string]any{}},
			map[string]any{"action_key": "done", "action_type_key": "stop", "config": map[string]any{}},
		},
		"connections": []any{map[string]any{"from": "start", "to": "done"}},
	}}).expect(e.t, 200)
	v := e.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/publish", token: u.token}).expect(e.t, 201)
	r := e.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/runs/manual", token: u.token}).expect(e.t, 202)
	ids["workflow_id"], ids["workflow_version_id"], ids["workflow_run_id"] = id, v.str("workflow_version_id"), r.str("workflow_run_id")
	// The run has no loop: its loop routes answer its owner 404 too, as they do for a loop key
	// that names no loop.
	ids["loop_key"], ids["item_index"] = "lines", "0"
	e.waitRun(u, r.str("workflow_run_id"))
	// A bulk cancel of the finished run, which refuses it.
	b := e.do(req{method: "POST", path: "/api/v1/projects/" + ids["project_id"] + "/runs/bulk", token: u.token,
		header: map[string]string{"Idempotency-Key": "fixture"},
		body:   map[string]any{"operation": "cancel", "workflow_run_ids": []string{ids["workflow_run_id"]}}}).expect(e.t, 202)
	ids["bulk_operation_id"] = b.str("bulk_operation_id")
	// An approval of the run, recorded as approval.wait records it, and its signed link.
	a, _, err := e.server.Workflows.RequestApproval(context.Background(), automation.ApprovalRequest{
		CompanyID: uuid.MustParse(ids["company_id"]), RunID: uuid.MustParse(ids["workflow_run_id"]), ActionKey: "approve",
		Title: "Fixture approval", ApproverRole: "admin", Timeout: time.Hour})
	if err != nil {
		e.t.Fatal(err)
	}
	ids["approval_id"], ids["token"] = a.ID.String(), e.server.Workflows.ApprovalLinks.Token(a.ID)
}

// waitRun waits until a run has finished and answers it.
func (e *env) waitRun(u user, runID string) *response {
	e.t.Helper()
	return e.awaitRun(u, runID, 30*time.Second, "finished", func(r *response) bool { return r.json["terminal"] == true })
}

// awaitRun reads a run through the API until done says so, reading it again whenever the
// bus says it changed, for at most within; what names the awaited state in a failure.
func (e *env) awaitRun(u user, runID string, within time.Duration, what string, done func(r *response) bool) *response {
	e.t.Helper()
	sub := e.server.Bus.Subscribe(automation.RunTopic(uuid.MustParse(runID)))
	defer sub.Close()
	timeout := time.After(within)
	for {
		r := e.do(req{method: "GET", path: "/api/v1/runs/" + runID, token: u.token}).expect(e.t, 200)
		if done(r) {
			return r
		}
		select {
		case <-sub.C():
		case <-timeout:
			e.t.Fatalf("run %s is not %s after %v: %s", runID, what, within, r.Body)
		}
	}
}
