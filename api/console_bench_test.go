package api_test

// Benchmarks of the console in a browser, through the path a person takes: the real server
// with the embedded build on a loopback port (real HTTP, real sockets), real SQLite, the
// embedded Temporal, and headless chromium driven through the DevTools protocol. They print
// figures (b.ReportMetric) and assert no speed; docs/console.md ("Performance") holds the
// figures against issue 22's targets. Beside each timing they report CPU per operation: the
// chromium processes' (from /proc), the page's main thread's (Performance.getMetrics) and
// the Go process's (the server, the embedded Temporal and the test's own driving).

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"agencyhub/platform/benchtest"
)

// benchActions is the size of the workflows the targets name.
const benchActions = 300

// benchProbe is what the benchmarks' tabs run in every document before the page's own
// scripts (injected through the DevTools protocol, so the page's CSP does not apply):
//   - long tasks as [start, end] (PerformanceObserver "longtask"), in __bench.longTasks;
//   - back-to-back probes of the main thread, a requestAnimationFrame then a setTimeout(0),
//     each as [start, end, action nodes in the document at its end], until probing is
//     turned off;
//   - frames: requestAnimationFrame timestamps while recording;
//   - every change of a node's data-status as [action key, status, Date.now(),
//     performance.now()], every event-stream message as it reaches the page, and the
//     script of every Worker the page starts.
const benchProbe = `(() => {
	const b = window.__bench = {longTasks: [], probes: [], probing: true, frames: [], recording: false,
		mutations: [], messages: [], streamOpen: 0, workers: []};
	try {
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) b.longTasks.push([e.startTime, e.startTime + e.duration]);
		}).observe({type: "longtask", buffered: true});
	} catch (e) {}
	const probe = () => {
		const start = performance.now();
		requestAnimationFrame(() => setTimeout(() => {
			b.probes.push([start, performance.now(), document.querySelectorAll("[data-action-key]").length]);
			if (b.probing) probe();
		}, 0));
	};
	probe();
	// Each recording is its own loop: one left from before stops at its next frame.
	let loop = 0;
	b.record = () => {
		const mine = ++loop;
		b.frames = [];
		b.recording = true;
		const frame = (t) => {
			if (!b.recording || mine !== loop) return;
			b.frames.push(t);
			requestAnimationFrame(frame);
		};
		requestAnimationFrame(frame);
	};
	b.stop = () => {
		b.recording = false;
		return b.frames;
	};
	new MutationObserver((records) => {
		const wall = Date.now(), now = performance.now();
		for (const r of records) b.mutations.push([r.target.dataset.actionKey ?? "", r.target.dataset.status ?? "", wall, now]);
	}).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-status"]});
	const Worker = window.Worker;
	window.Worker = class extends Worker {
		constructor(url, init) {
			super(url, init);
			b.workers.push(String(new URL(url, location.href)));
		}
	};
	const Source = window.EventSource;
	const types = ["run.started", "run.resumed", "run.succeeded", "run.failed", "run.cancelled", "action.started",
		"action.waiting", "action.succeeded", "action.failed", "action.dead_lettered", "action.skipped"];
	// Listening from the constructor, before the page's own listeners, marks each message as
	// it arrives rather than after the page has handled it.
	window.EventSource = class extends Source {
		constructor(url, init) {
			super(url, init);
			this.addEventListener("open", () => { b.streamOpen = Date.now(); });
			for (const type of types) this.addEventListener(type, (m) => {
				const e = JSON.parse(m.data);
				b.messages.push([e.sequence, e.event_type, e.action_key ?? "", e.status ?? "", e.created_at, Date.now(), performance.now()]);
			});
		}
	};
})();`

// consoleBench is a signed-in browser on the console, with its probe in every document.
type consoleBench struct {
	*consoleSite
	ada       user
	projectID string
	front     *tab
}

func newConsoleBench(b *testing.B) *consoleBench {
	b.Helper()
	site := newConsoleSite(b)
	ada, projectID := site.member("Ada")
	cb := &consoleBench{consoleSite: site, ada: ada, projectID: projectID}
	cb.front = cb.benchTab(b)
	cb.front.open("/sign-in")
	cb.front.signIn(ada)
	cb.front.at("/workflows")
	return cb
}

