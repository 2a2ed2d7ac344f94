package api_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
)

// withWebhooks gives the server its webhook service; withEngine calls it once the run
// service exists.
// addWebhookIDs adds to the fixture's project a published workflow with a webhook endpoint
// (auth none) that received one request, and records the endpoint's, the event's and the
// address's ids.
func (e *env) addWebhookIDs(u user, ids map[string]string) {
	e.t.Helper()
	id := e.do(req{method: "POST", path: "/api/v1/projects/" + ids["project_id"] + "/workflows", token: u.token,
		body: map[string]any{"name": "Fixture hook"}}).expect(e.t, http.StatusCreated).str("workflow_id")
	e.do(req{method: "PUT", path: "/api/v1/workflows/" + id + "/draft", token: u.token, body: draft([]any{
		act("hook", "webhook.trigger", map[string]any{"endpoint_key": "fixture_hook", "auth_type": "none"}),
		act("done", "stop", map[string]any{}),
	}, edge("hook", "done", ""))}).expect(e.t, http.StatusOK)
	e.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/publish", token: u.token}).expect(e.t, http.StatusCreated)
	ep := e.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/webhook-endpoints", token: u.token,
		body: map[string]any{"endpoint_key": "fixture_hook"}}).expect(e.t, http.StatusCreated)
	hookKey := e.do(req{method: "GET", path: "/api/v1/projects/" + ids["project_id"], token: u.token}).expect(e.t, http.StatusOK).str("hook_key")
	accepted := e.do(req{method: "POST", path: "/hooks/" + hookKey + "/fixture_hook", body: `{"fixture":true}`}).expect(e.t, http.StatusAccepted)
	e.do(req{method: "GET", path: receiptPath(accepted) + "?wait=30"}).expect(e.t, http.StatusOK)
	ids["webhook_endpoint_id"], ids["webhook_event_id"] = ep.str("webhook_endpoint_id"), accepted.str("webhook_event_id")
	ids["hook_key"], ids["endpoint_key"] = hookKey, "fixture_hook"
}

// receiptPath is the path of the receipt_url a 202 answered.
func receiptPath(accepted *response) string {
	return strings.TrimPrefix(accepted.str("receipt_url"), "http://api.test")
}

// sender is a webhook endpoint as its sender knows it: the address and the secret.
type sender struct {
	path, secret, endpointID string
}

