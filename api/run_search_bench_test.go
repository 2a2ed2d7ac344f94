package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/platform/benchtest"
)

// searchBenchRuns is how many runs the project of BenchmarkRunSearch holds.
const searchBenchRuns = 100_000

// BenchmarkRunSearch measures GET /api/v1/projects/{id}/runs?q= over real HTTP (a local
// server on the router, one keep-alive client) on a project of 100,000 webhook runs, each
// made by automation's CreateRun from a payload of an order (its id unique, a customer of
// 5,000, a city of 20, a status of 4), on SQLite and PostgreSQL: a search for one order
// id (one run), for a customer's e-mail (20 runs), for a status (a quarter of the runs,
// the first page of 50) and for two words together (a city and a status). At least 200 searches of each are
// made whatever b.N is. Reported: the p50 and p99 of the answer time of each.
func BenchmarkRunSearch(b *testing.B) {
	for _, dialect := range []struct {
		name string
		open func(testing.TB) *dbtest.DB
	}{{"sqlite", dbtest.SQLite}, {"postgres", dbtest.Postgres}} {
		b.Run(dialect.name, func(b *testing.B) {
			e := newEnv(b, dialect.open(b))
			u := e.signUp("Bench")
			projectID := e.projectIn(u, e.companyOf(u, "Bench Co"), "Orders")
			w := e.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/workflows", token: u.token,
				body: map[string]any{"name": "Orders"}}).expect(b, http.StatusCreated)
			seedSearchRuns(b, e, uuid.MustParse(w.str("workflow_id")))
			srv := httptest.NewServer(e.handler)
			defer srv.Close()
			queries := map[string]string{
				"order-id":  "A-77123",
				"e-mail":    "customer4321@example.com",
				"status":    "refunded",
				"two-words": "kazan new",
			}
			searches := max(b.N, 200)
			b.ResetTimer()
			for _, name := range []string{"order-id", "e-mail", "status", "two-words"} {
				var latencies []time.Duration
				for range searches {
					r, _ := http.NewRequest("GET", srv.URL+"/api/v1/projects/"+projectID+"/runs?order=desc&limit=50&q="+queries[name], nil)
					r.Header.Set("Authorization", "Bearer "+u.token)
					t0 := time.Now()
					resp, err := http.DefaultClient.Do(r)
					if err != nil {
						b.Fatal(err)
					}
					var page struct {
						Items []map[string]any `json:"items"`
					}
					err = json.NewDecoder(resp.Body).Decode(&page)
					resp.Body.Close()
					latencies = append(latencies, time.Since(t0))
					if err != nil || resp.StatusCode != http.StatusOK || len(page.Items) == 0 {
						b.Fatalf("%s: status %d, %d items, %v", name, resp.StatusCode, len(page.Items), err)
					}
				}
				b.ReportMetric(benchtest.Millis(benchtest.Percentile(latencies, 50)), name+"-p50-ms")
				b.ReportMetric(benchtest.Millis(benchtest.Percentile(latencies, 99)), name+"-p99-ms")
			}
		})
	}
}

// seedSearchRuns makes the benchmark's runs through CreateRun, as intake does, four at a
// time.
func seedSearchRuns(b *testing.B, e *env, workflowID uuid.UUID) {
	b.Helper()
	ctx := context.Background()
	var wf automation.Workflow
	if err := e.db.DB.Take(&wf, "id = ?", workflowID).Error; err != nil {
		b.Fatal(err)
	}
	cities := []string{"Moscow", "Kazan", "Tver", "Omsk", "Perm", "Sochi", "Tula", "Ufa", "Samara", "Vologda",
		"Pskov", "Kursk", "Orel", "Tomsk", "Chita", "Kirov", "Penza", "Ryazan", "Yaroslavl", "Vladimir"}
	statuses := []string{"paid", "new", "shipped", "refunded"}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for worker := range 4 {
		wg.Go(func() {
			for i := worker; i < searchBenchRuns; i += 4 {
				payload := map[string]any{"order": map[string]any{
					"id": fmt.Sprintf("A-%d", i), "email": fmt.Sprintf("customer%d@example.com", i%5000),
					"city": cities[i%len(cities)], "status": statuses[i%len(statuses)], "total": float64(i % 1000),
				}}
				input, _ := json.Marshal(payload)
				r := &automation.Run{ID: models.NewID(), CompanyID: wf.CompanyID, ProjectID: wf.ProjectID, WorkflowID: wf.ID,
					Status: automation.RunSucceeded, TriggerType: "webhook", Input: string(input), Namespaces: "{}", Graph: "{}"}
				if err := e.server.Workflows.CreateRun(ctx, r, nil); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
}
