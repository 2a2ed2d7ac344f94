package automation

import (
	"encoding/json"
	"regexp"
)

// Action is one node of a workflow graph, as the specification's patch document shapes it.
type Action struct {
	ActionKey     string         `json:"action_key"`
	Label         string         `json:"label"`
	ActionTypeKey string         `json:"action_type_key"`
	Category      string         `json:"category,omitempty"`
	TypeLabel     string         `json:"type_label,omitempty"`
	Config        map[string]any `json:"config"`
	UI            *ActionUI      `json:"ui,omitempty"`
}

// SamplePayload is a trigger's sample_payload_json: an example of what starts its runs,
// which test runs and the console's run form start from; nil when it has none.
func (a Action) SamplePayload() map[string]any {
	sample, _ := a.Config["sample_payload_json"].(map[string]any)
	return sample
}

// ActionUI is the editor's placement of an action.
type ActionUI struct {
	Position *Position `json:"position,omitempty"`
}

// Position is a point on the editor's canvas.
type Position struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Connection is an edge. Branch is "" for normal flow, "true" or "false" leaving a
// condition.branch action, "timeout" for the flow of a bot.wait_for_reply that got no reply.
type Connection struct {
	From        string `json:"from"`
	To          string `json:"to"`
	Branch      string `json:"branch"`
	Description string `json:"description,omitempty"`
}

// Graph is what a draft holds and a version freezes.
type Graph struct {
	Actions     []Action     `json:"actions"`
	Connections []Connection `json:"connections"`
}

// Action returns the action with a key.
func (g Graph) Action(key string) (Action, bool) {
	for _, a := range g.Actions {
		if a.ActionKey == key {
			return a, true
		}
	}
	return Action{}, false
}

// Outgoing lists the connections leaving an action, in graph order.
func (g Graph) Outgoing(key string) []Connection {
	var out []Connection
	for _, c := range g.Connections {
		if c.From == key {
			out = append(out, c)
		}
	}
	return out
}

// Incoming lists the connections entering an action, in graph order.
func (g Graph) Incoming(key string) []Connection {
	var out []Connection
	for _, c := range g.Connections {
		if c.To == key {
			out = append(out, c)
		}
	}
	return out
}

// Downstream lists the actions the connections lead to from key, directly or through
// others, over any branch, in graph order; key itself only on a cycle.
func (g Graph) Downstream(key string) []string {
	return g.walk(key, Graph.Outgoing, func(c Connection) string { return c.To })
}

// Upstream lists the actions whose connections lead to key, directly or through others,
// in graph order: the actions that always or possibly run before it.
func (g Graph) Upstream(key string) []string {
	return g.walk(key, Graph.Incoming, func(c Connection) string { return c.From })
}

// walk follows the connections next gives from key, each to the action end names, and lists
// the actions it reached in graph order.
func (g Graph) walk(key string, next func(Graph, string) []Connection, end func(Connection) string) []string {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(k string) {
		for _, c := range next(g, k) {
			if to := end(c); !seen[to] {
				seen[to] = true
				visit(to)
			}
		}
	}
	visit(key)
	var out []string
	for _, a := range g.Actions {
		if seen[a.ActionKey] {
			out = append(out, a.ActionKey)
		}
	}
	return out
}

// ActionKeyPattern is what an action key looks like: stable snake_case.
var ActionKeyPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// Branch labels: of connections leaving condition.branch, of the connections leaving
// bot.wait_for_reply that are taken when no reply came (the others are taken when one did),
// of condition.switch's connection taken when no case matched, and of the connections any
// action but a trigger may have, taken when it failed. A switch's other branches are its
// case names.
const (
	BranchTrue    = "true"
	BranchFalse   = "false"
	BranchTimeout = "timeout"
	BranchDefault = "default"
	BranchError   = "error"
)

// Branches are the labels the connections leaving a (non-trigger) action may carry besides
// BranchError, in the order the editor draws them: "" for the one way on, a condition's
// true and false, a reply wait's "" and timeout, a loop's each and done, a switch's case
// names and default.
func Branches(a Action) []string {
	switch a.ActionTypeKey {
	case TypeCondition:
		return []string{BranchTrue, BranchFalse}
	case TypeBotReply:
		return []string{"", BranchTimeout}
	case TypeLoop:
		return []string{BranchEach, BranchDone}
	case TypeSwitch:
		out := []string{}
		for _, c := range SwitchCases(a.Config) {
			out = append(out, c.Name)
		}
		if SwitchHasDefault(a.Config) {
			out = append(out, BranchDefault)
		}
		return out
	}
	return []string{""}
}

// SwitchHasDefault reports whether a condition.switch takes its default branch when no
// case is true: unless its config turns it off, as the schema's default says.
func SwitchHasDefault(config map[string]any) bool {
	on, set := config["default"].(bool)
	return on || !set
}

// SwitchCase is one case of a condition.switch: its branch name and its expression.
type SwitchCase struct{ Name, Text string }

// SwitchCases reads a condition.switch config's cases, in order.
func SwitchCases(config map[string]any) []SwitchCase {
	list, _ := config["cases"].([]any)
	out := make([]SwitchCase, 0, len(list))
	for _, e := range list {
		m, _ := e.(map[string]any)
		name, _ := m["name"].(string)
		text, _ := m["text"].(string)
		out = append(out, SwitchCase{Name: name, Text: text})
	}
	return out
}

// Action types the interpreter evaluates itself rather than as activities.
const (
	TypeCondition = "condition.branch"
	TypeSwitch    = "condition.switch"
	TypeDataSet   = "data.set"
	TypeDelay     = "delay.wait"
	TypeStop      = "stop"
	TypeManual    = "manual.trigger"
	TypeWebhook   = "webhook.trigger"
	TypeSchedule  = "schedule.trigger"
	TypeRelay     = "messenger_a.relay.trigger"
	TypeBotState  = "bot.set_state"
	TypeBotReply  = "bot.wait_for_reply"
	TypePayment   = "payment.event_trigger"
	TypeTask      = "task.event_trigger"
	TypeRunEvent  = "run.event_trigger"
	// TypeAgent runs as a child workflow of the run (AgentAction of engine/agent).
	TypeAgent = "ai.agent"
)

// marshal encodes v for a TEXT column; the values are plain maps and slices, so it cannot fail.
func marshal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("automation: marshal: " + err.Error())
	}
	return string(b)
}
