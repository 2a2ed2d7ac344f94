package main

import (
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestNoActionActsTwiceAcrossCrashes kills the real binary with SIGKILL at random moments
// while runs of "POST, wait 2 s, POST" are under way, restarts it on the same data dir each
// time, and then checks every run: none is lost (each reaches an end), no POST reached the
// target twice, a run that succeeded made each POST once, and a run that failed did so
// because a POST was in flight at a kill (unknown_outcome), never by sending it again.
// CRASH_ROUNDS and CRASH_RUNS (runs per round) make it longer: `make crash` runs 350.
func TestNoActionActsTwiceAcrossCrashes(t *testing.T) {
	t.Parallel()
	rounds, perRound := envInt(t, "CRASH_ROUNDS", 2), envInt(t, "CRASH_RUNS", 15)
	tg := newTarget(t)
	env := newChildEnv(t)
	server := env.start(t)
	c, project := signUp(t, "http://"+env.addr)
	wf := c.publishChargeTwice(t, project, "Charge twice", manualTrigger("start"), tg, 2)

	var runIDs []string
	for round := range rounds {
		for range perRound {
			run := c.do(t, "POST", "/api/v1/workflows/"+wf+"/runs/manual", map[string]any{"input": map[string]any{"order": round}}, http.StatusAccepted)
			runIDs = append(runIDs, str(t, run, "workflow_run_id"))
		}
		// The moment of the crash is what the test varies: somewhere between the first POSTs
		// and the last ones of this round.
		<-time.After(300*time.Millisecond + rand.N(2500*time.Millisecond))
		server.kill(t)
		server = env.start(t)
	}

	// Attempts that died with the server end by their heartbeat timeout (20 s).
	deadline := time.Now().Add(90 * time.Second)
	succeeded, unknown, duplicated := 0, 0, 0
	for _, id := range runIDs {
		switch status, once := c.actedOnce(t, tg, id, c.waitEnded(t, id, deadline), "charge", "confirm"); {
		case !once:
			duplicated++
		case status == "succeeded":
			succeeded++
		case status == "failed":
			unknown++
		}
	}
	t.Logf("%d runs over %d kills: %d succeeded, %d failed with an unknown outcome, %d with a POST sent twice",
		len(runIDs), rounds, succeeded, unknown, duplicated)
}

// publishChargeTwice creates and publishes a workflow that, started by trigger (action key
// start), POSTs to the target's /charge/<run id>, waits pause seconds and POSTs to
// /confirm/<run id>: two non-idempotent calls around a durable timer. It answers its id.
func (c *apiClient) publishChargeTwice(t *testing.T, project, name string, trigger map[string]any, tg *target, pause int) string {
	t.Helper()
	wf := str(t, c.do(t, "POST", "/api/v1/projects/"+project+"/workflows", map[string]any{"name": name}, http.StatusCreated), "workflow_id")
	draft := c.do(t, "PUT", "/api/v1/workflows/"+wf+"/draft", map[string]any{
		"actions": []map[string]any{
			trigger,
			post("charge", tg.URL+"/charge/{{ system.run_id }}"),
			{"action_key": "pause", "action_type_key": "delay.wait", "config": map[string]any{"seconds": pause}},
			post("confirm", tg.URL+"/confirm/{{ system.run_id }}"),
			stop("done"),
		},
		"connections": []map[string]any{
			{"from": "start", "to": "charge"}, {"from": "charge", "to": "pause"},
			{"from": "pause", "to": "confirm"}, {"from": "confirm", "to": "done"},
		},
	}, http.StatusOK)
	if ds, _ := draft["diagnostics"].([]any); len(ds) > 0 {
		t.Fatalf("the draft of %s has diagnostics: %v", name, ds)
	}
	c.do(t, "POST", "/api/v1/workflows/"+wf+"/publish", map[string]any{}, http.StatusCreated)
	return wf
}

// waitEnded polls the run until it has ended, failing when it has not by the deadline: the
// run is lost.
func (c *apiClient) waitEnded(t *testing.T, id string, deadline time.Time) map[string]any {
	t.Helper()
	run := c.run(t, id)
	for run["terminal"] != true {
		if time.Now().After(deadline) {
			t.Fatalf("run %s is lost: still %v", id, run["status"])
		}
		<-time.After(250 * time.Millisecond)
		run = c.run(t, id)
	}
	return run
}

// actedOnce checks a run that ended against the target, which its POSTs to /<path>/<run id>
// reached: none reached it twice, a run that succeeded made each once, and a run that failed
// did so only because a POST was cut off by a kill (unknown_outcome), never by sending it
// again. It answers the run's status and whether no POST reached the target twice.
func (c *apiClient) actedOnce(t *testing.T, tg *target, id string, run map[string]any, paths ...string) (string, bool) {
	t.Helper()
	once := true
	for _, path := range paths {
		n := tg.count("POST /" + path + "/" + id)
		if n > 1 {
			once = false
			t.Errorf("run %s: the target saw %d POSTs to /%s: a POST was sent twice", id, n, path)
		}
		if run["status"] == "succeeded" && n != 1 {
			t.Errorf("run %s succeeded with %d POSTs to /%s, want one", id, n, path)
		}
	}
	switch run["status"] {
	case "succeeded":
	case "failed":
		for key, a := range c.actions(t, id) {
			if a["status"] == "failed" && a["retry_class"] != "unknown_outcome" {
				t.Errorf("run %s: action %s failed with %v (%v), want only unknown outcomes of POSTs cut off by a kill", id, key, a["retry_class"], a["error"])
			}
		}
	default:
		t.Errorf("run %s ended %v (%v)", id, run["status"], run["terminal_reason"])
	}
	status, _ := run["status"].(string)
	return status, once
}

func envInt(t testing.TB, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q is not a positive number", name, v)
	}
	return n
}
