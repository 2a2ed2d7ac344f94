package api_test

import (
	"net/http"
	"strings"
	"testing"

	"agencyhub/api"
	"agencyhub/migrations/dbtest"
)

// TestARunLinksToItsHistoryInTheTemporalWebUI: a run names where the Temporal Web UI lists
// its executions, in the runs' namespace; with no Web UI it names nothing.
func TestARunLinksToItsHistoryInTheTemporalWebUI(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, ui, want string }{
		{"with a Web UI", "http://127.0.0.1:8233/", "http://127.0.0.1:8233/namespaces/agency%20hub/workflows?query=WorkflowId%3D%22RUN%22"},
		{"without one", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, dbtest.SQLite(t), func(s *api.Server) { s.TemporalUIURL, s.TemporalNamespace = c.ui, "agency hub" })
			ada := e.signUp("Ada")
			projectID := e.projectIn(ada, e.companyOf(ada, "Northwind"), "Shop")
			workflowID := e.publishGraph(ada, projectID, "Start", map[string]any{
				"actions":     []any{map[string]any{"action_key": "start", "action_type_key": "manual.trigger", "config": map[string]any{}}},
				"connections": []any{},
			})
			runID := e.do(req{method: "POST", path: "/api/v1/workflows/" + workflowID + "/runs/manual", token: ada.token}).
				expect(t, http.StatusAccepted).str("workflow_run_id")
			want := strings.ReplaceAll(c.want, "RUN", runID)
			if got := e.do(req{method: "GET", path: "/api/v1/runs/" + runID, token: ada.token}).expect(t, http.StatusOK).str("history_url"); got != want {
				t.Fatalf("history_url = %q, want %q", got, want)
			}
			listed := e.do(req{method: "GET", path: "/api/v1/projects/" + projectID + "/runs", token: ada.token}).expect(t, http.StatusOK).items()
			if len(listed) != 1 || listed[0]["history_url"] != want {
				t.Fatalf("the project's runs: %v", listed)
			}
		})
	}
}
