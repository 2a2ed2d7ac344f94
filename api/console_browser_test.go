package api_test

// The console in a browser: the real server with the real build on a loopback port, under
// its real Content-Security-Policy, and chromium driven the way a person uses the pages,
// by the labels, names and texts they read. A page's script error or policy violation
// fails the test.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"agencyhub/api"
	"agencyhub/migrations/dbtest"
	"agencyhub/platform/filestore"
	"agencyhub/web"
)

// consoleSite is the server with the embedded console build, listening on loopback, and
// the browser the test's tabs open in.
type consoleSite struct {
	*env
	url     string
	browser context.Context
	tabs    int
	// front is the tab in front: a tab behind it does not render, so its page does not
	// update its accessibility tree (see bringToFront).
	front *tab
}

// newConsoleSite starts the server and chromium; the test is skipped when the console was
// not built or there is no chromium. configure changes the server before it starts.
func newConsoleSite(t testing.TB, configure ...func(*api.Server)) *consoleSite {
	t.Helper()
	if _, err := fs.Stat(web.Console, "index.html"); err != nil {
		t.Skip("console not built: run make build")
	}
	srv := httptest.NewUnstartedServer(nil)
	setUp := func(s *api.Server) {
		s.Console = web.Console
		// Download links lead to this server, so that the pages can follow them.
		files, err := filestore.NewDir(t.TempDir(), dbtest.Keys(t).FileLinks, "http://"+srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		s.Files, s.SiteChat.Files = files, files
	}
	e := newEnv(t, dbtest.SQLite(t), append([]func(*api.Server){setUp}, configure...)...)
	srv.Config.Handler = e.handler
	srv.Start()
	// Registered before the browser's cleanup, so it runs after the browser has closed the
	// event streams it held open.
	t.Cleanup(srv.Close)
	return &consoleSite{env: e, url: srv.URL, browser: browser(t)}
}

// member is a user signed up through the API whose active workspace is a new company's
// project, as the setup page leaves it; the browser signs in with the password.
func (s *consoleSite) member(name string) (u user, projectID string) {
	s.t.Helper()
	u = s.signUp(name)
	companyID := s.companyOf(u, name+"'s company")
	projectID = s.projectIn(u, companyID, "Orders")
	s.do(req{method: "PUT", path: "/api/v1/auth/workspace-context", token: u.token,
		body: map[string]any{"active_company_id": companyID, "active_project_id": projectID}}).expect(s.t, http.StatusOK)
	return u, projectID
}

// Waits poll the page until it shows what is awaited, for at most these long.
const (
	pageWait  = 15 * time.Second
	pollEvery = 25 * time.Millisecond
)

// tab is one browser tab on the console.
type tab struct {
	t    testing.TB
	ctx  context.Context
	site *consoleSite

	mu sync.Mutex
	// faults are the script errors and policy violations the page reported.
	faults []string
	// answers are the last API response to each path, as the browser received it.
	answers map[string]apiAnswer
	// drags are the drags chromium intercepted for the test to drop (see drag).
	drags chan *input.DragData
}

// apiAnswer is what a test reads of an API response the page received.
type apiAnswer struct {
	status   int
	language string
}

// reportViolations makes the page report each Content-Security-Policy violation as a
// console error, which the tab's listener fails the test on. Injected through the
// DevTools protocol, so the policy's ban on inline script does not apply to it.
const reportViolations = `document.addEventListener("securitypolicyviolation", (e) =>
	console.error("Content-Security-Policy violation: " + e.violatedDirective + " blocked " + (e.blockedURI || "inline") +
		" in " + e.sourceFile + ":" + e.lineNumber));`

// tab opens a tab: the browser's first one, then new ones beside it.
func (s *consoleSite) tab(t testing.TB) *tab {
	t.Helper()
	ctx := s.browser
	if s.tabs > 0 {
		var cancel context.CancelFunc
		ctx, cancel = chromedp.NewContext(s.browser)
		t.Cleanup(cancel)
	}
	s.tabs++
	tb := &tab{t: t, ctx: ctx, site: s, answers: map[string]apiAnswer{}, drags: make(chan *input.DragData, 1)}
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	chromedp.ListenTarget(ctx, tb.listen)
	s.front = tb
	err := chromedp.Run(ctx, chromedp.EmulateViewport(1400, 900), chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(reportViolations).Do(ctx)
		return err
	}))
	if err != nil {
		t.Fatalf("prepare the tab: %v", err)
	}
	t.Cleanup(func() {
		tb.mu.Lock()
		defer tb.mu.Unlock()
		for _, f := range tb.faults {
			t.Errorf("the page reported: %s", f)
		}
		tb.faults = nil
	})
	return tb
}