// benchTab opens a tab with the probe, the performance metrics on, and the browser's
// questions (leaving an editor with unsaved moves) answered yes.
func (cb *consoleBench) benchTab(b *testing.B) *tab {
	b.Helper()
	tb := cb.tab(b)
	chromedp.ListenTarget(tb.ctx, func(ev any) {
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			go func() { _ = chromedp.Run(tb.ctx, page.HandleJavaScriptDialog(true)) }()
		}
	})
	err := chromedp.Run(tb.ctx, performance.Enable(), chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(benchProbe).Do(ctx)
		return err
	}))
	if err != nil {
		b.Fatalf("prepare the tab: %v", err)
	}
	return tb
}

// bigGraph is a workflow of n actions: a manual start, then blocks of an HTTP GET of url, a
// condition on its status whose false branch stops and whose true branch leads to the next
// block. placed gives each action a position on a grid, as the editor saves them; without
// it the console lays the graph out with elkjs.
func bigGraph(n int, url string, placed bool) map[string]any {
	var actions, connections []any
	spine := 0
	add := func(key, typeKey string, config map[string]any, below bool) {
		a := map[string]any{"action_key": key, "action_type_key": typeKey, "config": config}
		if placed {
			col, row := spine%16, spine/16
			x, y := col*300, row*240
			if below {
				x, y = (spine-1)%16*300, (spine-1)/16*240+110
			}
			a["ui"] = map[string]any{"position": map[string]any{"x": x, "y": y}}
		}
		if !below {
			spine++
		}
		actions = append(actions, a)
	}
	connect := func(from, to, branch string) {
		connections = append(connections, map[string]any{"from": from, "to": to, "branch": branch})
	}
	add("start", "manual.trigger", map[string]any{}, false)
	prev, branch := "start", ""
	for k := 0; len(actions) < n; k++ {
		fetch, check, stop := fmt.Sprintf("fetch_%d", k), fmt.Sprintf("check_%d", k), fmt.Sprintf("stop_%d", k)
		add(fetch, "http.request", map[string]any{"method": "GET", "url": fmt.Sprintf("%s/orders/%d", url, k)}, false)
		connect(prev, fetch, branch)
		if len(actions) == n {
			break
		}
		add(check, "condition.branch", map[string]any{"text": "steps." + fetch + ".status_code == 200"}, false)
		connect(fetch, check, "")
		prev, branch = check, "true"
		if len(actions) == n {
			break
		}
		add(stop, "stop", map[string]any{}, true)
		connect(check, stop, "false")
	}
	return map[string]any{"actions": actions, "connections": connections}
}

// draftWorkflow creates a workflow with graph as its draft and answers its id.
func (cb *consoleBench) draftWorkflow(name string, graph map[string]any) string {
	cb.t.Helper()
	id := cb.newWorkflow(cb.ada, cb.projectID, name)
	cb.do(req{method: "PUT", path: "/api/v1/workflows/" + id + "/draft", token: cb.ada.token, body: graph}).expect(cb.t, http.StatusOK)
	return id
}

// cpuMeter reads, at the start and end of an operation, the CPU time of the chromium
// processes, of the tab's renderer main thread, and of this Go process.
type cpuMeter struct {
	b                    *testing.B
	tb                   *tab
	browser, page, goCPU time.Duration
	ops                  int
	sumBrowser, sumPage  time.Duration
	sumGo                time.Duration
}

func (m *cpuMeter) start() {
	m.browser, m.page, m.goCPU = chromiumCPU(m.b, m.tb.site.browser), pageTaskTime(m.tb), benchtest.ProcessCPU(m.b)
}

func (m *cpuMeter) stop() {
	m.sumBrowser += chromiumCPU(m.b, m.tb.site.browser) - m.browser
	// A navigation may start the page's metrics again from zero in a new renderer.
	if p := pageTaskTime(m.tb); p >= m.page {
		m.sumPage += p - m.page
	} else {
		m.sumPage += p
	}
	m.sumGo += benchtest.ProcessCPU(m.b) - m.goCPU
	m.ops++
}

