package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"agencyhub/migrations/dbtest"
)

// agentAnswer is the model server's part for the ai.agent action (its system message
// says it works inside a run). The task decides: a normal one reads the run it names and
// answers its status as JSON; "violate" answers JSON of the wrong shape; "forbidden"
// first asks for a write tool, then answers what became of it.
func (m *modelServer) agentAnswer(w http.ResponseWriter, msgs []map[string]any) {
	task, _ := msgs[1]["content"].(string)
	last := msgs[len(msgs)-1]
	content, _ := last["content"].(string)
	switch {
	case last["role"] == "user" && strings.Contains(task, "forbidden"):
		streamTool(w, "retry_failed_action", fmt.Sprintf(`{"workflow_run_id":%q,"action_key":"done"}`, runIDPattern.FindString(task)))
	case last["role"] == "user":
		streamTool(w, "get_run", fmt.Sprintf(`{"workflow_run_id":%q}`, runIDPattern.FindString(task)))
	case strings.Contains(task, "violate"):
		streamText(w, `{"state": 5}`)
	case strings.Contains(content, "not allowed"):
		streamText(w, `{"status": "refused"}`)
	default:
		var run struct {
			Status string `json:"status"`
		}
		_ = json.Unmarshal([]byte(content), &run)
		streamText(w, "```json\n"+fmt.Sprintf(`{"status": %q}`, run.Status)+"\n```")
	}
}