// refusedByAPI is how chromium logs a response with an error status: the API's refusals
// (a 401 before a refresh, a wrong password's Problem) are part of what the tests do, and
// the page shows them; a 5xx is a fault.
var refusedByAPI = regexp.MustCompile(`status of 4\d\d `)

func (tb *tab) listen(ev any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil {
			text += " " + d.Exception.Description
		}
		tb.faults = append(tb.faults, "uncaught exception: "+text)
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert {
			var args []string
			for _, a := range ev.Args {
				if a.Description != "" {
					args = append(args, a.Description)
				} else {
					args = append(args, string(a.Value))
				}
			}
			tb.faults = append(tb.faults, "console."+string(ev.Type)+": "+strings.Join(args, " "))
		}
	case *cdplog.EventEntryAdded:
		e := ev.Entry
		if e.Level == cdplog.LevelError && !(e.Source == cdplog.SourceNetwork && refusedByAPI.MatchString(e.Text)) {
			tb.faults = append(tb.faults, string(e.Source)+": "+e.Text+" ("+e.URL+")")
		}
	case *network.EventResponseReceived:
		if u, err := url.Parse(ev.Response.URL); err == nil && strings.HasPrefix(u.Path, "/api/") {
			lang, _ := ev.Response.Headers["Content-Language"].(string)
			if lang == "" {
				lang, _ = ev.Response.Headers["content-language"].(string)
			}
			tb.answers[u.Path] = apiAnswer{status: int(ev.Response.Status), language: lang}
		}
	case *input.EventDragIntercepted:
		select {
		case tb.drags <- ev.Data:
		default:
		}
	}
}

// checkFaults fails the test at once when the page has reported a fault.
func (tb *tab) checkFaults() {
	tb.t.Helper()
	tb.mu.Lock()
	faults := tb.faults
	tb.faults = nil
	tb.mu.Unlock()
	if len(faults) > 0 {
		tb.fail("the page reported:\n  %s", strings.Join(faults, "\n  "))
	}
}

// answer is the last API response to the path the page received.
func (tb *tab) answer(path string) apiAnswer {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return tb.answers[path]
}

// fail ends the test with what the page showed: its address and text in the message, a
// screenshot in a file the message names.
func (tb *tab) fail(format string, args ...any) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 5*time.Second)
	defer cancel()
	var where, text string
	var shot []byte
	_ = chromedp.Run(ctx, chromedp.Location(&where), chromedp.Evaluate(`document.body ? document.body.innerText : ""`, &text),
		chromedp.CaptureScreenshot(&shot))
	if len(text) > 3000 {
		text = text[:3000] + "…"
	}
	msg := fmt.Sprintf(format, args...) + "\nat " + where + ", showing:\n" + text
	if len(shot) > 0 {
		name := filepath.Join(os.TempDir(), strings.NewReplacer("/", "_", " ", "_").Replace(tb.t.Name())+".png")
		if os.WriteFile(name, shot, 0o644) == nil {
			msg += "\nscreenshot: " + name
		}
	}
	tb.t.Fatal(msg)
}

// bringToFront switches to the tab, as a person does before using it.
func (tb *tab) bringToFront() {
	tb.t.Helper()
	if tb.site.front == tb {
		return
	}
	ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
	defer cancel()
	if err := chromedp.Run(ctx, page.BringToFront()); err != nil {
		tb.t.Fatalf("switch to the tab: %v", err)
	}
	tb.site.front = tb
}

// waitFor polls ready until it is true, failing the test after within.
func (tb *tab) waitFor(what string, within time.Duration, ready func(ctx context.Context) (bool, error)) {
	tb.t.Helper()
	tb.bringToFront()
	deadline := time.Now().Add(within)
	var last error
	for {
		tb.checkFaults()
		ctx, cancel := context.WithDeadline(tb.ctx, deadline)
		ok, err := ready(ctx)
		if err != nil && ctx.Err() == nil {
			last = err
		}
		cancel()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			if last != nil {
				tb.fail("%s: not within %v (last error: %v)", what, within, last)
			}
			tb.fail("%s: not within %v", what, within)
		}
		time.Sleep(pollEvery)
	}
}