func (m *cpuMeter) report() {
	if m.ops == 0 {
		return
	}
	n := time.Duration(m.ops)
	m.b.ReportMetric(benchtest.Millis(m.sumBrowser/n), "chromium-cpu-ms/op")
	m.b.ReportMetric(benchtest.Millis(m.sumPage/n), "page-main-thread-ms/op")
	m.b.ReportMetric(benchtest.Millis(m.sumGo/n), "go-cpu-ms/op")
}

// pageTaskTime is the renderer main thread's busy time so far (the page's TaskDuration).
func pageTaskTime(tb *tab) time.Duration {
	var metrics []*performance.Metric
	err := chromedp.Run(tb.ctx, chromedp.ActionFunc(func(ctx context.Context) (err error) {
		metrics, err = performance.GetMetrics().Do(ctx)
		return err
	}))
	if err != nil {
		tb.t.Fatalf("performance metrics: %v", err)
	}
	for _, m := range metrics {
		if m.Name == "TaskDuration" {
			return time.Duration(m.Value * float64(time.Second))
		}
	}
	return 0
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/<pid>/stat's times (100 on Linux).
const clockTicks = 100

// chromiumCPU is the user and system CPU time of the browser process and every process
// below it (renderers, GPU, network, utilities), from /proc.
func chromiumCPU(b testing.TB, browser context.Context) time.Duration {
	b.Helper()
	c := chromedp.FromContext(browser)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		b.Fatal("no chromium process")
	}
	root := c.Browser.Process().Pid
	entries, err := os.ReadDir("/proc")
	if err != nil {
		b.Fatal(err)
	}
	parent := map[int]int{}
	ticks := map[int]int64{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(path.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // gone since the listing
		}
		// The command name in parentheses may hold spaces; the fields after it do not.
		_, rest, ok := strings.Cut(string(stat), ") ")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 13 {
			continue
		}
		parent[pid], _ = strconv.Atoi(f[1])
		utime, _ := strconv.ParseInt(f[11], 10, 64)
		stime, _ := strconv.ParseInt(f[12], 10, 64)
		ticks[pid] = utime + stime
	}
	var sum int64
	for pid, t := range ticks {
		for p := pid; p > 1; p = parent[p] {
			if p == root {
				sum += t
				break
			}
		}
	}
	return time.Duration(sum) * time.Second / clockTicks
}

// BenchmarkConsoleScriptSize: the script a cold load of the sign-in page and of a
// workflow's editor takes over the wire, gzipped as the server sends it. Every response of
// resource type Script (module preloads and lazy route chunks included) counts with its
// encodedDataLength, the bytes received for it, headers included; the metrics ending in
// body-KB leave the headers out. A Worker's script is fetched on the worker's own DevTools
// target, which tells the page's nothing: the page records the URL it gave new Worker, and
// the test fetches it over the same loopback HTTP with the browser's Accept-Encoding. The
// editor is opened on a workflow saved with positions and on one without, which the
// editor lays out with elkjs in its worker. The browser's cache is off.
func BenchmarkConsoleScriptSize(b *testing.B) {
	cb := newConsoleBench(b)
	placed := cb.draftWorkflow("Placed", bigGraph(benchActions, "https://orders.example.com", true))
	unplaced := cb.draftWorkflow("Unplaced", bigGraph(benchActions, "https://orders.example.com", false))
	pages := []struct{ metric, path string }{
		{"signin-script", "/sign-in"},
		{"editor-script", "/workflows/" + placed},
		{"editor-with-layout-script", "/workflows/" + unplaced},
	}
	var logged bool
	wire, body := map[string]int64{}, map[string]int64{}
	for b.Loop() {
		for _, p := range pages {
			scripts := cb.coldScripts(b, p.path, p.path == "/sign-in")
			var w, bd int64
			for _, s := range scripts {
				w, bd = w+s.wire, bd+s.body
			}
			wire[p.metric], body[p.metric] = wire[p.metric]+w, body[p.metric]+bd
			if !logged {
				slices.SortFunc(scripts, func(a, c scriptLoad) int { return int(c.wire - a.wire) })
				var lines strings.Builder
				for _, s := range scripts {
					fmt.Fprintf(&lines, "\n  %7.1f KB (%7.1f KB body)  %-6s %s", kib(s.wire), kib(s.body), s.kind, s.name)
				}
				b.Logf("%s: %.1f KB of script (%.1f KB without headers) in %d responses:%s", p.path, kib(w), kib(bd), len(scripts), lines.String())
			}
		}
		logged = true
	}
	for _, p := range pages {
		b.ReportMetric(kib(wire[p.metric])/float64(b.N), p.metric+"-KB")
		b.ReportMetric(kib(body[p.metric])/float64(b.N), p.metric+"-body-KB")
	}
}

