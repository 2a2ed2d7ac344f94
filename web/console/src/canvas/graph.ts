// The one conversion between the API's graph (actions and connections, as a draft or a
// version holds them) and the canvas's nodes and edges. The editor, the version diff and
// the run inspector all draw through it.
import type { Edge, Node } from "@xyflow/react";
import type { components } from "../api/schema.gen";
import type { ActionType } from "./catalog";

export type Action = components["schemas"]["Action"];
export type Connection = components["schemas"]["Connection"];
export type Branch = NonNullable<Connection["branch"]>;
export type Graph = { actions: Action[]; connections: Connection[] };

/** The branch a failed action takes instead of failing the run; any action but a trigger
 * may have it. */
export const ERROR_BRANCH = "error";

/** A loop.for_each runs the actions its "each" branch leads to, its body, once per item, then
 * takes "done" (automation.TypeLoop, BranchEach, BranchDone). */
export const LOOP_TYPE = "loop.for_each";
export const EACH_BRANCH = "each";
export const DONE_BRANCH = "done";

/** An approval.wait waits for a person's decision and goes on along approved, rejected or
 * timeout (automation.TypeApproval). */
export const APPROVAL_TYPE = "approval.wait";

/** The ways on from an action, as the server's automation.Branches has them: most have one
 * (""), a condition true and false, a reply wait "" and timeout, a loop each and done, an
 * approval approved, rejected and timeout, a switch its case names
 * and, where it is on, default. Besides these, every action but a trigger has the error
 * branch (handlesOf). */
export function outputsOf(action: Pick<Action, "action_type_key" | "config">): Branch[] {
  switch (action.action_type_key) {
    case "condition.branch":
      return ["true", "false"];
    case "bot.wait_for_reply":
      return ["", "timeout"];
    case LOOP_TYPE:
      return [EACH_BRANCH, DONE_BRANCH];
    case APPROVAL_TYPE:
      return ["approved", "rejected", "timeout"];
    case "condition.switch": {
      const cases = Array.isArray(action.config?.cases) ? (action.config.cases as { name?: unknown }[]) : [];
      const names = cases.map((c) => (typeof c?.name === "string" ? c.name : "")).filter((n) => n !== "");
      return action.config?.default === false ? names : [...names, "default"];
    }
    default:
      return [""];
  }
}

/** handlesOf are the branches an action's connections may leave it by: its ways on, and
 * the error branch unless it is a trigger. */
export function handlesOf(action: Pick<Action, "action_type_key" | "config">, trigger: boolean): Branch[] {
  return trigger ? outputsOf(action) : [...outputsOf(action), ERROR_BRANCH];
}

/** loopBody is the body of a loop: the actions its "each" connections lead to and everything
 * reachable from them, as the server's Graph.LoopBody (a valid body connects to nothing
 * outside it, so this is also all that runs per item). */
export function loopBody(graph: Graph, loopKey: string): Set<string> {
  const outgoing = new Map<string, string[]>();
  for (const c of graph.connections) outgoing.set(c.from, [...(outgoing.get(c.from) ?? []), c.to]);
  const body = new Set<string>();
  const frontier = graph.connections.filter((c) => c.from === loopKey && c.branch === EACH_BRANCH).map((c) => c.to);
  while (frontier.length > 0) {
    const key = frontier.pop()!;
    if (body.has(key)) continue;
    body.add(key);
    frontier.push(...(outgoing.get(key) ?? []));
  }
  return body;
}

/** loopsOf maps each action inside a loop's body to its innermost loop: of the bodies that
 * hold it, the smallest (an inner loop's body lies inside its outer loop's). */
export function loopsOf(graph: Graph): Map<string, string> {
  const bodies = graph.actions.filter((a) => a.action_type_key === LOOP_TYPE).map((a) => ({ loop: a.action_key, body: loopBody(graph, a.action_key) }));
  bodies.sort((a, b) => a.body.size - b.body.size);
  const out = new Map<string, string>();
  for (const { loop, body } of bodies) for (const key of body) if (!out.has(key)) out.set(key, loop);
  return out;
}

