package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"agencyhub/engine"
	"agencyhub/platform/freeport"
)

// serveEnv makes the test binary run the server (main) instead of the tests: the restart
// tests start it as a child process so they can kill it hard.
const serveEnv = "AGENCYHUB_TEST_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		serveForTest()
		return
	}
	os.Exit(m.Run())
}

// serveForTest runs the real main. It exits when the test process that started it goes
// away, so a test binary that dies (a timeout panic skips t.Cleanup) leaves no server
// holding ports and files.
func serveForTest() {
	parent := os.Getppid()
	go func() {
		for range time.Tick(500 * time.Millisecond) {
			if os.Getppid() != parent {
				os.Exit(3)
			}
		}
	}()
	if addr := os.Getenv(profileEnv); addr != "" {
		go serveProfiles(addr)
	}
	main()
	os.Exit(0)
}

// child is the server binary running as a separate process.
type child struct {
	cmd    *exec.Cmd
	log    string
	exited chan struct{}
	err    error // the Wait result, once exited is closed
}

// childEnv is one server installation: a data dir and ports kept across restarts.
type childEnv struct {
	dataDir      string
	addr         string
	temporalPort int
	logDir       string
	starts       int
	// extra are more environment variables (NAME=value) of every start.
	extra []string
}

func newChildEnv(t testing.TB) *childEnv {
	t.Helper()
	ports := freePorts(t, 2)
	return &childEnv{
		dataDir:      t.TempDir(),
		addr:         "127.0.0.1:" + strconv.Itoa(ports[0]),
		temporalPort: ports[1],
		logDir:       t.TempDir(),
	}
}

// freePorts picks n distinct ports for a server started with them (see freeport).
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	ports, err := freeport.Pick("127.0.0.1", n)
	if err != nil {
		t.Fatal(err)
	}
	return ports
}

// start runs the server on the environment's data dir and waits until /healthz answers ok.
// The child's stderr goes to a file that is printed when the test fails.
func (e *childEnv) start(t testing.TB) *child {
	t.Helper()
	e.starts++
	logPath := filepath.Join(e.logDir, fmt.Sprintf("server-%d.log", e.starts))
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(),
		serveEnv+"=1",
		"APP_DATA_DIR="+e.dataDir,
		"APP_ADDR="+e.addr,
		"APP_SECRET_KEY=restart-test-secret-key-0123456789-abcdefghij",
		"APP_EGRESS_ALLOW=127.0.0.0/8",
		"APP_ROLE=all",
		"APP_LOG_LEVEL=info",
		"TEMPORAL_PORT="+strconv.Itoa(e.temporalPort),
		"TEMPORAL_UI_PORT=0",
		// The embedded defaults, whatever the environment of the test says.
		"DATABASE_URL=", "TEMPORAL_ADDRESS=", "SMTP_URL=", "APP_METRICS_ADDR=", "OTEL_EXPORTER_OTLP_ENDPOINT=",
	)
	cmd.Env = append(cmd.Env, e.extra...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		t.Fatal(err)
	}
	c := &child{cmd: cmd, log: logPath, exited: make(chan struct{})}
	go func() {
		c.err = cmd.Wait()
		logFile.Close()
		close(c.exited)
	}()
	t.Cleanup(func() {
		c.kill(t)
		if t.Failed() {
			b, _ := os.ReadFile(logPath)
			t.Logf("server start %s, output:\n%s", filepath.Base(logPath), tail(b, 40000))
		}
	})

	deadline := time.Now().Add(90 * time.Second)
	for {
		select {
		case <-c.exited:
			t.Fatalf("the server exited during start-up: %v", c.err)
		default:
		}
		resp, err := http.Get("http://" + e.addr + "/healthz")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return c
			}
			err = fmt.Errorf("%d %s", resp.StatusCode, body)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not become healthy: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// taskBuilds lists the build of every workflow task of a run's execution, in order, from
// the history on the installation's embedded Temporal.
func (e *childEnv) taskBuilds(t testing.TB, runID string) []string {
	t.Helper()
	var builds []string
	for _, event := range e.history(t, runID) {
		if done := event.GetWorkflowTaskCompletedEventAttributes(); done != nil {
			builds = append(builds, done.GetDeploymentVersion().GetBuildId())
		}
	}
	return builds
}

