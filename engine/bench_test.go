package engine

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"gorm.io/gorm"

	"agencyhub/activities"
	"agencyhub/engine/devserver"
	"agencyhub/migrations/dbtest"
	"agencyhub/models/automation"
	"agencyhub/platform/benchtest"
	"agencyhub/platform/realtime"
)

// BenchmarkRunThroughput runs a published three-action workflow (manual trigger, then three
// http.request actions in a chain) through the engine on the embedded defaults, and beside
// it, on the same server in the same process, a bare Temporal workflow that executes the
// same three activities with the same activity options and nothing of the engine around
// them. The difference is the engine's own cost: the projection rows written at start, the
// progress local activities, each action's attempt bookkeeping, the interpreter itself.
//
//   - engine: a run of the published version started by Runs on a migrated SQLite database
//     (dbtest.SQLite), as the intake starts it once it has found the trigger, and the real
//     worker (NewWorker), versioned and made current as in production (Promote), with a
//     near-zero-work function registered as http.request; a run is done when its workflow
//     has completed and its projection row is terminal.
//   - bare: client.ExecuteWorkflow of bareThreeActivities on a worker of its own, with the
//     engine worker's options and the same function as the activity; a run is done when
//     the workflow's result arrives.
//
// One op is one run. Starters (16 by default, as in the architecture's reference figures)
// start runs concurrently, each starting its next run when the last finished. Every
// invocation measures at least benchMinRuns runs, whatever b.N is, so that `make bench`'s
// default -benchtime=1s still measures a steady state and the percentiles mean something;
// ns/op (and B/op, allocs/op with -benchmem, counting the whole process: the embedded
// server too) are then reported per run, and "runs" says how many were measured. A larger
// -benchtime=Nx measures N runs. Reported: runs/s over the batch, the p50 and p99 of a
// run's latency from the start call until it is done, and cpu-ms/run, the process's CPU
// time (the embedded server's too) per run.
//
// Temporal's store is a SQLite file in a temporary directory, as `make run` keeps it in
// APP_DATA_DIR; ENGINE_BENCH_TEMPORAL=memory keeps it in memory instead (the store of the
// architecture's reference figures). ENGINE_BENCH_STARTERS changes the concurrency.
func BenchmarkRunThroughput(b *testing.B) {
	starters := benchStarters
	if n, err := strconv.Atoi(os.Getenv("ENGINE_BENCH_STARTERS")); err == nil && n > 0 {
		starters = n
	}
	store := "file"
	// The server logs only what is fatal: under this load the file store logs errors (a
	// history update whose context ran out, retried) that would split the result lines.
	opts := devserver.Options{Namespace: benchNamespace, LogLevel: "fatal", DataDir: b.TempDir()}
	if strings.EqualFold(os.Getenv("ENGINE_BENCH_TEMPORAL"), "memory") {
		store, opts.DataDir = "memory", ""
	}
	srv, err := devserver.Start(opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Stop)
	ctx, cancel := context.WithTimeout(context.Background(), benchTimeout)
	b.Cleanup(cancel)
	c, err := client.DialContext(ctx, client.Options{HostPort: srv.Address(), Namespace: benchNamespace, Logger: quietLogger()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.Close)
	t := newThroughputBench(b, ctx, c, starters)

	name := fmt.Sprintf("temporal=%s/starters=%d", store, starters)
	b.Run(name+"/engine", func(b *testing.B) { t.measure(b, t.engineRun) })
	b.Run(name+"/bare", func(b *testing.B) { t.measure(b, t.bareRun) })
}

const (
	benchStarters  = 16
	benchMinRuns   = 8 * benchStarters
	benchNamespace = "bench"
	benchTimeout   = 15 * time.Minute
)

// benchTrigger is the manual trigger of the workflow; benchActionKeys are its three activity
// actions, in the order they run.
const benchTrigger = "start"

var benchActionKeys = []string{"first", "second", "third"}

// benchAction is the near-zero-work action both variants execute, so the figures are the
// orchestration's and not an HTTP server's.
func benchAction(_ context.Context, req activities.Request) (activities.Result, error) {
	return activities.Result{Output: map[string]any{"status_code": 200, "action": req.ActionKey}}, nil
}

func benchGraph() automation.Graph {
	actions := []automation.Action{manualTrigger(benchTrigger)}
	var connections []automation.Connection
	prev := benchTrigger
	for i, key := range benchActionKeys {
		actions = append(actions, httpRequest(key, map[string]any{"url": fmt.Sprintf("https://bench.example/%d", i+1)}))
		connections = append(connections, edge(prev, key))
		prev = key
	}
	return graph(actions, connections...)
}

const bareWorkflowName = "bench.bare"

// bareInput is the bare workflow's input: its three activity requests and their policy.
type bareInput struct {
	Requests []activities.Request
	Policy   ActionPolicy
}

// bareThreeActivities executes the activities one after the other, as the interpreter
// executes an activity of the same policy (a local activity when the policy says so), and
// records nothing.
func bareThreeActivities(ctx workflow.Context, in bareInput) error {
	retry := in.Policy.retryPolicy()
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: in.Policy.Timeout, HeartbeatTimeout: HeartbeatTimeout, RetryPolicy: retry})
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: in.Policy.Timeout, RetryPolicy: retry})
	for _, req := range in.Requests {
		execute := workflow.ExecuteActivity
		if in.Policy.Local {
			execute = workflow.ExecuteLocalActivity
		}
		var res activities.Result
		if err := execute(ctx, activities.ActionHTTPRequest, req).Get(ctx, &res); err != nil {
			return err
		}
	}
	return nil
}