// waitJS waits until the script's value is true.
func (tb *tab) waitJS(what, js string) {
	tb.t.Helper()
	tb.waitFor(what, pageWait, func(ctx context.Context) (bool, error) {
		var ok bool
		err := chromedp.Run(ctx, chromedp.Evaluate(js, &ok))
		return ok, err
	})
}

// eval runs a script in the page, keeping its JSON value in out when given.
func (tb *tab) eval(js string, out ...any) {
	tb.t.Helper()
	var res any
	if len(out) > 0 {
		res = out[0]
	}
	tb.bringToFront()
	ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.Evaluate(js, res, awaitPromise)); err != nil {
		tb.fail("script %s: %v", js, err)
	}
}

func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

// open navigates the tab to a console path, as typing the address does.
func (tb *tab) open(path string) {
	tb.t.Helper()
	tb.bringToFront()
	ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.Navigate(tb.site.url+path)); err != nil {
		tb.fail("open %s: %v", path, err)
	}
}

// at waits until the address is path (with its query when path has one).
func (tb *tab) at(path string) {
	tb.t.Helper()
	here := "location.pathname"
	if strings.Contains(path, "?") {
		here += " + location.search"
	}
	tb.waitJS("the address to be "+path, here+" === "+jsString(path))
}

// see waits until the page's visible text includes text.
func (tb *tab) see(text string) {
	tb.t.Helper()
	tb.waitJS(fmt.Sprintf("the page to show %q", text), `document.body.innerText.includes(`+jsString(text)+`)`)
}

// Roles of what a person clicks, types into and chooses from.
var (
	clickable = []string{"button", "link", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "checkbox", "radio", "switch", "treeitem"}
	typable   = []string{"textbox", "searchbox", "combobox", "spinbutton"}
	choosable = []string{"combobox", "listbox"}
)

// onNamed finds an element the accessibility tree gives one of roles and the accessible
// name, and calls fn (a JavaScript function, with this the element and args its
// arguments) on each such element in document order until one answers something other
// than null, which it keeps in out. It tells whether one did.
func (tb *tab) onNamed(ctx context.Context, roles []string, name, fn string, out any, args ...any) (bool, error) {
	argv, err := json.Marshal(args)
	if err != nil {
		return false, err
	}
	call := fmt.Sprintf("function () { return (%s).apply(this, %s); }", fn, argv)
	done := false
	err = chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		const group = "console-test"
		defer func() { _ = runtime.ReleaseObjectGroup(group).Do(ctx) }()
		doc, exc, err := runtime.Evaluate("document").WithObjectGroup(group).Do(ctx)
		if err != nil || exc != nil {
			return fmt.Errorf("document: %v %v", err, exc)
		}
		nodes, err := queryAX(ctx, doc.ObjectID, name)
		if err != nil {
			return err
		}
		for _, n := range nodes {
			if n.Ignored || n.BackendDOMNodeID == 0 || n.Role == nil || !slices.Contains(roles, jsonString(n.Role.Value)) {
				continue
			}
			el, err := dom.ResolveNode().WithBackendNodeID(n.BackendDOMNodeID).WithObjectGroup(group).Do(ctx)
			if err != nil {
				continue // gone since the query
			}
			res, exc, err := runtime.CallFunctionOn(call).WithObjectID(el.ObjectID).WithReturnByValue(true).WithAwaitPromise(true).Do(ctx)
			if err != nil {
				return err
			}
			if exc != nil {
				return fmt.Errorf("%s", exc.Exception.Description)
			}
			if res.Type == runtime.TypeUndefined || res.Subtype == runtime.SubtypeNull || len(res.Value) == 0 || string(res.Value) == "null" {
				continue
			}
			done = true
			if out != nil {
				return json.Unmarshal([]byte(res.Value), out)
			}
			return nil
		}
		return nil
	}))
	return done, err
}

// axNode is what onNamed reads of a node of the accessibility tree. Decoded here rather
// than by cdproto, whose enumerations lag chromium's: an ignored node's reason it does not
// know (the text of a label that names a checkbox is "presentationalRole") fails its
// decoding of the whole answer.
type axNode struct {
	Ignored          bool              `json:"ignored"`
	Role             *axValue          `json:"role"`
	BackendDOMNodeID cdp.BackendNodeID `json:"backendDOMNodeId"`
}

