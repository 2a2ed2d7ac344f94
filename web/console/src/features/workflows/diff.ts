// The difference between two graphs (two versions, a version and the draft, the draft and a
// patch's result): which actions were added, removed or changed, field by field, and which
// connections were added or removed. Pure, so the versions page and the patch import share
// it and Vitest covers it.
import { edgeId, type Action, type Connection, type ConnectionEdge, type Graph, type NodeMarks } from "../../canvas/graph";
import { clearOf } from "../../canvas/layout";
import { isRecord } from "../../lib/isRecord";

export type Change = NonNullable<NodeMarks["change"]>;

/** FieldChange is one value that differs: its path in the action, before and after
 * (undefined where the field is absent on that side). */
export type FieldChange = { path: string; before: unknown; after: unknown };

export type ActionChange = {
  change: Change;
  /** action is the "to" side's action, or the "from" side's when it was removed. */
  action: Action;
  /** fields are what changed in a changed action; empty for added and removed ones. */
  fields: FieldChange[];
};

export type ConnectionChange = { change: "added" | "removed"; connection: Connection };

export type GraphDiff = {
  actions: ActionChange[];
  connections: ConnectionChange[];
  /** graph is the "to" graph with the removed actions and connections drawn back in, each
   * removed action where no other action is drawn. */
  graph: Graph;
  /** actionChange and edgeChange say what a node or an edge of `graph` is in the diff. */
  actionChange: (actionKey: string) => Change | undefined;
  edgeChange: (edge: ConnectionEdge) => ConnectionChange["change"] | undefined;
};

// What an action is, for a diff. Its position (ui) is where it is drawn, not what it does,
// and category and type_label follow from its type.
const compared = ["label", "action_type_key", "config"] as const;

/** diffGraphs compares the "from" graph with the "to" graph. */
export function diffGraphs(from: Graph, to: Graph): GraphDiff {
  const before = new Map(from.actions.map((a) => [a.action_key, a]));
  const after = new Map(to.actions.map((a) => [a.action_key, a]));
  const actions: ActionChange[] = [];
  for (const a of to.actions) {
    const old = before.get(a.action_key);
    if (!old) {
      actions.push({ change: "added", action: a, fields: [] });
      continue;
    }
    const fields = compared.flatMap((field) => diffValues(field, old[field], a[field]));
    if (fields.length > 0) actions.push({ change: "changed", action: a, fields });
  }
  const removed = from.actions.filter((a) => !after.has(a.action_key));
  actions.push(...removed.map((a): ActionChange => ({ change: "removed", action: a, fields: [] })));

  // A connection is what it joins (edgeId: from, to, branch); its description is a note.
  const fromEdges = new Set(from.connections.map(edgeId));
  const toEdges = new Set(to.connections.map(edgeId));
  const connections: ConnectionChange[] = [
    ...to.connections.filter((c) => !fromEdges.has(edgeId(c))).map((c) => ({ change: "added" as const, connection: c })),
    ...from.connections.filter((c) => !toEdges.has(edgeId(c))).map((c) => ({ change: "removed" as const, connection: c })),
  ];

  const byAction = new Map(actions.map((c) => [c.action.action_key, c.change]));
  const byEdge = new Map(connections.map((c) => [edgeId(c.connection), c.change]));
  return {
    actions,
    connections,
    graph: {
      actions: [...to.actions, ...placeRemoved(to.actions, removed)],
      connections: [...to.connections, ...connections.filter((c) => c.change === "removed").map((c) => c.connection)],
    },
    actionChange: (key) => byAction.get(key),
    edgeChange: (edge) => byEdge.get(edge.id),
  };
}

/** placeRemoved keeps each removed action at its old place unless an action of the "to"
 * graph (or another removed one) now covers it, as one added in its stead does; then it
 * goes down a slot at a time until it is clear. An action without a place stays without:
 * the graph view lays out a graph that has one. */
export function placeRemoved(kept: Action[], removed: Action[]): Action[] {
  const taken = kept.flatMap((a) => (a.ui?.position ? [a.ui.position] : []));
  return removed.map((a) => {
    if (!a.ui?.position) return a;
    const at = clearOf(taken, a.ui.position);
    taken.push(at);
    return { ...a, ui: { ...a.ui, position: at } };
  });
}

/** draftChoice names the draft among the versions a comparison picks from. */
export const draftChoice = "draft";

type ComparedVersion = Graph & { workflow_version_id: string; version_number: number; is_current: boolean };

/** defaultComparison is what the versions page compares first, never a graph with itself:
 * the current version (else the newest) with the draft, or, when the draft is that version
 * unchanged, the version before it with it. */
export function defaultComparison(versions: ComparedVersion[], draft: Graph): { from: string; to: string } {
  const byNumber = [...versions].sort((a, b) => a.version_number - b.version_number);
  const base = byNumber.find((v) => v.is_current) ?? byNumber[byNumber.length - 1];
  if (!base) return { from: draftChoice, to: draftChoice };
  const changes = diffGraphs(base, draft);
  const before = byNumber[byNumber.indexOf(base) - 1];
  if (before && changes.actions.length === 0 && changes.connections.length === 0) return { from: before.workflow_version_id, to: base.workflow_version_id };
  return { from: base.workflow_version_id, to: draftChoice };
}

/** diffValues lists the leaves that differ between two JSON values, by path
 * (`config.headers.Accept`, `config.items[2].name`). */
export function diffValues(path: string, before: unknown, after: unknown): FieldChange[] {
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => diffValues(`${path}.${k}`, before[k], after[k]));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const n = Math.max(before.length, after.length);
    return Array.from({ length: n }, (_, i) => diffValues(`${path}[${i}]`, before[i], after[i])).flat();
  }
  if (sameJSON(before, after)) return [];
  return [{ path, before, after }];
}

// An empty config and an absent one mean the same to the server.
function sameJSON(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) => v === undefined || (isRecord(v) && Object.keys(v).length === 0);
  if (empty(a) && empty(b)) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}
