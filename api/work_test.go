package api_test

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
)

// workFixture is one user's tracker: a company, a project with a board (columns To do,
// Doing, Done; a number field Estimate and a select field Size) and a task on it.
type workFixture struct {
	owner                          user
	companyID, projectID, clientID string
	boardID, taskID                string
	estimateID, sizeID             string
}

func (e *env) workFixture(name string) workFixture {
	e.t.Helper()
	f := workFixture{owner: e.signUp(name)}
	f.companyID = e.companyOf(f.owner, name+" Agency")
	f.projectID = e.projectIn(f.owner, f.companyID, name+" Site")
	f.clientID = e.do(req{method: "POST", path: "/api/v1/companies/" + f.companyID + "/clients", token: f.owner.token,
		body: map[string]any{"client_type": "legal_entity", "name": "Acme", "inn": "7707083893"}}).expect(e.t, http.StatusCreated).str("client_id")
	board := e.do(req{method: "POST", path: "/api/v1/work/boards", token: f.owner.token, body: map[string]any{
		"name": "Site", "project_id": f.projectID,
		"columns":       []any{map[string]any{"name": "To do"}, map[string]any{"name": "Doing"}, map[string]any{"name": "Done", "is_done": true}},
		"custom_fields": []any{map[string]any{"name": "Estimate", "field_type": "number"}, map[string]any{"name": "Size", "field_type": "select", "options": []any{"S", "M", "L"}}},
	}}).expect(e.t, http.StatusCreated)
	f.boardID = board.str("task_board_id")
	fields := board.json["custom_fields"].([]any)
	f.estimateID, f.sizeID = fields[0].(map[string]any)["task_custom_field_id"].(string), fields[1].(map[string]any)["task_custom_field_id"].(string)
	f.taskID = e.task(f.owner, map[string]any{"task_board_id": f.boardID, "title": "Fix the contact form"}).str("task_id")
	return f
}

// task creates a task as u.
func (e *env) task(u user, body map[string]any) *response {
	e.t.Helper()
	return e.do(req{method: "POST", path: "/api/v1/work/tasks", token: u.token, body: body}).expect(e.t, http.StatusCreated)
}

// addWorkIDs adds a tracker to a contract fixture: a board, a task with a checklist item
// and an attachment, a custom field of the board, a task workflow and one of its roles.
func (e *env) addWorkIDs(u user, ids map[string]string) {
	e.t.Helper()
	board := e.do(req{method: "POST", path: "/api/v1/work/boards", token: u.token, body: map[string]any{
		"name": "Fixture board", "project_id": ids["project_id"], "custom_fields": []any{map[string]any{"name": "Estimate", "field_type": "number"}}}}).
		expect(e.t, http.StatusCreated)
	ids["task_board_id"] = board.str("task_board_id")
	ids["task_custom_field_id"] = board.json["custom_fields"].([]any)[0].(map[string]any)["task_custom_field_id"].(string)
	ids["task_id"] = e.task(u, map[string]any{"task_board_id": ids["task_board_id"], "title": "Fixture task"}).str("task_id")
	ids["task_checklist_item_id"] = e.do(req{method: "POST", path: "/api/v1/work/tasks/" + ids["task_id"] + "/checklist", token: u.token,
		body: map[string]any{"title": "Fixture item"}}).expect(e.t, http.StatusCreated).str("task_checklist_item_id")
	ids["task_attachment_id"] = e.attach(u, ids["task_id"], "notes.txt", []byte("fixture notes")).expect(e.t, http.StatusCreated).str("task_attachment_id")
	ids["task_workflow_id"] = e.do(req{method: "POST", path: "/api/v1/work/task-workflows", token: u.token,
		body: map[string]any{"preset_key": "website_support"}}).expect(e.t, http.StatusCreated).str("task_workflow_id")
	roles := e.do(req{method: "GET", path: "/api/v1/work/task-workflows/" + ids["task_workflow_id"] + "/roles", token: u.token}).expect(e.t, http.StatusOK).items()
	ids["task_process_role_id"] = roles[0]["task_process_role_id"].(string)
}

// attach uploads a file to a task as u.
func (e *env) attach(u user, taskID, name string, content []byte) *response {
	e.t.Helper()
	body, contentType := multipartBody(e.t, name, content, nil)
	return e.do(req{method: "POST", path: "/api/v1/work/tasks/" + taskID + "/attachments", token: u.token, body: body,
		header: map[string]string{"Content-Type": contentType}})
}