type axValue struct {
	Value json.RawMessage `json:"value"`
}

// queryAX answers the nodes of the object's accessibility subtree of that accessible name.
func queryAX(ctx context.Context, objectID runtime.RemoteObjectID, name string) ([]axNode, error) {
	var res struct {
		Nodes []axNode `json:"nodes"`
	}
	err := cdp.Execute(ctx, accessibility.CommandQueryAXTree, accessibility.QueryAXTree().WithObjectID(objectID).WithAccessibleName(name), &res)
	return res.Nodes, err
}

func jsonString(v []byte) string {
	var s string
	_ = json.Unmarshal(v, &s)
	return s
}

// onSelected calls fn (as onNamed does) on the element the script find answers, for the
// canvas's nodes and handles, which a person knows by their place rather than a name.
func (tb *tab) onSelected(ctx context.Context, find, fn string, out any, args ...any) (bool, error) {
	argv, err := json.Marshal(args)
	if err != nil {
		return false, err
	}
	js := fmt.Sprintf("(() => { const el = %s; return el ? (%s).apply(el, %s) : null; })()", find, fn, argv)
	var res json.RawMessage
	if err := chromedp.Run(ctx, chromedp.Evaluate(js, &res, awaitPromise)); err != nil {
		return false, err
	}
	if len(res) == 0 || string(res) == "null" {
		return false, nil
	}
	if out != nil {
		return true, json.Unmarshal(res, out)
	}
	return true, nil
}

// clickAt clicks, with the mouse, the element the script find answers; within a canvas,
// where it is seen.
func (tb *tab) clickAt(what, find string, inCanvas bool) {
	tb.t.Helper()
	point := pointAt
	if inCanvas {
		point = pointAtInPlace
	}
	tb.waitFor(what+" to click", pageWait, func(ctx context.Context) (bool, error) {
		var at [2]float64
		ok, err := tb.onSelected(ctx, find, point, &at)
		if !ok || err != nil {
			return false, err
		}
		return clickPoint(ctx, at)
	})
}

// clickLinkTo clicks the link to path, as a person picks a row of a list by what it shows.
func (tb *tab) clickLinkTo(path string) {
	tb.t.Helper()
	tb.clickAt("a link to "+path, `document.querySelector('a[href="' + `+jsString(path)+` + '"]')`, false)
}

// node is the script finding the canvas's node of the action.
func node(actionKey string) string {
	return `document.querySelector('.react-flow__node [data-action-key="' + ` + jsString(actionKey) + ` + '"]')`
}

// clickNode clicks the action's node on the canvas.
func (tb *tab) clickNode(actionKey string) {
	tb.t.Helper()
	tb.clickAt("the node "+actionKey, node(actionKey), true)
}

// connect drags, with the mouse, from the output handle of one node (its handle id: "out",
// or the branch) to the input handle of another.
func (tb *tab) connect(from, output, to string) {
	tb.t.Helper()
	var a, b [2]float64
	tb.waitFor(fmt.Sprintf("the handles to connect %s (%s) to %s", from, output, to), pageWait, func(ctx context.Context) (bool, error) {
		ok, err := tb.onSelected(ctx, node(from)+`?.querySelector('.react-flow__handle.source[data-handleid="`+output+`"]')`, pointAtInPlace, &a)
		if !ok || err != nil {
			return false, err
		}
		return tb.onSelected(ctx, node(to)+`?.querySelector(".react-flow__handle.target")`, pointAtInPlace, &b)
	})
	ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
	defer cancel()
	mouse := func(t input.MouseType, x, y float64, buttons int64) chromedp.Action {
		return input.DispatchMouseEvent(t, x, y).WithButton(input.Left).WithButtons(buttons).WithClickCount(1)
	}
	actions := []chromedp.Action{mouse(input.MousePressed, a[0], a[1], 1)}
	for i := 1; i <= 10; i++ {
		f := float64(i) / 10
		actions = append(actions, mouse(input.MouseMoved, a[0]+(b[0]-a[0])*f, a[1]+(b[1]-a[1])*f, 1))
	}
	actions = append(actions, mouse(input.MouseReleased, b[0], b[1], 0))
	const edges = `document.querySelectorAll(".react-flow__edge").length`
	var before int
	tb.eval(edges, &before)
	if err := chromedp.Run(ctx, actions...); err != nil {
		tb.fail("connect %s to %s: %v", from, to, err)
	}
	tb.waitJS(fmt.Sprintf("an edge from %s to %s", from, to), fmt.Sprintf("%s > %d", edges, before))
}