// signature is a Standard Webhooks signature, computed as a sender would: HMAC-SHA256 of
// "id.timestamp.body" keyed with the base64 part of the whsec_ secret.
func signature(t testing.TB, secret, msgID string, ts int64, body string) string {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		t.Fatalf("secret %q is not whsec_<base64>: %v", secret, err)
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%d.%s", msgID, ts, body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// signed are the headers of a request signed with secret at `at`.
func signed(t testing.TB, secret, msgID string, at time.Time, body string) map[string]string {
	t.Helper()
	return map[string]string{
		"webhook-id": msgID, "webhook-timestamp": strconv.FormatInt(at.Unix(), 10),
		"webhook-signature": signature(t, secret, msgID, at.Unix(), body),
	}
}

// post sends a webhook as JSON unless the headers say otherwise.
func (e *env) post(path, body string, headers map[string]string) *response {
	e.t.Helper()
	return e.do(req{method: "POST", path: path, body: body, header: headers})
}

// hookWorkflow creates and publishes a workflow whose webhook.trigger "hook" (endpoint_key
// key, plus config) is followed by an http.request posting two payload fields to the
// target at /orders/<key>, and answers its id.
func (j *journey) hookWorkflow(key string, config map[string]any) string {
	j.t.Helper()
	cfg := map[string]any{"endpoint_key": key}
	maps.Copy(cfg, config)
	id := j.create("Hook "+key, draft([]any{
		act("hook", "webhook.trigger", cfg),
		act("notify", "http.request", map[string]any{"method": "POST", "url": j.target.URL + "/orders/" + key,
			"body": map[string]any{"email": "{{ " + key + ".customer.email }}", "order": "{{ " + key + ".order_id }}"}}),
	}, edge("hook", "notify", "")))
	j.publish(id, 1)
	return id
}

// endpoint creates an endpoint of the workflow and answers it as its sender knows it.
func (j *journey) endpoint(workflowID string, body map[string]any) sender {
	j.t.Helper()
	r := j.do(req{method: "POST", path: "/api/v1/workflows/" + workflowID + "/webhook-endpoints", token: j.u.token, body: body}).
		expect(j.t, http.StatusCreated)
	return sender{path: strings.TrimPrefix(r.str("url"), "http://api.test"), secret: r.str("secret"), endpointID: r.str("webhook_endpoint_id")}
}

// runCount is how many runs the workflow has.
func (j *journey) runCount(workflowID string) int {
	j.t.Helper()
	return len(j.do(req{method: "GET", path: "/api/v1/workflows/" + workflowID + "/runs?limit=200", token: j.u.token}).expect(j.t, http.StatusOK).items())
}

// events are the endpoint's stored requests.
func (j *journey) hookEvents(endpointID string) []map[string]any {
	j.t.Helper()
	return j.do(req{method: "GET", path: "/api/v1/webhook-endpoints/" + endpointID + "/events?limit=200", token: j.u.token}).expect(j.t, http.StatusOK).items()
}

// receipt reads a receipt, waiting for the run to finish.
func (j *journey) receipt(path string) *response {
	j.t.Helper()
	r := j.do(req{method: "GET", path: path + "?wait=30"}).expect(j.t, http.StatusOK)
	if r.json["terminal"] != true {
		j.t.Fatalf("the receipt after waiting is not terminal: %s", r.Body)
	}
	return r
}

// sub is the journey within a subtest: requests and failures report to t. The clock stays
// the parent's (advance and now through the parent).
func (j *journey) sub(t *testing.T) *journey {
	return &journey{env: j.asSubtest(t), u: j.u, projectID: j.projectID, target: j.target}
}

// TestWebhookJourney receives a signed webhook end to end: the run starts from the stored
// request with the payload under the endpoint key, the receipt waits for its end, a
// repeated delivery starts nothing, and the stored event replays.
func TestWebhookJourney(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		wfID := j.hookWorkflow("orders", map[string]any{
			"json_fields":         []any{"customer.email", "items.0.sku", "missing.path"},
			"sample_payload_json": map[string]any{"order_id": "A-1", "customer": map[string]any{"email": "ada@example.com"}},
		})

		created := j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/webhook-endpoints", token: j.u.token,
			body: map[string]any{"endpoint_key": "orders", "description": "Shop orders"}}).expect(t, http.StatusCreated)
		project := j.do(req{method: "GET", path: "/api/v1/projects/" + j.projectID, token: j.u.token}).expect(t, http.StatusOK)
		secret, epID := created.str("secret"), created.str("webhook_endpoint_id")
		path := "/hooks/" + project.str("hook_key") + "/orders"
		if !strings.HasPrefix(secret, "whsec_") || created.str("url") != "http://api.test"+path || created.str("auth_type") != "hmac_standard" ||
			created.str("status") != "active" || created.str("content_type") != "json" || created.json["max_body_bytes"] != float64(1<<20) ||
			created.str("secret_masked") != "whsec_"+secret[6:10]+"****" || created.json["previous_secret_expires_at"] != nil {
			t.Fatalf("create answered %s", created.Body)
		}
		got := j.do(req{method: "GET", path: "/api/v1/webhook-endpoints/" + epID, token: j.u.token}).expect(t, http.StatusOK)
		list := j.do(req{method: "GET", path: "/api/v1/workflows/" + wfID + "/webhook-endpoints", token: j.u.token}).expect(t, http.StatusOK).items()
		if strings.Contains(got.Body.String(), secret) || got.str("secret_masked") != created.str("secret_masked") || len(list) != 1 || list[0]["webhook_endpoint_id"] != epID {
			t.Fatalf("get answered %s, list %v", got.Body, list)
		}
		j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/webhook-endpoints", token: j.u.token,
			body: map[string]any{"endpoint_key": "orders"}}).expect(t, http.StatusConflict, "endpoint_key")
		j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/webhook-endpoints", token: j.u.token,
			body: map[string]any{"endpoint_key": "refunds"}}).expect(t, http.StatusBadRequest, "endpoint_key")

		body := `{"order_id":"A-1001","customer":{"email":"ada@example.com"},"items":[{"sku":"SKU-7"}]}`
		headers := signed(t, secret, "msg_2b9hT4", j.now, body)
		accepted := j.post(path, body, headers).expect(t, http.StatusAccepted)
		runID, eventID := accepted.str("workflow_run_id"), accepted.str("webhook_event_id")
		if accepted.str("receipt_url") != "http://api.test"+path+"/runs/"+runID+"/receipt" || accepted.Header().Get("Idempotent-Replayed") != "" {
			t.Fatalf("the webhook answered %s", accepted.Body)
		}

		receipt := j.receipt(receiptPath(accepted))
		actions, _ := receipt.json["actions"].([]any)
		if receipt.str("status") != "succeeded" || receipt.str("workflow_run_id") != runID || receipt.str("started_at") == "" ||
			receipt.str("finished_at") == "" || len(actions) != 2 {
			t.Fatalf("receipt %s", receipt.Body)
		}
		for i, want := range []string{"hook webhook.trigger succeeded 0", "notify http.request succeeded 1"} {
			a := actions[i].(map[string]any)
			if got := fmt.Sprintf("%v %v %v %v", a["action_key"], a["action_type_key"], a["status"], a["attempt_count"]); got != want ||
				a["max_attempts"] == nil || a["retry_class"] != nil || a["terminal_reason"] != "" {
				t.Fatalf("receipt action %d = %v, want %s", i, a, want)
			}
		}
		if got := j.target.bodiesOf("/orders/orders"); !slices.Equal(got, []string{`{"email":"ada@example.com","order":"A-1001"}`}) {
			t.Fatalf("the target received %q", got)
		}
		run := j.do(req{method: "GET", path: "/api/v1/runs/" + runID, token: j.u.token}).expect(t, http.StatusOK)
		if run.str("trigger_type") != "webhook" || run.str("trigger_action_key") != "hook" || run.json["is_test"] != false ||
			run.json["input_json"].(map[string]any)["order_id"] != "A-1001" {
			t.Fatalf("the run is %s", run.Body)
		}

		events := j.hookEvents(epID)
		wantFields := map[string]any{"customer.email": "ada@example.com", "items.0.sku": "SKU-7", "missing.path": nil}
		if len(events) != 1 || events[0]["webhook_event_id"] != eventID || events[0]["status"] != "accepted" || events[0]["delivery_id"] != "msg_2b9hT4" ||
			events[0]["workflow_run_id"] != runID || events[0]["response_status"] != 202.0 || !reflect.DeepEqual(events[0]["fields_json"], wantFields) {
			t.Fatalf("events %v", events)
		}
		event := j.do(req{method: "GET", path: "/api/v1/webhook-events/" + eventID, token: j.u.token}).expect(t, http.StatusOK)
		h, _ := event.json["headers"].(map[string]any)
		if event.str("body") != body || h["Webhook-Id"] != "msg_2b9hT4" || h["Content-Type"] != "application/json" ||
			event.json["payload_json"].(map[string]any)["order_id"] != "A-1001" || event.str("content_type") != "application/json" {
			t.Fatalf("event %s", event.Body)
		}

		t.Run("a repeated delivery gets the first answer and starts nothing", func(t *testing.T) {
			jt := j.sub(t)
			again := jt.post(path, body, headers).expect(t, http.StatusAccepted)
			if again.Body.String() != accepted.Body.String() || again.Header().Get("Idempotent-Replayed") != "true" {
				t.Fatalf("the repeated delivery answered %s (replayed %q), first %s", again.Body, again.Header().Get("Idempotent-Replayed"), accepted.Body)
			}
			// Re-signed later, as a sender's retry is: still the same delivery.
			j.advance(time.Minute)
			jt.post(path, body, signed(t, secret, "msg_2b9hT4", j.now, body)).expect(t, http.StatusAccepted)
			if n := jt.runCount(wfID); n != 1 {
				t.Fatalf("the workflow has %d runs, want 1", n)
			}
			if n := len(jt.hookEvents(epID)); n != 1 {
				t.Fatalf("the endpoint has %d events, want 1", n)
			}
			other := `{"order_id":"A-1002"}`
			jt.post(path, other, signed(t, secret, "msg_2b9hT4", j.now, other)).expect(t, http.StatusConflict, "webhook-id")
		})

		t.Run("a replay of the event starts a new run on the current version", func(t *testing.T) {
			jt := j.sub(t)
			replay := jt.do(req{method: "POST", path: "/api/v1/webhook-events/" + eventID + "/replay", token: j.u.token}).expect(t, http.StatusAccepted)
			replayID := replay.str("workflow_run_id")
			if replayID == runID || replay.str("trigger_type") != "webhook" || replay.json["input_json"].(map[string]any)["order_id"] != "A-1001" {
				t.Fatalf("replay answered %s", replay.Body)
			}
			if r := jt.receipt(path + "/runs/" + replayID + "/receipt"); r.str("status") != "succeeded" {
				t.Fatalf("the replay's receipt %s", r.Body)
			}
			ev := jt.do(req{method: "GET", path: "/api/v1/webhook-events/" + eventID, token: j.u.token}).expect(t, http.StatusOK)
			if !reflect.DeepEqual(ev.json["replay_run_ids"], []any{replayID}) || ev.str("workflow_run_id") != runID {
				t.Fatalf("the event after its replay %s", ev.Body)
			}
			if n := len(j.target.bodiesOf("/orders/orders")); n != 2 {
				t.Fatalf("the target got %d requests, want 2", n)
			}
		})

		t.Run("a receipt is only for runs started through the endpoint, by whoever knows both keys", func(t *testing.T) {
			jt := j.sub(t)
			manualWf := jt.create("Manual", map[string]any{"actions": []any{act("start", "manual.trigger", map[string]any{})}, "connections": []any{}})
			jt.publish(manualWf, 1)
			manual := jt.runManual(manualWf, map[string]any{}).str("workflow_run_id")
			var bodies []string
			for _, p := range []string{
				path + "/runs/" + manual + "/receipt",
				"/hooks/wrong-hook-key/orders/runs/" + runID + "/receipt",
				"/hooks/" + project.str("hook_key") + "/refunds/runs/" + runID + "/receipt",
			} {
				r := jt.do(req{method: "GET", path: p}).expect(t, http.StatusNotFound)
				delete(r.json, "request_id")
				bodies = append(bodies, fmt.Sprint(r.json))
			}
			if bodies[0] != bodies[1] || bodies[1] != bodies[2] {
				t.Fatalf("the 404 answers differ: %q", bodies)
			}
			jt.do(req{method: "GET", path: receiptPath(accepted) + "?wait=31"}).expect(t, http.StatusBadRequest, "wait")
			jt.do(req{method: "GET", path: receiptPath(accepted) + "?wait=soon"}).expect(t, http.StatusBadRequest, "wait")
			if r := jt.do(req{method: "GET", path: receiptPath(accepted)}).expect(t, http.StatusOK); r.str("status") != "succeeded" {
				t.Fatalf("the receipt without wait %s", r.Body)
			}
		})
	})
}