// memberOf adds a new user to a company with a role and answers them.
func (e *env) memberOf(owner user, companyID, name, role string) user {
	e.t.Helper()
	u := e.signUp(name)
	e.do(req{method: "POST", path: "/api/v1/companies/" + companyID + "/members", token: owner.token,
		body: map[string]any{"email": u.email, "role": role}}).expect(e.t, http.StatusCreated)
	e.do(req{method: "PUT", path: "/api/v1/auth/workspace-context", token: u.token, body: map[string]any{"active_company_id": companyID}}).expect(e.t, http.StatusOK)
	return u
}

func statusesOf(items []map[string]any) []string {
	var out []string
	for _, it := range items {
		out = append(out, it["title"].(string))
	}
	slices.Sort(out)
	return out
}

func TestWorkBoardsAndTasks(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db) // the server's clock says Saturday 21 November 2026
		f := e.workFixture("Ada")
		tasks := "/api/v1/work/tasks"
		get := func(path string) *response {
			return e.do(req{method: "GET", path: path, token: f.owner.token}).expect(t, http.StatusOK)
		}

		t.Run("a board has its ordered columns with their task counts and its custom fields", func(t *testing.T) {
			b := get("/api/v1/work/boards/" + f.boardID)
			cols := b.json["columns"].([]any)
			var got []string
			for _, c := range cols {
				c := c.(map[string]any)
				got = append(got, fmt.Sprintf("%v:%v:%v:%v", c["status"], c["position"], c["is_done"], c["task_count"]))
			}
			if !slices.Equal(got, []string{"to_do:0:false:1", "doing:1:false:0", "done:2:true:0"}) || b.str("project_id") != f.projectID {
				t.Fatalf("board %s", b.Body)
			}
			if items := get("/api/v1/work/boards?project_id=" + f.projectID).items(); len(items) != 1 {
				t.Fatalf("boards of the project: %v", items)
			}
		})
		t.Run("a board refuses bad columns and fields naming them, and creates nothing", func(t *testing.T) {
			e.do(req{method: "POST", path: "/api/v1/work/boards", token: f.owner.token, body: map[string]any{"name": "X",
				"columns":       []any{map[string]any{"name": "A", "status": "a"}, map[string]any{"name": "B", "status": "a"}},
				"custom_fields": []any{map[string]any{"name": "Kind", "field_type": "select"}}}}).expect(t, http.StatusBadRequest, "custom_fields.0.options")
			e.do(req{method: "POST", path: "/api/v1/work/boards", token: f.owner.token, body: map[string]any{"name": "X",
				"columns": []any{map[string]any{"name": "A", "status": "a"}, map[string]any{"name": "B", "status": "a"}}}}).expect(t, http.StatusBadRequest, "columns.1.status")
			if items := get("/api/v1/work/boards").items(); len(items) != 1 {
				t.Fatalf("boards: %d", len(items))
			}
		})
		var second string
		t.Run("a task is created at the end of its column with every field", func(t *testing.T) {
			created := e.task(f.owner, map[string]any{"task_board_id": f.boardID, "title": "Add a map", "description": "On the contacts page",
				"assignee_user_id": f.owner.id, "client_id": f.clientID, "priority": "high", "due_date": "2026-11-20", "labels": []any{"frontend", "map"}})
			second = created.str("task_id")
			first := get(tasks + "/" + f.taskID)
			if created.str("status") != "to_do" || created.str("position") <= first.str("position") || created.str("reporter_user_id") != f.owner.id ||
				created.str("project_id") != f.projectID || created.str("client_id") != f.clientID || created.str("due_date") != "2026-11-20" {
				t.Fatalf("task %s after %s", created.Body, first.Body)
			}
			e.do(req{method: "POST", path: tasks, token: f.owner.token, body: map[string]any{"task_board_id": f.boardID, "title": "X", "status": "nope"}}).
				expect(t, http.StatusBadRequest, "status")
			e.do(req{method: "POST", path: tasks, token: f.owner.token, body: map[string]any{"task_board_id": f.boardID, "title": "X", "assignee_user_id": e.signUp("Stranger").id}}).
				expect(t, http.StatusBadRequest, "assignee_user_id")
		})
		t.Run("patch changes fields, null clears them, bad values change nothing", func(t *testing.T) {
			p := e.do(req{method: "PATCH", path: tasks + "/" + second, token: f.owner.token, body: map[string]any{"title": "Add a map widget", "due_date": nil, "labels": []any{"map"}}}).
				expect(t, http.StatusOK)
			if p.str("title") != "Add a map widget" || p.json["due_date"] != nil || fmt.Sprint(p.json["labels"]) != "[map]" || p.str("priority") != "high" {
				t.Fatalf("patched %s", p.Body)
			}
			e.do(req{method: "PATCH", path: tasks + "/" + second, token: f.owner.token, body: map[string]any{"title": " ", "labels": []any{"a", "a"}}}).
				expect(t, http.StatusBadRequest, "title", "labels")
			if get(tasks+"/"+second).str("title") != "Add a map widget" {
				t.Fatal("a refused patch changed the task")
			}
		})
		t.Run("the list filters by board, project, assignee, status, due range and text, and pages", func(t *testing.T) {
			e.task(f.owner, map[string]any{"task_board_id": f.boardID, "title": "Renew the domain", "due_date": "2026-11-25", "assignee_user_id": f.owner.id})
			cases := map[string]string{
				"":                                       "Add a map widget,Fix the contact form,Renew the domain",
				"?assignee_user_id=" + f.owner.id:        "Add a map widget,Renew the domain",
				"?due_from=2026-11-21&due_to=2026-11-30": "Renew the domain",
				"?q=FORM":                                "Fix the contact form",
				"?q=%25":                                 "",
				"?status=doing":                          "",
				"?status=to_do&project_id=" + f.projectID + "&task_board_id=" + f.boardID: "Add a map widget,Fix the contact form,Renew the domain",
			}
			for query, want := range cases {
				if got := strings.Join(statusesOf(get(tasks+query).items()), ","); got != want {
					t.Errorf("%s: %q, want %q", query, got, want)
				}
			}
			page := get(tasks + "?limit=2")
			rest := get(tasks + "?limit=2&cursor=" + page.str("next_cursor"))
			if len(page.items()) != 2 || len(rest.items()) != 1 || rest.str("next_cursor") != "" {
				t.Fatalf("pages %s / %s", page.Body, rest.Body)
			}
			e.do(req{method: "GET", path: tasks + "?due_from=tomorrow", token: f.owner.token}).expect(t, http.StatusBadRequest, "due_from")
		})
		t.Run("move places a task between neighbours and completes it in a done column", func(t *testing.T) {
			moved := e.do(req{method: "POST", path: tasks + "/" + second + "/move", token: f.owner.token, body: map[string]any{"status": "done"}}).expect(t, http.StatusOK)
			if moved.str("status") != "done" || moved.str("completed_at") == "" {
				t.Fatalf("moved %s", moved.Body)
			}
			back := e.do(req{method: "POST", path: tasks + "/" + second + "/move", token: f.owner.token, body: map[string]any{"status": "to_do", "before_task_id": f.taskID}}).expect(t, http.StatusOK)
			if back.json["completed_at"] != nil || back.str("position") >= get(tasks+"/"+f.taskID).str("position") {
				t.Fatalf("moved back %s", back.Body)
			}
			e.do(req{method: "POST", path: tasks + "/" + second + "/move", token: f.owner.token, body: map[string]any{"status": "doing", "after_task_id": f.taskID}}).
				expect(t, http.StatusBadRequest, "after_task_id")
			e.do(req{method: "POST", path: tasks + "/" + second + "/move", token: f.owner.token, body: map[string]any{"after_task_id": f.taskID, "before_task_id": f.taskID}}).
				expect(t, http.StatusBadRequest, "after_task_id", "before_task_id")
		})
		t.Run("comments, checklists and custom fields come with the task", func(t *testing.T) {
			e.do(req{method: "POST", path: tasks + "/" + f.taskID + "/comments", token: f.owner.token, body: map[string]any{"body": "The form posts to the old endpoint."}}).expect(t, http.StatusCreated)
			e.do(req{method: "POST", path: tasks + "/" + f.taskID + "/comments", token: f.owner.token, body: map[string]any{"body": "  "}}).expect(t, http.StatusBadRequest, "body")
			checklist := tasks + "/" + f.taskID + "/checklist"
			b := e.do(req{method: "POST", path: checklist, token: f.owner.token, body: map[string]any{"title": "Check on Android"}}).expect(t, http.StatusCreated).str("task_checklist_item_id")
			a := e.do(req{method: "POST", path: checklist, token: f.owner.token, body: map[string]any{"title": "Check on an iPhone", "after_item_id": nil}}).expect(t, http.StatusCreated).str("task_checklist_item_id")
			done := e.do(req{method: "PATCH", path: checklist + "/" + b, token: f.owner.token, body: map[string]any{"done": true}}).expect(t, http.StatusOK)
			if done.json["done"] != true || done.str("done_by") != f.owner.id {
				t.Fatalf("ticked %s", done.Body)
			}
			e.do(req{method: "PATCH", path: checklist + "/" + a, token: f.owner.token, body: map[string]any{"after_item_id": b}}).expect(t, http.StatusOK)
			e.do(req{method: "PATCH", path: checklist + "/" + a, token: f.owner.token, body: map[string]any{"after_item_id": a}}).expect(t, http.StatusBadRequest, "after_item_id")
			field := func(id string, value any) *response {
				return e.do(req{method: "PUT", path: tasks + "/" + f.taskID + "/custom-fields/" + id, token: f.owner.token, body: map[string]any{"value": value}})
			}
			field(f.estimateID, 3.5).expect(t, http.StatusOK)
			field(f.estimateID, "three").expect(t, http.StatusBadRequest, "value")
			field(f.sizeID, "XL").expect(t, http.StatusBadRequest, "value")
			field(f.sizeID, "M").expect(t, http.StatusOK)
			field(f.sizeID, nil).expect(t, http.StatusOK)
			d := get(tasks + "/" + f.taskID)
			var items, values []string
			for _, it := range d.json["checklist"].([]any) {
				items = append(items, it.(map[string]any)["title"].(string))
			}
			for _, v := range d.json["custom_fields"].([]any) {
				values = append(values, fmt.Sprint(v.(map[string]any)["value"]))
			}
			if len(d.json["comments"].([]any)) != 1 || !slices.Equal(items, []string{"Check on Android", "Check on an iPhone"}) || !slices.Equal(values, []string{"3.5", "<nil>"}) {
				t.Fatalf("task %s", d.Body)
			}
		})
		t.Run("a task assigned to someone else reaches their desktop inbox once", func(t *testing.T) {
			max := e.memberOf(f.owner, f.companyID, "Max", "member")
			id := e.task(f.owner, map[string]any{"task_board_id": f.boardID, "title": "Call Acme", "assignee_user_id": max.id}).str("task_id")
			e.do(req{method: "PATCH", path: tasks + "/" + id, token: f.owner.token, body: map[string]any{"priority": "low"}}).expect(t, http.StatusOK)
			e.notified()
			inbox := e.do(req{method: "GET", path: "/api/v1/desktop/messages", token: max.token}).expect(t, http.StatusOK).items()
			if len(inbox) != 1 || inbox[0]["kind"] != "task.assigned" || inbox[0]["subject_id"] != id || inbox[0]["title"] != "Task assigned to you: Call Acme" {
				t.Fatalf("inbox %v", inbox)
			}
			e.do(req{method: "POST", path: tasks + "/" + id + "/move", token: f.owner.token, body: map[string]any{"status": "done"}}).expect(t, http.StatusOK)
		})
		t.Run("an assignee who reads Russian is told in Russian, whatever the assigner speaks", func(t *testing.T) {
			olga := e.memberOf(f.owner, f.companyID, "Olga", "member")
			e.do(req{method: "PATCH", path: "/api/v1/auth/profile", token: olga.token, body: map[string]any{"language": "ru"}}).expect(t, http.StatusOK)
			id := e.task(f.owner, map[string]any{"task_board_id": f.boardID, "title": "Позвонить в Acme", "assignee_user_id": olga.id}).str("task_id")
			e.notified()
			inbox := e.do(req{method: "GET", path: "/api/v1/desktop/messages", token: olga.token}).expect(t, http.StatusOK).items()
			if len(inbox) != 1 || inbox[0]["subject_id"] != id || inbox[0]["title"] != "Вам назначена задача: Позвонить в Acme" {
				t.Fatalf("inbox %v", inbox)
			}
		})
		t.Run("attachments go to the blob store and download through their link", func(t *testing.T) {
			up := e.attach(f.owner, f.taskID, `C:\specs\brief.txt`, []byte("Brief: a contact form")).expect(t, http.StatusCreated)
			got := get("/api/v1/work/task-attachments/" + up.str("task_attachment_id"))
			download := e.do(req{method: "GET", path: strings.TrimPrefix(got.str("download_url"), "http://api.test")}).expect(t, http.StatusOK)
			if got.str("file_name") != "brief.txt" || !bytes.Equal(download.Body.Bytes(), []byte("Brief: a contact form")) {
				t.Fatalf("attachment %s, download %q", got.Body, download.Body)
			}
			if items := get(tasks + "/" + f.taskID + "/attachments").items(); len(items) != 1 {
				t.Fatalf("attachments %v", items)
			}
			e.attach(f.owner, f.taskID, "big.bin", bytes.Repeat([]byte("x"), 25<<20+1)).expect(t, http.StatusRequestEntityTooLarge)
		})
	})
}