// statuses waits until the canvas's nodes carry exactly these data-status values.
func (tb *tab) statuses(want map[string]string) {
	tb.t.Helper()
	var got map[string]string
	tb.waitFor(fmt.Sprintf("the nodes' statuses to be %v", want), pageWait, func(ctx context.Context) (bool, error) {
		err := chromedp.Run(ctx, chromedp.Evaluate(`Object.fromEntries([...document.querySelectorAll(".react-flow__node [data-action-key]")]
			.map((n) => [n.dataset.actionKey, n.dataset.status ?? ""]))`, &got))
		if err == nil && !maps.Equal(got, want) {
			err = fmt.Errorf("the nodes show %v", got)
		}
		return err == nil, err
	})
}

// valueOf is what the field labelled label holds.
func (tb *tab) valueOf(label string) string {
	tb.t.Helper()
	var value string
	tb.waitFor(fmt.Sprintf("a field labelled %q with a value", label), pageWait, func(ctx context.Context) (bool, error) {
		return tb.onNamed(ctx, typable, label, `function () { return this.value || null; }`, &value)
	})
	return value
}

// pointAt scrolls the element into view and answers its centre, or null while it is
// disabled, something else covers that point, or it still moves: it waits two frames and
// compares, as a person aims at what stands still (a page whose header grows when its
// running timer loads pushes everything below it down).
var pointAt = aimAt(true)

// pointAtInPlace is pointAt without scrolling, for the canvas: React Flow moves its view
// by transforms, and a scrolled canvas no longer matches where it draws.
var pointAtInPlace = aimAt(false)

func aimAt(scroll bool) string {
	scrollIntoView := ""
	if scroll {
		scrollIntoView = `this.scrollIntoView({block: "center", inline: "center"});`
	}
	return `async function () {
	if (this.disabled || this.getAttribute("aria-disabled") === "true") return null;
	` + scrollIntoView + `
	const before = this.getBoundingClientRect();
	await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
	const r = this.getBoundingClientRect();
	if (r.left !== before.left || r.top !== before.top || r.width !== before.width) return null;
	const x = r.left + r.width / 2, y = r.top + r.height / 2;
	const top = document.elementFromPoint(x, y);
	if (!top || !this.contains(top)) return null;
	const target = this;
	window.__landed = undefined;
	document.addEventListener("click", (e) => { window.__landed = target.contains(e.target); }, {capture: true, once: true});
	return [x, y];
}`
}

// clickPoint clicks where pointAt aimed, and answers whether the click landed there: the
// page can still move between the aim and the click (a badge that loads late), and a
// click that missed is aimed again. A click that left the page landed.
func clickPoint(ctx context.Context, at [2]float64) (bool, error) {
	if err := chromedp.Run(ctx, chromedp.MouseClickXY(at[0], at[1])); err != nil {
		return false, err
	}
	var missed bool
	err := chromedp.Run(ctx, chromedp.Evaluate(`window.__landed === false`, &missed))
	return !missed, err
}

// click clicks, with the mouse, the button, link or other control of that name.
func (tb *tab) click(name string) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("a control named %q to click", name), pageWait, func(ctx context.Context) (bool, error) {
		var at [2]float64
		ok, err := tb.onNamed(ctx, clickable, name, pointAt, &at)
		if !ok || err != nil {
			return false, err
		}
		return clickPoint(ctx, at)
	})
}