// TestWebhookRefusals sends requests that must not start anything: each gets its Problem,
// and afterwards the endpoint has no events and the workflow no runs.
func TestWebhookRefusals(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		wfID := j.hookWorkflow("orders", nil)
		hook := j.endpoint(wfID, map[string]any{"endpoint_key": "orders"})
		body := `{"order_id":"A-1"}`
		now := j.now
		other := "whsec_" + base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef"))
		stale := signed(t, hook.secret, "msg_old", now.Add(-6*time.Minute), body)
		tampered := signed(t, hook.secret, "msg_tamper", now, body)
		twoBad := signed(t, hook.secret, "msg_two", now, body)
		twoBad["webhook-signature"] = signature(t, other, "msg_two", now.Unix(), body) + " v2,abc v1,notbase64!"
		oversized := `{"pad":"` + strings.Repeat("x", 1<<20) + `"}`
		longID := strings.Repeat("m", 256)

		for _, tc := range []struct {
			name     string
			body     string
			headers  map[string]string
			status   int
			validate string
		}{
			{"a signature made with another secret", body, signed(t, other, "msg_1", now, body), 401, "webhook-signature"},
			{"signatures none of which matches", body, twoBad, 401, "webhook-signature"},
			{"a body other than the signed one", `{"order_id":"A-2"}`, tampered, 401, "webhook-signature"},
			{"a timestamp more than five minutes old", body, stale, 401, "webhook-timestamp"},
			{"a timestamp more than five minutes ahead", body, signed(t, hook.secret, "msg_2", now.Add(6*time.Minute), body), 401, "webhook-timestamp"},
			{"a timestamp that is not a number", body, map[string]string{"webhook-id": "m", "webhook-timestamp": "yesterday", "webhook-signature": "v1,x"}, 401, "webhook-timestamp"},
			{"no signature headers", body, nil, 401, "webhook-id,webhook-timestamp,webhook-signature"},
			{"a body over the endpoint's limit", oversized, signed(t, hook.secret, "msg_3", now, oversized), 413, "body"},
			{"a body that is not JSON", "order_id=A-1", signed(t, hook.secret, "msg_4", now, "order_id=A-1"), 415, "body"},
			{"malformed JSON", `{"order_id":`, signed(t, hook.secret, "msg_5", now, `{"order_id":`), 400, "body"},
			{"a delivery id over 255 characters", body, signed(t, hook.secret, longID, now, body), 400, "webhook-id"},
		} {
			t.Run(tc.name+" answers "+strconv.Itoa(tc.status), func(t *testing.T) {
				jt := j.sub(t)
				if tc.validate == "body" && tc.status == 415 {
					tc.headers = maps.Clone(tc.headers)
					tc.headers["Content-Type"] = "application/x-www-form-urlencoded"
				}
				jt.post(hook.path, tc.body, tc.headers).expect(t, tc.status, tc.validate)
			})
		}
		ep := j.do(req{method: "GET", path: "/api/v1/webhook-endpoints/" + hook.endpointID, token: j.u.token}).expect(t, http.StatusOK)
		if ep.json["rejected_count"] != 7.0 || ep.str("last_rejection") != "webhook_headers_missing" || ep.json["last_rejected_at"] == nil {
			t.Fatalf("the endpoint after the refusals %s", ep.Body)
		}

		t.Run("unknown keys, a disabled endpoint and an unpublished workflow answer the same 404", func(t *testing.T) {
			jt := j.sub(t)
			draftOnly := jt.create("Draft only", map[string]any{"connections": []any{},
				"actions": []any{act("hook", "webhook.trigger", map[string]any{"endpoint_key": "drafts", "auth_type": "none"})}})
			unpublished := jt.endpoint(draftOnly, map[string]any{"endpoint_key": "drafts"})
			disabledWf := jt.hookWorkflow("paused", map[string]any{"auth_type": "none"})
			disabled := jt.endpoint(disabledWf, map[string]any{"endpoint_key": "paused"})
			jt.do(req{method: "PATCH", path: "/api/v1/webhook-endpoints/" + disabled.endpointID, token: j.u.token,
				body: map[string]any{"status": "disabled"}}).expect(t, http.StatusOK)
			hookKey := strings.Split(hook.path, "/")[2]
			var answers []string
			for _, p := range []string{"/hooks/no-such-hook-key/orders", "/hooks/" + hookKey + "/no_such_endpoint", disabled.path, unpublished.path} {
				r := jt.post(p, body, signed(t, hook.secret, "msg_404", now, body)).expect(t, http.StatusNotFound)
				delete(r.json, "request_id")
				answers = append(answers, fmt.Sprint(r.json))
			}
			for _, a := range answers[1:] {
				if a != answers[0] {
					t.Fatalf("the 404 answers differ: %q", answers)
				}
			}
			if len(jt.hookEvents(disabled.endpointID))+len(jt.hookEvents(unpublished.endpointID))+jt.runCount(disabledWf)+jt.runCount(draftOnly) != 0 {
				t.Fatal("a refused request was stored or ran")
			}
		})

		if n := len(j.hookEvents(hook.endpointID)); n != 0 {
			t.Fatalf("the endpoint stored %d refused requests", n)
		}
		if n := j.runCount(wfID); n != 0 {
			t.Fatalf("refused requests started %d runs", n)
		}
		// The same endpoint still takes a good request.
		accepted := j.post(hook.path, body, signed(t, hook.secret, "msg_ok", now, body)).expect(t, http.StatusAccepted)
		j.receipt(receiptPath(accepted))
	})
}