/** What a node shows besides its action; each view fills what it knows. */
export type NodeMarks = {
  /** issues are the draft's diagnostics on the action, as the API words them. */
  issues?: string[];
  /** status is the action's receipt status in a run. */
  status?: string;
  /** change marks the action in a diff of two graphs. */
  change?: "added" | "removed" | "changed";
  /** dimmed is an action a run did not reach. */
  dimmed?: boolean;
  /** inLoop marks an action of a loop's body, which runs once per item; a run's view without
   * an item chosen says so instead of a status. */
  inLoop?: "body" | "per_item";
};

/** statusGlyph is the sign beside a run's or an action's status word, so that status is
 * never told by colour alone; the runs list and the inspector use it too. */
export const statusGlyph: Record<string, string> = {
  pending: "○",
  running: "◔",
  retrying: "↻",
  waiting: "◷",
  succeeded: "✓",
  failed: "✕",
  dead_lettered: "⚠",
  skipped: "–",
  cancelled: "⊘",
};

export type ActionNodeData = NodeMarks & {
  action: Action;
  /** typeName is the catalog's display name, or the key of a type the catalog lacks. */
  typeName: string;
  category: string;
  trigger: boolean;
  outputs: Branch[];
};

export type ActionNode = Node<ActionNodeData, "action">;
export type ConnectionEdge = Edge<{ branch: Branch; change?: NodeMarks["change"]; taken?: boolean }>;

/** Node size used by the layout; the node's stylesheet keeps to it. */
export const NODE_WIDTH = 232;
export const NODE_HEIGHT = 72;

export function edgeId(c: Connection): string {
  return `${c.from}->${c.to}:${c.branch ?? ""}`;
}

/** handleId names an output handle; the default output is "out". */
export function handleId(branch: Branch): string {
  return branch === "" ? "out" : branch;
}

export function branchOfHandle(handle: string | null | undefined): Branch {
  return !handle || handle === "out" ? "" : (handle as Branch);
}

/** toFlow turns a graph into canvas nodes and edges, a loop's body marked as such; marks adds
 * each view's overlays. */
export function toFlow(
  graph: Graph,
  types: Map<string, ActionType>,
  marks: (a: Action) => NodeMarks = () => ({}),
): { nodes: ActionNode[]; edges: ConnectionEdge[] } {
  const loops = loopsOf(graph);
  return {
    nodes: graph.actions.map((action, i) =>
      actionNode(action, types.get(action.action_type_key), { ...(loops.has(action.action_key) && { inLoop: "body" }), ...marks(action) }, i),
    ),
    edges: graph.connections.map(connectionEdge),
  };
}

/** actionNode is one action's node (toFlow's, for views that redraw only what changed);
 * i places an action saved without a position. */
export function actionNode(action: Action, type: ActionType | undefined, marks: NodeMarks, i = 0): ActionNode {
  return {
    id: action.action_key,
    type: "action",
    position: action.ui?.position ?? { x: 0, y: i * (NODE_HEIGHT + 40) },
    // The size the minimap and the first fit use until the node is measured.
    initialWidth: NODE_WIDTH,
    initialHeight: NODE_HEIGHT,
    data: {
      action,
      typeName: type?.display_name ?? action.type_label ?? action.action_type_key,
      category: type?.category ?? action.category ?? "",
      trigger: type?.trigger ?? false,
      outputs: handlesOf(action, type?.trigger ?? false),
      ...marks,
    },
  };
}

/** connectionEdge is one connection's edge, leaving its branch's handle (which names the
 * branch, so the edge needs no label of its own). */
export function connectionEdge(c: Connection): ConnectionEdge {
  return {
    id: edgeId(c),
    source: c.from,
    target: c.to,
    sourceHandle: handleId(c.branch ?? ""),
    data: { branch: c.branch ?? "" },
  };
}

/** fromFlow turns canvas nodes and edges back into a graph, positions kept in ui.position. */
export function fromFlow(nodes: ActionNode[], edges: ConnectionEdge[]): Graph {
  return {
    actions: nodes.map((n) => ({
      ...n.data.action,
      ui: { position: { x: Math.round(n.position.x), y: Math.round(n.position.y) } },
    })),
    connections: edges.map((e) => ({ from: e.source, to: e.target, branch: e.data?.branch ?? branchOfHandle(e.sourceHandle) })),
  };
}

/** hasPositions tells whether every action has a saved position (else lay the graph out). */
export function hasPositions(graph: Graph): boolean {
  return graph.actions.every((a) => a.ui?.position);
}
