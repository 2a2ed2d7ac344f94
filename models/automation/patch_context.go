package automation

import (
	"maps"
	"slices"

	"agencyhub/schemas"
)

// PatchOperationDoc describes one operation of the patch format for an AI editor.
type PatchOperationDoc struct {
	Op     string   `json:"op"`
	Fields []string `json:"fields"`
	Effect string   `json:"effect"`
}

// PatchOperationDocs is the operations table of service-workflow-patch-v1.
var PatchOperationDocs = []PatchOperationDoc{
	{
		OpUpdateAction,
		[]string{"action_key", "set"},
		"Updates an existing action: set may hold label, action_type_key, ui and a partial config, " +
			"merged over the current config as a JSON merge patch (null removes a field).",
	},
	{OpAddAction, []string{"action"}, "Adds an action whose action_key is not taken."},
	{
		OpUpsertAction,
		[]string{"action"},
		"Adds the action, or replaces the action with that action_key (its position is kept when the new action has none).",
	},
	{
		OpDeleteAction,
		[]string{"action_key", "delete_connections"},
		"Removes the action from the draft (historical runs keep it); " +
			"delete_connections true also removes its connections, false refuses while it has any.",
	},
	{
		OpAddConnection,
		[]string{"from", "to", "branch", "description"},
		"Adds an edge; from and to are existing action keys or keys added earlier in the same patch.",
	},
	{OpDeleteConnection, []string{"from", "to", "branch"}, "Removes the edge; without branch every edge between the two actions."},
	{OpReplaceConnections, []string{"connections"}, "Replaces all edges; only for rebuilding the graph."},
	{OpSetTestInput, []string{"test_input_json"}, "Sets the draft's shared test input."},
	{
		OpSetChangeDescription,
		[]string{"description"},
		"Sets the change description; the last value applied (this or the top-level change_description, which applies first) wins.",
	},
}

// PatchRules are the rules an importer enforces, for an AI editor.
var PatchRules = []string{
	"Answer one JSON document of format service-workflow-patch-v1, schema_version 1, " +
		"with base_workflow_id equal to workflow.workflow_id; a lone operation or an array of operations is also " +
		"accepted.",
	"Operations apply in order, all or nothing: when any fails, the draft stays exactly as it was and the error " +
		"names every failing field as operations.<n>.<field>.",
	"Keep operations minimal: do not repeat unchanged actions; keep action_key values stable while an action keeps its meaning.",
	"action_type_key must be one of action_catalog.supported_now; planned types are rejected. " +
		"config must match the type's config_schema_json.",
	"Connections join existing action keys or keys added earlier in the same patch; " +
		"edges leaving condition.branch carry branch \"true\" or \"false\", those leaving bot.wait_for_reply \"\" or " +
		"\"timeout\", those leaving condition.switch a case name or \"default\", those leaving loop.for_each \"each\" " +
		"(into its body, the actions run once per item, which connect only to each other) or \"done\" (after every " +
		"item), all others \"\"; any action but a " +
		"trigger may also have edges with branch \"error\", taken when it fails, which then reach its failure as " +
		"steps.<action_key>.error (message, retry_class, status_code).",
	"Expressions (condition.branch text, condition.switch case texts, data.set field values) are expr-lang over " +
		"the same variables as templates, without braces: steps.fetch.json.total * 2, map(steps.fetch.json.orders, .id), " +
		"\"Order \" + order_created.id. Inside a loop's body, item is the current item, loop.index its index from 0, " +
		"loop.parent.item the item of the loop around it.",
	"Integration identifiers are never invented: use an action_dependency_id from available_integrations of the " +
		"type the action needs. When the project lacks one, leave the id empty and name the missing integration in " +
		"change_description. An id the project does not have is emptied and reported.",
	"Template variables use {{ <path> }}: webhook payload fields under the webhook's endpoint_key (no input.* " +
		"alias), schedule times under the schedule_key or schedule, relay updates under messenger_a_relay, " +
		"the bot_key and bot_session, action outputs under steps.<action_key>, and system.link, system.id, " +
		"system.run_url, system.run_id.",
	"The import saves the draft only and never publishes; the answer lists diagnostics of the resulting draft, " +
		"which must have no errors before it can be published.",
}