// waitForTimer waits until the run's history holds a started timer: the workflow task that
// started it is complete, so the run waits in Temporal and not only in the run's events
// (which a workflow task writes before it completes).
func (e *childEnv) waitForTimer(t testing.TB, runID string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !slices.ContainsFunc(e.history(t, runID), func(event *historypb.HistoryEvent) bool {
		return event.GetEventType() == enumspb.EVENT_TYPE_TIMER_STARTED
	}) {
		if time.Now().After(deadline) {
			t.Fatalf("the run's history holds no started timer within %v", within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// history answers the events of a run's execution on the installation's embedded Temporal.
func (e *childEnv) history(t testing.TB, runID string) []*historypb.HistoryEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := engine.Dial(ctx, engine.ClientOptions{Address: "127.0.0.1:" + strconv.Itoa(e.temporalPort), Namespace: "agencyhub"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var events []*historypb.HistoryEvent
	iter := c.GetWorkflowHistory(ctx, runID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		event, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, event)
	}
	return events
}

// kill stops the process with SIGKILL (no shutdown code runs) and waits until it is gone.
func (c *child) kill(t testing.TB) {
	t.Helper()
	select {
	case <-c.exited:
		return
	default:
	}
	if err := c.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("kill the server: %v", err)
	}
	select {
	case <-c.exited:
	case <-time.After(30 * time.Second):
		t.Errorf("the killed server (pid %d) did not exit", c.cmd.Process.Pid)
	}
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return append([]byte("...\n"), b[len(b)-n:]...)
	}
	return b
}

// apiClient speaks to the server's API as one signed-in user.
type apiClient struct {
	base  string
	token string
}

func (c *apiClient) do(t testing.TB, method, path string, body any, want int) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&buf).Encode(body); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, c.base+path, &buf)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, raw)
	}
	out := map[string]any{}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s %s: body is not a JSON object: %s", method, path, raw)
	}
	return out
}

func str(t testing.TB, m map[string]any, key string) string {
	t.Helper()
	s, ok := m[key].(string)
	if !ok || s == "" {
		t.Fatalf("no %s in %v", key, m)
	}
	return s
}

// signUp registers a user, signs in as an API client and creates a company and a project;
// it answers the client and the project id.
func signUp(t testing.TB, base string) (*apiClient, string) {
	t.Helper()
	c := &apiClient{base: base}
	creds := map[string]any{"email": "ops@example.com", "password": "correct-horse-battery"}
	c.do(t, "POST", "/api/v1/auth/register", map[string]any{"email": creds["email"], "password": creds["password"], "name": "Ops"}, http.StatusCreated)
	login := c.do(t, "POST", "/api/v1/auth/login", map[string]any{"email": creds["email"], "password": creds["password"], "client_type": "api"}, http.StatusOK)
	c.token = str(t, login, "access_token")
	company := str(t, c.do(t, "POST", "/api/v1/companies", map[string]any{"name": "Restart Agency"}, http.StatusCreated), "company_id")
	project := str(t, c.do(t, "POST", "/api/v1/companies/"+company+"/projects", map[string]any{"name": "Ops"}, http.StatusCreated), "project_id")
	return c, project
}

// publishAndRun creates a workflow of the given chain of actions (each connected to the
// next), publishes it, starts a manual run and answers the run id.
func (c *apiClient) publishAndRun(t *testing.T, project string, chain []map[string]any) string {
	t.Helper()
	wf := str(t, c.do(t, "POST", "/api/v1/projects/"+project+"/workflows", map[string]any{"name": "Survives a restart"}, http.StatusCreated), "workflow_id")
	var conns []map[string]any
	for i := 1; i < len(chain); i++ {
		conns = append(conns, map[string]any{"from": chain[i-1]["action_key"], "to": chain[i]["action_key"]})
	}
	draft := c.do(t, "PUT", "/api/v1/workflows/"+wf+"/draft", map[string]any{"actions": chain, "connections": conns}, http.StatusOK)
	if ds, _ := draft["diagnostics"].([]any); len(ds) > 0 {
		t.Fatalf("the draft has diagnostics: %v", ds)
	}
	c.do(t, "POST", "/api/v1/workflows/"+wf+"/publish", map[string]any{}, http.StatusCreated)
	return str(t, c.do(t, "POST", "/api/v1/workflows/"+wf+"/runs/manual", map[string]any{"input": map[string]any{"order": 42}}, http.StatusAccepted), "workflow_run_id")
}

