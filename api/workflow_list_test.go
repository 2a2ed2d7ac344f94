package api_test

import (
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"agencyhub/migrations/dbtest"
)

// TestWorkflowListSearchesAndSummarizes: the project's workflow list finds workflows by a
// piece of their name in any case, % and _ included literally and Cyrillic folded too; each
// workflow tells its trigger types (the current version's, else the draft's) and its last
// run; another company's project is not found and a q over 200 characters is refused.
func TestWorkflowListSearchesAndSummarizes(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		published := j.create("Lead follow-up", draft([]any{act("start", "manual.trigger", map[string]any{}), act("done", "stop", map[string]any{})}, edge("start", "done", "")))
		j.publish(published, 1)
		// The draft moves on to a webhook; the list still tells how the published version starts.
		j.putDraft(published, draft([]any{act("hook", "webhook.trigger", map[string]any{}), act("done", "stop", map[string]any{})}, edge("hook", "done", "")))
		unconnected := func(actions ...any) map[string]any { return map[string]any{"actions": actions, "connections": []any{}} }
		drafted := j.create("Invoices 100% _paid_", draft([]any{act("start", "manual.trigger", map[string]any{}), act("done", "stop", map[string]any{})}, edge("start", "done", "")))
		j.putDraft(drafted, unconnected(act("hook", "webhook.trigger", map[string]any{}), act("start", "manual.trigger", map[string]any{}), act("again", "manual.trigger", map[string]any{})))
		empty := func(name string) string {
			return j.do(req{method: "POST", path: "/api/v1/projects/" + j.projectID + "/workflows", token: j.u.token,
				body: map[string]any{"name": name}}).expect(t, http.StatusCreated).str("workflow_id")
		}
		lookalike, cyrillic := empty("Invoices 1000 paid today"), empty("Рассылка Клиентам")

		run := j.runManual(published, map[string]any{}).str("workflow_run_id")
		j.finish(run, "succeeded")

		list := func(q string) map[string]map[string]any {
			t.Helper()
			path := "/api/v1/projects/" + j.projectID + "/workflows?limit=200"
			if q != "" {
				path += "&q=" + url.QueryEscape(q)
			}
			out := map[string]map[string]any{}
			for _, it := range j.do(req{method: "GET", path: path, token: j.u.token}).expect(t, http.StatusOK).items() {
				out[it["workflow_id"].(string)] = it
			}
			return out
		}
		for _, c := range []struct {
			name, q string
			want    []string
		}{
			{"without q every workflow is listed", "", []string{published, drafted, lookalike, cyrillic}},
			{"q matches in any case", "LEAD", []string{published}},
			{"% in q is a percent sign", "100%", []string{drafted}},
			{"_ in q is an underscore", "_paid_", []string{drafted}},
			{"Cyrillic q matches in any case", "клиент", []string{cyrillic}},
			{"Cyrillic capitals match lower case", "РАССЫЛКА", []string{cyrillic}},
			{"a q nothing contains lists nothing", "refund", nil},
		} {
			t.Run(c.name, func(t *testing.T) {
				var got []string
				for id := range list(c.q) {
					got = append(got, id)
				}
				slices.Sort(got)
				want := slices.Clone(c.want)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("q %q listed %v, want %v", c.q, got, want)
				}
			})
		}

		all := list("")
		t.Run("trigger types come from the current version, not the newer draft", func(t *testing.T) {
			if got := all[published]["trigger_types"]; !reflect.DeepEqual(got, []any{"manual.trigger"}) {
				t.Fatalf("trigger_types %v", got)
			}
		})
		t.Run("trigger types of a never published workflow come from its draft, each once", func(t *testing.T) {
			if got := all[drafted]["trigger_types"]; !reflect.DeepEqual(got, []any{"webhook.trigger", "manual.trigger"}) {
				t.Fatalf("trigger_types %v", got)
			}
			if got := all[lookalike]["trigger_types"]; !reflect.DeepEqual(got, []any{}) {
				t.Fatalf("trigger_types of an empty draft %v", got)
			}
		})
		t.Run("the last run is the manual run, finished", func(t *testing.T) {
			last, _ := all[published]["last_run"].(map[string]any)
			if last["workflow_run_id"] != run || last["status"] != "succeeded" || last["finished_at"] == nil || last["created_at"] == nil {
				t.Fatalf("last_run %v, want run %s succeeded", all[published]["last_run"], run)
			}
			if all[drafted]["last_run"] != nil {
				t.Fatalf("a workflow that never ran has last_run %v", all[drafted]["last_run"])
			}
		})

		path := "/api/v1/projects/" + j.projectID + "/workflows"
		j.do(req{method: "GET", path: path + "?q=" + url.QueryEscape(strings.Repeat("я", 201)), token: j.u.token}).expect(t, http.StatusBadRequest, "q")
		j.do(req{method: "GET", path: path + "?q=" + url.QueryEscape(strings.Repeat("я", 200)), token: j.u.token}).expect(t, http.StatusOK)
		eve := j.signUp("Eve")
		j.companyOf(eve, "Rival")
		j.do(req{method: "GET", path: path, token: eve.token}).expect(t, http.StatusNotFound)
		j.do(req{method: "GET", path: path + "?q=lead", token: eve.token}).expect(t, http.StatusNotFound)
	})
}
