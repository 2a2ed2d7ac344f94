package api_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
)

// approveNext posts content, approves the call it leaves waiting and answers that call as
// it stands once the turn has ended.
func (w *aiWorld) approveNext(t *testing.T, content string) map[string]any {
	t.Helper()
	sessionID := w.session(t)
	waiting := waitingCall(t, w.post(t, sessionID, content).json)
	w.e.do(req{method: "POST", path: w.path("/ai/tool-calls/" + waiting["ai_tool_call_id"].(string) + "/approve"), token: w.owner.token}).expect(t, http.StatusOK)
	for _, c := range toolCalls(w.awaitSession(t, sessionID, idle)) {
		if c["ai_tool_call_id"] == waiting["ai_tool_call_id"] {
			return c
		}
	}
	t.Fatalf("the approved call is gone")
	return nil
}

func TestAIEmployeeWritesRunOnceApproved(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		w := newAIWorld(t, e, "Writer")
		w.enableWrites(t)
		t.Run("start_test_run starts a test run of the draft", func(t *testing.T) {
			call := w.approveNext(t, "start_test_run of workflow "+w.workflowID)
			runID, _ := call["output_json"].(map[string]any)["workflow_run_id"].(string)
			if call["tool_key"] != "start_test_run" || call["status"] != "succeeded" || runID == "" {
				t.Fatalf("call %v", call)
			}
			if run := e.waitRun(w.owner, runID).json; run["is_test"] != true || run["status"] != "succeeded" {
				t.Fatalf("the test run %v", run)
			}
		})
		t.Run("retry_failed_action runs the failed action again and the run recovers", func(t *testing.T) {
			var calls atomic.Int32
			flaky := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) {
				if calls.Add(1) == 1 {
					rw.WriteHeader(http.StatusServiceUnavailable)
				}
			}))
			t.Cleanup(flaky.Close)
			flowID := e.publishGraph(w.owner, w.projectID, "Flaky", map[string]any{
				"actions": []any{
					map[string]any{"action_key": "start", "action_type_key": "manual.trigger", "config": map[string]any{}},
					map[string]any{"action_key": "call", "action_type_key": "http.request", "config": map[string]any{
						"url": flaky.URL, "retry_policy": map[string]any{"max_attempts": 1}}},
				},
				"connections": []any{map[string]any{"from": "start", "to": "call"}},
			})
			runID := e.do(req{method: "POST", path: "/api/v1/workflows/" + flowID + "/runs/manual", token: w.owner.token, body: map[string]any{"input": map[string]any{}}}).
				expect(t, http.StatusAccepted).str("workflow_run_id")
			if run := e.waitRun(w.owner, runID).json; run["status"] != "failed" {
				t.Fatalf("the flaky run %v", run)
			}
			call := w.approveNext(t, "retry_failed_action call of run "+runID)
			if call["tool_key"] != "retry_failed_action" || call["status"] != "succeeded" {
				t.Fatalf("call %v", call)
			}
			e.awaitRun(w.owner, runID, 30*time.Second, "succeeded", func(r *response) bool { return r.json["status"] == "succeeded" })
			if calls.Load() != 2 {
				t.Fatalf("the action ran %d times", calls.Load())
			}
		})
	})
}