func (c *apiClient) run(t *testing.T, id string) map[string]any {
	t.Helper()
	return c.do(t, "GET", "/api/v1/runs/"+id, nil, http.StatusOK)
}

// actions answers the run's action runs by action key.
func (c *apiClient) actions(t *testing.T, id string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, item := range c.do(t, "GET", "/api/v1/runs/"+id+"/actions", nil, http.StatusOK)["items"].([]any) {
		a := item.(map[string]any)
		out[a["action_key"].(string)] = a
	}
	return out
}

func (c *apiClient) events(t *testing.T, id string) []map[string]any {
	t.Helper()
	var out []map[string]any
	cursor := ""
	for {
		page := c.do(t, "GET", "/api/v1/runs/"+id+"/events?limit=200&cursor="+cursor, nil, http.StatusOK)
		for _, item := range page["items"].([]any) {
			out = append(out, item.(map[string]any))
		}
		next, _ := page["next_cursor"].(string)
		if next == "" {
			return out
		}
		cursor = next
	}
}

// waitFor polls the run until done says so, failing after the deadline.
func (c *apiClient) waitFor(t *testing.T, id string, within time.Duration, what string, done func(run map[string]any, actions map[string]map[string]any) bool) (map[string]any, map[string]map[string]any) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		run, actions := c.run(t, id), c.actions(t, id)
		if done(run, actions) {
			return run, actions
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s, the run is not %s: run %v\nactions %v", within, what, run, actions)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// target is the outside world the run calls: it counts the requests it receives per
// method and path.
type target struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
	// hold, when set for a path, keeps the first request to it open until the caller goes
	// away (or a minute passes); arrived is told when it arrives.
	hold    map[string]bool
	arrived chan string
}

