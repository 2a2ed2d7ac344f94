package automation

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"agencyhub/schemas"
)

// Diagnostic is one problem validation found in a graph.
type Diagnostic struct {
	Severity  string `json:"severity"`
	Code      string `json:"code"`
	Message   string `json:"message"`
	ActionKey string `json:"action_key,omitempty"`
	// Field locates the problem: a config field (config.url), or connections.<index>.
	Field string `json:"field,omitempty"`
	// text and args are what Message says, so that Localize can say it in the reader's
	// language.
	text string
	args []any
}

// Diagnostic severities: errors block publishing and test runs; warnings do not.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// HasErrors reports whether any diagnostic blocks publishing.
func HasErrors(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// systemVariables are the service's own template variables.
var systemVariables = map[string]bool{"link": true, "id": true, "run_url": true, "run_id": true}

// relayNamespaces are the template namespaces a messenger relay trigger provides, besides
// its bot_key.
var relayNamespaces = []string{"messenger_a_relay", "messenger_a", "bot_session"}

// Validate reports every problem of a graph at once: unknown or planned action types,
// configs that do not match their schema, bad action keys, dangling, duplicate or
// mislabelled connections, a graph without a trigger, unreachable actions, cycles,
// expressions that do not compile (a condition's, a switch's cases and their names, a data
// step's fields) and template paths that cannot resolve.
func Validate(g Graph, catalog *schemas.Catalog) []Diagnostic {
	v := validator{g: g, catalog: catalog, keys: map[string]bool{}, types: map[string]*schemas.ActionType{}}
	v.actions()
	v.connections()
	v.reachability()
	v.loops()
	v.templates()
	return v.out
}

type validator struct {
	g       Graph
	catalog *schemas.Catalog
	keys    map[string]bool
	types   map[string]*schemas.ActionType
	// inLoop holds the actions inside a loop's body, which may read item and loop.
	inLoop map[string]bool
	out    []Diagnostic
}

// add records an error of the kind text (diagnosticTexts); its code is the text's key up
// to a dot (invalid_branch.condition is an invalid_branch).
func (v *validator) add(text, actionKey, field string, args ...any) {
	code, _, _ := strings.Cut(text, ".")
	d := Diagnosed(SeverityError, code, text, args...)
	d.ActionKey, d.Field = actionKey, field
	v.out = append(v.out, d)
}

func (v *validator) actions() {
	triggers := 0
	for _, a := range v.g.Actions {
		switch {
		case !ActionKeyPattern.MatchString(a.ActionKey):
			v.add("invalid_action_key", a.ActionKey, "action_key", a.ActionKey)
		case v.keys[a.ActionKey]:
			v.add("duplicate_action_key", a.ActionKey, "action_key", a.ActionKey)
			continue
		}
		v.keys[a.ActionKey] = true
		t, ok := v.catalog.Action(a.ActionTypeKey)
		if !ok {
			v.add("unknown_action_type", a.ActionKey, "action_type_key", a.ActionTypeKey)
			continue
		}
		if !t.Importable {
			v.add("planned_action_type", a.ActionKey, "action_type_key", a.ActionTypeKey)
			continue
		}
		v.types[a.ActionKey] = t
		if t.Trigger {
			triggers++
		}
		fields := t.ValidateConfig(a.Config)
		for _, field := range fields {
			v.add("invalid_config", a.ActionKey, "config."+field, field, a.ActionTypeKey)
		}
		if doc, ok := a.Config["output_schema"].(map[string]any); ok && a.ActionTypeKey == TypeAgent && len(fields) == 0 {
			if _, err := schemas.CompileJSONSchema(doc); err != nil {
				v.add("invalid_output_schema", a.ActionKey, "config.output_schema", err)
			}
		}
		if len(fields) == 0 {
			v.expressions(a)
		}
	}
	if triggers == 0 {
		v.add("no_trigger", "", "actions")
	}
	if _, relay := FirstOfType(v.g, TypeRelay); !relay {
		for _, a := range v.g.Actions {
			switch a.ActionTypeKey {
			case TypeBotState:
				v.add("bot_state_without_relay", a.ActionKey, "action_type_key")
			case TypeBotReply:
				v.add("bot_reply_without_relay", a.ActionKey, "action_type_key")
			}
		}
	}
}

// expressions checks the expressions of a schema-valid config: a condition's, a switch's
// cases (and their names, which are its branches) and a data step's fields.
func (v *validator) expressions(a Action) {
	switch a.ActionTypeKey {
	case TypeCondition:
		text, _ := a.Config["text"].(string)
		if err := CompileCondition(text); err != nil {
			v.add("invalid_expression", a.ActionKey, "config.text", err)
		}
	case TypeSwitch:
		seen := map[string]bool{}
		for i, c := range SwitchCases(a.Config) {
			switch {
			case c.Name == BranchDefault || c.Name == BranchError:
				v.add("reserved_case_name", a.ActionKey, fmt.Sprintf("config.cases.%d.name", i), c.Name)
			case seen[c.Name]:
				v.add("duplicate_case_name", a.ActionKey, fmt.Sprintf("config.cases.%d.name", i), c.Name)
			}
			seen[c.Name] = true
			if err := CompileCondition(c.Text); err != nil {
				v.add("invalid_expression.case", a.ActionKey, fmt.Sprintf("config.cases.%d.text", i), err)
			}
		}
	case TypeLoop:
		text, _ := a.Config["items"].(string)
		if err := CompileExpression(text); err != nil {
			v.add("invalid_expression.items", a.ActionKey, "config.items", err)
		}
	case TypeDataSet:
		fields, _ := a.Config["fields"].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(fields)) {
			text, _ := fields[name].(string)
			if err := CompileExpression(text); err != nil {
				v.add("invalid_expression.field", a.ActionKey, "config.fields."+name, name, err)
			}
		}
	}
}