// TestWebhookAuthTypes covers the other auth types, Idempotency-Key, and the bodies an
// endpoint of content type any takes.
func TestWebhookAuthTypes(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		body := `{"order_id":"B-1","customer":{"email":"grace@example.com"}}`

		t.Run("shared_secret takes the secret in X-Webhook-Secret", func(t *testing.T) {
			jt := j.sub(t)
			hook := jt.endpoint(jt.hookWorkflow("shared", nil), map[string]any{"endpoint_key": "shared", "auth_type": "shared_secret"})
			jt.post(hook.path, body, nil).expect(t, http.StatusUnauthorized, "X-Webhook-Secret")
			jt.post(hook.path, body, map[string]string{"X-Webhook-Secret": hook.secret + "x"}).expect(t, http.StatusUnauthorized, "X-Webhook-Secret")
			jt.post(hook.path, body, map[string]string{"X-Webhook-Secret": hook.secret, "Idempotency-Key": strings.Repeat("k", 256)}).
				expect(t, http.StatusBadRequest, "Idempotency-Key")
			first := jt.post(hook.path, body, map[string]string{"X-Webhook-Secret": hook.secret, "Idempotency-Key": "order-B-1"}).expect(t, http.StatusAccepted)
			again := jt.post(hook.path, body, map[string]string{"X-Webhook-Secret": hook.secret, "Idempotency-Key": "order-B-1"}).expect(t, http.StatusAccepted)
			if again.Body.String() != first.Body.String() || again.Header().Get("Idempotent-Replayed") != "true" {
				t.Fatalf("the repeated Idempotency-Key answered %s, first %s", again.Body, first.Body)
			}
			jt.receipt(receiptPath(first))
			events := jt.hookEvents(hook.endpointID)
			if len(events) != 1 || events[0]["delivery_id"] != "order-B-1" {
				t.Fatalf("events %v", events)
			}
			ev := jt.do(req{method: "GET", path: "/api/v1/webhook-events/" + first.str("webhook_event_id"), token: j.u.token}).expect(t, http.StatusOK)
			if strings.Contains(ev.Body.String(), hook.secret) {
				t.Fatalf("the stored event holds the secret: %s", ev.Body)
			}
		})

		t.Run("basic takes the secret as the password of the endpoint's user", func(t *testing.T) {
			jt := j.sub(t)
			hook := jt.endpoint(jt.hookWorkflow("basic", nil), map[string]any{"endpoint_key": "basic", "auth_type": "basic", "basic_username": "shop"})
			basic := func(user, password string) map[string]string {
				return map[string]string{"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))}
			}
			refused := jt.post(hook.path, body, nil).expect(t, http.StatusUnauthorized, "Authorization")
			if !strings.HasPrefix(refused.Header().Get("WWW-Authenticate"), "Basic ") {
				t.Fatalf("the 401 lacks WWW-Authenticate: %v", refused.Header())
			}
			jt.post(hook.path, body, basic("other", hook.secret)).expect(t, http.StatusUnauthorized, "Authorization")
			jt.post(hook.path, body, basic("shop", "wrong")).expect(t, http.StatusUnauthorized, "Authorization")
			accepted := jt.post(hook.path, body, basic("shop", hook.secret)).expect(t, http.StatusAccepted)
			jt.receipt(receiptPath(accepted))
			ev := jt.do(req{method: "GET", path: "/api/v1/webhook-events/" + accepted.str("webhook_event_id"), token: j.u.token}).expect(t, http.StatusOK)
			if h := ev.json["headers"].(map[string]any); h["Authorization"] != nil {
				t.Fatalf("the stored event kept Authorization: %v", h)
			}
		})

		t.Run("none takes any request, and content type any takes forms and raw bodies", func(t *testing.T) {
			jt := j.sub(t)
			hook := jt.endpoint(jt.hookWorkflow("open", map[string]any{"auth_type": "none", "json_fields": []any{"order_id"}}),
				map[string]any{"endpoint_key": "open", "content_type": "any"})
			for _, tc := range []struct {
				contentType, body string
				payload           map[string]any
			}{
				{"application/json", body, map[string]any{"order_id": "B-1", "customer": map[string]any{"email": "grace@example.com"}}},
				{"application/vnd.shop+json", `[1,2]`, map[string]any{"body": []any{1.0, 2.0}}},
				{"application/x-www-form-urlencoded", "order_id=B-2&tag=a&tag=b", map[string]any{"order_id": "B-2", "tag": []any{"a", "b"}}},
				{"text/plain; charset=utf-8", "hello", map[string]any{"body": "hello"}},
				{"application/json", "", map[string]any{}},
			} {
				accepted := jt.post(hook.path, tc.body, map[string]string{"Content-Type": tc.contentType}).expect(t, http.StatusAccepted)
				ev := jt.do(req{method: "GET", path: "/api/v1/webhook-events/" + accepted.str("webhook_event_id"), token: j.u.token}).expect(t, http.StatusOK)
				if !reflect.DeepEqual(ev.json["payload_json"], tc.payload) || ev.str("body") != tc.body || ev.str("content_type") != tc.contentType {
					t.Fatalf("%s %q stored as %s", tc.contentType, tc.body, ev.Body)
				}
				jt.receipt(receiptPath(accepted))
			}
		})
	})
}

