package main

import (
	"bufio"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
)

// TestAnEventOfOneInstanceReachesTheOther runs two instances on one PostgreSQL database, as
// a deployment scales out: A serves the API and runs the worker on the embedded Temporal,
// B serves the API only, on A's Temporal. A run that A's worker executes is watched through
// B's event stream. B reads the database again only when its event bus tells it to, or
// after a safety poll of a minute, so the stream ending within seconds shows that A's
// writes reach B over PostgreSQL LISTEN/NOTIFY.
func TestAnEventOfOneInstanceReachesTheOther(t *testing.T) {
	db := dbtest.Postgres(t)
	shared := map[string]string{
		"DATABASE_URL": db.URL, "APP_SECRET_KEY": "two-instances-test-secret-key-0123456789",
		"TEMPORAL_UI_PORT": "0", "APP_SAFETY_POLL": "1m",
	}
	envA := map[string]string{"APP_DATA_DIR": t.TempDir(), "TEMPORAL_PORT": "0"}
	for k, v := range shared {
		envA[k] = v
	}
	a := start(t, envA)
	defer a.Close()
	envB := map[string]string{"APP_DATA_DIR": t.TempDir(), "APP_ROLE": "api", "TEMPORAL_ADDRESS": a.devServer.Address()}
	for k, v := range shared {
		envB[k] = v
	}
	b := start(t, envB)
	defer b.Close()

	call(t, a, "POST", "/api/v1/auth/register", "", map[string]any{"email": "ops@example.com", "password": "correct-horse-battery", "name": "Ops"})
	_, login := call(t, a, "POST", "/api/v1/auth/login", "", map[string]any{"email": "ops@example.com", "password": "correct-horse-battery", "client_type": "api"})
	token, _ := login["access_token"].(string)
	_, co := call(t, a, "POST", "/api/v1/companies", token, map[string]any{"name": "Northwind"})
	_, project := call(t, a, "POST", "/api/v1/companies/"+str(t, co, "company_id")+"/projects", token, map[string]any{"name": "Shop"})
	_, wf := call(t, a, "POST", "/api/v1/projects/"+str(t, project, "project_id")+"/workflows", token, map[string]any{"name": "Wait"})
	workflowID := str(t, wf, "workflow_id")
	resp, _ := call(t, a, "PUT", "/api/v1/workflows/"+workflowID+"/draft", token, map[string]any{
		"actions": []any{
			map[string]any{"action_key": "start", "action_type_key": "manual.trigger", "config": map[string]any{}},
			map[string]any{"action_key": "pause", "action_type_key": "delay.wait", "config": map[string]any{"seconds": 1}},
			map[string]any{"action_key": "done", "action_type_key": "stop", "config": map[string]any{}},
		},
		"connections": []any{map[string]any{"from": "start", "to": "pause"}, map[string]any{"from": "pause", "to": "done"}},
	})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("save draft: %d", resp.StatusCode)
	}
	if resp, _ := call(t, a, "POST", "/api/v1/workflows/"+workflowID+"/publish", token, nil); resp.StatusCode != http.StatusCreated {
		t.Fatalf("publish: %d", resp.StatusCode)
	}
	resp, run := call(t, a, "POST", "/api/v1/workflows/"+workflowID+"/runs/manual", token, map[string]any{"input": map[string]any{}})
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("manual run: %d %v", resp.StatusCode, run)
	}
	started := time.Now()

	req, _ := http.NewRequest("GET", "http://"+b.Addr()+"/api/v1/runs/"+str(t, run, "workflow_run_id")+"/events/stream", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	stream, err := (&http.Client{Timeout: 20 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	var events []string
	lines := bufio.NewScanner(stream.Body)
	for lines.Scan() {
		if name, ok := strings.CutPrefix(lines.Text(), "event: "); ok {
			events = append(events, name)
			if name == "end" {
				break
			}
		}
	}
	if len(events) == 0 || events[len(events)-1] != "end" {
		t.Fatalf("B's stream ended without the run's end after %v: events %v (%v)", time.Since(started), events, lines.Err())
	}
	if !slices.Contains(events, "run.succeeded") {
		t.Fatalf("B's stream lacks run.succeeded: %v", events)
	}
	t.Logf("B streamed the run to its end %v after it started (a one-second delay in the middle)", time.Since(started).Round(10*time.Millisecond))
}
