package api_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"agencyhub/activities"
	"agencyhub/migrations/dbtest"
	"agencyhub/models/work"
)

// lossyTasks is the tracker as task.create sees it, losing the answer of the first lose
// calls after the task is stored, as a worker that dies before reporting does.
type lossyTasks struct {
	activities.TaskStore
	lose *atomic.Int32
}

func (l lossyTasks) CreateRunTask(ctx context.Context, companyID, projectID, runID uuid.UUID, actionKey string, in work.TaskInput) (map[string]any, error) {
	task, err := l.TaskStore.CreateRunTask(ctx, companyID, projectID, runID, actionKey, in)
	if err == nil && l.lose.Add(-1) >= 0 {
		return nil, errors.New("the answer was lost")
	}
	return task, err
}

func TestTaskEventsStartWorkflowsOncePerEvent(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		f := e.workFixture("Ada")
		wf := e.publishGraph(f.owner, f.projectID, "Task events", map[string]any{
			"actions": []any{
				map[string]any{"action_key": "changed", "action_type_key": "task.event_trigger", "config": map[string]any{
					"event_types": []any{"task.created", "task.moved", "task.assigned", "task.completed", "task.comment_added"}, "board_id": f.boardID}},
				map[string]any{"action_key": "check", "action_type_key": "condition.branch", "config": map[string]any{
					"text": `task.board_id == "` + f.boardID + `" && task.task_id != ""`}},
			},
			"connections": []any{map[string]any{"from": "changed", "to": "check"}},
		})
		task := e.task(f.owner, map[string]any{"task_board_id": f.boardID, "title": "Launch", "assignee_user_id": f.owner.id}).str("task_id")
		e.do(req{method: "POST", path: "/api/v1/work/tasks/" + task + "/move", token: f.owner.token, body: map[string]any{"status": "done"}}).expect(t, http.StatusOK)
		e.do(req{method: "POST", path: "/api/v1/work/tasks/" + task + "/move", token: f.owner.token, body: map[string]any{}}).expect(t, http.StatusOK)
		e.do(req{method: "POST", path: "/api/v1/work/tasks/" + task + "/comments", token: f.owner.token, body: map[string]any{"body": "Live"}}).expect(t, http.StatusCreated)
		// The reorder within done is no event.
		want := map[string]int{"task.created": 1, "task.assigned": 1, "task.moved": 1, "task.completed": 1, "task.comment_added": 1}
		runs := waitFor(t, func() ([]map[string]any, bool) {
			var ours []map[string]any
			for _, r := range e.do(req{method: "GET", path: "/api/v1/workflows/" + wf + "/runs?limit=200", token: f.owner.token}).expect(t, http.StatusOK).items() {
				if r["input_json"].(map[string]any)["task_id"] == task { // the fixture's task may have one too
					ours = append(ours, r)
				}
			}
			return ours, len(ours) >= len(want)
		})
		got := map[string]int{}
		for _, r := range runs {
			run := e.waitRun(f.owner, r["workflow_run_id"].(string))
			input := r["input_json"].(map[string]any)
			if run.str("status") != "succeeded" || run.str("trigger_type") != "task" || input["task_id"] != task {
				t.Fatalf("run %s", run.Body)
			}
			got[input["event_type"].(string)]++
		}
		for k, n := range want {
			if got[k] != n {
				t.Fatalf("runs per event %v, want %v", got, want)
			}
		}
		var queued int
		db.DB.Raw("SELECT COUNT(*) FROM work_task_events WHERE dispatched_at IS NULL").Scan(&queued)
		if queued != 0 {
			t.Fatalf("%d events still queued", queued)
		}
	})
}

func TestTaskCreateRetriedAfterALostAnswerCreatesOneTask(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		f := e.workFixture("Ada")
		wf := e.publishGraph(f.owner, f.projectID, "Make a task", map[string]any{
			"actions": []any{
				map[string]any{"action_key": "start", "action_type_key": "manual.trigger", "config": map[string]any{}},
				map[string]any{"action_key": "make", "action_type_key": "task.create", "config": map[string]any{
					"board_id": f.boardID, "status": "doing", "title": "Call {{ system.run_id }}", "assignee_user_id": f.owner.id, "due_date": "2026-12-01"}},
			},
			"connections": []any{map[string]any{"from": "start", "to": "make"}},
		})
		e.lostTaskAnswers.Store(1)
		runID := e.do(req{method: "POST", path: "/api/v1/workflows/" + wf + "/runs/manual", token: f.owner.token}).expect(t, http.StatusAccepted).str("workflow_run_id")
		run := e.waitRun(f.owner, runID)
		actions := e.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/actions", token: f.owner.token}).expect(t, http.StatusOK).items()
		make := actions[len(actions)-1]
		if run.str("status") != "succeeded" || make["attempt_count"] != 2.0 {
			t.Fatalf("run %s, action %v", run.Body, make)
		}
		tasks := e.do(req{method: "GET", path: "/api/v1/work/tasks?q=" + runID, token: f.owner.token}).expect(t, http.StatusOK).items()
		if len(tasks) != 1 || tasks[0]["status"] != "doing" || tasks[0]["reporter_user_id"] != nil || make["output_json"].(map[string]any)["task_id"] != tasks[0]["task_id"] {
			t.Fatalf("tasks %v, action %v", tasks, make)
		}
		// A workflow assigns nobody "themselves": the assignee is told, once for both attempts.
		e.notified()
		inbox := e.do(req{method: "GET", path: "/api/v1/desktop/messages", token: f.owner.token}).expect(t, http.StatusOK).items()
		if len(inbox) != 1 || inbox[0]["kind"] != "task.assigned" || inbox[0]["subject_id"] != tasks[0]["task_id"] {
			t.Fatalf("the assignee's inbox %v", inbox)
		}
	})
}