// TestWebhookSecretRotation rotates a secret: during the grace period requests signed with
// either secret are accepted, after it only the new one; a rotation without grace ends the
// old secret at once.
func TestWebhookSecretRotation(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		hook := j.endpoint(j.hookWorkflow("orders", map[string]any{"auth_type": "hmac_standard"}), map[string]any{"endpoint_key": "orders"})
		rotate := "/api/v1/webhook-endpoints/" + hook.endpointID + "/rotate-secret"
		body := `{"order_id":"R-1"}`
		n := 0
		send := func(t *testing.T, signature string, status int) {
			t.Helper()
			n++
			id := fmt.Sprintf("msg_rot_%d", n)
			h := signed(t, hook.secret, id, j.now, body)
			h["webhook-signature"] = signature
			jt := j.sub(t)
			r := jt.post(hook.path, body, h).expect(t, status)
			if status == http.StatusAccepted {
				jt.receipt(receiptPath(r))
			}
		}
		sig := func(secret string) string {
			return signature(t, secret, fmt.Sprintf("msg_rot_%d", n+1), j.now.Unix(), body)
		}

		old := hook.secret
		rotated := j.do(req{method: "POST", path: rotate, token: j.u.token}).expect(t, http.StatusOK)
		fresh := rotated.str("secret")
		until, _ := time.Parse(time.RFC3339Nano, rotated.str("previous_secret_expires_at"))
		if fresh == old || !strings.HasPrefix(fresh, "whsec_") || rotated.str("secret_masked") != "whsec_"+fresh[6:10]+"****" || !until.Equal(j.now.Add(24*time.Hour)) {
			t.Fatalf("rotate answered %s", rotated.Body)
		}
		t.Run("during the grace period both secrets verify", func(t *testing.T) {
			send(t, sig(old), http.StatusAccepted)
			send(t, sig(fresh), http.StatusAccepted)
			send(t, sig("whsec_"+base64.StdEncoding.EncodeToString([]byte("not the secret"))), http.StatusUnauthorized)
			// A sender in the middle of switching may send both signatures.
			send(t, sig(fresh)+" "+sig(old), http.StatusAccepted)
		})
		t.Run("after the grace period only the new secret verifies", func(t *testing.T) {
			j.advance(24*time.Hour + time.Second)
			// A day later the access token has expired: sign in again.
			j.u.token = j.sub(t).do(req{method: "POST", path: "/api/v1/auth/login", body: map[string]any{
				"email": j.u.email, "password": password, "client_type": "api"}}).expect(t, http.StatusOK).str("access_token")
			send(t, sig(old), http.StatusUnauthorized)
			send(t, sig(fresh), http.StatusAccepted)
			ep := j.sub(t).do(req{method: "GET", path: "/api/v1/webhook-endpoints/" + hook.endpointID, token: j.u.token}).expect(t, http.StatusOK)
			if ep.json["previous_secret_expires_at"] != nil {
				t.Fatalf("the endpoint after the grace period %s", ep.Body)
			}
		})
		t.Run("a rotation without grace ends the old secret at once", func(t *testing.T) {
			newest := j.sub(t).do(req{method: "POST", path: rotate, token: j.u.token, body: map[string]any{"grace_period_seconds": 0}}).expect(t, http.StatusOK)
			if newest.json["previous_secret_expires_at"] != nil {
				t.Fatalf("rotate answered %s", newest.Body)
			}
			send(t, sig(fresh), http.StatusUnauthorized)
			send(t, sig(newest.str("secret")), http.StatusAccepted)
		})
	})
}

