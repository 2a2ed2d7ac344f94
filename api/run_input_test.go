package api_test

import (
	"net/http"
	"testing"

	"agencyhub/migrations/dbtest"
)

// ordersFlow is a draft whose trigger (of triggerType, with config) is followed by the
// condition orders.total > 200 and a stop on each branch.
func ordersFlow(triggerType string, config map[string]any) map[string]any {
	return map[string]any{
		"actions": []any{
			map[string]any{"action_key": "orders", "action_type_key": triggerType, "config": config},
			map[string]any{"action_key": "big", "action_type_key": "condition.branch", "config": map[string]any{"text": "orders.total > 200"}},
			map[string]any{"action_key": "vip", "action_type_key": "stop", "config": map[string]any{}},
			map[string]any{"action_key": "usual", "action_type_key": "stop", "config": map[string]any{}},
		},
		"connections": []any{
			map[string]any{"from": "orders", "to": "big"},
			map[string]any{"from": "big", "to": "vip", "branch": "true"},
			map[string]any{"from": "big", "to": "usual", "branch": "false"},
		},
	}
}

// TestATestRunStartsFromTheTriggersSample: with no test input of its own, a test run gets
// the trigger's sample payload, so a condition over the sample's fields passes.
func TestATestRunStartsFromTheTriggersSample(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e, ada, projectID := shop(t, db)
		for _, tc := range []struct{ name, trigger string }{
			{"a webhook's sample", "webhook.trigger"},
			{"a manual start's sample", "manual.trigger"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				config := map[string]any{"sample_payload_json": map[string]any{"total": 250}}
				if tc.trigger == "webhook.trigger" {
					config["endpoint_key"] = "orders"
				}
				id := e.publishGraph(ada, projectID, "Orders", ordersFlow(tc.trigger, config))
				runID := e.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/test-runs", token: ada.token, body: map[string]any{}}).
					expect(t, http.StatusAccepted).str("workflow_run_id")
				if run := e.waitRun(ada, runID); run.str("status") != "succeeded" || run.json["input_json"].(map[string]any)["total"] != float64(250) {
					t.Fatalf("the test run: %s", run.Body)
				}
				if status := actionStatuses(e, ada, runID); status["vip"] != "succeeded" || status["usual"] != "skipped" {
					t.Fatalf("actions: %v", status)
				}
			})
		}
	})
}

// TestAConditionOverAMissingValueSaysWhichInTheReadersLanguage: a condition reading a
// field the run's input lacks fails naming the field, in the language of whoever reads the
// run's actions and events.
func TestAConditionOverAMissingValueSaysWhichInTheReadersLanguage(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e, ada, projectID := shop(t, db)
		id := e.publishGraph(ada, projectID, "Orders", ordersFlow("manual.trigger", map[string]any{}))
		runID := e.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/runs/manual", token: ada.token,
			body: map[string]any{"input": map[string]any{"count": 3}}}).expect(t, http.StatusAccepted).str("workflow_run_id")
		if run := e.waitRun(ada, runID); run.str("status") != "failed" {
			t.Fatalf("the run: %s", run.Body)
		}
		for _, tc := range []struct{ lang, reason string }{
			{"en", `"orders.total" is missing from the run's data.`},
			{"ru", `В данных запуска нет «orders.total».`},
		} {
			t.Run(tc.lang, func(t *testing.T) {
				header := map[string]string{"Accept-Language": tc.lang}
				var big map[string]any
				for _, a := range e.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/actions", token: ada.token, header: header}).expect(t, http.StatusOK).items() {
					if a["action_key"] == "big" {
						big = a
					}
				}
				d, _ := big["diagnostics"].(map[string]any)
				if big["error"] != tc.reason || d["human_reason"] != tc.reason || d["reason_code"] != "missing_value" {
					t.Fatalf("the condition's action: %v", big)
				}
				var said string
				for _, ev := range e.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/events", token: ada.token, header: header}).expect(t, http.StatusOK).items() {
					if ev["event_type"] == "action.failed" {
						said, _ = ev["message"].(string)
					}
				}
				if said != tc.reason {
					t.Fatalf("the failure's event says %q", said)
				}
			})
		}
	})
}

