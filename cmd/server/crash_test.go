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
	wf := str(t, c.do(t, "POST", "/api/v1/projects/"+project+"/workflows", map[string]any{"name": "Charge twice"}, http.StatusCreated), "workflow_id")
	c.do(t, "PUT", "/api/v1/workflows/"+wf+"/draft", map[string]any{
		"actions": []map[string]any{
			manualTrigger("start"),
			post("charge", tg.URL+"/charge/{{ system.run_id }}"),
			{"action_key": "pause", "action_type_key": "delay.wait", "config": map[string]any{"seconds": 2}},
			post("confirm", tg.URL+"/confirm/{{ system.run_id }}"),
			stop("done"),
		},
		"connections": []map[string]any{
			{"from": "start", "to": "charge"}, {"from": "charge", "to": "pause"},
			{"from": "pause", "to": "confirm"}, {"from": "confirm", "to": "done"},
		},
	}, http.StatusOK)
	c.do(t, "POST", "/api/v1/workflows/"+wf+"/publish", map[string]any{}, http.StatusCreated)

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
		run := c.run(t, id)
		for run["terminal"] != true {
			if time.Now().After(deadline) {
				t.Fatalf("run %s is lost: still %v after every restart", id, run["status"])
			}
			<-time.After(250 * time.Millisecond)
			run = c.run(t, id)
		}
		charges, confirms := tg.count("POST /charge/"+id), tg.count("POST /confirm/"+id)
		if charges > 1 || confirms > 1 {
			duplicated++
			t.Errorf("run %s: the target saw %d charges and %d confirmations: a POST was sent twice", id, charges, confirms)
		}
		switch run["status"] {
		case "succeeded":
			succeeded++
			if charges != 1 || confirms != 1 {
				t.Errorf("run %s succeeded with %d charges and %d confirmations, want one each", id, charges, confirms)
			}
		case "failed":
			unknown++
			for key, a := range c.actions(t, id) {
				if a["status"] == "failed" && a["retry_class"] != "unknown_outcome" {
					t.Errorf("run %s: action %s failed with %v (%v), want only unknown outcomes of POSTs cut off by a kill", id, key, a["retry_class"], a["error"])
				}
			}
		default:
			t.Errorf("run %s ended %v (%v)", id, run["status"], run["terminal_reason"])
		}
	}
	t.Logf("%d runs over %d kills: %d succeeded, %d failed with an unknown outcome, %d with a POST sent twice",
		len(runIDs), rounds, succeeded, unknown, duplicated)
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