// TestWebhookConcurrentDuplicates sends one delivery many times at once: exactly one run
// starts, and every answer that is not a 409 "still in progress" is the same 202.
func TestWebhookConcurrentDuplicates(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		wfID := j.hookWorkflow("orders", nil)
		hook := j.endpoint(wfID, map[string]any{"endpoint_key": "orders"})
		body := `{"order_id":"C-1"}`
		headers := signed(t, hook.secret, "msg_concurrent", j.now, body)
		const senders = 8
		answers := make([]*httptest.ResponseRecorder, senders)
		var wg sync.WaitGroup
		for i := range senders {
			wg.Go(func() {
				r := httptest.NewRequest("POST", hook.path, strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				for k, v := range headers {
					r.Header.Set(k, v)
				}
				answers[i] = httptest.NewRecorder()
				j.handler.ServeHTTP(answers[i], r)
			})
		}
		wg.Wait()
		var accepted string
		for i, a := range answers {
			switch {
			case a.Code == http.StatusAccepted && (accepted == "" || a.Body.String() == accepted):
				accepted = a.Body.String()
			case a.Code == http.StatusConflict && a.Header().Get("Retry-After") != "":
			default:
				t.Fatalf("sender %d got %d %s (first 202: %s)", i, a.Code, a.Body, accepted)
			}
		}
		if accepted == "" || j.runCount(wfID) != 1 || len(j.hookEvents(hook.endpointID)) != 1 {
			t.Fatalf("%d runs and %d events after concurrent duplicates", j.runCount(wfID), len(j.hookEvents(hook.endpointID)))
		}
	})
}