func newTarget(t *testing.T) *target {
	tg := &target{hits: map[string]int{}, hold: map[string]bool{}, arrived: make(chan string, 100)}
	tg.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		key := r.Method + " " + r.URL.Path
		tg.mu.Lock()
		tg.hits[key]++
		n := tg.hits[key]
		held := tg.hold[r.URL.Path]
		tg.mu.Unlock()
		select {
		case tg.arrived <- key:
		default:
		}
		if held && n == 1 {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(time.Minute):
			}
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"ok":true,"path":%q,"hit":%d}`, r.URL.Path, n)
	}))
	t.Cleanup(tg.Close)
	return tg
}

func (tg *target) count(key string) int {
	tg.mu.Lock()
	defer tg.mu.Unlock()
	return tg.hits[key]
}

func (tg *target) snapshot() map[string]int {
	tg.mu.Lock()
	defer tg.mu.Unlock()
	out := map[string]int{}
	for k, v := range tg.hits {
		out[k] = v
	}
	return out
}

func manualTrigger(key string) map[string]any {
	return map[string]any{"action_key": key, "action_type_key": "manual.trigger", "config": map[string]any{}}
}

func post(key, url string) map[string]any {
	return map[string]any{"action_key": key, "action_type_key": "http.request", "config": map[string]any{
		"method": "POST", "url": url, "body": map[string]any{"order": "{{ steps.start.order }}"}, "timeout_seconds": 30,
	}}
}

func stop(key string) map[string]any {
	return map[string]any{"action_key": key, "action_type_key": "stop", "config": map[string]any{}}
}

// countEvents counts the run's events of a type per action key.
func countEvents(events []map[string]any, typ string) map[string]int {
	out := map[string]int{}
	for _, e := range events {
		if e["event_type"] == typ {
			out[e["action_key"].(string)]++
		}
	}
	return out
}

// TestRestartOntoANewBuildDuringADelayFinishesTheRun kills the server (SIGKILL) while a run
// waits in a delay after a non-idempotent POST succeeded, starts a new build of it on the
// same data dir, as a single-instance upgrade does, and expects the run to finish on the new
// build with each POST sent exactly once.
func TestRestartOntoANewBuildDuringADelayFinishesTheRun(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	env := newChildEnv(t)
	began := time.Now()
	env.extra = []string{"APP_BUILD_ID=before-upgrade"}
	first := env.start(t)
	t.Logf("first start healthy after %s", time.Since(began).Round(time.Millisecond))

	c, project := signUp(t, "http://"+env.addr)
	runID := c.publishAndRun(t, project, []map[string]any{
		manualTrigger("start"),
		post("first", tg.URL+"/first"),
		{"action_key": "pause", "action_type_key": "delay.wait", "config": map[string]any{"seconds": 5}},
		post("second", tg.URL+"/second"),
		stop("done"),
	})

	c.waitFor(t, runID, 30*time.Second, "waiting after first", func(run map[string]any, actions map[string]map[string]any) bool {
		if run["terminal"] == true {
			t.Fatalf("the run finished before the restart: %v %v", run, actions)
		}
		return actions["first"]["status"] == "succeeded" && actions["pause"]["status"] == "waiting" && run["status"] == "waiting"
	})
	if got := tg.count("POST /second"); got != 0 {
		t.Fatalf("second ran before the delay ended: %d hits", got)
	}
	env.waitForTimer(t, runID, 30*time.Second)
	first.kill(t)
	t.Logf("killed the server %s after its start, during the delay", time.Since(began).Round(time.Millisecond))
	if got := tg.count("POST /second"); got != 0 {
		t.Fatalf("the delay ended before the kill (%d hits on /second): the test did not restart during the delay", got)
	}

	restarted := time.Now()
	env.extra = []string{"APP_BUILD_ID=after-upgrade"}
	env.start(t)
	t.Logf("second start healthy after %s", time.Since(restarted).Round(time.Millisecond))
	run, actions := c.waitFor(t, runID, 60*time.Second, "finished", func(run map[string]any, _ map[string]map[string]any) bool {
		return run["terminal"] == true
	})
	t.Logf("the run finished %s after the restart", time.Since(restarted).Round(time.Millisecond))
	builds := env.taskBuilds(t, runID)
	if moved := slices.Index(builds, "after-upgrade"); moved < 1 || slices.ContainsFunc(builds[:moved], func(b string) bool { return b != "before-upgrade" }) ||
		slices.ContainsFunc(builds[moved:], func(b string) bool { return b != "after-upgrade" }) {
		t.Errorf("the run's workflow tasks ran on the builds %v: want the old build's before the restart, the new build's after", builds)
	}

	if run["status"] != "succeeded" {
		t.Fatalf("run status %v (%v), want succeeded; actions %v", run["status"], run["terminal_reason"], actions)
	}
	if hits := tg.snapshot(); hits["POST /first"] != 1 || hits["POST /second"] != 1 || len(hits) != 2 {
		t.Fatalf("the target saw %v, want exactly one POST /first and one POST /second", hits)
	}
	for _, key := range []string{"start", "first", "pause", "second", "done"} {
		a := actions[key]
		if a["status"] != "succeeded" {
			t.Errorf("action %s: status %v, want succeeded (%v)", key, a["status"], a)
		}
	}
	for _, key := range []string{"first", "second"} {
		if a := actions[key]; a["attempt_count"] != 1.0 {
			t.Errorf("action %s: attempt_count %v, want 1", key, a["attempt_count"])
		}
		if out, _ := actions[key]["output_json"].(map[string]any); out["status_code"] != 200.0 {
			t.Errorf("action %s: output %v, want the target's 200 answer", key, out)
		}
	}
	events := c.events(t, runID)
	succeeded, started := countEvents(events, "action.succeeded"), countEvents(events, "action.started")
	for _, key := range []string{"start", "first", "pause", "second", "done"} {
		if succeeded[key] != 1 {
			t.Errorf("action %s succeeded %d times in the events, want once", key, succeeded[key])
		}
	}
	for _, key := range []string{"first", "second"} {
		if started[key] != 1 {
			t.Errorf("action %s started %d times in the events, want once", key, started[key])
		}
	}
	for i, e := range events {
		if seq := e["sequence"].(float64); int(seq) != i+1 {
			t.Errorf("event %d has sequence %v: the events are not numbered 1..n without gaps or repeats", i, seq)
		}
	}
	if runs := countEvents(events, "run.succeeded"); runs[""] != 1 {
		t.Errorf("run.succeeded recorded %d times, want once", runs[""])
	}
	if t.Failed() {
		t.Logf("events: %v", events)
	}
}

// TestRestartDuringANonIdempotentRequestDoesNotResendIt kills the server while a POST is in
// flight (the target holds it open). After the restart the engine cannot know whether the
// POST took effect, so it must not send it again on its own: the action fails with an
// unknown-outcome class and the user decides; retrying it by hand then sends it.
func TestRestartDuringANonIdempotentRequestDoesNotResendIt(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	tg.hold["/slow"] = true
	env := newChildEnv(t)
	began := time.Now()
	first := env.start(t)

	c, project := signUp(t, "http://"+env.addr)
	runID := c.publishAndRun(t, project, []map[string]any{
		manualTrigger("start"),
		post("first", tg.URL+"/slow"),
		post("second", tg.URL+"/after"),
		stop("done"),
	})
	select {
	case key := <-tg.arrived:
		if key != "POST /slow" {
			t.Fatalf("the target first saw %s, want POST /slow", key)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the POST never reached the target: run %v", c.run(t, runID))
	}
	first.kill(t)
	t.Logf("killed the server %s after its start, with POST /slow in flight", time.Since(began).Round(time.Millisecond))

	restarted := time.Now()
	env.start(t)
	// The dead worker's attempt is noticed by the heartbeat timeout (20 s).
	run, actions := c.waitFor(t, runID, 60*time.Second, "finished", func(run map[string]any, _ map[string]map[string]any) bool {
		return run["terminal"] == true
	})
	t.Logf("the run finished %s after the restart: %v (%v)", time.Since(restarted).Round(time.Millisecond), run["status"], run["terminal_reason"])

	if got := tg.count("POST /slow"); got != 1 {
		t.Fatalf("the target saw POST /slow %d times, want once: the engine resent a non-idempotent request whose outcome was unknown", got)
	}
	if got := tg.count("POST /after"); got != 0 {
		t.Fatalf("the action after the unknown one ran (%d hits)", got)
	}
	if run["status"] != "failed" {
		t.Fatalf("run status %v, want failed; actions %v", run["status"], actions)
	}
	a := actions["first"]
	class, _ := a["retry_class"].(string)
	if a["status"] != "failed" || (class != "unknown_outcome" && class != "timeout_unknown") {
		t.Fatalf("action first: status %v retry_class %v, want failed with unknown_outcome or timeout_unknown: %v", a["status"], a["retry_class"], a)
	}
	diag, _ := a["diagnostics"].(map[string]any)
	if diag["retryable"] != false || diag["next_action"] == "" || diag["reason_code"] == "" {
		t.Errorf("action first: diagnostics %v, want a non-retryable failure with a reason and a next action", diag)
	}
	if e, _ := a["error"].(string); e == "" {
		t.Errorf("action first: no error text: %v", a)
	}
	if st := actions["second"]["status"]; st != "skipped" {
		t.Errorf("action second: status %v, want skipped", st)
	}
	if a["attempt_count"] != 1.0 {
		t.Errorf("action first: attempt_count %v, want 1: the refused automatic retry sent nothing", a["attempt_count"])
	}

	// The user checked the target and decides to send it again.
	c.do(t, "POST", "/api/v1/runs/"+runID+"/retry-action", map[string]any{"action_key": "first"}, http.StatusAccepted)
	run, actions = c.waitFor(t, runID, 30*time.Second, "finished after the retry", func(run map[string]any, _ map[string]map[string]any) bool {
		return run["terminal"] == true
	})
	if run["status"] != "succeeded" {
		t.Fatalf("after retry-action: run %v (%v), want succeeded; actions %v", run["status"], run["terminal_reason"], actions)
	}
	if hits := tg.snapshot(); hits["POST /slow"] != 2 || hits["POST /after"] != 1 {
		t.Fatalf("after retry-action the target saw %v, want POST /slow twice (once by the user's decision) and POST /after once", hits)
	}
	if actions["first"]["status"] != "succeeded" {
		t.Errorf("action first after the retry: %v", actions["first"])
	}
}