// throughputBench is what the two variants share: one server, one client, one database.
type throughputBench struct {
	ctx      context.Context
	c        client.Client
	db       *gorm.DB
	runs     *Runs
	workflow *automation.Workflow
	version  *automation.Version
	userID   uuid.UUID
	bare     bareInput
	bareQ    string
	starters int
}

// newThroughputBench publishes the workflow on a fresh SQLite database, starts both
// workers, each on a task queue of its own, and warms both paths up.
func newThroughputBench(b *testing.B, ctx context.Context, c client.Client, starters int) *throughputBench {
	b.Helper()
	db := dbtest.SQLite(b).DB
	tenant := dbtest.NewTenant(b, db, "bench")
	userID := tenant.UserID
	workflows := automation.NewService(db, tenant.Companies, tenant.Catalog, realtime.NewLocal())
	w, err := workflows.Create(ctx, tenant.Project, userID, "Three actions", "")
	if err != nil {
		b.Fatal(err)
	}
	if w, err = workflows.PutDraft(ctx, w, automation.Draft{Graph: benchGraph()}); err != nil {
		b.Fatalf("save draft: %v", err)
	}
	v, err := workflows.Publish(ctx, w, userID, nil)
	if err != nil {
		b.Fatal(err)
	}
	w.CurrentVersionID = &v.ID

	engineQ, bareQ := "bench-engine", "bench-bare"
	runs := &Runs{Client: c, Workflows: workflows, Catalog: tenant.Catalog, TaskQueue: engineQ, WebURL: "https://hub.test"}
	build, err := BinaryBuildID()
	if err != nil {
		b.Fatal(err)
	}
	ew := NewWorker(c, engineQ, WorkerDeps{
		Workflows: workflows,
		BuildID:   build,
		Actions:   map[string]activities.Func{activities.ActionHTTPRequest: benchAction},
	})
	bw := worker.New(c, bareQ, workerOptions)
	bw.RegisterWorkflowWithOptions(bareThreeActivities, workflow.RegisterOptions{Name: bareWorkflowName})
	bw.RegisterActivityWithOptions(benchAction, activity.RegisterOptions{Name: activities.ActionHTTPRequest})
	for _, w := range []worker.Worker{ew, bw} {
		if err := w.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(w.Stop)
	}
	if _, err := Promote(ctx, c, build); err != nil {
		b.Fatal(err)
	}

	// The bare workflow gets what the interpreter gives the same actions: their config and
	// the policy Runs computes for them.
	g := benchGraph()
	policies := runs.policies(g)
	bare := bareInput{Policy: policies[benchActionKeys[0]]}
	for _, key := range benchActionKeys {
		if policies[key] != bare.Policy {
			b.Fatalf("the actions' policies differ: %+v", policies)
		}
		a, _ := g.Action(key)
		bare.Requests = append(bare.Requests, activities.Request{CompanyID: w.CompanyID, ProjectID: w.ProjectID,
			ActionKey: key, ActionType: a.ActionTypeKey, Config: a.Config, Attempt: 1})
	}
	t := &throughputBench{ctx: ctx, c: c, db: db, runs: runs, workflow: w, version: v, userID: userID, bare: bare, bareQ: bareQ, starters: starters}
	for name, run := range map[string]func() error{"engine": t.engineRun, "bare": t.bareRun} {
		if _, _, err := t.burst(2*starters, run); err != nil {
			b.Fatalf("warm-up %s run: %v", name, err)
		}
	}
	return t
}