// TemplateNamespace is one namespace of {{ path }} variables a draft's actions can read.
type TemplateNamespace struct {
	Namespace string `json:"namespace"`
	// Source is the action that provides it, or "system".
	Source    string   `json:"source"`
	Variables []string `json:"variables"`
}

// TemplateVariables lists, per namespace, the variables the graph's actions can read: each
// trigger's namespace (with the fields its config names), each action's output under
// steps.<action_key>, and the service's system variables.
func TemplateVariables(g Graph, catalog *schemas.Catalog) []TemplateNamespace {
	var out []TemplateNamespace
	add := func(ns, source string, paths ...string) {
		vars := make([]string, len(paths))
		for i, p := range paths {
			vars[i] = "{{ " + ns + "." + p + " }}"
		}
		out = append(out, TemplateNamespace{Namespace: ns, Source: source, Variables: vars})
	}
	for _, a := range g.Actions {
		str := func(field, fallback string) string {
			if s, _ := a.Config[field].(string); s != "" {
				return s
			}
			return fallback
		}
		switch a.ActionTypeKey {
		case TypeWebhook:
			if ns := str("endpoint_key", ""); ns != "" {
				add(ns, a.ActionKey, payloadFields(a.Config)...)
			}
		case TypeSchedule:
			if ns := str("schedule_key", ""); ns != "" {
				add(ns, a.ActionKey, "scheduled_at")
			}
			add("schedule", a.ActionKey, "scheduled_at")
		case TypeRelay:
			add("messenger_a_relay", a.ActionKey, "command", "command_args", "callback_data", "update_type", "message.text", "chat.id", "from.id")
			add("messenger_a", a.ActionKey, "update_id")
			add(str("bot_key", "bot"), a.ActionKey, "message.text", "message.chat.id")
			add("bot_session", a.ActionKey, "state_key", "context_json")
		case TypeManual:
			add(a.ActionKey, a.ActionKey, inputFields(a.Config)...)
		case TypePayment:
			add("payment", a.ActionKey, "event_type", "payment_action.due_date", "payment_action.total_amount", "payment_action.currency",
				"payment_action.payment_action_id", "client.name", "payment.amount")
		case TypeTask:
			add("task", a.ActionKey, "event_type", "task_id", "title", "status", "from_status", "assignee_user_id", "due_date", "comment.body")
		case TypeRunEvent:
			add("run_event", a.ActionKey, "event_type", "run_id", "workflow_id", "workflow_name", "failed_action_key", "error", "run_url")
		}
	}
	for _, a := range g.Actions {
		t, ok := catalog.Action(a.ActionTypeKey)
		if !ok || t.Trigger {
			continue
		}
		props, _ := t.ResultSchema["properties"].(map[string]any)
		var paths []string
		for _, p := range slices.Sorted(maps.Keys(props)) {
			if p == "json" {
				p = "json.<field>"
			}
			paths = append(paths, p)
		}
		if len(paths) > 0 {
			add("steps."+a.ActionKey, a.ActionKey, paths...)
		}
	}
	add("system", "system", "link", "id", "run_url", "run_id")
	return out
}

// payloadFields are a webhook trigger's known payload fields: json_fields, else the top-level
// keys of sample_payload_json, else a placeholder.
func payloadFields(config map[string]any) []string {
	var out []string
	if fields, ok := config["json_fields"].([]any); ok {
		for _, f := range fields {
			if s, ok := f.(string); ok {
				out = append(out, s)
			}
		}
	}
	if len(out) == 0 {
		sample, _ := config["sample_payload_json"].(map[string]any)
		out = slices.Sorted(maps.Keys(sample))
	}
	if len(out) == 0 {
		out = []string{"<field>"}
	}
	return out
}

// inputFields are a manual trigger's input fields from its input_schema_json, else a placeholder.
func inputFields(config map[string]any) []string {
	schema, _ := config["input_schema_json"].(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	if len(props) == 0 {
		return []string{"<field>"}
	}
	return slices.Sorted(maps.Keys(props))
}