// drag drags the control named item with the mouse and drops it on the element named
// onto (of role region or group), at the fractions fx, fy of its width and height. An
// HTML drag and drop does not run in a headless browser by itself: chromium hands the
// drag to the test, which plays its dragenter, dragover and drop where the mouse goes.
func (tb *tab) drag(item, onto string, fx, fy float64) {
	tb.t.Helper()
	var from, to [2]float64
	tb.waitFor(fmt.Sprintf("%q to drag and %q to drop it on", item, onto), pageWait, func(ctx context.Context) (bool, error) {
		ok, err := tb.onNamed(ctx, clickable, item, pointAt, &from)
		if !ok || err != nil {
			return false, err
		}
		return tb.onNamed(ctx, []string{"region", "group"}, onto, `function (fx, fy) {
			const r = this.getBoundingClientRect();
			return [r.left + r.width * fx, r.top + r.height * fy];
		}`, &to, fx, fy)
	})
	ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
	defer cancel()
	mouse := func(t input.MouseType, at [2]float64, buttons int64) chromedp.Action {
		return input.DispatchMouseEvent(t, at[0], at[1]).WithButton(input.Left).WithButtons(buttons).WithClickCount(1)
	}
	err := chromedp.Run(ctx, input.SetInterceptDrags(true), mouse(input.MousePressed, from, 1),
		mouse(input.MouseMoved, [2]float64{from[0] + 10, from[1] + 10}, 1),
		chromedp.ActionFunc(func(ctx context.Context) error {
			var data *input.DragData
			select {
			case data = <-tb.drags:
			case <-ctx.Done():
				return fmt.Errorf("no drag started from %q", item)
			}
			for _, step := range []input.DispatchDragEventType{input.DragEnter, input.DragOver, input.Drop} {
				if err := input.DispatchDragEvent(step, to[0], to[1], data).Do(ctx); err != nil {
					return err
				}
			}
			return nil
		}),
		mouse(input.MouseReleased, to, 0), input.SetInterceptDrags(false))
	if err != nil {
		tb.fail("drag %q onto %q: %v", item, onto, err)
	}
}

// press presses keys as the keyboard does: kb's named keys, or text typed key by key.
func (tb *tab) press(keys string, modifiers ...input.Modifier) {
	tb.t.Helper()
	tb.bringToFront()
	ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.KeyEvent(keys, chromedp.KeyModifiers(modifiers...))); err != nil {
		tb.fail("press %q: %v", keys, err)
	}
}

// tabTo presses Tab (with Shift when back) until the keyboard focus is on the control of
// that name, as a person without a mouse moves through the page.
func (tb *tab) tabTo(name string, back bool) {
	tb.t.Helper()
	const most = 100
	var modifiers []input.Modifier
	if back {
		modifiers = append(modifiers, input.ModifierShift)
	}
	for range most {
		ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
		focused, err := tb.onNamed(ctx, slices.Concat(clickable, typable), name,
			`function () { return document.activeElement === this || this.contains(document.activeElement) ? true : null; }`, nil)
		cancel()
		if err != nil {
			tb.fail("find %q: %v", name, err)
		}
		if focused {
			return
		}
		tb.press(kb.Tab, modifiers...)
		tb.checkFaults()
	}
	tb.fail("%d presses of Tab did not reach %q", most, name)
}

// focusForTyping focuses a text control and selects what it holds, so typing replaces it.
const focusForTyping = `function () {
	if (this.disabled || this.readOnly || this.getAttribute("aria-disabled") === "true") return null;
	this.scrollIntoView({block: "center"});
	this.focus();
	if (typeof this.select === "function") this.select();
	else getSelection().selectAllChildren(this);
	return document.activeElement === this || this.contains(document.activeElement) ? true : null;
}`

// fill types value into the field labelled label, replacing what it held.
func (tb *tab) fill(label, value string) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("a field labelled %q to type %q into", label, value), pageWait, func(ctx context.Context) (bool, error) {
		ok, err := tb.onNamed(ctx, typable, label, focusForTyping, nil)
		if !ok || err != nil {
			return false, err
		}
		var typing chromedp.Action = chromedp.ActionFunc(func(ctx context.Context) error { return input.InsertText(value).Do(ctx) })
		if value == "" {
			typing = chromedp.KeyEvent(kb.Backspace)
		}
		return true, chromedp.Run(ctx, typing)
	})
}

// choose picks the option of that text in the drop-down labelled label.
func (tb *tab) choose(label, option string) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("a list labelled %q with the option %q", label, option), pageWait, func(ctx context.Context) (bool, error) {
		return tb.onNamed(ctx, choosable, label, `function (option) {
			if (this.disabled || !this.options) return null;
			const o = [...this.options].find((o) => o.text.trim() === option);
			if (!o) return null;
			// React follows a select through its change event, as when a person picks.
			Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set.call(this, o.value);
			this.dispatchEvent(new Event("change", {bubbles: true}));
			return true;
		}`, nil, option)
	})
}