func kib(n int64) float64 { return float64(n) / 1024 }

// scriptLoad is one script response: its file, its resource type, the bytes received for
// it and those of its (gzipped) body.
type scriptLoad struct {
	name, kind string
	wire, body int64
}

// coldScripts opens path in a new tab with the cache off and answers the scripts it loaded
// once the page has settled: the action nodes drawn on an editor, the password field on
// the sign-in page (which loads the same signed in or not), then a second without a new
// request.
func (cb *consoleBench) coldScripts(b *testing.B, pagePath string, signIn bool) []scriptLoad {
	b.Helper()
	ctx, cancel := chromedp.NewContext(cb.browser)
	defer cancel()
	var mu sync.Mutex
	kinds := map[network.RequestID]network.ResourceType{}
	urls := map[network.RequestID]string{}
	headers := map[network.RequestID]int64{}
	var loads []scriptLoad
	lastRequest := time.Now()
	chromedp.ListenTarget(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			kinds[ev.RequestID], urls[ev.RequestID] = ev.Type, ev.Request.URL
			lastRequest = time.Now()
		case *network.EventResponseReceived:
			// Received so far, when the response starts: its status line and headers.
			kinds[ev.RequestID], headers[ev.RequestID] = ev.Type, int64(ev.Response.EncodedDataLength)
		case *network.EventLoadingFinished:
			if kinds[ev.RequestID] == network.ResourceTypeScript {
				wire := int64(ev.EncodedDataLength)
				loads = append(loads, scriptLoad{name: path.Base(urls[ev.RequestID]), kind: string(kinds[ev.RequestID]),
					wire: wire, body: wire - headers[ev.RequestID]})
			}
		}
	})
	ready := `document.querySelectorAll("[data-action-key]").length >= ` + strconv.Itoa(benchActions)
	if signIn {
		ready = `!!document.querySelector("input[type=password]")`
	}
	err := chromedp.Run(ctx, network.Enable(), network.SetCacheDisabled(true), chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(benchProbe).Do(ctx)
		return err
	}), chromedp.Navigate(cb.url+pagePath))
	if err != nil {
		b.Fatalf("open %s: %v", pagePath, err)
	}
	deadline := time.Now().Add(pageWait)
	for {
		var done bool
		if err := chromedp.Run(ctx, chromedp.Evaluate(ready, &done)); err != nil {
			b.Fatalf("%s: %v", pagePath, err)
		}
		mu.Lock()
		quiet := time.Since(lastRequest) > time.Second
		mu.Unlock()
		if done && quiet {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("%s did not settle within %v", pagePath, pageWait)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var workers []string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`__bench.workers`, &workers)); err != nil {
		b.Fatalf("%s: %v", pagePath, err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, w := range workers {
		loads = append(loads, workerScript(b, w))
	}
	return slices.Clone(loads)
}

// workerScript fetches a worker's script as chromium does, gzip accepted, and measures it.
func workerScript(b *testing.B, url string) scriptLoad {
	b.Helper()
	r, err := http.NewRequest("GET", url, nil)
	if err != nil {
		b.Fatal(err)
	}
	// Set by hand, so the transport hands the body over as sent.
	r.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	head, err := httputil.DumpResponse(resp, false)
	if err != nil {
		b.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("worker script %s: %d %v", url, resp.StatusCode, err)
	}
	return scriptLoad{name: path.Base(url), kind: "Worker", wire: int64(len(head)) + n, body: n}
}

// editorOpen is what one opening of the editor measured, in milliseconds from the
// navigation's start (performance.now() of the new document).
type editorOpen struct {
	// Rendered is the end of the first probe that found every action's node in the page.
	Rendered float64 `json:"rendered"`
	// Interactive is the end of the first probe (a requestAnimationFrame then a
	// setTimeout(0)) under 50 ms that started once every node was there and every long
	// task had ended: the page answers a person's input at once from then on.
	Interactive float64 `json:"interactive"`
	// LongTasks is the main thread's time in long tasks (over 50 ms each), and how many.
	LongTasks float64 `json:"longTasks"`
	Long      int     `json:"long"`
}

// openEditor navigates the tab to the workflow's editor and waits until the page has been
// interactive for a second with every node drawn (so no long task comes after).
func (cb *consoleBench) openEditor(tb *tab, workflowID string) editorOpen {
	tb.t.Helper()
	n := strconv.Itoa(benchActions)
	tb.open("/workflows/" + workflowID)
	tb.waitJS("the editor to settle with "+n+" nodes", `(() => {
		const b = __bench, drawn = b.probes.find((p) => p[2] >= `+n+`);
		return !!drawn && performance.now() - Math.max(drawn[1], ...b.longTasks.map((t) => t[1])) > 1000;
	})()`)
	var open editorOpen
	tb.eval(`(() => {
		const b = __bench;
		b.probing = false;
		const rendered = b.probes.find((p) => p[2] >= `+n+`)[1];
		const lastLong = Math.max(0, ...b.longTasks.map((t) => t[1]));
		const free = b.probes.find((p) => p[0] >= rendered && p[0] >= lastLong && p[1] - p[0] < 50);
		return {rendered, interactive: free ? free[1] : -1, longTasks: b.longTasks.reduce((s, t) => s + t[1] - t[0], 0), long: b.longTasks.length};
	})()`, &open)
	if open.Interactive < 0 {
		tb.fail("no free probe after the last long task")
	}
	return open
}

func ms(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }

// BenchmarkEditor300 opens the editor of a 300-action workflow (a manual start, then HTTP
// requests, conditions and stops) and measures the time from the navigation's start to
// interactive: every node drawn and the main thread free (see editorOpen). placed: the
// workflow was saved with positions; laid-out: without, so elkjs lays it out first (in its
// worker). The browser's cache is on (scripts are immutable), as on a person's second
// visit.
func BenchmarkEditor300(b *testing.B) {
	cb := newConsoleBench(b)
	for _, variant := range []struct {
		name   string
		placed bool
	}{{"placed", true}, {"laid-out", false}} {
		id := cb.draftWorkflow("Big "+variant.name, bigGraph(benchActions, "https://orders.example.com", variant.placed))
		b.Run(variant.name, func(b *testing.B) {
			tb := cb.benchTab(b)
			cpu := &cpuMeter{b: b, tb: tb}
			var interactive, rendered []time.Duration
			var long float64
			for b.Loop() {
				cpu.start()
				open := cb.openEditor(tb, id)
				cpu.stop()
				interactive, rendered = append(interactive, ms(open.Interactive)), append(rendered, ms(open.Rendered))
				long += open.LongTasks
			}
			b.ReportMetric(benchtest.Millis(benchtest.Percentile(interactive, 50)), "interactive-p50-ms")
			b.ReportMetric(benchtest.Millis(benchtest.Percentile(interactive, 95)), "interactive-p95-ms")
			b.ReportMetric(benchtest.Millis(benchtest.Percentile(rendered, 50)), "rendered-p50-ms")
			b.ReportMetric(long/float64(len(interactive)), "long-task-ms/op")
			cpu.report()
		})
	}
}

// BenchmarkEditorDrag300 drags nodes of the 300-action editor with the mouse, as chromium
// receives it (Input.dispatchMouseEvent): a press on a node, 120 moves over 2 seconds, a
// release, while the page records every animation frame. one: the selected node alone;
// thirty: a selection of 30 nodes (Shift-clicked) dragged by one of them. Each drag goes
// back where the one before came from.
func BenchmarkEditorDrag300(b *testing.B) {
	cb := newConsoleBench(b)
	id := cb.draftWorkflow("Big", bigGraph(benchActions, "https://orders.example.com", true))
	for _, variant := range []struct {
		name     string
		selected int
	}{{"one", 1}, {"thirty", 30}} {
		b.Run(variant.name, func(b *testing.B) {
			tb := cb.benchTab(b)
			cb.openEditor(tb, id)
			at := tb.selectNodes(variant.selected)
			cpu := &cpuMeter{b: b, tb: tb}
			var fps []float64
			var frames []time.Duration
			dx := 240.0
			for b.Loop() {
				cpu.start()
				f := tb.dragFrames(at, dx, 2*time.Second, 120)
				cpu.stop()
				at[0] += dx
				dx = -dx
				fps = append(fps, float64(len(f)-1)/(f[len(f)-1]-f[0])*1000)
				for i := 1; i < len(f); i++ {
					frames = append(frames, ms(f[i]-f[i-1]))
				}
			}
			var sum float64
			for _, f := range fps {
				sum += f
			}
			b.ReportMetric(sum/float64(len(fps)), "frames/s")
			b.ReportMetric(benchtest.Millis(benchtest.Percentile(frames, 50)), "frame-p50-ms")
			b.ReportMetric(benchtest.Millis(benchtest.Percentile(frames, 95)), "frame-p95-ms")
			b.ReportMetric(benchtest.Millis(benchtest.Percentile(frames, 100)), "frame-max-ms")
			cpu.report()
		})
	}
}

// selectNodes clicks the node nearest the canvas's centre, then Shift-clicks the next
// nearest until n are selected, and answers the point of the first. Each is found again
// before its click: selecting one node opens its settings beside the canvas.
func (tb *tab) selectNodes(n int) [2]float64 {
	tb.t.Helper()
	var keys []string
	tb.eval(`(() => {
		const pane = document.querySelector(".react-flow").getBoundingClientRect();
		const cx = pane.left + pane.width / 2, cy = pane.top + pane.height / 2;
		return [...document.querySelectorAll(".react-flow__node [data-action-key]")].map((el) => {
			const r = el.getBoundingClientRect();
			return [el.dataset.actionKey, Math.hypot(r.left + r.width / 2 - cx, r.top + r.height / 2 - cy)];
		}).sort((a, c) => a[1] - c[1]).map(([key]) => key);
	})()`, &keys)
	if len(keys) < n {
		tb.fail("%d nodes, want %d", len(keys), n)
	}
	shift := func(t input.KeyType) chromedp.Action {
		return input.DispatchKeyEvent(t).WithKey("Shift").WithCode("ShiftLeft").WithWindowsVirtualKeyCode(16).WithModifiers(input.ModifierShift)
	}
	var first [2]float64
	for i, key := range keys[:n] {
		tb.waitFor("the node "+key+" to click", pageWait, func(ctx context.Context) (bool, error) {
			var at [2]float64
			ok, err := tb.onSelected(ctx, node(key), pointAtInPlace, &at)
			if !ok || err != nil {
				return false, err
			}
			if i == 0 {
				first = at
				return true, chromedp.Run(ctx, chromedp.MouseClickXY(at[0], at[1]))
			}
			return true, chromedp.Run(ctx, shift(input.KeyDown), chromedp.MouseClickXY(at[0], at[1], chromedp.ButtonModifiers(input.ModifierShift)), shift(input.KeyUp))
		})
	}
	selected := `document.querySelectorAll(".react-flow__node.selected").length`
	tb.waitFor(fmt.Sprintf("%d nodes selected", n), pageWait, func(ctx context.Context) (bool, error) {
		var got int
		err := chromedp.Run(ctx, chromedp.Evaluate(selected, &got))
		if err == nil && got != n {
			err = fmt.Errorf("%d selected", got)
		}
		return err == nil, err
	})
	if n > 1 {
		// With several selected the settings close again, and the canvas widens.
		tb.waitFor("the first node to drag", pageWait, func(ctx context.Context) (bool, error) {
			return tb.onSelected(ctx, node(keys[0]), pointAtInPlace, &first)
		})
	}
	return first
}

// dragFrames presses the mouse at from, moves it dx to the right in moves steps evenly
// over d, releases it, and answers the animation frames' timestamps (ms) in between.
func (tb *tab) dragFrames(from [2]float64, dx float64, d time.Duration, moves int) []float64 {
	tb.t.Helper()
	tb.eval(`__bench.record()`)
	ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
	defer cancel()
	mouse := func(t input.MouseType, x float64, buttons int64) error {
		return chromedp.Run(ctx, input.DispatchMouseEvent(t, x, from[1]).WithButton(input.Left).WithButtons(buttons).WithClickCount(1))
	}
	if err := mouse(input.MousePressed, from[0], 1); err != nil {
		tb.fail("press: %v", err)
	}
	start := time.Now()
	for i := 1; i <= moves; i++ {
		time.Sleep(time.Until(start.Add(d * time.Duration(i) / time.Duration(moves))))
		if err := mouse(input.MouseMoved, from[0]+dx*float64(i)/float64(moves), 1); err != nil {
			tb.fail("move: %v", err)
		}
	}
	if err := mouse(input.MouseReleased, from[0]+dx, 0); err != nil {
		tb.fail("release: %v", err)
	}
	var frames []float64
	tb.eval(`__bench.stop()`, &frames)
	if len(frames) < 2 {
		tb.fail("%d frames in a drag", len(frames))
	}
	return frames
}

// gateTarget is the HTTP endpoint the inspector's workflow calls: it answers after pace,
// and while held, requests wait for the release.
type gateTarget struct {
	*httptest.Server
	mu   sync.Mutex
	held chan struct{}
	pace time.Duration
}

func newGateTarget(b *testing.B) *gateTarget {
	g := &gateTarget{}
	g.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		held, pace := g.held, g.pace
		g.mu.Unlock()
		if held != nil {
			select {
			case <-held:
			case <-r.Context().Done():
				return
			}
		}
		time.Sleep(pace)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	b.Cleanup(g.Close)
	return g
}

func (g *gateTarget) hold(pace time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.held, g.pace = make(chan struct{}), pace
}

func (g *gateTarget) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	close(g.held)
	g.held = nil
}

