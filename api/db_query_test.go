package api_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"agencyhub/migrations/dbtest"
)

// TestADatabaseQueryRunsInAWorkflow: a published workflow reads the project's PostgreSQL
// database with its trigger's input bound as a parameter; a query that writes may be
// published by an owner, not by a member.
func TestADatabaseQueryRunsInAWorkflow(t *testing.T) {
	t.Parallel()
	db := dbtest.Postgres(t) // the service's database, and the one the workflow reads
	e := newEnv(t, db)
	owner := e.signUp("Ada")
	companyID := e.companyOf(owner, "Northwind")
	projectID := e.projectIn(owner, companyID, "Shop")
	member := e.signUp("Max")
	e.addToCompany(owner, companyID, member, "member")

	u, _ := url.Parse(db.URL)
	schema := u.Query().Get("search_path")
	if err := db.Exec("CREATE TABLE " + schema + ".customers (id int PRIMARY KEY, name text); INSERT INTO " + schema + ".customers VALUES (1, 'Ada'), (2, 'Grace')").Error; err != nil {
		t.Fatal(err)
	}
	port, _ := strconv.Atoi(u.Port())
	dep := e.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/action-dependencies", token: owner.token, body: map[string]any{
		"dependency_type_key": "postgres.database", "name": "Shop database",
		"metadata": map[string]any{"host": u.Hostname(), "port": port, "database": strings.TrimPrefix(u.Path, "/"), "username": u.User.Username(), "sslmode": "disable"},
		"auth":     map[string]any{"password": "not-needed-by-trust-auth"},
	}}).expect(t, http.StatusCreated).str("action_dependency_id")
	query := func(readOnly bool) map[string]any {
		return draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("lookup", "db.query", map[string]any{"action_dependency_id": dep, "read_only": readOnly,
				"sql": "SELECT name FROM " + schema + ".customers WHERE id = $1", "params": []any{"{{ start.id }}"}}),
		}, edge("start", "lookup", ""))
	}
	wfID := e.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/workflows", token: member.token,
		body: map[string]any{"name": "Lookup"}}).expect(t, http.StatusCreated).str("workflow_id")
	e.do(req{method: "PUT", path: "/api/v1/workflows/" + wfID + "/draft", token: member.token, body: query(true)}).expect(t, http.StatusOK)
	e.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/publish", token: member.token, body: map[string]any{}}).expect(t, http.StatusCreated)

	runID := e.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/runs/manual", token: member.token,
		body: map[string]any{"input": map[string]any{"id": "2"}}}).expect(t, http.StatusAccepted).str("workflow_run_id")
	if run := e.waitRun(member, runID); run.str("status") != "succeeded" {
		t.Fatalf("the run ended %s", run.Body)
	}
	actions := e.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/actions", token: member.token}).expect(t, http.StatusOK)
	if !strings.Contains(actions.Body.String(), `"rows":[{"name":"Grace"}]`) {
		t.Fatalf("the query's output: %s", actions.Body)
	}

	e.do(req{method: "PUT", path: "/api/v1/workflows/" + wfID + "/draft", token: member.token, body: query(false)}).expect(t, http.StatusOK)
	e.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/publish", token: member.token, body: map[string]any{}}).expect(t, http.StatusForbidden)
	e.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/test-runs", token: member.token, body: map[string]any{}}).expect(t, http.StatusForbidden)
	e.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/publish", token: owner.token, body: map[string]any{}}).expect(t, http.StatusCreated)
}
