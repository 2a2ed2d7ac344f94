package api_test

// Co-browsing measured as people meet it: the real server on a loopback port, the widget
// recording a page in one chromium tab, the console drawing it in another
// (docs/performance.md, "Co-browse"). Run with
// go test -run '^$' -bench BenchmarkCobrowse -benchtime 1x ./api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"agencyhub/platform/benchtest"
)

// typicalPage is a shop's listing: a header, a search field, 40 products with a picture
// (an inline SVG), a name, a price and a button, a footer, and a stylesheet; a format
// whose %s is the widget's tag.
func typicalPage() string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><title>Shoes</title><style>
body { font: 15px/1.4 sans-serif; margin: 0; } header, footer { background: #123; color: #fff; padding: 12px 24px; }
.grid { display: grid; grid-template-columns: repeat(4, 1fr); gap: 16px; padding: 24px; }
.card { border: 1px solid #ddd; border-radius: 8px; padding: 12px; } .card button { width: 100%%; }
</style></head><body><header><h1>Shoes</h1><nav><a href="/">Home</a> <a href="/men">Men</a> <a href="/women">Women</a></nav>
<label>Search <input id="q" name="q"></label> <span id="ticker">Sale ends soon</span></header><main class="grid">`)
	for i := range 40 {
		fmt.Fprintf(&b, `<article class="card p%d"><svg width="120" height="80"><rect width="120" height="80" fill="#%02x%02x99"/></svg>
<h2>Shoe %d</h2><p>Leather, sizes 36 to 46. In stock.</p><p class="price">%d.00 EUR</p><button type="button">Add to cart</button></article>`,
			i, (i*37)%256, (i*91)%256, i, 40+i*3)
	}
	b.WriteString(`</main><footer>Shoes Ltd, 1 Main Street</footer>%s</body></html>`)
	return b.String()
}

// BenchmarkCobrowse: how long a change of the visitor's page takes to show in the
// operator's view, what a minute of an active visitor sends, and the CPU each side spends.
func BenchmarkCobrowse(b *testing.B) {
	d := newCobrowseDesk(b, typicalPage())
	visitor, visitID, op := d.visitor, d.visitSessionID, d.operator
	for _, tb := range []*tab{visitor, op} {
		if err := chromedp.Run(tb.ctx, performance.Enable()); err != nil {
			b.Fatal(err)
		}
	}
	var mu sync.Mutex
	var sent int64
	var frames int
	chromedp.ListenTarget(visitor.ctx, func(ev any) {
		if f, ok := ev.(*network.EventWebSocketFrameSent); ok {
			mu.Lock()
			sent += int64(len(f.Response.PayloadData))
			frames++
			mu.Unlock()
		}
	})

	// Once, whatever b.N: from Allow to the page in the view (the recorder's download, its
	// first snapshot, the view's drawing), and what that first page weighs.
	b.Run("first-page", func(b *testing.B) {
		op.click("Ask to see the page")
		visitor.waitJS("the widget to ask", `!!`+shadow+`.querySelector(".q button")`)
		mu.Lock()
		sent0 := sent
		mu.Unlock()
		start := time.Now()
		quietly(b, visitor, shadow+`.querySelector(".q button").click()`)
		op.waitJS("the page in the view", inView(`doc.body.innerText.includes("Shoe 39")`))
		b.ReportMetric(benchtest.Millis(time.Since(start)), "allow-to-view-ms")
		mu.Lock()
		b.ReportMetric(float64(sent-sent0)/1024, "sent-KB")
		mu.Unlock()
	})

	b.Run("latency", func(b *testing.B) {
		// The view's document records when each text first shows.
		op.eval(inView(`(() => { window.__seen = {}; const note = () => { const t = doc.getElementById("ticker")?.textContent;
			if (t && !(t in window.__seen)) window.__seen[t] = Date.now(); };
			new MutationObserver(note).observe(doc, {subtree: true, childList: true, characterData: true}); return true; })()`))
		const changes = 60
		var lags []time.Duration
		var visitorCPU, viewCPU, goCPU time.Duration
		for range b.N {
			v0, o0, g0 := pageTaskTime(visitor), pageTaskTime(op), benchtest.ProcessCPU(b)
			for i := range changes {
				text := fmt.Sprintf("Change %d-%d", len(lags), i)
				var at float64
				quietly(b, visitor, `(() => { document.getElementById("ticker").textContent = `+jsString(text)+`; return Date.now(); })()`, &at)
				var seen float64
				deadline := time.Now().Add(10 * time.Second)
				for seen == 0 {
					if time.Now().After(deadline) {
						b.Fatalf("%q never showed in the view", text)
					}
					time.Sleep(5 * time.Millisecond)
					quietly(b, op, `window.__seen[`+jsString(text)+`] || 0`, &seen)
				}
				lags = append(lags, time.Duration((seen-at)*float64(time.Millisecond)))
				time.Sleep(200 * time.Millisecond)
			}
			visitorCPU += pageTaskTime(visitor) - v0
			viewCPU += pageTaskTime(op) - o0
			goCPU += benchtest.ProcessCPU(b) - g0
		}
		n := time.Duration(b.N * changes)
		b.ReportMetric(benchtest.Millis(benchtest.Percentile(lags, 50)), "lag-p50-ms")
		b.ReportMetric(benchtest.Millis(benchtest.Percentile(lags, 99)), "lag-p99-ms")
		b.ReportMetric(benchtest.Millis(visitorCPU/n), "visitor-main-thread-ms/change")
		b.ReportMetric(benchtest.Millis(viewCPU/n), "console-main-thread-ms/change")
		b.ReportMetric(benchtest.Millis(goCPU/n), "go-cpu-ms/change")
	})

	b.Run("active-minute", func(b *testing.B) {
		// A visitor busy on the page: the pointer moving, typing five characters a second,
		// a scroll every two seconds, a change of the page every second, a click every five.
		const seconds = 30
		visitor.bringToFront()
		for range b.N {
			mu.Lock()
			sent0, frames0 := sent, frames
			mu.Unlock()
			stored0 := storedBytes(b, d, visitID)
			v0, g0 := pageTaskTime(visitor), benchtest.ProcessCPU(b)
			activity := fmt.Sprintf(`(async (ms) => { const end = Date.now() + ms; const q = document.getElementById("q"); let i = 0;
				while (Date.now() < end) { i++;
					document.dispatchEvent(new MouseEvent("mousemove", {clientX: 50 + (i * 37) %% 900, clientY: 50 + (i * 17) %% 600, bubbles: true}));
					if (i %% 2 === 0) { q.value += "a"; q.dispatchEvent(new Event("input", {bubbles: true})); }
					if (i %% 10 === 0) document.getElementById("ticker").textContent = "Sale ends in " + i + " s";
					if (i %% 20 === 0) window.scrollBy(0, 120);
					if (i %% 50 === 0) document.querySelector(".p" + (i / 50 %% 40) + " button").click();
					await new Promise((r) => setTimeout(r, 100)); } })(%d)`, seconds*1000)
			ctx, cancel := context.WithTimeout(visitor.ctx, (seconds+30)*time.Second)
			err := chromedp.Run(ctx, chromedp.Evaluate(activity, nil, awaitPromise))
			cancel()
			if err != nil {
				b.Fatalf("the visitor's activity: %v", err)
			}
			time.Sleep(time.Second) // the last frames' way to the server
			mu.Lock()
			wire, count := sent-sent0, frames-frames0
			mu.Unlock()
			perMinute := float64(60) / seconds
			b.ReportMetric(float64(wire)*perMinute/1024, "sent-KB/min")
			b.ReportMetric(float64(count)*perMinute, "envelopes/min")
			b.ReportMetric(float64(storedBytes(b, d, visitID)-stored0)*perMinute/1024, "stored-KB/min")
			b.ReportMetric(benchtest.Millis(pageTaskTime(visitor)-v0)/seconds, "visitor-main-thread-ms/s")
			b.ReportMetric(benchtest.Millis(benchtest.ProcessCPU(b)-g0)/seconds, "go-cpu-ms/s")
		}
	})
}

// storedBytes is the size of every stored frame's payload of the visit so far.
func storedBytes(b *testing.B, d *siteChatDesk, visitID string) int64 {
	b.Helper()
	var total int64
	after := "0"
	for after != "" {
		res := d.do(req{method: "GET", path: "/api/v1/site-visit-sessions/" + visitID + "/events?limit=200&after_sequence=" + after,
			token: d.owner.token}).expect(b, http.StatusOK)
		for _, item := range res.items() {
			raw, _ := json.Marshal(item["payload_json"])
			total += int64(len(raw))
		}
		after, _ = res.json["next_cursor"].(string)
	}
	return total
}
