// The template variables an action can read, as the server resolves them (docs/workflows.md,
// "Templates and conditions"; models/automation/validate.go): the namespaces the graph's
// triggers provide, steps.<key> of the actions that run before it, and system.*.
import type { ActionType } from "../../../canvas/catalog";
import { loopsOf, type Graph } from "../../../canvas/graph";
import { isRecord } from "../../../lib/isRecord";

export type Variable = {
  /** path is what goes between the braces, e.g. steps.fetch.status_code. */
  path: string;
  /** kind is the JSON type when the schema or the sample says it: string, object, array... */
  kind?: string;
  description?: string;
};

/** The service's own variables (models/automation/validate.go systemVariables). */
const SYSTEM: Variable[] = [
  { path: "system.run_id", kind: "string" },
  { path: "system.id", kind: "string" },
  { path: "system.run_url", kind: "string" },
  { path: "system.link", kind: "string" },
];

/** Paths nest this deep at most, and a scope lists this many, so a huge sample stays usable. */
const MAX_DEPTH = 6;
const MAX_VARIABLES = 2000;

/**
 * upstreamOf lists the actions that always or possibly run before the action, nearest first:
 * every action from which a chain of connections leads to it. A cycle ends the walk.
 */
export function upstreamOf(graph: Graph, actionKey: string): string[] {
  const incoming = new Map<string, string[]>();
  for (const c of graph.connections) incoming.set(c.to, [...(incoming.get(c.to) ?? []), c.from]);
  const seen = new Set<string>([actionKey]);
  const order: string[] = [];
  let frontier = [actionKey];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const key of frontier) {
      for (const from of incoming.get(key) ?? []) {
        if (seen.has(from)) continue;
        seen.add(from);
        order.push(from);
        next.push(from);
      }
    }
    frontier = next;
  }
  return order;
}

type ScopeInput = {
  graph: Graph;
  actionKey: string;
  types: Map<string, ActionType>;
  /** testInput is what a test run starts with: the test input, else the trigger's sample. */
  testInput: Record<string, unknown>;
};

/** variablesInScope lists every variable the action's templates can read. */
export function variablesInScope({ graph, actionKey, types, testInput }: ScopeInput): Variable[] {
  const out = new Map<string, Variable>();
  const add = (v: Variable) => {
    if (out.size >= MAX_VARIABLES) return;
    const had = out.get(v.path);
    out.set(v.path, had ? { ...had, kind: had.kind ?? v.kind, description: had.description ?? v.description } : v);
  };
  const byKey = new Map(graph.actions.map((a) => [a.action_key, a]));
  const triggers = graph.actions.filter((a) => types.get(a.action_type_key)?.trigger);
  // A test run starts from the manual trigger, else the first trigger (POST .../test-runs).
  const tested = triggers.find((a) => a.action_type_key === "manual.trigger") ?? triggers[0];

  /** fields are what a trigger's run carries: its result schema, its sample, its config's hints. */
  const triggerFields = (key: string, prefix: string) => {
    const action = byKey.get(key);
    if (!action) return;
    const config = action.config ?? {};
    schemaPaths(types.get(action.action_type_key)?.result_schema_json, prefix, add);
    if (action.action_type_key === "manual.trigger") schemaPaths(config.input_schema_json, prefix, add);
    valuePaths(config.sample_payload_json, prefix, add);
    if (action.action_type_key === "webhook.trigger") for (const field of stringsOf(config.json_fields)) add({ path: `${prefix}.${field}` });
    if (action === tested) valuePaths(testInput, prefix, add);
  };

  for (const trigger of triggers) {
    const config = trigger.config ?? {};
    for (const ns of triggerNamespaces(trigger.action_type_key, trigger.action_key, config)) {
      add({ path: ns, kind: "object" });
      triggerFields(trigger.action_key, ns);
    }
    if (trigger.action_type_key === "messenger_a.relay.trigger") {
      add({ path: "messenger_a.update_id", kind: "integer" });
      add({ path: "bot_session.state_key", kind: "string" });
      add({ path: "bot_session.context_json", kind: "object" });
    }
  }

  for (const key of upstreamOf(graph, actionKey)) {
    const action = byKey.get(key);
    if (!action) continue;
    const prefix = `steps.${key}`;
    add({ path: prefix, kind: "object", description: action.label || undefined });
    if (types.get(action.action_type_key)?.trigger) triggerFields(key, prefix);
    else schemaPaths(types.get(action.action_type_key)?.result_schema_json, prefix, add);
  }

  loopVariables({ graph, actionKey, types, testInput }, add);
  SYSTEM.forEach(add);
  return [...out.values()];
}