// streamed is what the inspector's page recorded of one run: the event-stream messages as
// [sequence, type, action key, status, created_at, Date.now(), performance.now()] on
// arrival, and the nodes' data-status changes as [action key, status, Date.now(),
// performance.now()].
type streamed struct {
	Messages  [][7]any `json:"messages"`
	Mutations [][4]any `json:"mutations"`
}

// BenchmarkInspector300Events50PerSecond runs a 300-action workflow (HTTP requests to a
// loopback endpoint, conditions, stops; the engine's local activities write each action's
// progress as it starts, so the events of a block come together as its request starts)
// while its run inspector is open. paced: the endpoint answers each request after 60 ms,
// so the run's ~400 events come at about 55 a second; unpaced: at once, as fast as the
// engine goes (several hundred a second). The endpoint holds the first request until the page is drawn and its
// event stream open; from the release on, the page records each event's arrival, each
// node's status change (a MutationObserver) and every animation frame. Lag is from the
// event's created_at (the engine's time) to the status on the node, or to the message's
// arrival for the stream's own share. An event whose status a later one replaced before
// the next frame never shows on its node: those are counted as coalesced.
func BenchmarkInspector300Events50PerSecond(b *testing.B) {
	cb := newConsoleBench(b)
	target := newGateTarget(b)
	workflowID := cb.publishGraph(cb.ada, cb.projectID, "Live", bigGraph(benchActions, target.URL, true))
	for _, variant := range []struct {
		name string
		pace time.Duration
	}{{"paced", 60 * time.Millisecond}, {"unpaced", 0}} {
		b.Run(variant.name, func(b *testing.B) { cb.inspect(b, target, workflowID, variant.pace) })
	}
}

