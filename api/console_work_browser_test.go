package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestConsoleWorkBoard is issue 25's work tracker in the browser: a new person creates a
// board and adds tasks, drags one to another column and another before it (the order
// survives a reload and is the server's), carries one with the keyboard within and
// between columns, hearing where it goes, and runs a timer on one task, then on another,
// which stops the first: the header and the API agree. axe-core checks the board and the
// task's page.
func TestConsoleWorkBoard(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	tb := site.tab(t)

	tb.signUpAndSetUp("Grace", "grace@example.com")
	grace := site.apiLogin("grace@example.com")
	tb.click("Work")
	tb.at("/work")
	tb.seeHeading("My tasks")
	tb.click("Boards")
	tb.click("New board")
	tb.fill("Name", "Site launch")
	tb.click("Create the board")
	tb.seeHeading("Site launch")
	var boardPath string
	tb.eval(`location.pathname`, &boardPath)
	boardID := strings.TrimPrefix(boardPath, "/work/boards/")

	tb.click("Add a task to To do")
	var added []string
	for _, title := range []string{"Write copy", "Design header", "Fix form"} {
		tb.fill("Title of a new task in To do", title)
		tb.click("Add")
		added = append(added, title)
		tb.columnHolds("To do", added...)
	}
	tb.accessible("the board")

	tb.carry("Fix form", "region", "In progress")
	tb.columnHolds("In progress", "Fix form")
	tb.carry("Write copy", "link", "Fix form")
	tb.columnHolds("In progress", "Write copy", "Fix form")
	tb.columnHolds("To do", "Design header")
	tb.apiColumnHolds(grace, boardID, "in_progress", "Write copy", "Fix form")
	tb.open(boardPath)
	tb.columnHolds("In progress", "Write copy", "Fix form")
	tb.columnHolds("To do", "Design header")

	tb.tabTo("Move Design header", false)
	tb.press(" ")
	tb.see("Picked up Design header, in To do, place 1 of 1.")
	tb.pickedUp()
	tb.press(kb.ArrowRight)
	tb.see("Design header is now in In progress, place 1 of 3.")
	tb.press(kb.ArrowDown)
	tb.see("Design header is now in In progress, place 2 of 3.")
	tb.press(" ")
	tb.see("Dropped Design header in In progress, place 2 of 3.")
	tb.columnHolds("In progress", "Write copy", "Design header", "Fix form")
	tb.apiColumnHolds(grace, boardID, "in_progress", "Write copy", "Design header", "Fix form")
	// The move button keeps the keyboard's focus, so the next move starts where this ended.
	tb.press(kb.Enter)
	tb.see("Picked up Design header, in In progress, place 2 of 3.")
	tb.pickedUp()
	tb.press(kb.ArrowRight)
	tb.see("Design header is now in Done, place 1 of 1.")
	tb.press(kb.Enter)
	tb.columnHolds("Done", "Design header")
	tb.waitFor("the API to have Design header done and completed", pageWait, func(context.Context) (bool, error) {
		done := site.boardTasks(grace, boardID)["Design header"]
		return done["status"] == "done" && done["completed_at"] != nil, nil
	})

	tb.click("Write copy")
	tb.seeHeading("Write copy")
	tb.click("Start timer")
	tb.seeIn("Running timer", "Write copy")
	// The header's clock runs: a person sees it reach two seconds.
	tb.seeIn("Running timer", "0:00:02")
	tb.accessible("the task's page")
	writeCopy := site.activeTimer(grace)
	// The server's clock is the test's: a minute and a half of work passes on it.
	site.advance(90 * time.Second)

	tb.open(boardPath)
	tb.click("Fix form")
	tb.seeHeading("Fix form")
	tb.click("Start timer")
	tb.seeIn("Running timer", "Fix form")
	running := site.activeTimer(grace)
	tasks := site.boardTasks(grace, boardID)
	if running["task_id"] != tasks["Fix form"]["task_id"] {
		tb.fail("the API's running timer is on %v, want Fix form's (%v)", running["task_id"], tasks["Fix form"]["task_id"])
	}
	entries := site.do(req{method: "GET", path: "/api/v1/work/time?task_id=" + tasks["Write copy"]["task_id"].(string), token: grace.token}).
		expect(t, http.StatusOK).items()
	if len(entries) != 1 || entries[0]["timer_id"] != writeCopy["timer_id"] || entries[0]["duration_seconds"] != 90.0 {
		tb.fail("Write copy's time entries are %v, want the stopped timer's (%v) 90 s", entries, writeCopy["timer_id"])
	}

	tb.click("Site launch")
	tb.click("Write copy")
	tb.seeHeading("Write copy")
	tb.seeIn("Time", "0:01:30 (timer)")
	tb.see("Start timer")
	tb.seeIn("Running timer", "Fix form")

	// A file attached on the task's page is listed with its size, and its link downloads it.
	tb.seeIn("Files", "No file yet.")
	attach(tb, `document.querySelector('.work-card input[type="file"]')`, "brief.txt", "Tone: friendly.\n")
	tb.seeIn("Files", "brief.txt")
	tb.seeIn("Files", "16 bytes") // its size, and not "0 kB"
	var href string
	tb.eval(`[...document.querySelectorAll(".attachments a")].find((a) => a.textContent === "brief.txt").href`, &href)
	if got := download(t, href); got != "Tone: friendly.\n" {
		tb.fail("the attachment downloads as %q, want what was attached", got)
	}
}

