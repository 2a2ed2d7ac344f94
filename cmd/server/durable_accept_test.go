package main

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"agencyhub/engine"
	"agencyhub/engine/devserver"
)

// TestDeliveriesAreAcceptedWhileTemporalIsDown: with the embedded Temporal stopped, webhook
// deliveries are still answered 202 and their receipts say pending; once Temporal is back,
// every delivery's run completes, exactly once.
func TestDeliveriesAreAcceptedWhileTemporalIsDown(t *testing.T) {
	if testing.Short() {
		t.Skip("stops and starts the embedded Temporal server")
	}
	// Not parallel: the server runs in this process, and Main sets the default logger.
	port := freePorts(t, 1)[0]
	m := start(t, map[string]string{"APP_DATA_DIR": t.TempDir(), "TEMPORAL_PORT": strconv.Itoa(port), "TEMPORAL_UI_PORT": "0"})
	t.Cleanup(func() { m.Close() })
	client, project := signUp(t, "http://"+m.Addr())
	wf := str(t, client.do(t, "POST", "/api/v1/projects/"+project+"/workflows", map[string]any{"name": "Orders"}, http.StatusCreated), "workflow_id")
	client.do(t, "PUT", "/api/v1/workflows/"+wf+"/draft", map[string]any{
		"actions": []map[string]any{
			{"action_key": "hook", "action_type_key": "webhook.trigger", "config": map[string]any{"endpoint_key": "orders", "auth_type": "none"}},
			stop("done"),
		},
		"connections": []map[string]any{{"from": "hook", "to": "done"}},
	}, http.StatusOK)
	client.do(t, "POST", "/api/v1/workflows/"+wf+"/publish", map[string]any{}, http.StatusCreated)
	endpoint := client.do(t, "POST", "/api/v1/workflows/"+wf+"/webhook-endpoints", map[string]any{"endpoint_key": "orders", "auth_type": "none"}, http.StatusCreated)
	hook := pathOf(t, str(t, endpoint, "url"))

	m.devServer.Stop()
	sender := &apiClient{base: client.base}
	const deliveries = 5
	var receipts []string
	runs := map[string]bool{}
	for i := range deliveries {
		answer := sender.do(t, "POST", hook, map[string]any{"order": i}, http.StatusAccepted)
		runs[str(t, answer, "workflow_run_id")] = true
		receipts = append(receipts, pathOf(t, str(t, answer, "receipt_url")))
	}
	if receipt := sender.do(t, "GET", receipts[0], nil, http.StatusOK); receipt["status"] != "pending" {
		t.Fatalf("with Temporal down, the receipt says %v", receipt)
	}

	dev, err := devserver.Start(devserver.Options{DataDir: m.Config.DataDir, Namespace: m.Config.TemporalNamespace, Port: port, SearchAttributes: engine.SearchAttributes})
	if err != nil {
		t.Fatal(err)
	}
	m.devServer = dev
	deadline := time.Now().Add(2 * time.Minute)
	for _, receipt := range receipts {
		for {
			r := sender.do(t, "GET", receipt+"?wait=30", nil, http.StatusOK)
			if r["terminal"] == true {
				if r["status"] != "succeeded" {
					t.Fatalf("a delivery's run ended %v", r)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("a delivery's run is still %v two minutes after Temporal came back", r["status"])
			}
		}
	}
	list := client.do(t, "GET", "/api/v1/workflows/"+wf+"/runs?limit=50", nil, http.StatusOK)
	items, _ := list["items"].([]any)
	if len(items) != deliveries || len(runs) != deliveries {
		t.Fatalf("%d deliveries made %d runs (%d distinct answered): %v", deliveries, len(items), len(runs), items)
	}
}

// pathOf is an absolute URL's path and query, for the test's own base address.
func pathOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.RequestURI()
}