// TestWebhookEndpointRoles: endpoints hold credentials, so only owners and admins create,
// change and rotate them; members read them and replay events; viewers only read.
func TestWebhookEndpointRoles(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		wfID := j.hookWorkflow("orders", map[string]any{"auth_type": "none"})
		hook := j.endpoint(wfID, map[string]any{"endpoint_key": "orders"})
		accepted := j.post(hook.path, `{"order_id":"R-1"}`, nil).expect(t, http.StatusAccepted)
		j.receipt(receiptPath(accepted))
		companyID := j.do(req{method: "GET", path: "/api/v1/projects/" + j.projectID, token: j.u.token}).expect(t, http.StatusOK).str("company_id")
		member, viewer := j.signUp("Bob"), j.signUp("Vic")
		j.addToCompany(j.u, companyID, member, "member")
		j.addToCompany(j.u, companyID, viewer, "viewer")
		ep := "/api/v1/webhook-endpoints/" + hook.endpointID
		replay := "/api/v1/webhook-events/" + accepted.str("webhook_event_id") + "/replay"
		for _, u := range []user{member, viewer} {
			for _, path := range []string{ep, ep + "/snippets", ep + "/events", "/api/v1/workflows/" + wfID + "/webhook-endpoints"} {
				if r := j.do(req{method: "GET", path: path, token: u.token}).expect(t, http.StatusOK); strings.Contains(r.Body.String(), hook.secret) {
					t.Fatalf("%s shows the secret: %s", path, r.Body)
				}
			}
			j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/webhook-endpoints", token: u.token,
				body: map[string]any{"endpoint_key": "orders"}}).expect(t, http.StatusForbidden)
			j.do(req{method: "PATCH", path: ep, token: u.token, body: map[string]any{"status": "disabled"}}).expect(t, http.StatusForbidden)
			j.do(req{method: "POST", path: ep + "/rotate-secret", token: u.token}).expect(t, http.StatusForbidden)
		}
		j.do(req{method: "POST", path: replay, token: viewer.token}).expect(t, http.StatusForbidden)
		r := j.do(req{method: "POST", path: replay, token: member.token}).expect(t, http.StatusAccepted)
		j.receipt(hook.path + "/runs/" + r.str("workflow_run_id") + "/receipt")
	})
}