// TestAManualRunsInputMeetsTheTriggersSchema: input that fails the manual trigger's
// input_schema_json is refused naming its fields, and no run is recorded.
func TestAManualRunsInputMeetsTheTriggersSchema(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e, ada, projectID := shop(t, db)
		id := e.publishGraph(ada, projectID, "Orders", ordersFlow("manual.trigger", map[string]any{"input_schema_json": map[string]any{
			"type": "object", "required": []any{"total"},
			"properties": map[string]any{"total": map[string]any{"type": "number"}, "email": map[string]any{"type": "string", "minLength": 3}},
		}}))
		path := "/api/v1/workflows/" + id + "/runs/manual"
		e.do(req{method: "POST", path: path, token: ada.token, body: map[string]any{"input": map[string]any{"total": "many", "email": "x"}}}).
			expect(t, http.StatusBadRequest, "input.email", "input.total")
		e.do(req{method: "POST", path: path, token: ada.token, body: map[string]any{"input": map[string]any{}}}).
			expect(t, http.StatusBadRequest, "input.total")
		if runs := e.do(req{method: "GET", path: "/api/v1/workflows/" + id + "/runs", token: ada.token}).expect(t, http.StatusOK).items(); len(runs) != 0 {
			t.Fatalf("a refused run was recorded: %v", runs)
		}
		e.do(req{method: "POST", path: path, token: ada.token, body: map[string]any{"input": map[string]any{"total": 300}}}).expect(t, http.StatusAccepted)
	})
}

// shop is a server with Ada, her company and its project.
func shop(t *testing.T, db *dbtest.DB) (e *env, ada user, projectID string) {
	t.Helper()
	e = newEnv(t, db)
	ada = e.signUp("Ada")
	return e, ada, e.projectIn(ada, e.companyOf(ada, "Northwind"), "Shop")
}

// actionStatuses is each action's status in the run.
func actionStatuses(e *env, u user, runID string) map[string]string {
	e.t.Helper()
	out := map[string]string{}
	for _, a := range e.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/actions", token: u.token}).expect(e.t, http.StatusOK).items() {
		out[a["action_key"].(string)], _ = a["status"].(string)
	}
	return out
}

// failedFetch publishes a manual start followed by an http.request "fetch" of url and runs
// it by hand with input, answering the workflow and the run, which must fail.
func failedFetch(t *testing.T, e *env, ada user, projectID, url string, input map[string]any) (workflowID, runID string) {
	t.Helper()
	workflowID = e.publishGraph(ada, projectID, "Fetch", map[string]any{
		"actions": []any{
			map[string]any{"action_key": "orders", "action_type_key": "manual.trigger", "config": map[string]any{}},
			map[string]any{"action_key": "fetch", "action_type_key": "http.request", "config": map[string]any{"url": url}},
		},
		"connections": []any{map[string]any{"from": "orders", "to": "fetch"}},
	})
	runID = e.do(req{method: "POST", path: "/api/v1/workflows/" + workflowID + "/runs/manual", token: ada.token,
		body: map[string]any{"input": input}}).expect(t, http.StatusAccepted).str("workflow_run_id")
	if run := e.waitRun(ada, runID); run.str("status") != "failed" {
		t.Fatalf("the run: %s", run.Body)
	}
	return workflowID, runID
}

// TestAnAddressTheEgressPolicyRefusesIsExplainedInTheReadersLanguage: an http.request whose
// templated host turns out to be one the egress policy refuses fails saying so, and what to
// do, in the language of whoever reads the run's actions.
func TestAnAddressTheEgressPolicyRefusesIsExplainedInTheReadersLanguage(t *testing.T) {
	e, ada, projectID := shop(t, dbtest.SQLite(t))
	_, runID := failedFetch(t, e, ada, projectID, "http://{{ orders.host }}/latest", map[string]any{"host": "169.254.169.254"})
	for _, tc := range []struct{ lang, reason, next string }{
		{"en", "169.254.169.254 may not be called: link-local address.", "Use a public address, or ask the operator to allow-list it in APP_EGRESS_ALLOW"},
		{"ru", "Политика исходящих соединений не пускает к 169.254.169.254: это локальный адрес канала (link-local).",
			"Укажите публичный адрес или попросите оператора разрешить этот в настройке APP_EGRESS_ALLOW"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			var fetch map[string]any
			for _, a := range e.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/actions", token: ada.token,
				header: map[string]string{"Accept-Language": tc.lang}}).expect(t, http.StatusOK).items() {
				if a["action_key"] == "fetch" {
					fetch = a
				}
			}
			d, _ := fetch["diagnostics"].(map[string]any)
			if fetch["error"] != tc.reason || d["next_action"] != tc.next || d["reason_code"] != "egress_refused" {
				t.Fatalf("the request's action: %v", fetch)
			}
		})
	}
}

