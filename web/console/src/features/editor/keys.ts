// Action keys are the names templates use (steps.<action_key>), so new ones are readable:
// derived from the action's type, snake_case, unique in the draft, within the API's 64.
import type { Action, Connection, Graph } from "../../canvas/graph";
import type { ActionType } from "../../canvas/catalog";

const MAX_KEY = 64;

/** baseKeyOf is the snake_case stem of a key for an action of the type (http.request →
 * http_request); it always starts with a letter, as the API requires. */
export function baseKeyOf(actionTypeKey: string): string {
  const stem = actionTypeKey
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  const key = /^[a-z]/.test(stem) ? stem : `action_${stem}`.replace(/_+$/, "");
  return key.slice(0, MAX_KEY);
}

/** uniqueKey is base itself when free, else base_2, base_3, … cut to fit 64 characters. */
export function uniqueKey(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const key = base.slice(0, MAX_KEY - suffix.length) + suffix;
    if (!taken.has(key)) return key;
  }
}

/** stemOf is a key without a number suffix a copy gave it (http_request_2 → http_request). */
function stemOf(key: string): string {
  return key.replace(/_\d+$/, "") || key;
}

/** copyOf gives copied actions fresh keys among taken, keeps the connections between them
 * (and drops those leaving the copy), and shifts them by offset so the copy is visible. */
export function copyOf(clip: Graph, taken: ReadonlySet<string>, offset: { x: number; y: number }): Graph {
  const used = new Set(taken);
  const renamed = new Map<string, string>();
  for (const a of clip.actions) {
    const key = uniqueKey(stemOf(a.action_key), used);
    used.add(key);
    renamed.set(a.action_key, key);
  }
  const actions = clip.actions.map(
    (a): Action => ({
      ...a,
      action_key: renamed.get(a.action_key)!,
      ui: { position: { x: (a.ui?.position?.x ?? 0) + offset.x, y: (a.ui?.position?.y ?? 0) + offset.y } },
    }),
  );
  const connections = clip.connections
    .filter((c) => renamed.has(c.from) && renamed.has(c.to))
    .map((c): Connection => ({ ...c, from: renamed.get(c.from)!, to: renamed.get(c.to)! }));
  return { actions, connections };
}

/** clipOf is the part of the graph a copy takes: the actions and the connections among them. */
export function clipOf(graph: Graph, keys: ReadonlySet<string>): Graph {
  return {
    actions: graph.actions.filter((a) => keys.has(a.action_key)),
    connections: graph.connections.filter((c) => keys.has(c.from) && keys.has(c.to)),
  };
}

/** newAction is a fresh action of the type at the position: a key of its own, the type's
 * display name as its label, and an empty config for the settings panel to fill. */
export function newAction(type: ActionType, taken: ReadonlySet<string>, at: { x: number; y: number }): Action {
  return {
    action_key: uniqueKey(baseKeyOf(type.action_key), taken),
    label: type.display_name,
    action_type_key: type.action_key,
    config: {},
    ui: { position: at },
  };
}
