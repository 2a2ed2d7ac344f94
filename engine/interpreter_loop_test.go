package engine

import (
	"fmt"
	"testing"

	"agencyhub/activities"
	"agencyhub/models/automation"
)

// orderLines: for each line of the order, create it (an HTTP call), then e-mail once done.
func orderLines(config map[string]any) automation.Graph {
	return graph([]automation.Action{
		manualTrigger("start"),
		forEach("lines", "start.lines", config),
		httpRequest("create", map[string]any{"sku": "{{ item.sku }}", "position": "{{ loop.index }}", "order": "{{ start.order_id }}"}),
		emailSend("mail", map[string]any{"subject": "{{ steps.lines.succeeded }} of {{ steps.lines.count }}"}),
	}, edge("start", "lines"), branch("lines", "create", automation.BranchEach), branch("lines", "mail", automation.BranchDone))
}

func linesPayload(n int) map[string]any {
	lines := make([]any, n)
	for i := range lines {
		lines[i] = map[string]any{"sku": fmt.Sprintf("SKU-%d", i)}
	}
	return map[string]any{"order_id": "A-1001", "lines": lines}
}

func newLoopTest(t *testing.T) *engineTest {
	h := newEngineTest(t)
	h.project = true
	return h
}

func TestALoopRunsItsBodyOncePerItemThenGoesOnAlongDone(t *testing.T) {
	h := newLoopTest(t)
	p := h.execute(h.newRun(orderLines(map[string]any{"concurrency": 2}), "start", linesPayload(3)))
	h.succeeded()
	wantRun(t, p, automation.RunSucceeded)
	for i := range 3 {
		key := fmt.Sprintf("lines[%d].create", i)
		config := h.onlyRequest(key).Config
		if config["sku"] != fmt.Sprintf("SKU-%d", i) || config["position"] != float64(i) || config["order"] != "A-1001" {
			t.Errorf("%s got %v", key, config)
		}
		if got := p.status(key); got != automation.ActionSucceeded {
			t.Errorf("%s is %s", key, got)
		}
		if got := p.Items[fmt.Sprintf("lines[%d]", i)]; got != automation.ItemSucceeded {
			t.Errorf("item %d is %q", i, got)
		}
	}
	out := p.action(t, "lines").Output
	if out["count"] != 3.0 || out["succeeded"] != 3.0 || out["failed"] != 0.0 {
		t.Errorf("loop output %v", out)
	}
	results, _ := out["results"].([]any)
	second, _ := results[1].(map[string]any)
	steps, _ := second["steps"].(map[string]any)
	if second["index"] != 1.0 || second["status"] != automation.ItemSucceeded || steps["create"] == nil {
		t.Errorf("results[1] = %v", second)
	}
	if got := h.onlyRequest("mail").Config["subject"]; got != "3 of 3" {
		t.Errorf("the e-mail after the loop says %q", got)
	}
	if i := p.indexOf("action.succeeded", "lines"); i < 0 || i > p.indexOf("action.started", "mail") {
		t.Errorf("the loop did not finish before the e-mail: %v", p.eventsOf())
	}
}

func TestALoopThatFailsOnAFailedItemStartsNoFurtherItems(t *testing.T) {
	h := newLoopTest(t)
	h.fakes.on("lines[1].create", failing(activities.Fail(activities.ClassPermanent, "crm_refused", "the CRM refused the line", "Check the line"), 0, nil))
	p := h.execute(h.newRun(orderLines(nil), "start", linesPayload(4)))
	h.succeeded()
	wantRun(t, p, automation.RunFailed)
	loop := p.action(t, "lines")
	if loop.Status != automation.ActionFailed || loop.Diagnostics["reason_code"] != automation.ReasonItemFailed ||
		loop.Error != "Item 1 failed at create: the CRM refused the line" {
		t.Errorf("the loop ended %s with %q (%v)", loop.Status, loop.Error, loop.Diagnostics)
	}
	if got := len(h.fakes.requests("lines[2].create")) + len(h.fakes.requests("lines[3].create")); got != 0 {
		t.Errorf("%d items ran after the failed one", got)
	}
	if p.Items["lines[1]"] != automation.ItemFailed || p.status("mail") != automation.ActionSkipped {
		t.Errorf("item 1 is %q, the e-mail %s", p.Items["lines[1]"], p.status("mail"))
	}
}

