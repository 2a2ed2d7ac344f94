package api_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"

	"agencyhub/migrations/dbtest"
)

// TestRunListsFindARunByWhatItCarried: both run lists find a run by a value of its payload
// and by its error's words, and narrow to the runs that failed on one action or with one
// retry class; the other company's runs carrying the same value are not found, and a search
// too long or a retry class unknown is a 400 naming the parameter.
func TestRunListsFindARunByWhatItCarried(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		j.target.breakPath("/crm", http.StatusUnprocessableEntity)
		id := j.create("Orders", draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("crm", "http.request", map[string]any{"url": j.target.URL + "/{{ start.path }}"}),
		}, edge("start", "crm", "")))
		j.publish(id, 1)
		run := func(order, path, status string) string {
			runID := j.runManual(id, map[string]any{"order_id": order, "customer": "Ivan Petrov", "path": path}).str("workflow_run_id")
			j.finish(runID, status)
			return runID
		}
		shipped := run("A-1001", "ok", "succeeded")
		refused := run("A-1002", "crm", "failed")

		rival := j.signUp("Eve")
		j.companyOf(rival, "Rival")

		list := func(path string, query url.Values) []string {
			t.Helper()
			var ids []string
			for _, it := range j.do(req{method: "GET", path: path + "?" + query.Encode(), token: j.u.token}).expect(t, http.StatusOK).items() {
				ids = append(ids, it["workflow_run_id"].(string))
			}
			return ids
		}
		project := "/api/v1/projects/" + j.projectID + "/runs"
		workflow := "/api/v1/workflows/" + id + "/runs"
		for _, c := range []struct {
			name  string
			query url.Values
			want  []string
		}{
			{"an order id", url.Values{"q": {"A-1001"}}, []string{shipped}},
			{"its number alone, in any case", url.Values{"q": {"a-1002"}}, []string{refused}},
			{"two words, both carried", url.Values{"q": {"petrov 1001"}}, []string{shipped}},
			{"a word of the failed action's error", url.Values{"q": {"422"}}, []string{refused}},
			{"the run's id", url.Values{"q": {shipped}}, []string{shipped}},
			{"nothing carried it", url.Values{"q": {"A-9999"}}, nil},
			{"failed at the CRM call", url.Values{"failed_action_key": {"crm"}}, []string{refused}},
			{"failed at another action", url.Values{"failed_action_key": {"start"}}, nil},
			{"failed for good", url.Values{"retry_class": {"permanent"}, "q": {"petrov"}}, []string{refused}},
			{"no run waits on a rate limit", url.Values{"retry_class": {"rate_limited"}}, nil},
		} {
			t.Run(c.name, func(t *testing.T) {
				for _, path := range []string{project, workflow} {
					if got := list(path, c.query); !slices.Equal(got, c.want) {
						t.Errorf("%s?%s listed %v, want %v", path, c.query.Encode(), got, c.want)
					}
				}
			})
		}

		for _, bad := range []struct{ query, field string }{
			{"q=" + url.QueryEscape("one two three four five six seven eight nine"), "q"},
			{"retry_class=flaky", "retry_class"},
		} {
			j.do(req{method: "GET", path: project + "?" + bad.query, token: j.u.token}).expect(t, http.StatusBadRequest, bad.field)
			j.do(req{method: "GET", path: workflow + "?" + bad.query, token: j.u.token}).expect(t, http.StatusBadRequest, bad.field)
		}
		j.do(req{method: "GET", path: project + "?q=A-1001", token: rival.token}).expect(t, http.StatusNotFound)
	})
}