// TestAnActionsFailureAndTheRunsReasonReadInTheReadersLanguage: an http.request whose
// templated URL turns out not to be a web address fails; its reason, what to do, and the
// run's terminal reason read in English and in Russian.
func TestAnActionsFailureAndTheRunsReasonReadInTheReadersLanguage(t *testing.T) {
	e, ada, projectID := shop(t, dbtest.SQLite(t))
	id, runID := failedFetch(t, e, ada, projectID, "{{ orders.url }}", map[string]any{"url": "ftp://nowhere"})
	for _, tc := range []struct{ lang, reason, next, terminal, listed string }{
		{"en", "Field url must be an absolute http or https URL.", "Fix url and run the action again",
			"action fetch failed: Field url must be an absolute http or https URL.",
			"action fetch failed: Field url must be an absolute http or https URL."},
		{"ru", "Поле url должно быть полным адресом со схемой «http» или «https».", "Исправьте url и выполните действие ещё раз",
			"Действие fetch не удалось: Поле url должно быть полным адресом со схемой «http» или «https».",
			"Действие fetch не удалось."},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			lang := map[string]string{"Accept-Language": tc.lang}
			var fetch map[string]any
			for _, a := range e.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/actions", token: ada.token, header: lang}).
				expect(t, http.StatusOK).items() {
				if a["action_key"] == "fetch" {
					fetch = a
				}
			}
			d, _ := fetch["diagnostics"].(map[string]any)
			if fetch["error"] != tc.reason || d["human_reason"] != tc.reason || d["next_action"] != tc.next || d["text_key"] != "field_absolute_url" {
				t.Errorf("the request's action: %v", fetch)
			}
			run := e.do(req{method: "GET", path: "/api/v1/runs/" + runID, token: ada.token, header: lang}).expect(t, http.StatusOK)
			if run.str("terminal_reason") != tc.terminal || run.str("error") != tc.terminal {
				t.Errorf("the run: %s", run.Body)
			}
			listed := e.do(req{method: "GET", path: "/api/v1/workflows/" + id + "/runs", token: ada.token, header: lang}).expect(t, http.StatusOK).items()
			if len(listed) != 1 || listed[0]["terminal_reason"] != tc.listed {
				t.Errorf("the list: %v", listed)
			}
		})
	}
}

// TestAReceiptsReasonsReadInTheReadersLanguage: the webhook receipt of a run whose action
// failed gives the run's and the action's reasons in the language of whoever reads it.
func TestAReceiptsReasonsReadInTheReadersLanguage(t *testing.T) {
	e, ada, projectID := shop(t, dbtest.SQLite(t))
	id := e.publishGraph(ada, projectID, "Orders", map[string]any{
		"actions": []any{
			act("orders", "webhook.trigger", map[string]any{"endpoint_key": "orders", "auth_type": "none"}),
			act("fetch", "http.request", map[string]any{"url": "{{ orders.url }}"}),
		},
		"connections": []any{map[string]any{"from": "orders", "to": "fetch"}},
	})
	e.do(req{method: "POST", path: "/api/v1/workflows/" + id + "/webhook-endpoints", token: ada.token,
		body: map[string]any{"endpoint_key": "orders", "auth_type": "none"}}).expect(t, http.StatusCreated)
	hookKey := e.do(req{method: "GET", path: "/api/v1/projects/" + projectID, token: ada.token}).expect(t, http.StatusOK).str("hook_key")
	accepted := e.do(req{method: "POST", path: "/hooks/" + hookKey + "/orders", body: `{"url":"ftp://nowhere"}`}).expect(t, http.StatusAccepted)
	for _, tc := range []struct{ lang, run, action string }{
		{"en", "action fetch failed: Field url must be an absolute http or https URL.", "Field url must be an absolute http or https URL."},
		{"ru", "Действие fetch не удалось: Поле url должно быть полным адресом со схемой «http» или «https».",
			"Поле url должно быть полным адресом со схемой «http» или «https»."},
	} {
		r := e.do(req{method: "GET", path: receiptPath(accepted) + "?wait=30", header: map[string]string{"Accept-Language": tc.lang}}).expect(t, http.StatusOK)
		actions, _ := r.json["actions"].([]any)
		var fetch map[string]any
		for _, a := range actions {
			if a, _ := a.(map[string]any); a["action_key"] == "fetch" {
				fetch = a
			}
		}
		if r.str("status") != "failed" || r.str("terminal_reason") != tc.run || fetch["terminal_reason"] != tc.action {
			t.Errorf("%s: the receipt %s", tc.lang, r.Body)
		}
	}
}
