package automation_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// TestARunIsFoundByWhatItCarried: q finds a run by a whole value or a word of its payload,
// in any case and with the punctuation around it, by its id, and by a word of its error
// once it failed, which a retry takes back (not the words its input has too); every word
// must match, and the other tenant's runs carrying the same value are not found.
func TestARunIsFoundByWhatItCarried(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		svc, wf := ordersWorkflow(t, db)
		runWith := func(w *automation.Workflow, input string) *automation.Run {
			r := &automation.Run{ID: models.NewID(), CompanyID: w.CompanyID, ProjectID: w.ProjectID, WorkflowID: w.ID,
				Status: automation.RunPending, TriggerType: "webhook", Input: input, Namespaces: "{}", Graph: "{}"}
			if err := svc.CreateRun(ctx, r, nil); err != nil {
				t.Fatal(err)
			}
			return r
		}
		a1001 := runWith(wf, `{"order":{"id":"A-1001","customer":"Иван Petrov","lines":[{"sku":"TEA-7","qty":3}]},"total":129.5}`)
		a1002 := runWith(wf, `{"order":{"id":"A-1002","customer":"Anna Petrova"},"total":40}`)
		contoso := dbtest.NewTenant(t, db.DB, "contoso")
		other, err := svc.Create(ctx, contoso.Project, contoso.UserID, "Orders", "")
		if err != nil {
			t.Fatal(err)
		}
		runWith(other, `{"order":{"id":"A-1001"}}`)

		find := func(q string) []string {
			t.Helper()
			runs, _, err := svc.Runs(ctx, wf, automation.RunFilter{Q: q}, models.PageRequest{Limit: 50})
			if err != nil {
				t.Fatalf("search %q: %v", q, err)
			}
			var ids []string
			for _, r := range runs {
				ids = append(ids, r.ID.String())
			}
			return ids
		}
		only := func(q string, want ...*automation.Run) {
			t.Helper()
			var ids []string
			for _, r := range want {
				ids = append(ids, r.ID.String())
			}
			if got := find(q); !slices.Equal(got, ids) {
				t.Errorf("search %q found %v, want %v", q, got, ids)
			}
		}
		only("a-1001", a1001)
		only("A-1001,", a1001)
		only("1001", a1001)
		only("tea-7", a1001)
		only("129.5", a1001)
		only("ИВАН", a1001) // Cyrillic folded too
		only("petrov", a1001)
		only("petrov 1002")
		only("a", a1001, a1002) // the word "A" of "A-1001" and "A-1002"
		only(a1002.ID.String(), a1002)
		only("  ", a1001, a1002)
		only("nothing")

		finished := time.Now()
		failed := automation.Progress{RunID: a1002.ID, Run: &automation.RunUpdate{Status: automation.RunFailed,
			TerminalReason: "action failed", Error: "charge: the gateway answered 502 Bad Gateway for Petrova", FinishedAt: &finished}}
		if err := svc.ApplyProgress(ctx, failed); err != nil {
			t.Fatal(err)
		}
		only("502", a1002)
		only("gateway petrova", a1002)
		if err := svc.ReopenRun(ctx, a1002, ""); err != nil {
			t.Fatal(err)
		}
		only("502")
		only("petrova", a1002) // a word of its input too, which the error's terms do not take away

		_, _, err = svc.Runs(ctx, wf, automation.RunFilter{Q: "one two three four five six seven eight nine"}, models.PageRequest{Limit: 50})
		var problem *models.Error
		if !errors.As(err, &problem) || problem.Key != "invalid_run_search" {
			t.Errorf("nine words answered %v, want invalid_run_search", err)
		}
	})
}