/** A list expression that is a plain path (order.lines, steps.fetch.json.orders), whose
 * items' fields the loop's own scope may know. */
const PLAIN_PATH = /^[A-Za-z_][\w]*(\.[\w]+)*$/;

/** loopVariables are what an action inside a loop's body reads of the item it runs for, as
 * the engine gives them (engine/interpreter_loop.go runItem): item, with the fields the
 * loop's list is known to have, loop.index and loop.count; inside an inner loop, the outer
 * loop's as loop.parent.item, loop.parent.index (and so on outwards). */
function loopVariables(input: ScopeInput, add: (v: Variable) => void) {
  const loops = loopsOf(input.graph);
  const byKey = new Map(input.graph.actions.map((a) => [a.action_key, a]));
  let ns = "loop";
  for (let loop = loops.get(input.actionKey); loop; loop = loops.get(loop), ns += ".parent") {
    const item = ns === "loop" ? "item" : `${ns}.item`;
    add({ path: item, description: byKey.get(loop)?.label || loop });
    add({ path: `${ns}.index`, kind: "integer" });
    add({ path: `${ns}.count`, kind: "integer" });
    const items = byKey.get(loop)?.config?.items;
    if (typeof items !== "string" || !PLAIN_PATH.test(items.trim())) continue;
    const element = `${items.trim()}.0.`;
    for (const v of variablesInScope({ ...input, actionKey: loop })) {
      if (v.path.startsWith(element)) add({ ...v, path: `${item}.${v.path.slice(element.length)}` });
    }
  }
}

/** triggerNamespaces are the namespaces one trigger provides (TriggerNamespaces on the server). */
function triggerNamespaces(typeKey: string, actionKey: string, config: Record<string, unknown>): string[] {
  const str = (field: string) => (typeof config[field] === "string" ? (config[field] as string) : "");
  switch (typeKey) {
    case "webhook.trigger":
      return [str("endpoint_key")].filter(Boolean);
    case "schedule.trigger":
      return [str("schedule_key"), "schedule"].filter(Boolean);
    case "messenger_a.relay.trigger":
      return ["messenger_a_relay", str("bot_key") || "bot"];
    case "manual.trigger":
      return [actionKey];
    case "payment.event_trigger":
      return ["payment"];
    case "task.event_trigger":
      return ["task"];
    case "run.event_trigger":
      return ["run_event"];
    default:
      return [];
  }
}

function stringsOf(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string" && s !== "") : [];
}

function kindOf(schema: Record<string, unknown>): string | undefined {
  const t = schema.type;
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.filter((x) => typeof x === "string").join(" | ") || undefined;
  return undefined;
}

/** schemaPaths adds the properties a JSON Schema describes, nested objects and array items too. */
function schemaPaths(schema: unknown, prefix: string, add: (v: Variable) => void, depth = 0) {
  if (!isRecord(schema) || depth >= MAX_DEPTH) return;
  if (isRecord(schema.properties)) {
    for (const [name, prop] of Object.entries(schema.properties)) {
      if (!isRecord(prop)) continue;
      const path = `${prefix}.${name}`;
      add({ path, kind: kindOf(prop), description: typeof prop.description === "string" ? prop.description : undefined });
      schemaPaths(prop, path, add, depth + 1);
    }
  }
  if (isRecord(schema.items)) schemaPaths(schema.items, `${prefix}.0`, add, depth + 1);
}

/** valuePaths adds the fields of a sample value; an array is read through its first element. */
function valuePaths(value: unknown, prefix: string, add: (v: Variable) => void, depth = 0) {
  if (depth >= MAX_DEPTH) return;
  if (Array.isArray(value)) {
    if (value.length > 0) {
      add({ path: `${prefix}.0`, kind: jsonKind(value[0]) });
      valuePaths(value[0], `${prefix}.0`, add, depth + 1);
    }
    return;
  }
  if (!isRecord(value)) return;
  for (const [name, v] of Object.entries(value)) {
    const path = `${prefix}.${name}`;
    add({ path, kind: jsonKind(v) });
    valuePaths(v, path, add, depth + 1);
  }
}

function jsonKind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v === "object" ? "object" : typeof v;
}