func TestWorkAccessRolesAndTaskWorkflows(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		f := e.workFixture("Ada")
		viewer := e.memberOf(f.owner, f.companyID, "Vera", "viewer")
		t.Run("a viewer observes, and works on the tasks of a project they are made a member of", func(t *testing.T) {
			a := e.do(req{method: "GET", path: "/api/v1/work/access", token: viewer.token}).expect(t, http.StatusOK)
			if a.str("tracker_role") != "observer" || a.json["can"].(map[string]any)["work_on_tasks"] != false {
				t.Fatalf("access %s", a.Body)
			}
			e.do(req{method: "POST", path: "/api/v1/work/tasks/" + f.taskID + "/comments", token: viewer.token, body: map[string]any{"body": "Hi"}}).expect(t, http.StatusForbidden)
			e.do(req{method: "POST", path: "/api/v1/work/projects/" + f.projectID + "/members", token: viewer.token,
				body: map[string]any{"user_id": viewer.id, "project_role": "lead"}}).expect(t, http.StatusForbidden)
			e.do(req{method: "POST", path: "/api/v1/work/projects/" + f.projectID + "/members", token: f.owner.token,
				body: map[string]any{"user_id": viewer.id, "project_role": "member"}}).expect(t, http.StatusCreated)
			e.do(req{method: "POST", path: "/api/v1/work/projects/" + f.projectID + "/members", token: f.owner.token,
				body: map[string]any{"user_id": viewer.id, "project_role": "lead"}}).expect(t, http.StatusOK)
			e.do(req{method: "POST", path: "/api/v1/work/tasks/" + f.taskID + "/comments", token: viewer.token, body: map[string]any{"body": "Hi"}}).expect(t, http.StatusCreated)
			a = e.do(req{method: "GET", path: "/api/v1/work/access", token: viewer.token}).expect(t, http.StatusOK)
			if p := a.json["projects"].([]any)[0].(map[string]any); p["project_role"] != "lead" || p["manage_boards"] != true {
				t.Fatalf("access %s", a.Body)
			}
		})
		t.Run("employees show their tracker role and load", func(t *testing.T) {
			e.task(f.owner, map[string]any{"task_board_id": f.boardID, "title": "Late", "assignee_user_id": viewer.id, "due_date": "2026-11-01"})
			for _, it := range e.do(req{method: "GET", path: "/api/v1/work/employees", token: f.owner.token}).expect(t, http.StatusOK).items() {
				if it["user_id"] == viewer.id && (it["tracker_role"] != "observer" || it["open_tasks"] != 1.0 || it["overdue_tasks"] != 1.0) {
					t.Fatalf("employee %v", it)
				}
			}
		})
		t.Run("a task workflow from a preset gives a board its stages; its roles change and reset", func(t *testing.T) {
			presets := e.do(req{method: "GET", path: "/api/v1/work/presets", token: f.owner.token}).expect(t, http.StatusOK).items()
			if len(presets) < 2 || presets[0]["name"] != "Website support" {
				t.Fatalf("presets %v", presets)
			}
			e.do(req{method: "POST", path: "/api/v1/work/task-workflows", token: viewer.token, body: map[string]any{"preset_key": "monthly_billing"}}).expect(t, http.StatusForbidden)
			e.do(req{method: "POST", path: "/api/v1/work/task-workflows", token: f.owner.token, body: map[string]any{"preset_key": "nope"}}).expect(t, http.StatusBadRequest, "preset_key")
			wf := e.do(req{method: "POST", path: "/api/v1/work/task-workflows", token: f.owner.token, body: map[string]any{"preset_key": "monthly_billing"}}).
				expect(t, http.StatusCreated).str("task_workflow_id")
			board := e.do(req{method: "POST", path: "/api/v1/work/boards", token: f.owner.token, body: map[string]any{"name": "Billing", "task_workflow_id": wf}}).expect(t, http.StatusCreated)
			if cols := board.json["columns"].([]any); len(cols) != 4 || cols[3].(map[string]any)["is_done"] != true {
				t.Fatalf("board %s", board.Body)
			}
			roles := "/api/v1/work/task-workflows/" + wf + "/roles"
			first := e.do(req{method: "GET", path: roles, token: f.owner.token}).expect(t, http.StatusOK).items()[0]["task_process_role_id"].(string)
			e.do(req{method: "PATCH", path: roles + "/" + first, token: f.owner.token, body: map[string]any{"name": "Bookkeeper", "user_id": viewer.id}}).expect(t, http.StatusOK)
			e.do(req{method: "POST", path: roles, token: f.owner.token, body: map[string]any{"name": "Auditor"}}).expect(t, http.StatusCreated)
			e.do(req{method: "POST", path: roles, token: f.owner.token, body: map[string]any{"name": "Auditor"}}).expect(t, http.StatusConflict)
			reset := e.do(req{method: "POST", path: roles + "/reset", token: f.owner.token}).expect(t, http.StatusOK).items()
			if len(reset) != 2 || reset[0]["name"] != "Accountant" || reset[0]["user_id"] != nil {
				t.Fatalf("roles after reset %v", reset)
			}
		})
	})
}

