package api_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"agencyhub/activities"
	"agencyhub/activities/egress"
	"agencyhub/api"
	"agencyhub/engine"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// One embedded Temporal server serves the whole package; every test environment gets a
// task queue and a worker of its own, bound to its own database.
var (
	temporalOnce   sync.Once
	temporalServer *engine.DevServer
	temporalClient client.Client
	temporalErr    error
)

func sharedTemporal(t testing.TB) client.Client {
	t.Helper()
	temporalOnce.Do(func() {
		temporalServer, temporalErr = engine.StartDevServer(engine.DevServerOptions{Namespace: "api-test"})
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

// testEgress lets actions reach the local servers tests start.
var testEgress, _ = egress.ParsePolicy("127.0.0.0/8,::1/128")

// withEngine gives the server its workflow and run services and starts a worker for them.
func (e *env) withEngine(s *api.Server) {
	c := sharedTemporal(e.t)
	clock := s.Now
	s.Workflows = automation.NewService(e.db.DB, s.Company, s.Catalog)
	s.Workflows.Now = clock
	queue := "test-" + models.NewID().String()
	s.Runs = &engine.Runs{DB: e.db.DB, Client: c, Workflows: s.Workflows, Catalog: s.Catalog, Templates: s.Integration,
		TaskQueue: queue, PublicURL: s.PublicURL, Now: clock}
	withWebhooks(s)
	withRelay(s)
	w := engine.NewWorker(c, queue, engine.WorkerDeps{DB: e.db.DB, Now: time.Now, Actions: activities.Registry(activities.Deps{
		Dependencies: s.Integration, EgressPolicy: testEgress,
	}), BotSessions: s.Relay.Store})
	if err := w.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(w.Stop)
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
	e.waitRun(u, r.str("workflow_run_id"))
}

// waitRun polls a run until it has finished and answers it.
func (e *env) waitRun(u user, runID string) *response {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := e.do(req{method: "GET", path: "/api/v1/runs/" + runID, token: u.token}).expect(e.t, 200)
		if r.json["terminal"] == true {
			return r
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("run %s did not finish: %s", runID, r.Body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