// columnHolds waits until the board's column shows exactly these tasks, in this order.
func (tb *tab) columnHolds(column string, titles ...string) {
	tb.t.Helper()
	if titles == nil {
		titles = []string{}
	}
	tb.waitFor(fmt.Sprintf("the column %q to hold %q", column, titles), pageWait, func(ctx context.Context) (bool, error) {
		return tb.onNamed(ctx, []string{"region"}, column, `function (want) {
			const got = [...this.querySelectorAll(".column-tasks .task-title")].map((a) => a.innerText.trim());
			return JSON.stringify(got) === JSON.stringify(want) ? true : null;
		}`, nil, titles)
	})
}

// pickedUp lets the page run what it queued when a task was picked up with the keyboard:
// dnd-kit listens for the arrows from the next task on, and a key the test presses at
// once could come first (chromium handles input before timers), which no hand is quick
// enough to do.
func (tb *tab) pickedUp() {
	tb.t.Helper()
	tb.eval(`new Promise((done) => setTimeout(done))`)
}

// carry drags, with the mouse, the task whose link is named item and lets it go over the
// middle of the element of that role and name: a column, or another task's link. The
// board's drag and drop follows pointer events (not the HTML drag and drop that drag
// plays), so this moves the mouse the way a hand does, a step at a time.
func (tb *tab) carry(item, role, onto string) {
	tb.t.Helper()
	var from, to [2]float64
	tb.waitFor(fmt.Sprintf("%q to carry onto %q", item, onto), pageWait, func(ctx context.Context) (bool, error) {
		ok, err := tb.onNamed(ctx, []string{"link"}, item, pointAt, &from)
		if !ok || err != nil {
			return false, err
		}
		return tb.onNamed(ctx, []string{role}, onto, `function () {
			const r = this.getBoundingClientRect();
			return [r.left + r.width / 2, r.top + r.height / 2];
		}`, &to)
	})
	ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
	defer cancel()
	mouse := func(t input.MouseType, x, y float64, buttons int64) chromedp.Action {
		return input.DispatchMouseEvent(t, x, y).WithButton(input.Left).WithButtons(buttons).WithClickCount(1)
	}
	frame := chromedp.Evaluate(`new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))`, nil, awaitPromise)
	actions := []chromedp.Action{mouse(input.MousePressed, from[0], from[1], 1), mouse(input.MouseMoved, from[0]+10, from[1]+10, 1), frame}
	for i := 1; i <= 12; i++ {
		f := float64(i) / 12
		actions = append(actions, mouse(input.MouseMoved, from[0]+(to[0]-from[0])*f, from[1]+(to[1]-from[1])*f, 1), frame)
	}
	// Once more where it ends, after the columns made room for it.
	actions = append(actions, mouse(input.MouseMoved, to[0], to[1]+1, 1), frame, mouse(input.MouseReleased, to[0], to[1]+1, 0))
	if err := chromedp.Run(ctx, actions...); err != nil {
		tb.fail("carry %q onto %q: %v", item, onto, err)
	}
}

// boardTasks is the board's tasks by title, as the API answers them.
func (s *consoleSite) boardTasks(u user, boardID string) map[string]map[string]any {
	s.t.Helper()
	items := s.do(req{method: "GET", path: "/api/v1/work/tasks?limit=200&task_board_id=" + boardID, token: u.token}).expect(s.t, http.StatusOK).items()
	tasks := map[string]map[string]any{}
	for _, task := range items {
		tasks[task["title"].(string)] = task
	}
	return tasks
}

// apiColumnHolds waits until the API orders the column's tasks (by their rank) as titles:
// the board shows a move before the server has answered it.
func (tb *tab) apiColumnHolds(u user, boardID, status string, titles ...string) {
	tb.t.Helper()
	var got []string
	tb.waitFor(fmt.Sprintf("the API to order %s as %q", status, titles), pageWait, func(context.Context) (bool, error) {
		var column []map[string]any
		for _, task := range tb.site.boardTasks(u, boardID) {
			if task["status"] == status {
				column = append(column, task)
			}
		}
		sort.Slice(column, func(i, j int) bool { return column[i]["position"].(string) < column[j]["position"].(string) })
		got = got[:0]
		for _, task := range column {
			got = append(got, task["title"].(string))
		}
		if !slices.Equal(got, titles) {
			return false, fmt.Errorf("the API orders it as %q", got)
		}
		return true, nil
	})
}

// activeTimer is the person's running timer as the API answers it.
func (s *consoleSite) activeTimer(u user) map[string]any {
	s.t.Helper()
	res := s.do(req{method: "GET", path: "/api/v1/work/timer/active", token: u.token}).expect(s.t, http.StatusOK)
	var body struct {
		Timer map[string]any `json:"timer"`
	}
	if err := json.Unmarshal(res.Body.Bytes(), &body); err != nil || body.Timer == nil {
		s.t.Fatalf("no running timer: %s", res.Body)
	}
	return body.Timer
}