func TestWorkTimeTimersAndReports(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db) // Saturday 21 November 2026, 09:00 UTC
		f := e.workFixture("Ada")
		e.do(req{method: "PATCH", path: "/api/v1/work/tasks/" + f.taskID, token: f.owner.token, body: map[string]any{"client_id": f.clientID}}).expect(t, http.StatusOK)
		other := e.task(f.owner, map[string]any{"task_board_id": f.boardID, "title": "Renew the domain"}).str("task_id")
		member := e.memberOf(f.owner, f.companyID, "Max", "member")

		t.Run("time is booked by hand", func(t *testing.T) {
			e.do(req{method: "POST", path: "/api/v1/work/time", token: f.owner.token, body: map[string]any{"task_id": f.taskID, "duration_seconds": 5400, "work_date": "2026-11-20", "note": "Form"}}).
				expect(t, http.StatusCreated)
			e.do(req{method: "POST", path: "/api/v1/work/time", token: f.owner.token, body: map[string]any{"task_id": f.taskID, "duration_seconds": 30}}).
				expect(t, http.StatusBadRequest, "duration_seconds")
			e.do(req{method: "POST", path: "/api/v1/work/time", token: f.owner.token, body: map[string]any{"task_id": f.taskID, "duration_seconds": 600, "work_date": "2026-11-22"}}).
				expect(t, http.StatusBadRequest, "work_date")
		})
		t.Run("a timer runs until another starts or it stops, booking its time each time", func(t *testing.T) {
			start := func(task string) *response {
				return e.do(req{method: "POST", path: "/api/v1/work/tasks/" + task + "/timer/start", token: f.owner.token}).expect(t, http.StatusCreated)
			}
			start(f.taskID)
			e.advance(9 * time.Minute) // access tokens live 15 minutes
			switched := start(other)
			if switched.json["time_entry"].(map[string]any)["duration_seconds"] != 540.0 || switched.json["stopped_timer"].(map[string]any)["task_id"] != f.taskID {
				t.Fatalf("start %s", switched.Body)
			}
			e.advance(4 * time.Minute)
			active := e.do(req{method: "GET", path: "/api/v1/work/timer/active", token: f.owner.token}).expect(t, http.StatusOK)
			if active.json["timer"].(map[string]any)["elapsed_seconds"] != 240.0 {
				t.Fatalf("active %s", active.Body)
			}
			stopped := e.do(req{method: "POST", path: "/api/v1/work/timer/stop", token: f.owner.token}).expect(t, http.StatusOK)
			if stopped.json["time_entry"].(map[string]any)["source"] != "timer" {
				t.Fatalf("stop %s", stopped.Body)
			}
			e.do(req{method: "POST", path: "/api/v1/work/timer/stop", token: f.owner.token}).expect(t, http.StatusConflict)
			if e.do(req{method: "GET", path: "/api/v1/work/timer/active", token: f.owner.token}).expect(t, http.StatusOK).json["timer"] != nil {
				t.Fatal("a stopped timer is active")
			}
		})
		t.Run("reports sum the period's time by user, client and task, as JSON and CSV", func(t *testing.T) {
			byTask := e.do(req{method: "GET", path: "/api/v1/work/reports?group_by=task&from=2026-11-01&to=2026-11-30", token: f.owner.token}).expect(t, http.StatusOK)
			rows := byTask.json["rows"].([]any)
			if byTask.json["total_seconds"] != 5400.0+540+240 || len(rows) != 2 || rows[0].(map[string]any)["name"] != "Fix the contact form" ||
				rows[0].(map[string]any)["hours"] != "1.65" {
				t.Fatalf("report %s", byTask.Body)
			}
			byClient := e.do(req{method: "GET", path: "/api/v1/work/reports?group_by=client", token: f.owner.token}).expect(t, http.StatusOK)
			if rows := byClient.json["rows"].([]any); rows[0].(map[string]any)["name"] != "Acme" || rows[1].(map[string]any)["id"] != nil {
				t.Fatalf("by client %s", byClient.Body)
			}
			csv := e.do(req{method: "GET", path: "/api/v1/work/reports?group_by=user&format=csv", token: f.owner.token}).expect(t, http.StatusOK)
			want := "user_id,name,hours,seconds,entries\n" + f.owner.id + ",Ada,1.72,6180,3\n,total,1.72,6180,\n"
			if !strings.HasPrefix(csv.Header().Get("Content-Type"), "text/csv") || csv.Body.String() != want {
				t.Fatalf("csv %q", csv.Body)
			}
			e.do(req{method: "GET", path: "/api/v1/work/reports?group_by=week", token: f.owner.token}).expect(t, http.StatusBadRequest, "group_by")
			e.do(req{method: "GET", path: "/api/v1/work/reports?user_id=" + f.owner.id, token: member.token}).expect(t, http.StatusForbidden)
			if mine := e.do(req{method: "GET", path: "/api/v1/work/reports", token: member.token}).expect(t, http.StatusOK); mine.json["total_seconds"] != 0.0 {
				t.Fatalf("a member sees others' time: %s", mine.Body)
			}
			if items := e.do(req{method: "GET", path: "/api/v1/work/time?from=2026-11-21", token: f.owner.token}).expect(t, http.StatusOK).items(); len(items) != 2 {
				t.Fatalf("time %v", items)
			}
		})
		t.Run("the overview shows my open, overdue and this week's tasks and my timer", func(t *testing.T) {
			e.task(f.owner, map[string]any{"task_board_id": f.boardID, "title": "Overdue", "assignee_user_id": f.owner.id, "due_date": "2026-11-19"})
			e.task(f.owner, map[string]any{"task_board_id": f.boardID, "title": "Sunday", "assignee_user_id": f.owner.id, "due_date": "2026-11-22"})
			e.task(f.owner, map[string]any{"task_board_id": f.boardID, "title": "Next week", "assignee_user_id": f.owner.id, "due_date": "2026-11-23"})
			e.do(req{method: "POST", path: "/api/v1/work/tasks/" + other + "/timer/start", token: f.owner.token}).expect(t, http.StatusCreated)
			o := e.do(req{method: "GET", path: "/api/v1/work/overview", token: f.owner.token}).expect(t, http.StatusOK)
			if o.json["open_count"] != 3.0 || o.json["overdue_count"] != 1.0 || o.json["due_this_week_count"] != 1.0 || o.str("week_ends") != "2026-11-22" ||
				o.json["running_timer"].(map[string]any)["task_id"] != other {
				t.Fatalf("overview %s", o.Body)
			}
		})
	})
}

