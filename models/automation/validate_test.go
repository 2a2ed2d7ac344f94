package automation

import (
	"slices"
	"testing"

	"agencyhub/schemas"
)

func catalog(t *testing.T) *schemas.Catalog {
	t.Helper()
	c, err := schemas.LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func act(key, typ string, config map[string]any) Action {
	if config == nil {
		config = map[string]any{}
	}
	return Action{ActionKey: key, ActionTypeKey: typ, Config: config}
}

func edge(from, to, branch string) Connection { return Connection{From: from, To: to, Branch: branch} }

// regionSwitch is a condition.switch named region with a case per name.
func regionSwitch(withDefault bool, names ...string) Action {
	cases := make([]any, len(names))
	for i, n := range names {
		cases[i] = map[string]any{"name": n, "text": "start.region == \"" + n + "\""}
	}
	return act("region", TypeSwitch, map[string]any{"cases": cases, "default": withDefault})
}

// codes lists the diagnostics as code@action_key:field.
func codes(ds []Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code+"@"+d.ActionKey+":"+d.Field)
	}
	return out
}

func TestValidate(t *testing.T) {
	c := catalog(t)
	fetch := act("fetch", "http.request", map[string]any{"url": "https://example.com/{{ start.id }}"})
	valid := Graph{
		Actions: []Action{
			act("start", TypeManual, nil), fetch,
			act("check", TypeCondition, map[string]any{"text": "steps.fetch.status_code == 200"}),
			act("ok", TypeStop, nil), act("wait", TypeDelay, map[string]any{"seconds": 5}),
		},
		Connections: []Connection{edge("start", "fetch", ""), edge("fetch", "check", ""), edge("check", "ok", "true"), edge("check", "wait", "false")},
	}
	t.Run("a sound graph has no diagnostics", func(t *testing.T) {
		if ds := Validate(valid, c); len(ds) != 0 {
			t.Fatalf("diagnostics: %v", codes(ds))
		}
	})
	cases := []struct {
		name string
		g    Graph
		want []string
	}{
		{"an unknown action type is named",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("x", "teleport", nil)}, Connections: []Connection{edge("start", "x", "")}},
			[]string{"unknown_action_type@x:action_type_key"}},
		{"an agent's output schema must compile, without loading anything",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("x", TypeAgent, map[string]any{"action_dependency_id": "0190a5c4-7d4e-7b1a-9c3e-5f6a7b8c9d0e",
				"input": "x", "output_schema": map[string]any{"$ref": "https://example.com/s.json"}})}, Connections: []Connection{edge("start", "x", "")}},
			[]string{"invalid_output_schema@x:config.output_schema"}},
		{"a config that does not match its schema names the field",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("wait", TypeDelay, map[string]any{"seconds": "soon"})}, Connections: []Connection{edge("start", "wait", "")}},
			[]string{"invalid_config@wait:config.seconds"}},
		{"a graph without a trigger says so",
			Graph{Actions: []Action{act("ok", TypeStop, nil)}},
			[]string{"no_trigger@:actions", "unreachable_action@ok:"}},
		{"a dangling connection is named by its index",
			Graph{Actions: []Action{act("start", TypeManual, nil)}, Connections: []Connection{edge("start", "ghost", "")}},
			[]string{"dangling_connection@start:connections.0"}},
		{"a duplicate connection is named",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("ok", TypeStop, nil)}, Connections: []Connection{edge("start", "ok", ""), edge("start", "ok", "")}},
			[]string{"duplicate_connection@start:connections.1"}},
		{"a branch label off a condition is refused, and a condition edge needs one",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("check", TypeCondition, map[string]any{"text": "true"}), act("ok", TypeStop, nil)},
				Connections: []Connection{edge("start", "check", "maybe"), edge("check", "ok", "")}},
			[]string{"invalid_branch@start:connections.0", "invalid_branch@check:connections.1"}},
		{"a duplicated action key is named",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("start", TypeStop, nil)}},
			[]string{"duplicate_action_key@start:action_key"}},
		{"an action key that is not snake_case is named",
			Graph{Actions: []Action{act("Start", TypeManual, nil)}},
			[]string{"invalid_action_key@Start:action_key"}},
		{"an action no trigger reaches is named",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("lost", TypeStop, nil)}},
			[]string{"unreachable_action@lost:"}},
		{"a cycle is refused",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("a", TypeDelay, map[string]any{"seconds": 1}), act("b", TypeDelay, map[string]any{"seconds": 1})},
				Connections: []Connection{edge("start", "a", ""), edge("a", "b", ""), edge("b", "a", "")}},
			[]string{"cycle@a:connections"}},
		{"a trigger cannot have incoming connections",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("again", TypeManual, nil)}, Connections: []Connection{edge("start", "again", "")}},
			[]string{"trigger_has_inbound@again:connections.0"}},
		{"a condition that does not compile is named",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("check", TypeCondition, map[string]any{"text": "steps.fetch.status_code =="})}, Connections: []Connection{edge("start", "check", "")}},
			[]string{"invalid_expression@check:config.text"}},
		{"a template reading a later step or an unknown namespace cannot resolve",
			Graph{Actions: []Action{act("start", TypeManual, nil),
				act("fetch", "http.request", map[string]any{"url": "https://x.test/{{ steps.later.body }}/{{ input.id }}/{{ system.run_url }}"}),
				act("later", TypeStop, nil)},
				Connections: []Connection{edge("start", "fetch", ""), edge("fetch", "later", "")}},
			[]string{"unresolvable_template@fetch:config.url", "unresolvable_template@fetch:config.url"}},
		{"a template missing a closing brace is named with the text it begins",
			Graph{Actions: []Action{act("start", TypeManual, nil),
				act("fetch", "http.request", map[string]any{"url": "https://x.test/{{ start.id }/{{ start.id }}"})},
				Connections: []Connection{edge("start", "fetch", "")}},
			[]string{"broken_template@fetch:config.url"}},
		{"bot.set_state needs a relay trigger",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("remember", TypeBotState, map[string]any{"state_key": "waiting"})}, Connections: []Connection{edge("start", "remember", "")}},
			[]string{"bot_state_without_relay@remember:action_type_key"}},
		{"bot.wait_for_reply needs a relay trigger",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("ask", TypeBotReply, nil)}, Connections: []Connection{edge("start", "ask", "")}},
			[]string{"bot_reply_without_relay@ask:action_type_key"}},
		{"connections leaving bot.wait_for_reply are the reply's or the timeout's",
			Graph{Actions: []Action{act("start", TypeRelay, map[string]any{"action_dependency_id": ""}), act("ask", TypeBotReply, nil), act("done", TypeStop, nil)},
				Connections: []Connection{edge("start", "ask", ""), edge("ask", "done", ""), edge("ask", "done", BranchTimeout), edge("ask", "done", BranchTrue)}},
			[]string{"invalid_branch@ask:connections.3"}},
		{"a timeout branch leaves only bot.wait_for_reply",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("done", TypeStop, nil)}, Connections: []Connection{edge("start", "done", BranchTimeout)}},
			[]string{"invalid_branch@start:connections.0"}},
		{"a switch's branches are its case names and default where it is on",
			Graph{Actions: []Action{act("start", TypeManual, nil), regionSwitch(false, "north", "south"), act("done", TypeStop, nil)},
				Connections: []Connection{edge("start", "region", ""), edge("region", "done", "north"), edge("region", "done", "south"),
					edge("region", "done", BranchDefault), edge("region", "done", "west"), edge("region", "done", "")}},
			[]string{"invalid_branch@region:connections.3", "invalid_branch@region:connections.4", "invalid_branch@region:connections.5"}},
		{"a switch that does not turn its default off has it",
			Graph{Actions: []Action{act("start", TypeManual, nil),
				act("region", TypeSwitch, map[string]any{"cases": []any{map[string]any{"name": "north", "text": "true"}}}), act("done", TypeStop, nil)},
				Connections: []Connection{edge("start", "region", ""), edge("region", "done", BranchDefault)}},
			nil},
		{"a switch's case names are its own branches: unique, and neither default nor error",
			Graph{Actions: []Action{act("start", TypeManual, nil), regionSwitch(true, "north", "north", "default", "error")},
				Connections: []Connection{edge("start", "region", "")}},
			[]string{"duplicate_case_name@region:config.cases.1.name", "reserved_case_name@region:config.cases.2.name", "reserved_case_name@region:config.cases.3.name"}},
		{"a switch case or a data field that does not compile is named",
			Graph{Actions: []Action{act("start", TypeManual, nil),
				act("region", TypeSwitch, map[string]any{"cases": []any{map[string]any{"name": "north", "text": "start.region =="}}}),
				act("shape", TypeDataSet, map[string]any{"fields": map[string]any{"ok": "start.total * 2", "total": "start.total +"}})},
				Connections: []Connection{edge("start", "region", ""), edge("region", "shape", "north")}},
			[]string{"invalid_expression@region:config.cases.0.text", "invalid_expression@shape:config.fields.total"}},
		{"any action but a trigger may have an error path",
			Graph{Actions: []Action{act("start", TypeManual, nil), fetch, act("check", TypeCondition, map[string]any{"text": "true"}), act("done", TypeStop, nil)},
				Connections: []Connection{edge("start", "fetch", ""), edge("fetch", "check", BranchError), edge("check", "done", BranchError), edge("start", "done", BranchError)}},
			[]string{"invalid_branch@start:connections.3"}},
		{"a loop's body connects only to itself; after the loop comes its done output",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("lines", TypeLoop, map[string]any{"items": "start.lines"}),
				act("create", TypeDataSet, map[string]any{"fields": map[string]any{"sku": "item.sku"}}), act("mail", TypeStop, nil)},
				Connections: []Connection{edge("start", "lines", ""), edge("lines", "create", BranchEach), edge("create", "mail", ""),
					edge("lines", "mail", BranchDone), edge("lines", "mail", "")}},
			[]string{"invalid_branch@lines:connections.4", "loop_body_leak@lines:connections.3", "loop_body_leak@lines:connections.4"}},
		{"a loop's list must compile, and a reply wait cannot run per item",
			Graph{Actions: []Action{act("start", TypeRelay, map[string]any{"action_dependency_id": ""}),
				act("lines", TypeLoop, map[string]any{"items": "start.lines["}), act("ask", TypeBotReply, nil)},
				Connections: []Connection{edge("start", "lines", ""), edge("lines", "ask", BranchEach)}},
			[]string{"invalid_expression@lines:config.items", "refused_in_loop@ask:action_type_key"}},
		{"an approval reads its link from the run's start, takes only its three branches, and cannot run per item",
			Graph{Actions: []Action{act("start", TypeManual, nil),
				act("ask", "http.request", map[string]any{"url": "https://example.com/?link={{ steps.approve.decide_url }}&d={{ steps.approve.decision }}"}),
				act("approve", TypeApproval, map[string]any{"title": "Refund", "approver_role": "boss", "timeout_seconds": 0}),
				act("later", TypeApproval, map[string]any{"title": "Again", "form_schema_json": map[string]any{"$ref": "https://example.com/form.json"}}),
				act("lines", TypeLoop, map[string]any{"items": "start.lines"}), act("each", TypeApproval, map[string]any{"title": "Line"}),
				act("done", TypeStop, nil)},
				Connections: []Connection{edge("start", "ask", ""), edge("ask", "approve", ""), edge("approve", "later", BranchApproved),
					edge("approve", "done", BranchRejected), edge("approve", "done", BranchTimeout), edge("approve", "done", ""),
					edge("later", "lines", BranchApproved), edge("lines", "each", BranchEach)}},
			[]string{"invalid_config@approve:config.approver_role", "invalid_config@approve:config.timeout_seconds",
				"invalid_form_schema@later:config.form_schema_json", "invalid_branch@approve:connections.5",
				"refused_in_loop@each:action_type_key", "unresolvable_template@ask:config.url"}},
		{"item and loop are read only inside a loop's body",
			Graph{Actions: []Action{act("start", TypeManual, nil), act("lines", TypeLoop, map[string]any{"items": "start.lines"}),
				act("inside", TypeStop, nil), act("after", "http.request", map[string]any{"url": "https://x.test/{{ item.sku }}"}),
				act("each_call", "http.request", map[string]any{"url": "https://x.test/{{ item.sku }}/{{ loop.index }}"})},
				Connections: []Connection{edge("start", "lines", ""), edge("lines", "each_call", BranchEach), edge("each_call", "inside", ""),
					edge("lines", "after", BranchDone)}},
			[]string{"item_outside_loop@after:config.url"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := codes(Validate(tc.g, c))
			if !slices.Equal(got, tc.want) {
				t.Fatalf("diagnostics\n got %v\nwant %v", got, tc.want)
			}
		})
	}
	t.Run("every diagnostic of a broken graph is reported at once", func(t *testing.T) {
		g := Graph{Actions: []Action{act("x", "teleport", nil), act("Bad", TypeStop, nil)}, Connections: []Connection{edge("x", "nowhere", "")}}
		if n := len(Validate(g, c)); n < 4 {
			t.Fatalf("only %d diagnostics: %v", n, codes(Validate(g, c)))
		}
	})
}