// engineRun starts a run of the published version from its manual trigger and waits until
// the projection records it finished.
func (t *throughputBench) engineRun() error {
	run, err := t.runs.Start(t.ctx, Start{CompanyID: t.workflow.CompanyID, ProjectID: t.workflow.ProjectID, WorkflowID: t.workflow.ID,
		Version: t.version, Graph: t.version.Graph(), TriggerType: TriggerManual, TriggerKey: benchTrigger, Payload: map[string]any{"n": 1},
		StartedBy: &t.userID})
	if err != nil {
		return err
	}
	if err := t.c.GetWorkflow(t.ctx, run.ID.String(), "").Get(t.ctx, nil); err != nil {
		return fmt.Errorf("run %s: %w", run.ID, err)
	}
	// The last projection write is a local activity that the workflow completes after,
	// so the row is terminal by now; poll anyway rather than assume it.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var status automation.RunStatus
		if err := t.db.WithContext(t.ctx).Model(&automation.Run{}).Select("status").Where("id = ?", run.ID).Scan(&status).Error; err != nil {
			return err
		}
		switch status {
		case automation.RunSucceeded:
			return nil
		case automation.RunFailed, automation.RunCancelled:
			return fmt.Errorf("run %s %s", run.ID, status)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("run %s is still %s in the projection after its workflow completed", run.ID, status)
		}
		time.Sleep(time.Millisecond)
	}
}

// bareRun executes the bare workflow and waits for its result.
func (t *throughputBench) bareRun() error {
	wr, err := t.c.ExecuteWorkflow(t.ctx, client.StartWorkflowOptions{TaskQueue: t.bareQ}, bareWorkflowName, t.bare)
	if err != nil {
		return err
	}
	return wr.Get(t.ctx, nil)
}

// burst does n runs with the starters and answers their latencies and the time the whole
// batch took. The first error stops every starter.
func (t *throughputBench) burst(n int, run func() error) ([]time.Duration, time.Duration, error) {
	latencies := make([]time.Duration, n)
	var next atomic.Int64
	var errOnce sync.Once
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for range min(t.starters, n) {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				began := time.Now()
				if err := run(); err != nil {
					errOnce.Do(func() { firstErr = err })
					next.Store(int64(n))
					return
				}
				latencies[i] = time.Since(began)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	return latencies, elapsed, firstErr
}

// measure does max(b.N, benchMinRuns) runs and reports throughput, latency percentiles and
// the per-run cost.
func (t *throughputBench) measure(b *testing.B, run func() error) {
	n := max(b.N, benchMinRuns)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := benchtest.ProcessCPU(b)
	b.ResetTimer()
	latencies, elapsed, err := t.burst(n, run)
	b.StopTimer()
	cpu := benchtest.ProcessCPU(b) - cpu0
	runtime.ReadMemStats(&after)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(n), "runs")
	b.ReportMetric(float64(n)/elapsed.Seconds(), "runs/s")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(latencies, 50)), "p50_ms")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(latencies, 99)), "p99_ms")
	b.ReportMetric(benchtest.Millis(cpu)/float64(n), "cpu-ms/run")
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(n), "ns/op")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n), "B/op")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(n), "allocs/op")
}