// inspect opens a run of the workflow in the inspector per iteration and measures it.
func (cb *consoleBench) inspect(b *testing.B, target *gateTarget, workflowID string, pace time.Duration) {
	tb := cb.benchTab(b)
	cpu := &cpuMeter{b: b, tb: tb}
	n := strconv.Itoa(benchActions)
	var rates, serverRates, fps []float64
	var domLag, streamLag, frames []time.Duration
	var coalesced, events int
	for b.Loop() {
		target.hold(pace)
		runID := cb.do(req{method: "POST", path: "/api/v1/workflows/" + workflowID + "/runs/manual", token: cb.ada.token,
			body: map[string]any{"input": map[string]any{}}}).expect(b, http.StatusAccepted).str("workflow_run_id")
		tb.open("/runs/" + runID)
		tb.waitJS("the inspector drawn and following", `document.querySelectorAll("[data-action-key]").length >= `+n+` && __bench.streamOpen > 0`)
		time.Sleep(500 * time.Millisecond)
		tb.eval(`__bench.probing = false; __bench.record()`)
		cpu.start()
		released := time.Now()
		target.release()
		tb.waitFor("the run to end", 3*time.Minute, func(ctx context.Context) (bool, error) {
			var ended bool
			err := chromedp.Run(ctx, chromedp.Evaluate(`__bench.messages.some((m) => m[1] === "run.succeeded" || m[1] === "run.failed")`, &ended))
			return ended, err
		})
		time.Sleep(time.Second)
		var f []float64
		tb.eval(`__bench.stop()`, &f)
		cpu.stop()
		var got streamed
		tb.eval(`({messages: __bench.messages, mutations: __bench.mutations})`, &got)
		r := got.measure(b, released)
		rates, serverRates = append(rates, r.rate), append(serverRates, r.serverRate)
		domLag, streamLag = append(domLag, r.domLag...), append(streamLag, r.streamLag...)
		coalesced, events = coalesced+r.coalesced, events+r.events
		fps = append(fps, float64(len(f)-1)/(f[len(f)-1]-f[0])*1000)
		for i := 1; i < len(f); i++ {
			frames = append(frames, ms(f[i]-f[i-1]))
		}
	}
	mean := func(xs []float64) float64 {
		var s float64
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	b.ReportMetric(mean(rates), "events/s")
	b.ReportMetric(mean(serverRates), "engine-events/s")
	b.ReportMetric(float64(events)/float64(len(rates)), "events/op")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(domLag, 50)), "lag-p50-ms")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(domLag, 99)), "lag-p99-ms")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(streamLag, 50)), "stream-lag-p50-ms")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(streamLag, 99)), "stream-lag-p99-ms")
	b.ReportMetric(float64(coalesced)/float64(len(rates)), "coalesced/op")
	b.ReportMetric(mean(fps), "frames/s")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(frames, 95)), "frame-p95-ms")
	cpu.report()
}