func TestAIAgentActionRunsInARun(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		w := newAIWorld(t, e, "Agent")
		w.connectModel(t)
		// The agent's workflow comes through the patch importer, like an AI editor's.
		flowID := e.do(req{method: "POST", path: w.path("/workflows"), token: w.owner.token, body: map[string]any{"name": "Triage"}}).
			expect(t, http.StatusCreated).str("workflow_id")
		patch := fmt.Sprintf(`{"format":"service-workflow-patch-v1","schema_version":1,"base_workflow_id":%q,"change_description":"triage with the agent","operations":[
			{"op":"add_action","action":{"action_key":"start","action_type_key":"manual.trigger","config":{}}},
			{"op":"add_action","action":{"action_key":"triage","action_type_key":"ai.agent","config":{
				"action_dependency_id":%q,"instructions":"You triage runs.","input":"{{ start.task }}","tools":["get_run"],
				"output_schema":{"type":"object","required":["status"],"properties":{"status":{"type":"string"}}}}}},
			{"op":"add_action","action":{"action_key":"check","action_type_key":"condition.branch","config":{"text":"steps.triage.output.status == \"succeeded\""}}},
			{"op":"add_action","action":{"action_key":"fine","action_type_key":"stop","config":{}}},
			{"op":"add_action","action":{"action_key":"look","action_type_key":"stop","config":{}}},
			{"op":"add_connection","from":"start","to":"triage"},
			{"op":"add_connection","from":"triage","to":"check"},
			{"op":"add_connection","from":"check","to":"fine","branch":"true"},
			{"op":"add_connection","from":"check","to":"look","branch":"false"}]}`, flowID, w.providerID)
		e.do(req{method: "POST", path: "/api/v1/workflows/" + flowID + "/ai-import", token: w.owner.token, body: patch,
			header: map[string]string{"Content-Type": "application/json"}}).expect(t, http.StatusOK)
		e.do(req{method: "POST", path: "/api/v1/workflows/" + flowID + "/publish", token: w.owner.token, body: map[string]any{}}).expect(t, http.StatusCreated)
		start := func(task string) (map[string]any, map[string]map[string]any) {
			t.Helper()
			runID := e.do(req{method: "POST", path: "/api/v1/workflows/" + flowID + "/runs/manual", token: w.owner.token,
				body: map[string]any{"input": map[string]any{"task": task}}}).expect(t, http.StatusAccepted).str("workflow_run_id")
			run := e.waitRun(w.owner, runID).json
			actions := map[string]map[string]any{}
			for _, a := range e.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/actions", token: w.owner.token}).expect(t, http.StatusOK).items() {
				actions[a["action_key"].(string)] = a
			}
			return run, actions
		}

		t.Run("the agent reads a run with an allowed tool, answers JSON, and the condition reads it", func(t *testing.T) {
			run, actions := start("How did run " + w.runID + " end?")
			triage := actions["triage"]
			out := triage["output_json"].(map[string]any)
			if run["status"] != "succeeded" || triage["status"] != "succeeded" || actions["fine"]["status"] != "succeeded" || actions["look"]["status"] != "skipped" {
				t.Fatalf("run %v, actions %v", run, actions)
			}
			if out["output"].(map[string]any)["status"] != "succeeded" || out["steps"] != 2.0 || out["model"] != "test-model" ||
				fmt.Sprint(out["tool_calls"]) != "[map[status:succeeded tool:get_run]]" {
				t.Fatalf("triage output %v", out)
			}
		})
		t.Run("an answer that violates the output schema fails the action saying why", func(t *testing.T) {
			run, actions := start("Check run " + w.runID + " and violate the schema")
			triage := actions["triage"]
			if run["status"] != "failed" || triage["status"] != "failed" || triage["retry_class"] != "validation" ||
				!strings.Contains(fmt.Sprint(triage["error"]), "does not match output_schema") || !strings.Contains(fmt.Sprint(triage["error"]), "status") {
				t.Fatalf("run %v, triage %v", run, triage)
			}
		})
		t.Run("a tool not allowed is refused as the tool's answer and never runs", func(t *testing.T) {
			before := e.do(req{method: "GET", path: "/api/v1/runs/" + w.runID, token: w.owner.token}).expect(t, http.StatusOK).json
			run, actions := start("Use a forbidden tool on run " + w.runID)
			out := actions["triage"]["output_json"].(map[string]any)
			calls := out["tool_calls"].([]any)
			if run["status"] != "succeeded" || len(calls) != 1 || calls[0].(map[string]any)["tool"] != "retry_failed_action" ||
				calls[0].(map[string]any)["status"] != "refused" || out["output"].(map[string]any)["status"] != "refused" || actions["look"]["status"] != "succeeded" {
				t.Fatalf("run %v, triage %v", run, out)
			}
			after := e.do(req{method: "GET", path: "/api/v1/runs/" + w.runID, token: w.owner.token}).expect(t, http.StatusOK).json
			if after["updated_at"] != before["updated_at"] || after["status"] != before["status"] {
				t.Fatalf("the refused tool touched the run: %v -> %v", before, after)
			}
		})
		t.Run("a write tool is refused at import; an output schema that does not compile keeps the draft from publishing", func(t *testing.T) {
			add := func(config string) *response {
				return e.do(req{method: "POST", path: "/api/v1/workflows/" + flowID + "/ai-import", token: w.owner.token, header: map[string]string{"Content-Type": "application/json"},
					body: fmt.Sprintf(`[{"op":"add_action","action":{"action_key":"more","action_type_key":"ai.agent","config":{"action_dependency_id":%q,%s}}},{"op":"add_connection","from":"start","to":"more"}]`, w.providerID, config)})
			}
			add(`"input":"x","tools":["get_run","apply_patch_proposal"]`).expect(t, http.StatusBadRequest, "operations.0.action.config.tools.1", "operations.1.to")
			draft := add(`"input":"x","output_schema":{"$ref":"https://example.com/schema.json"}`).expect(t, http.StatusOK)
			if !strings.Contains(draft.Body.String(), `"code":"invalid_output_schema"`) {
				t.Fatalf("diagnostics %s", draft.Body)
			}
			e.do(req{method: "POST", path: "/api/v1/workflows/" + flowID + "/publish", token: w.owner.token, body: map[string]any{}}).expect(t, http.StatusBadRequest)
		})
	})
}