func (v *validator) connections() {
	seen := map[Connection]bool{}
	for i, c := range v.g.Connections {
		field := fmt.Sprintf("connections.%d", i)
		if !v.keys[c.From] || !v.keys[c.To] {
			v.add("dangling_connection", c.From, field, c.From, c.To)
			continue
		}
		key := Connection{From: c.From, To: c.To, Branch: c.Branch}
		if seen[key] {
			v.add("duplicate_connection", c.From, field, c.From, c.To, c.Branch)
		}
		seen[key] = true
		from, _ := v.g.Action(c.From)
		if t := v.types[c.From]; t != nil && t.Trigger {
			if c.Branch != "" {
				v.add("invalid_branch.trigger", c.From, field, c.Branch)
			}
		} else if branches := Branches(from); c.Branch != BranchError && !slices.Contains(branches, c.Branch) {
			v.add("invalid_branch", c.From, field, from.ActionTypeKey, quotedList(branches), c.Branch)
		}
		if t := v.types[c.To]; t != nil && t.Trigger {
			v.add("trigger_has_inbound", c.To, field, c.To)
		}
	}
}

// quotedList spells branch labels for a message: "true", "false".
func quotedList(labels []string) string {
	quoted := make([]string, len(labels))
	for i, l := range labels {
		quoted[i] = fmt.Sprintf("%q", l)
	}
	return strings.Join(quoted, ", ")
}

