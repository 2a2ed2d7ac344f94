package api_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
)

// TestRunListsFilterAndOrder: the project's run list has the runs of all its workflows,
// each naming its workflow; both run lists filter by status, trigger type, version and
// creation time, page newest first when asked, and another company's project or workflow
// is not found.
func TestRunListsFilterAndOrder(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		graph := draft([]any{act("start", "manual.trigger", map[string]any{}), act("done", "stop", map[string]any{})}, edge("start", "done", ""))
		orders := j.create("Orders", graph)
		ordersV1 := j.publish(orders, 1)
		invoices := j.create("Invoices", graph)
		j.publish(invoices, 1)

		var runs []string // in creation order
		start := func(path string) {
			r := j.do(req{method: "POST", path: path, token: j.u.token, body: map[string]any{}}).expect(t, http.StatusAccepted)
			runs = append(runs, r.str("workflow_run_id"))
			j.waitRun(j.u, r.str("workflow_run_id"))
			j.advance(3 * time.Minute) // within the access token's life
		}
		start("/api/v1/workflows/" + orders + "/runs/manual")   // 09:00
		start("/api/v1/workflows/" + invoices + "/runs/manual") // 09:03
		j.publish(orders, 2)
		start("/api/v1/workflows/" + orders + "/runs/manual") // 09:06, version 2
		start("/api/v1/workflows/" + orders + "/test-runs")   // 09:09, a test

		list := func(path string, query url.Values) []string {
			t.Helper()
			var ids []string
			cursor := ""
			for {
				query.Set("limit", "2")
				query.Set("cursor", cursor)
				page := j.do(req{method: "GET", path: path + "?" + query.Encode(), token: j.u.token}).expect(t, http.StatusOK)
				for _, it := range page.items() {
					ids = append(ids, it["workflow_run_id"].(string))
				}
				if cursor = page.str("next_cursor"); cursor == "" {
					return ids
				}
			}
		}
		project := "/api/v1/projects/" + j.projectID + "/runs"
		workflow := "/api/v1/workflows/" + orders + "/runs"
		for _, c := range []struct {
			name, path string
			query      url.Values
			want       []string
		}{
			{"the project lists every run, oldest first", project, url.Values{}, runs},
			{"the project lists them newest first", project, url.Values{"order": {"desc"}}, []string{runs[3], runs[2], runs[1], runs[0]}},
			{"a workflow lists its own, oldest first", workflow, url.Values{"order": {"asc"}}, []string{runs[0], runs[2], runs[3]}},
			{"a workflow lists its own newest first", workflow, url.Values{"order": {"desc"}}, []string{runs[3], runs[2], runs[0]}},
			{"test runs are found by trigger type", project, url.Values{"trigger_type": {"test"}}, []string{runs[3]}},
			{"manual runs are found by trigger type", workflow, url.Values{"trigger_type": {"manual"}, "order": {"desc"}}, []string{runs[2], runs[0]}},
			{"runs of a version", project, url.Values{"workflow_version_id": {ordersV1}}, []string{runs[0]}},
			{"runs created in a window, both ends included", project, url.Values{"created_from": {"2026-11-21T09:03:00Z"}, "created_to": {"2026-11-21T12:06:00+03:00"}}, []string{runs[1], runs[2]}},
			{"runs of a status", project, url.Values{"status": {"succeeded"}, "created_from": {"2026-11-21T09:07:00Z"}}, []string{runs[3]}},
			{"no run failed", project, url.Values{"status": {"failed"}}, nil},
		} {
			t.Run(c.name, func(t *testing.T) {
				if got := list(c.path, c.query); !slices.Equal(got, c.want) {
					t.Fatalf("listed %v, want %v", got, c.want)
				}
			})
		}

		first := j.do(req{method: "GET", path: project + "?order=desc&limit=1", token: j.u.token}).expect(t, http.StatusOK).items()[0]
		if first["workflow_name"] != "Orders" || first["workflow_id"] != orders || first["is_test"] != true {
			t.Fatalf("the newest project run is %v", first)
		}
		for _, bad := range []string{"order=newest", "created_from=yesterday", "workflow_version_id=v1", "trigger_type=carrier_pigeon", "status=lost"} {
			name, _, _ := strings.Cut(bad, "=")
			j.do(req{method: "GET", path: project + "?" + bad, token: j.u.token}).expect(t, http.StatusBadRequest, name)
			j.do(req{method: "GET", path: workflow + "?" + bad, token: j.u.token}).expect(t, http.StatusBadRequest, name)
		}

		eve := j.signUp("Eve")
		j.companyOf(eve, "Rival")
		j.do(req{method: "GET", path: project, token: eve.token}).expect(t, http.StatusNotFound)
		j.do(req{method: "GET", path: workflow + "?order=desc", token: eve.token}).expect(t, http.StatusNotFound)
	})
}