func TestALoopThatContinuesCountsItsFailedItemsAndTheirErrors(t *testing.T) {
	h := newLoopTest(t)
	h.fakes.on("lines[1].create", failing(activities.Fail(activities.ClassPermanent, "crm_refused", "the CRM refused the line", "Check the line"), 0, nil))
	p := h.execute(h.newRun(orderLines(map[string]any{"on_item_error": "continue"}), "start", linesPayload(3)))
	h.succeeded()
	wantRun(t, p, automation.RunSucceeded)
	out := p.action(t, "lines").Output
	failed, _ := out["failed_items"].([]any)
	if out["succeeded"] != 2.0 || out["failed"] != 1.0 || len(failed) != 1 {
		t.Fatalf("loop output %v", out)
	}
	first, _ := failed[0].(map[string]any)
	e, _ := first["error"].(map[string]any)
	if first["index"] != 1.0 || e["action_key"] != "create" || e["message"] != "the CRM refused the line" || e["retry_class"] != activities.ClassPermanent {
		t.Errorf("failed_items[0] = %v", first)
	}
	if got := h.onlyRequest("mail").Config["subject"]; got != "2 of 3" {
		t.Errorf("the e-mail after the loop says %q", got)
	}
}

func TestALoopFailsOnAListThatIsNone(t *testing.T) {
	h := newLoopTest(t)
	p := h.execute(h.newRun(orderLines(nil), "start", map[string]any{"lines": "SKU-1"}))
	h.succeeded()
	wantRun(t, p, automation.RunFailed)
	loop := p.action(t, "lines")
	if loop.Diagnostics["reason_code"] != automation.ReasonNotAList || loop.Error != "The loop's items are not a list but text." {
		t.Errorf("the loop ended %s with %q (%v)", loop.Status, loop.Error, loop.Diagnostics)
	}
}

func TestAnInnerLoopReachesTheOuterItem(t *testing.T) {
	h := newLoopTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		forEach("orders", "start.orders", nil),
		forEach("lines", "item.lines", nil),
		httpRequest("create", map[string]any{"order": "{{ loop.parent.item.id }}", "sku": "{{ item }}", "at": "{{ loop.parent.index }}.{{ loop.index }}"}),
	}, edge("start", "orders"), branch("orders", "lines", automation.BranchEach), branch("lines", "create", automation.BranchEach))
	payload := map[string]any{"orders": []any{
		map[string]any{"id": "A-1", "lines": []any{"x"}},
		map[string]any{"id": "A-2", "lines": []any{"y", "z"}},
	}}
	p := h.execute(h.newRun(g, "start", payload))
	h.succeeded()
	wantRun(t, p, automation.RunSucceeded)
	config := h.onlyRequest("orders[1].lines[1].create").Config
	if config["order"] != "A-2" || config["sku"] != "z" || config["at"] != "1.1" {
		t.Errorf("the inner body got %v", config)
	}
	if got := p.status("orders[1].lines"); got != automation.ActionSucceeded {
		t.Errorf("the inner loop of order 1 is %s", got)
	}
}

// A list longer than a chunk continues as new: every item still runs once, in order.
func TestALongLoopRunsEveryItemOnceAcrossChunks(t *testing.T) {
	h := newLoopTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		forEach("lines", "start.lines", map[string]any{"concurrency": 10}),
		dataSet("shape", map[string]any{"label": `item.sku + "/" + string(loop.index)`}),
	}, edge("start", "lines"), branch("lines", "shape", automation.BranchEach))
	n := 2*loopChunk + 5
	p := h.execute(h.newRun(g, "start", linesPayload(n)))
	h.succeeded()
	wantRun(t, p, automation.RunSucceeded)
	out := p.action(t, "lines").Output
	results, _ := out["results"].([]any)
	if out["count"] != float64(n) || out["succeeded"] != float64(n) || len(results) != n {
		t.Fatalf("loop of %d: count %v, succeeded %v, %d results", n, out["count"], out["succeeded"], len(results))
	}
	last, _ := results[n-1].(map[string]any)
	steps, _ := last["steps"].(map[string]any)
	shape, _ := steps["shape"].(map[string]any)
	if want := fmt.Sprintf("SKU-%d/%d", n-1, n-1); last["index"] != float64(n-1) || shape["label"] != want {
		t.Errorf("the last result is %v, want label %s", last, want)
	}
}
