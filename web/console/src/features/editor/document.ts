// The draft being edited and the named operations that change it. apply is pure and keeps
// every action and connection it does not touch (the same objects), so the canvas redraws
// only what changed and undo can keep whole drafts cheaply.
import { edgeId, handlesOf, type Action, type Branch, type Connection, type Graph } from "../../canvas/graph";
import type { ActionType } from "../../canvas/catalog";

/** Draft is the unsaved document: the graph and what is saved with it. */
export type Draft = Graph & { test_input_json: Record<string, unknown>; change_description: string };

export type Position = { x: number; y: number };

export type Operation =
  /** addAction adds an action, connected from `after` when given. */
  | { type: "addAction"; action: Action; after?: { from: string; branch: Branch } }
  /** insertAction puts an action in the middle of a connection. */
  | { type: "insertAction"; action: Action; between: Connection }
  | { type: "connect"; connection: Connection }
  | { type: "disconnect"; ids: string[] }
  /** removeActions removes actions with their connections, and the connections named. */
  | { type: "removeActions"; keys: string[]; connectionIds?: string[] }
  | { type: "moveActions"; positions: Record<string, Position> }
  /** updateAction replaces an action; a changed action_key renames its connections' ends. */
  | { type: "updateAction"; key: string; action: Action }
  | { type: "paste"; graph: Graph }
  /** tidy places every action where the layout put it. */
  | { type: "tidy"; positions: Record<string, Position> }
  | { type: "setTestInput"; value: Record<string, unknown> };

/** connectionProblem says why a connection cannot be made, or undefined when it can. */
export function connectionProblem(
  graph: Graph,
  c: Connection,
  types: Map<string, ActionType>,
): "self" | "duplicate" | "trigger" | "branch" | "missing" | undefined {
  const from = graph.actions.find((a) => a.action_key === c.from);
  const to = graph.actions.find((a) => a.action_key === c.to);
  if (!from || !to) return "missing";
  if (c.from === c.to) return "self";
  if (types.get(to.action_type_key)?.trigger) return "trigger";
  if (!handlesOf(from, types.get(from.action_type_key)?.trigger ?? false).includes(c.branch ?? "")) return "branch";
  const id = edgeId(c);
  if (graph.connections.some((x) => edgeId(x) === id)) return "duplicate";
  return undefined;
}

function moved(a: Action, at: Position | undefined): Action {
  if (!at) return a;
  const was = a.ui?.position;
  if (was && was.x === at.x && was.y === at.y) return a;
  return { ...a, ui: { ...a.ui, position: at } };
}

function withConnection(d: Draft, c: Connection): Connection[] {
  const id = edgeId(c);
  return d.connections.some((x) => edgeId(x) === id) || c.from === c.to ? d.connections : [...d.connections, c];
}

/** apply is the draft after the operation; the same draft when the operation changes nothing. */
export function apply(d: Draft, op: Operation): Draft {
  switch (op.type) {
    case "addAction": {
      const actions = [...d.actions, op.action];
      if (!op.after) return { ...d, actions };
      return { ...d, actions, connections: [...d.connections, { from: op.after.from, to: op.action.action_key, branch: op.after.branch }] };
    }
    case "insertAction": {
      const gone = edgeId(op.between);
      const key = op.action.action_key;
      return {
        ...d,
        actions: [...d.actions, op.action],
        connections: [
          ...d.connections.filter((c) => edgeId(c) !== gone),
          { from: op.between.from, to: key, branch: op.between.branch ?? "" },
          { from: key, to: op.between.to, branch: "" },
        ],
      };
    }
    case "connect": {
      const connections = withConnection(d, op.connection);
      return connections === d.connections ? d : { ...d, connections };
    }
    case "disconnect": {
      const ids = new Set(op.ids);
      const connections = d.connections.filter((c) => !ids.has(edgeId(c)));
      return connections.length === d.connections.length ? d : { ...d, connections };
    }
    case "removeActions": {
      const keys = new Set(op.keys);
      const ids = new Set(op.connectionIds);
      const actions = d.actions.filter((a) => !keys.has(a.action_key));
      const connections = d.connections.filter((c) => !keys.has(c.from) && !keys.has(c.to) && !ids.has(edgeId(c)));
      if (actions.length === d.actions.length && connections.length === d.connections.length) return d;
      return { ...d, actions, connections };
    }
    case "moveActions":
    case "tidy": {
      let changed = false;
      const actions = d.actions.map((a) => {
        const next = moved(a, op.positions[a.action_key]);
        changed ||= next !== a;
        return next;
      });
      return changed ? { ...d, actions } : d;
    }
    case "updateAction": {
      const i = d.actions.findIndex((a) => a.action_key === op.key);
      if (i < 0 || d.actions[i] === op.action) return d;
      const actions = d.actions.slice();
      actions[i] = op.action;
      const to = op.action.action_key;
      if (to === op.key) return { ...d, actions };
      const rename = (k: string) => (k === op.key ? to : k);
      const connections = d.connections.map((c) => (c.from === op.key || c.to === op.key ? { ...c, from: rename(c.from), to: rename(c.to) } : c));
      return { ...d, actions, connections };
    }
    case "paste":
      if (op.graph.actions.length === 0) return d;
      return { ...d, actions: [...d.actions, ...op.graph.actions], connections: [...d.connections, ...op.graph.connections] };
    case "setTestInput":
      return { ...d, test_input_json: op.value };
  }
}