// seeIn waits until the region, dialog or panel named name shows text.
func (tb *tab) seeIn(name, text string) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("%q to show %q", name, text), pageWait, func(ctx context.Context) (bool, error) {
		return tb.onNamed(ctx, []string{"region", "complementary", "dialog", "alertdialog", "group", "form", "main"}, name,
			`function (text) { return this.innerText.includes(text) ? true : null; }`, nil, text)
	})
}

// shows waits until the drop-down labelled label shows the option of that text.
func (tb *tab) shows(label, option string) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("the list %q to show %q", label, option), pageWait, func(ctx context.Context) (bool, error) {
		return tb.onNamed(ctx, choosable, label, `function (option) { return this.selectedOptions?.[0]?.text.trim() === option ? true : null; }`, nil, option)
	})
}

// seeHeading waits for a heading of that text.
func (tb *tab) seeHeading(name string) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("a heading %q", name), pageWait, func(ctx context.Context) (bool, error) {
		return tb.onNamed(ctx, []string{"heading"}, name, `function () { return true; }`, nil)
	})
}

// fieldShows waits until the field labelled label is marked invalid and its description
// (what a screen reader reads after the label) includes message.
func (tb *tab) fieldShows(label, message string) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("the field %q to show %q", label, message), pageWait, func(ctx context.Context) (bool, error) {
		return tb.onNamed(ctx, typable, label, `function (message) {
			const said = (this.getAttribute("aria-describedby") || "").split(" ").map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
			return this.getAttribute("aria-invalid") === "true" && said.includes(message) ? true : null;
		}`, nil, message)
	})
}

// fieldMarked waits until the field labelled label is marked invalid.
func (tb *tab) fieldMarked(label string) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("the field %q to be marked invalid", label), pageWait, func(ctx context.Context) (bool, error) {
		return tb.onNamed(ctx, typable, label, `function () { return this.getAttribute("aria-invalid") === "true" ? true : null; }`, nil)
	})
}

// seeOnce waits for the page to show text, then checks that it shows it once: a message
// said on a field and again in an alert is said twice.
func (tb *tab) seeOnce(text string) {
	tb.t.Helper()
	tb.see(text)
	var n int
	tb.eval(`document.body.innerText.split(`+jsString(text)+`).length - 1`, &n)
	if n != 1 {
		tb.t.Fatalf("the page shows %q %d times", text, n)
	}
}

// attach hands the file input the script find answers a file, as choosing one does.
func attach(tb *tab, find, name, content string) {
	tb.t.Helper()
	tb.eval(`(() => { const input = ` + find + `; const files = new DataTransfer();
		files.items.add(new File([` + jsString(content) + `], ` + jsString(name) + `, {type: "text/plain"}));
		input.files = files.files; input.dispatchEvent(new Event("change", {bubbles: true})); })()`)
}

// download fetches a link the page shows, as following it does, and answers the body.
func download(t *testing.T, href string) string {
	t.Helper()
	res, err := http.Get(href)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("download %s: %d %s", href, res.StatusCode, body)
	}
	return string(body)
}

// signIn signs in on the sign-in page the tab shows.
func (tb *tab) signIn(u user) {
	tb.t.Helper()
	tb.fill("E-mail", u.email)
	tb.fill("Password", password)
	tb.click("Sign in")
}

// signUpAndSetUp registers a new person from the sign-in page, then creates a company
// and a project (Orders) on the setup page the registration leads to.
func (tb *tab) signUpAndSetUp(name, email string) {
	tb.t.Helper()
	tb.open("/sign-in")
	tb.click("Create an account")
	tb.at("/register")
	tb.fill("Your name", name)
	tb.fill("E-mail", email)
	tb.fill("Password", password)
	tb.click("Create an account")
	tb.at("/setup")
	tb.fill("Company name", "Analytical Engines")
	tb.click("Create")
	tb.fill("Project name", "Orders")
	tb.click("Create")
	tb.shows("Project", "Orders")
}

// forgetCookie deletes one of the session's cookies, as its expiry would.
func (tb *tab) forgetCookie(name, path string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
	defer cancel()
	err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		return network.DeleteCookies(name).WithURL(tb.site.url + path).Do(ctx)
	}))
	if err != nil {
		tb.fail("delete the cookie %s: %v", name, err)
	}
}