// reachability reports actions no trigger leads to, and cycles.
func (v *validator) reachability() {
	reached := map[string]bool{}
	for _, a := range v.g.Actions {
		if t := v.types[a.ActionKey]; t != nil && t.Trigger {
			for _, key := range v.g.Downstream(a.ActionKey) {
				reached[key] = true
			}
		}
	}
	for _, a := range v.g.Actions {
		if t := v.types[a.ActionKey]; t != nil && !t.Trigger && !reached[a.ActionKey] {
			v.add("unreachable_action", a.ActionKey, "", a.ActionKey)
		}
	}
	const (
		unvisited = iota
		onPath
		done
	)
	state := map[string]int{}
	// visit answers an action on a cycle reachable from key, or "".
	var visit func(string) string
	visit = func(key string) string {
		state[key] = onPath
		for _, c := range v.g.Outgoing(key) {
			if state[c.To] == onPath {
				return c.To
			}
			if state[c.To] == unvisited {
				if on := visit(c.To); on != "" {
					return on
				}
			}
		}
		state[key] = done
		return ""
	}
	for _, a := range v.g.Actions {
		if state[a.ActionKey] != unvisited {
			continue
		}
		if on := visit(a.ActionKey); on != "" {
			v.add("cycle", on, "connections", on)
			return
		}
	}
}

// templates checks that every {{ path }} in a config can resolve: steps of actions that
// run before it, the service's system variables, or a namespace a trigger provides.
func (v *validator) templates() {
	namespaces := TriggerNamespaces(v.g)
	for _, a := range v.g.Actions {
		upstream := v.upstream(a.ActionKey)
		walkStrings(a.Config, "config", func(field, s string) {
			for _, broken := range BrokenTemplates(s) {
				v.add("broken_template", a.ActionKey, field, broken)
			}
			for _, path := range TemplatePaths(s) {
				head, rest, _ := strings.Cut(path, ".")
				second, _, _ := strings.Cut(rest, ".")
				ok := false
				switch {
				case head == "steps":
					ok = upstream[second]
				case head == "system":
					ok = systemVariables[rest]
				case head == "item" || head == "loop":
					if ok = v.inLoop[a.ActionKey]; !ok {
						v.add("item_outside_loop", a.ActionKey, field, path)
						continue
					}
				default:
					ok = namespaces[head]
				}
				if !ok {
					v.add("unresolvable_template", a.ActionKey, field, path)
				}
			}
		})
	}
}

// upstream lists the actions that always or possibly run before key.
func (v *validator) upstream(key string) map[string]bool {
	seen := map[string]bool{}
	for _, k := range v.g.Upstream(key) {
		seen[k] = true
	}
	return seen
}

// TriggerNamespaces are the template namespaces the graph's triggers provide: a webhook's
// endpoint_key, a schedule's schedule_key and "schedule", the relay's namespaces and bot
// key, a manual trigger's action key (which carries the manual run input), "payment",
// "task" and "run_event".
func TriggerNamespaces(g Graph) map[string]bool {
	out := map[string]bool{}
	for _, a := range g.Actions {
		str := func(field string) string { s, _ := a.Config[field].(string); return s }
		switch a.ActionTypeKey {
		case TypeWebhook:
			out[str("endpoint_key")] = true
		case TypeSchedule:
			out[str("schedule_key")] = true
			out["schedule"] = true
		case TypeRelay:
			for _, ns := range relayNamespaces {
				out[ns] = true
			}
			if k := str("bot_key"); k != "" {
				out[k] = true
			} else {
				out["bot"] = true
			}
		case TypeManual:
			out[a.ActionKey] = true
		case TypePayment:
			out["payment"] = true
		case TypeTask:
			out["task"] = true
		case TypeRunEvent:
			out["run_event"] = true
		}
	}
	delete(out, "")
	return out
}

func walkStrings(v any, field string, fn func(field, s string)) {
	switch x := v.(type) {
	case string:
		fn(field, x)
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			walkStrings(x[k], field+"."+k, fn)
		}
	case []any:
		for i, e := range x {
			walkStrings(e, fmt.Sprintf("%s.%d", field, i), fn)
		}
	}
}

// FirstOfType is the key of the graph's first action of a type.
func FirstOfType(g Graph, typ string) (string, bool) {
	for _, a := range g.Actions {
		if a.ActionTypeKey == typ {
			return a.ActionKey, true
		}
	}
	return "", false
}