// streamFigures is one run's stream as the page saw it.
type streamFigures struct {
	events, coalesced int
	rate, serverRate  float64
	domLag, streamLag []time.Duration
}

// measure reads the events created from released on: their pace as the engine created
// them and as the page received them, and each one's lag to its arrival and to its
// status on its node.
func (s streamed) measure(b *testing.B, released time.Time) streamFigures {
	b.Helper()
	type shown struct {
		key, status string
		at          time.Time
	}
	var changes []shown
	for _, m := range s.Mutations {
		changes = append(changes, shown{m[0].(string), m[1].(string), time.UnixMilli(int64(m[2].(float64)))})
	}
	var f streamFigures
	var firstCreated, lastCreated, firstArrived, lastArrived time.Time
	for _, m := range s.Messages {
		created, err := time.Parse(time.RFC3339Nano, m[4].(string))
		if err != nil {
			b.Fatalf("created_at %v: %v", m[4], err)
		}
		if created.Before(released) {
			continue // the page read it while the run was held
		}
		arrived := time.UnixMilli(int64(m[5].(float64)))
		if f.events == 0 {
			firstCreated, firstArrived = created, arrived
		}
		lastCreated, lastArrived = created, arrived
		f.events++
		f.streamLag = append(f.streamLag, arrived.Sub(created))
		key, status := m[2].(string), m[3].(string)
		if key == "" {
			continue // the run's own events: no node shows them
		}
		i := slices.IndexFunc(changes, func(c shown) bool { return c.key == key && c.status == status && !c.at.Before(arrived) })
		if i < 0 {
			f.coalesced++
			continue
		}
		f.domLag = append(f.domLag, changes[i].at.Sub(created))
	}
	if f.events < 2 {
		b.Fatalf("%d events after the release", f.events)
	}
	f.rate = float64(f.events-1) / lastArrived.Sub(firstArrived).Seconds()
	f.serverRate = float64(f.events-1) / lastCreated.Sub(firstCreated).Seconds()
	return f
}