func TestAIEmployeeApprovalTimesOut(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		w := newAIWorld(t, e, "Waiter")
		w.enableWrites(t)
		e.do(req{method: "PATCH", path: w.path("/ai/employee"), token: w.owner.token, body: map[string]any{"approval_timeout_seconds": 10}}).expect(t, http.StatusOK)
		sessionID := w.session(t)
		waiting := waitingCall(t, w.post(t, sessionID, "start_test_run of workflow "+w.workflowID).json)
		done := w.awaitSession(t, sessionID, idle) // within the 30 s of awaitSession: the 10 s timeout rejects it
		for _, c := range toolCalls(done) {
			if c["ai_tool_call_id"] == waiting["ai_tool_call_id"] &&
				(c["status"] != "rejected" || !strings.Contains(fmt.Sprint(c["output_json"]), "approval timeout")) {
				t.Fatalf("the call after the timeout %v", c)
			}
		}
		runs := e.do(req{method: "GET", path: "/api/v1/workflows/" + w.workflowID + "/runs", token: w.owner.token}).expect(t, http.StatusOK).items()
		if len(runs) != 1 {
			t.Fatalf("a rejected start_test_run started a run: %v", runs)
		}
		e.do(req{method: "POST", path: w.path("/ai/tool-calls/" + waiting["ai_tool_call_id"].(string) + "/approve"), token: w.owner.token}).expect(t, http.StatusConflict)
	})
}

func TestAIEmployeeModelFailuresByClass(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		w := newAIWorld(t, e, "Failer")
		w.connectModel(t)
		requests := func() int {
			w.model.mu.Lock()
			defer w.model.mu.Unlock()
			return w.model.requests
		}
		t.Run("a 500 is retried and the turn completes", func(t *testing.T) {
			w.model.failNext(http.StatusInternalServerError)
			before := requests()
			s := w.post(t, w.session(t), "Check run "+w.runID).json
			msgs := s["messages"].([]any)
			last := msgs[len(msgs)-1].(map[string]any)
			if s["status"] != "idle" || !strings.HasPrefix(last["content"].(string), "Finished:") || toolCalls(s)[0]["status"] != "succeeded" {
				t.Fatalf("session %v", s)
			}
			if n := requests() - before; n < 2 || toolCalls(s)[0]["tool_key"] != "get_run" {
				t.Fatalf("%d model requests", n)
			}
		})
		t.Run("a 401 fails the turn at once with an error event", func(t *testing.T) {
			w.model.failNext(http.StatusUnauthorized)
			before := requests()
			sessionID := w.session(t)
			s := w.post(t, sessionID, "Check run "+w.runID).json
			if n := requests() - before; s["status"] != "idle" || n != 1 || !strings.Contains(fmt.Sprint(s["runtime_state_json"]), "401") {
				t.Fatalf("after %d requests: %v", n, s)
			}
			stream := e.do(req{method: "POST", path: w.path("/ai/employee/sessions/" + sessionID + "/messages/stream"), token: w.owner.token,
				header: map[string]string{"Last-Event-ID": "0"}}).expect(t, http.StatusOK)
			if events, _ := readSSE(t, stream.Body.String()); !strings.HasSuffix(events, ",error") || !strings.Contains(stream.Body.String(), "api_key") && !strings.Contains(stream.Body.String(), "401") {
				t.Fatalf("events %s: %s", events, stream.Body)
			}
		})
		t.Run("the failure reads in the reader's language", func(t *testing.T) {
			w.model.failNext(http.StatusUnauthorized)
			sessionID := w.session(t)
			w.post(t, sessionID, "Check run "+w.runID)
			ru := map[string]string{"Accept-Language": "ru"}
			s := e.do(req{method: "GET", path: w.path("/ai/employee/sessions/" + sessionID), token: w.owner.token, header: ru}).expect(t, http.StatusOK)
			state, _ := s.json["runtime_state_json"].(map[string]any)
			const want = "провайдер модели ответил 401 Unauthorized: answered 401 on purpose"
			if state["last_error"] != want {
				t.Errorf("runtime state %v, want last_error %q", state, want)
			}
			stream := e.do(req{method: "POST", path: w.path("/ai/employee/sessions/" + sessionID + "/messages/stream"), token: w.owner.token,
				header: map[string]string{"Last-Event-ID": "0", "Accept-Language": "ru"}}).expect(t, http.StatusOK)
			if !strings.Contains(stream.Body.String(), `"detail":"`+want+`"`) {
				t.Errorf("the error event: %s", stream.Body)
			}
		})
	})
}
