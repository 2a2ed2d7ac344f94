package engine

import (
	"testing"

	"agencyhub/activities"
	"agencyhub/models/automation"
)

// regionSwitch routes an order by its region to one of three e-mails.
func regionSwitch(withDefault bool) automation.Graph {
	return graph([]automation.Action{
		manualTrigger("start"),
		switchOn("region", withDefault,
			automation.SwitchCase{Name: "north", Text: `start.region == "north"`},
			automation.SwitchCase{Name: "south", Text: `start.region in ["south", "far_south"]`}),
		emailSend("to_north", nil),
		emailSend("to_south", nil),
		emailSend("elsewhere", nil),
	}, edge("start", "region"), branch("region", "to_north", "north"), branch("region", "to_south", "south"),
		branch("region", "elsewhere", automation.BranchDefault))
}

func TestASwitchTakesTheBranchOfItsFirstTrueCaseOrItsDefault(t *testing.T) {
	for _, tc := range []struct{ region, takes string }{
		{"north", "north"}, {"far_south", "south"}, {"west", automation.BranchDefault},
	} {
		t.Run(tc.region, func(t *testing.T) {
			h := newEngineTest(t)
			p := h.execute(h.newRun(regionSwitch(true), "start", map[string]any{"region": tc.region}))
			h.succeeded()
			wantRun(t, p, automation.RunSucceeded)
			if got := p.action(t, "region").Output["case"]; got != tc.takes {
				t.Errorf("the switch took %v, want %s", got, tc.takes)
			}
			ran := map[string]string{"north": "to_north", "south": "to_south", automation.BranchDefault: "elsewhere"}[tc.takes]
			for _, key := range []string{"to_north", "to_south", "elsewhere"} {
				want := automation.ActionSkipped
				if key == ran {
					want = automation.ActionSucceeded
				}
				if got := p.status(key); got != want {
					t.Errorf("%s is %s, want %s", key, got, want)
				}
			}
		})
	}
}

func TestASwitchWithoutADefaultFailsWhenNoCaseIsTrue(t *testing.T) {
	h := newEngineTest(t)
	p := h.execute(h.newRun(regionSwitch(false), "start", map[string]any{"region": "west"}))
	h.succeeded()
	wantRun(t, p, automation.RunFailed)
	region := p.action(t, "region")
	if region.Status != automation.ActionFailed || region.Diagnostics["reason_code"] != automation.ReasonNoCaseMatched ||
		region.Error != "No case of the switch was true, and it has no default branch." {
		t.Errorf("the switch ended %s with %q (%v)", region.Status, region.Error, region.Diagnostics)
	}
}

func TestADataStepKeepsEachValuesTypeForTheActionsAfterIt(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		dataSet("shape", map[string]any{
			"total": "start.amount * 2",
			"ids":   "map(start.orders, .id)",
			"title": `"Order " + start.orders[0].id`,
			"first": "start.orders[0]",
		}),
		emailSend("mail", map[string]any{"subject": "{{ steps.shape.title }}", "total": "{{ steps.shape.total }}", "ids": "{{ steps.shape.ids }}"}),
	}, edge("start", "shape"), edge("shape", "mail"))
	payload := map[string]any{"amount": 21.5, "orders": []any{map[string]any{"id": "A-1"}, map[string]any{"id": "A-2"}}}
	p := h.execute(h.newRun(g, "start", payload))
	h.succeeded()
	wantRun(t, p, automation.RunSucceeded)
	out := p.action(t, "shape").Output
	if out["total"] != 43.0 || out["title"] != "Order A-1" {
		t.Errorf("data step output %v", out)
	}
	if ids, _ := out["ids"].([]any); len(ids) != 2 || ids[1] != "A-2" {
		t.Errorf("ids = %#v, want the list of order ids", out["ids"])
	}
	if first, _ := out["first"].(map[string]any); first["id"] != "A-1" {
		t.Errorf("first = %#v, want the first order as a map", out["first"])
	}
	config := h.onlyRequest("mail").Config
	if config["subject"] != "Order A-1" || config["total"] != 43.0 {
		t.Errorf("the e-mail got %v", config)
	}
	if ids, _ := config["ids"].([]any); len(ids) != 2 {
		t.Errorf("a whole-template field took %#v, want the list itself", config["ids"])
	}
}

func TestADataStepOverAMissingValueNamesIt(t *testing.T) {
	h := newEngineTest(t)
	g := graph([]automation.Action{
		manualTrigger("start"),
		dataSet("shape", map[string]any{"total": "start.amount * 2"}),
	}, edge("start", "shape"))
	p := h.execute(h.newRun(g, "start", map[string]any{}))
	h.succeeded()
	wantRun(t, p, automation.RunFailed)
	if got := p.action(t, "shape").Error; got != `total: "start.amount" is missing from the run's data.` {
		t.Errorf("the data step failed with %q", got)
	}
}

// crmGraph calls a CRM and tells the manager when the call fails.
func crmGraph() automation.Graph {
	return graph([]automation.Action{
		manualTrigger("start"),
		httpRequest("crm", nil),
		emailSend("thank", nil),
		messengerSend("tell_manager", map[string]any{"text": "CRM: {{ steps.crm.error.message }} ({{ steps.crm.error.status_code }})"}),
	}, edge("start", "crm"), edge("crm", "thank"), branch("crm", "tell_manager", automation.BranchError))
}

func TestAFailedActionWithAnErrorPathGoesOnAlongIt(t *testing.T) {
	h := newEngineTest(t)
	refused := activities.Fail(activities.ClassPermanent, "http_422", "the CRM refused the contact", "Correct the request")
	refused.ProviderResponse = map[string]any{"status_code": 422}
	h.fakes.on("crm", failing(refused, 0, nil))
	p := h.execute(h.newRun(crmGraph(), "start", nil))
	h.succeeded()

	wantRun(t, p, automation.RunSucceeded)
	wantStatuses(t, p, map[string]automation.ActionStatus{
		"crm": automation.ActionFailed, "thank": automation.ActionSkipped, "tell_manager": automation.ActionSucceeded,
	})
	if got := h.onlyRequest("tell_manager").Config["text"]; got != "CRM: the CRM refused the contact (422)" {
		t.Errorf("the manager was told %q", got)
	}
	if e := p.event(t, "action.failed", "crm"); e.Data["handled"] != true {
		t.Errorf("the failure's event does not say the error path handled it: %v", e.Data)
	}
}

func TestASucceededActionDoesNotTakeItsErrorPath(t *testing.T) {
	h := newEngineTest(t)
	p := h.execute(h.newRun(crmGraph(), "start", nil))
	h.succeeded()
	wantRun(t, p, automation.RunSucceeded)
	wantStatuses(t, p, map[string]automation.ActionStatus{
		"crm": automation.ActionSucceeded, "thank": automation.ActionSucceeded, "tell_manager": automation.ActionSkipped,
	})
}

func TestAFailedActionWithoutAnErrorPathStillFailsTheRun(t *testing.T) {
	h := newEngineTest(t)
	g := crmGraph()
	g.Connections = g.Connections[:2]
	h.fakes.on("crm", failing(activities.Fail(activities.ClassPermanent, "http_422", "refused", "Correct it"), 0, nil))
	p := h.execute(h.newRun(g, "start", nil))
	h.succeeded()
	wantRun(t, p, automation.RunFailed)
	if p.status("tell_manager") != automation.ActionSkipped {
		t.Errorf("tell_manager is %s without an error path to it", p.status("tell_manager"))
	}
}
