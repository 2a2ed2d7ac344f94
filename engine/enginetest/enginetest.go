// Package enginetest holds what the tests of the engine's packages share: one embedded
// Temporal server per test binary, and a workflow in a tenant of its own.
package enginetest

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"agencyhub/engine/devserver"
	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/platform/realtime"
)

// One embedded Temporal server serves the tests that need a real one; each test has a task
// queue of its own, and no worker polls it unless the test starts one.
var (
	temporalOnce   sync.Once
	temporalClient client.Client
	temporalErr    error
)

// Temporal is a client of the test binary's embedded Temporal server, started on first use
// in the namespace engine-test.
func Temporal(t testing.TB) client.Client {
	t.Helper()
	temporalOnce.Do(func() {
		srv, err := devserver.Start(devserver.Options{Namespace: "engine-test"})
		if err != nil {
			temporalErr = err
			return
		}
		temporalClient, temporalErr = client.Dial(client.Options{
			HostPort:  srv.Address(),
			Namespace: "engine-test",
			Logger:    sdklog.NewStructuredLogger(slog.Default().With("component", "temporal-sdk")),
		})
	})
	if temporalErr != nil {
		t.Fatalf("embedded Temporal: %v", temporalErr)
	}
	return temporalClient
}

// Workflow is a new workflow named name in a tenant of its own, and the workflow store on
// db.
func Workflow(t testing.TB, db *dbtest.DB, name string) (*dbtest.Tenant, *automation.Service, *automation.Workflow) {
	t.Helper()
	tenant := dbtest.NewTenant(t, db.DB, "t"+strings.ReplaceAll(models.NewID().String(), "-", ""))
	workflows := automation.NewService(db.DB, tenant.Companies, tenant.Catalog, realtime.NewLocal())
	w, err := workflows.Create(context.Background(), tenant.Project, tenant.UserID, name, "")
	if err != nil {
		t.Fatal(err)
	}
	return tenant, workflows, w
}

// EndingInStop is a graph of the actions, each connected to a final stop action, done: the
// least a draft of them needs to publish.
func EndingInStop(actions ...automation.Action) automation.Graph {
	g := automation.Graph{Actions: append(actions, automation.Action{ActionKey: "done", Label: "done", ActionTypeKey: automation.TypeStop,
		Config: map[string]any{}})}
	for _, a := range actions {
		g.Connections = append(g.Connections, automation.Connection{From: a.ActionKey, To: "done"})
	}
	return g
}