// Fifty starts of one user's timer at once leave one timer running, and the time of the
// timer that ran before them is booked once.
func TestWorkConcurrentTimerStartsLeaveOneRunningTimer(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		f := e.workFixture("Ada")
		start := func() *response {
			return e.do(req{method: "POST", path: "/api/v1/work/tasks/" + f.taskID + "/timer/start", token: f.owner.token})
		}
		start().expect(t, http.StatusCreated)
		e.advance(10 * time.Minute)
		var wg sync.WaitGroup
		codes := make([]int, 50)
		for i := range codes {
			wg.Go(func() { codes[i] = start().Code })
		}
		wg.Wait()
		for _, c := range codes {
			if c != http.StatusCreated {
				t.Fatalf("answers %v", codes)
			}
		}
		var running, booked int
		db.DB.Raw("SELECT COUNT(*) FROM work_timers WHERE user_id = ? AND stopped_at IS NULL", f.owner.id).Scan(&running)
		db.DB.Raw("SELECT COALESCE(SUM(duration_seconds), 0) FROM work_time_entries WHERE user_id = ?", f.owner.id).Scan(&booked)
		if running != 1 || booked != 600 {
			t.Fatalf("%d timers running, %d seconds booked", running, booked)
		}
	})
}

// Fifty moves at once within one column leave every task once, on a position of its own.
func TestWorkConcurrentMovesKeepTheColumnInOrder(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		f := e.workFixture("Ada")
		ids := []string{f.taskID}
		for i := range 49 {
			ids = append(ids, e.task(f.owner, map[string]any{"task_board_id": f.boardID, "title": fmt.Sprintf("Task %d", i)}).str("task_id"))
		}
		var wg sync.WaitGroup
		for i, id := range ids {
			wg.Go(func() {
				body := map[string]any{"after_task_id": ids[(i+7)%len(ids)]}
				if i%3 == 0 {
					body = map[string]any{"before_task_id": ids[(i+11)%len(ids)]}
				}
				e.do(req{method: "POST", path: "/api/v1/work/tasks/" + id + "/move", token: f.owner.token, body: body}).expect(t, http.StatusOK)
			})
		}
		wg.Wait()
		items := e.do(req{method: "GET", path: "/api/v1/work/tasks?status=to_do&limit=200", token: f.owner.token}).expect(t, http.StatusOK).items()
		positions, seen := map[string]bool{}, map[string]bool{}
		for _, it := range items {
			positions[it["position"].(string)], seen[it["task_id"].(string)] = true, true
		}
		if len(items) != 50 || len(positions) != 50 || len(seen) != 50 {
			t.Fatalf("%d tasks, %d positions, %d distinct tasks", len(items), len(positions), len(seen))
		}
	})
}