// TestWebhookDeliveriesListNewestFirst: an endpoint's deliveries come oldest first, or
// newest first when asked, page after page.
func TestWebhookDeliveriesListNewestFirst(t *testing.T) {
	j := newJourney(t, dbtest.SQLite(t))
	wfID := j.hookWorkflow("orders", nil)
	ep := j.endpoint(wfID, map[string]any{"endpoint_key": "orders"})
	var delivered []any
	for i := range 3 {
		body := fmt.Sprintf(`{"order_id":"A-%d"}`, i)
		accepted := j.post(ep.path, body, signed(t, ep.secret, fmt.Sprintf("msg_%d", i), j.now, body)).expect(t, http.StatusAccepted)
		delivered = append(delivered, accepted.str("webhook_event_id"))
	}
	events := "/api/v1/webhook-endpoints/" + ep.endpointID + "/events"
	ids := func(items []map[string]any) []any {
		var out []any
		for _, e := range items {
			out = append(out, e["webhook_event_id"])
		}
		return out
	}
	if got := ids(j.hookEvents(ep.endpointID)); !slices.Equal(got, delivered) {
		t.Fatalf("oldest first: %v, want %v", got, delivered)
	}
	first := j.do(req{method: "GET", path: events + "?order=desc&limit=2", token: j.u.token}).expect(t, http.StatusOK)
	rest := j.do(req{method: "GET", path: events + "?order=desc&limit=2&cursor=" + first.str("next_cursor"), token: j.u.token}).expect(t, http.StatusOK)
	if got := append(ids(first.items()), ids(rest.items())...); !slices.Equal(got, []any{delivered[2], delivered[1], delivered[0]}) {
		t.Fatalf("newest first over two pages: %v", got)
	}
	j.do(req{method: "GET", path: events + "?order=latest", token: j.u.token}).expect(t, http.StatusBadRequest, "order")
}
