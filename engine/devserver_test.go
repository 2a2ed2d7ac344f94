package engine

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"agencyhub/engine/devserver"
)

func echo(ctx workflow.Context, s string) (string, error) { return "echo: " + s, nil }

// TestEmbeddedServerRunsAWorkflow: the embedded server, on a data dir as `make run` keeps it
// and in memory as the tests do, runs a workflow for a client of this package.
func TestEmbeddedServerRunsAWorkflow(t *testing.T) {
	for name, dir := range map[string]string{"in a data dir": t.TempDir(), "in memory": ""} {
		t.Run(name, func(t *testing.T) { runEcho(t, dir) })
	}
}

// startDev starts an embedded server with opts (namespace "test") and dials it; both stop
// when the test ends.
func startDev(t *testing.T, opts devserver.Options) (context.Context, client.Client) {
	t.Helper()
	opts.Namespace = "test"
	srv, err := devserver.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	c, err := Dial(ctx, ClientOptions{Address: srv.Address(), Namespace: opts.Namespace})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return ctx, c
}

func runEcho(t *testing.T, dataDir string) {
	ctx, c := startDev(t, devserver.Options{DataDir: dataDir})
	w := worker.New(c, "q", worker.Options{})
	w.RegisterWorkflow(echo)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: "q"}, echo, "hi")
	if err != nil {
		t.Fatal(err)
	}
	var out string
	if err := run.Get(ctx, &out); err != nil || out != "echo: hi" {
		t.Fatalf("result %q, err %v", out, err)
	}
}

// TestAnEarlierDataDirGainsTheSearchAttributes: a data dir whose namespace was created
// before the runs had search attributes has them once the server starts on it again.
func TestAnEarlierDataDirGainsTheSearchAttributes(t *testing.T) {
	dir := t.TempDir()
	before, err := devserver.Start(devserver.Options{Namespace: "test", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	before.Stop()
	ctx, c := startDev(t, devserver.Options{DataDir: dir, SearchAttributes: SearchAttributes})
	have, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for name := range SearchAttributes {
		if _, ok := have.GetCustomAttributes()[name]; !ok {
			t.Errorf("the namespace lacks %s: %v", name, have.GetCustomAttributes())
		}
	}
}