// Another company's user gets 404 for every tracker id: in paths and in bodies.
func TestWorkOfAnotherCompanyIsNotFound(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		victim := e.fixture("Victim")
		intruder := e.workFixture("Intruder")
		for _, op := range e.contract.Operations {
			if !strings.HasPrefix(op.Path, "/api/v1/work/") || !hasPathParams(op) {
				continue
			}
			t.Run(op.ID+" answers 404 to another company's user", func(t *testing.T) {
				e.do(req{method: op.Method, path: pathFor(op, victim.ids), token: intruder.owner.token, body: e.contract.ExampleBody(op)}).expect(t, http.StatusNotFound)
			})
		}
		t.Run("ids in bodies and filters are not found either", func(t *testing.T) {
			e.do(req{method: "POST", path: "/api/v1/work/tasks", token: intruder.owner.token, body: map[string]any{"task_board_id": victim.ids["task_board_id"], "title": "X"}}).
				expect(t, http.StatusNotFound)
			e.do(req{method: "POST", path: "/api/v1/work/time", token: intruder.owner.token, body: map[string]any{"task_id": victim.ids["task_id"], "duration_seconds": 600}}).
				expect(t, http.StatusNotFound)
			e.do(req{method: "POST", path: "/api/v1/work/boards", token: intruder.owner.token, body: map[string]any{"name": "X", "project_id": victim.ids["project_id"]}}).
				expect(t, http.StatusNotFound)
			e.do(req{method: "POST", path: "/api/v1/work/boards", token: intruder.owner.token, body: map[string]any{"name": "X", "task_workflow_id": victim.ids["task_workflow_id"]}}).
				expect(t, http.StatusNotFound)
			if items := e.do(req{method: "GET", path: "/api/v1/work/tasks?task_board_id=" + victim.ids["task_board_id"], token: intruder.owner.token}).expect(t, http.StatusOK).items(); len(items) != 0 {
				t.Fatalf("another company's tasks: %v", items)
			}
		})
		if got := e.do(req{method: "GET", path: "/api/v1/work/tasks/" + victim.ids["task_id"], token: victim.owner.token}).expect(t, http.StatusOK); got.str("title") != "Fixture task" {
			t.Fatalf("victim's task after the attempts: %s", got.Body)
		}
	})
}

func TestWorkNeedsAnActiveCompany(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	u := e.signUp("Nobody")
	e.do(req{method: "GET", path: "/api/v1/work/tasks", token: u.token}).expect(t, http.StatusConflict, "active_company_id")
}