// hasCookie tells whether the browser holds the cookie for the path.
func (tb *tab) hasCookie(name, path string) bool {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
	defer cancel()
	var cookies []*network.Cookie
	err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) (err error) {
		cookies, err = network.GetCookies().WithURLs([]string{tb.site.url + path}).Do(ctx)
		return err
	}))
	if err != nil {
		tb.fail("read the cookies: %v", err)
	}
	return slices.ContainsFunc(cookies, func(c *network.Cookie) bool { return c.Name == name && c.Value != "" })
}

// axeSource is axe-core's script, from the console's dev dependencies.
var axeSource = sync.OnceValues(func() ([]byte, error) {
	return os.ReadFile("../web/console/node_modules/axe-core/axe.min.js")
})

// axeViolation is one rule axe-core found broken, with where.
type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// accessible runs axe-core on the page and fails the test on any serious or critical
// violation, listing each with the elements and what is wrong with them.
func (tb *tab) accessible(what string) {
	tb.t.Helper()
	src, err := axeSource()
	if err != nil {
		tb.t.Fatalf("axe-core is missing (npm ci in web/console installs it): %v", err)
	}
	var loaded bool
	tb.eval(`typeof axe === "object"`, &loaded)
	if !loaded {
		tb.eval(string(src))
	}
	var found []axeViolation
	tb.eval(`axe.run(document, {resultTypes: ["violations"]}).then((r) => r.violations
		.filter((v) => v.impact === "serious" || v.impact === "critical")
		.map((v) => ({id: v.id, impact: v.impact, help: v.help,
			nodes: v.nodes.map((n) => n.target.join(" ") + ": " + n.failureSummary.replaceAll("\n", " "))})))`, &found)
	if len(found) == 0 {
		return
	}
	var b strings.Builder
	for _, v := range found {
		fmt.Fprintf(&b, "\n%s (%s): %s", v.ID, v.Impact, v.Help)
		for _, n := range v.Nodes {
			fmt.Fprintf(&b, "\n    %s", n)
		}
	}
	tb.t.Errorf("axe-core on %s: serious or critical violations:%s", what, b.String())
}

// TestConsoleSignIn: the sign-in page passes axe-core; a wrong password marks the two
// fields the API's Problem names and says why once; a reset asked of a server that sends no
// mail says so.
func TestConsoleSignIn(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada := site.signUp("Ada")
	tb := site.tab(t)

	tb.open("/sign-in")
	tb.seeHeading("Sign in")
	tb.accessible("the sign-in page")

	tb.fill("E-mail", ada.email)
	tb.fill("Password", "not-her-password")
	tb.click("Sign in")
	tb.fieldMarked("E-mail")
	tb.fieldMarked("Password")
	tb.seeOnce("The e-mail or password is not correct.")
	tb.see("Check the e-mail and password")

	tb.click("Forgot your password?")
	tb.at("/reset-password")
	tb.fill("E-mail", ada.email)
	tb.click("Send the link")
	tb.see("This server is not set up to send e-mail, so no link can reach " + ada.email + ".")

	tb.open("/sign-in")
	tb.fill("E-mail", ada.email)
	tb.fill("Password", password)
	tb.click("Sign in")
	tb.at("/workflows")
	tb.see("Ada")
}

// TestConsoleSessionRefreshesAndReturnsAfterSignIn: a page opened after the access token
// is gone refreshes the session silently; when the refresh cannot, the person signs in
// again and comes back to the page they were on.
func TestConsoleSessionRefreshesAndReturnsAfterSignIn(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, _ := site.member("Ada")
	tb := site.tab(t)

	tb.open("/sign-in")
	tb.signIn(ada)
	tb.at("/workflows")

	tb.forgetCookie("app_access", "/")
	tb.open("/runs")
	tb.see("Ada")
	tb.at("/runs")
	if !tb.hasCookie("app_access", "/") {
		tb.fail("the session was not refreshed: no access cookie")
	}

	tb.forgetCookie("app_access", "/")
	tb.forgetCookie("app_refresh", "/api/v1/auth/refresh")
	tb.open("/runs?status=failed")
	tb.at("/sign-in?next=" + url.QueryEscape("/runs?status=failed"))
	tb.signIn(ada)
	tb.at("/runs?status=failed")
	tb.see("Ada")
}
