package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/work"
	"agencyhub/platform/benchtest"
)

// workBenchTasks is how many tasks the company of BenchmarkTaskList holds.
const workBenchTasks = 100_000

// BenchmarkTaskList measures GET /api/v1/work/tasks over real HTTP (a local server on the
// router, one keep-alive client) on a SQLite file whose company holds 100,000 tasks on
// five boards: a page of 50 filtered by assignee, status and due range, and a page filtered
// by text. At least 200 pages of each are read whatever b.N is. Reported: the p50 and p99
// of the answer time of each.
func BenchmarkTaskList(b *testing.B) {
	e := newEnv(b, dbtest.SQLite(b))
	f := e.workFixture("Bench")
	member := e.memberOf(f.owner, f.companyID, "Max", "member")
	boards := []string{f.boardID}
	for i := range 4 {
		boards = append(boards, e.do(req{method: "POST", path: "/api/v1/work/boards", token: f.owner.token,
			body: map[string]any{"name": fmt.Sprintf("Board %d", i), "project_id": f.projectID}}).expect(b, http.StatusCreated).str("task_board_id"))
	}
	var columns []work.Column
	if err := e.db.DB.Order("board_id, position").Find(&columns).Error; err != nil {
		b.Fatal(err)
	}
	company, project := uuid.MustParse(f.companyID), uuid.MustParse(f.projectID)
	assignees := []uuid.UUID{uuid.MustParse(f.owner.id), uuid.MustParse(member.id)}
	now := e.now
	batch := make([]work.Task, 0, 1000)
	for i := range workBenchTasks {
		col := columns[i%len(columns)]
		due := models.DateOf(now.AddDate(0, 0, i%60-30))
		t := work.Task{ID: models.NewID(), CompanyID: company, BoardID: col.BoardID, ColumnID: col.ID, ProjectID: &project,
			Title:      fmt.Sprintf("Task %d: %s", i, []string{"fix the form", "write the report", "call the client", "renew the domain"}[i%4]),
			ReporterID: &assignees[0], Priority: "none", DueDate: &due, Labels: work.Strings{}, Rank: fmt.Sprintf("h%09d", i), Revision: 1,
			CreatedAt: now, UpdatedAt: now}
		if i%3 != 0 {
			t.AssigneeID = &assignees[i%2]
		}
		t.SearchText = "task " + t.Title
		batch = append(batch, t)
		if len(batch) == cap(batch) {
			if err := e.db.DB.Create(&batch).Error; err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	srv := httptest.NewServer(e.handler)
	defer srv.Close()
	queries := map[string]string{
		"filtered": "?assignee_user_id=" + member.id + "&status=doing&due_from=2026-11-10&due_to=2026-12-10&limit=50",
		"text":     "?q=report&limit=50",
	}
	pages := max(b.N, 200)
	b.ResetTimer()
	for _, name := range []string{"filtered", "text"} {
		var latencies []time.Duration
		cursor := ""
		for range pages {
			r, _ := http.NewRequest("GET", srv.URL+"/api/v1/work/tasks"+queries[name]+cursor, nil)
			r.Header.Set("Authorization", "Bearer "+f.owner.token)
			t0 := time.Now()
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				b.Fatal(err)
			}
			var page struct {
				Items      []map[string]any `json:"items"`
				NextCursor string           `json:"next_cursor"`
			}
			err = json.NewDecoder(resp.Body).Decode(&page)
			resp.Body.Close()
			latencies = append(latencies, time.Since(t0))
			if err != nil || resp.StatusCode != http.StatusOK || len(page.Items) == 0 {
				b.Fatalf("status %d, %d items, %v", resp.StatusCode, len(page.Items), err)
			}
			cursor = ""
			if page.NextCursor != "" {
				cursor = "&cursor=" + page.NextCursor
			}
		}
		b.ReportMetric(benchtest.Millis(benchtest.Percentile(latencies, 50)), name+"-p50-ms")
		b.ReportMetric(benchtest.Millis(benchtest.Percentile(latencies, 99)), name+"-p99-ms")
	}
}
