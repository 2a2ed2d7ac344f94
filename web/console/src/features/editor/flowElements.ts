// The editor's nodes and edges, derived from the draft on every change but rebuilt only for
// the actions and connections that changed: each node is remembered beside the action
// object it was made from (the draft shares untouched actions between changes), so a drag
// of one node among 300 hands React Flow 299 identical nodes.
import type { XYPosition } from "@xyflow/react";
import { actionNode, connectionEdge, edgeId, type Action, type ActionNode, type Connection, type ConnectionEdge } from "../../canvas/graph";
import type { ActionType } from "../../canvas/catalog";

export type Size = { width: number; height: number };

type NodeInputs = {
  type: ActionType | undefined;
  selected: boolean;
  measured: Size | undefined;
  position: XYPosition | undefined;
  issues: string[] | undefined;
  status: string | undefined;
  inLoop: boolean;
};

const nodes = new WeakMap<Action, { inputs: NodeInputs; node: ActionNode }>();
const edges = new WeakMap<Connection, { selected: boolean; edge: ConnectionEdge }>();

function same(a: NodeInputs, b: NodeInputs): boolean {
  return a.type === b.type && a.selected === b.selected && a.measured === b.measured && a.position === b.position && a.issues === b.issues && a.status === b.status && a.inLoop === b.inLoop;
}

export type NodeView = {
  types: Map<string, ActionType>;
  selected: ReadonlySet<string>;
  measured: ReadonlyMap<string, Size>;
  /** dragging holds the positions of nodes being dragged, until the drag ends. */
  dragging: ReadonlyMap<string, XYPosition>;
  issues: ReadonlyMap<string, string[]>;
  statuses: ReadonlyMap<string, string> | undefined;
  /** loops maps the actions inside a loop's body to their loop (loopsOf). */
  loops: ReadonlyMap<string, string>;
};

export function nodesOf(actions: Action[], view: NodeView): ActionNode[] {
  return actions.map((action, i) => {
    const key = action.action_key;
    const inputs: NodeInputs = {
      type: view.types.get(action.action_type_key),
      selected: view.selected.has(key),
      measured: view.measured.get(key),
      position: view.dragging.get(key),
      issues: view.issues.get(key),
      status: view.statuses?.get(key),
      inLoop: view.loops.has(key),
    };
    const known = nodes.get(action);
    if (known && same(known.inputs, inputs)) return known.node;
    const node = actionNode(action, inputs.type, { issues: inputs.issues, status: inputs.status, inLoop: inputs.inLoop ? "body" : undefined }, i);
    // A node only measured, selected or moved keeps its data, so its view does not redraw.
    const sameData = known && known.inputs.type === inputs.type && known.inputs.issues === inputs.issues && known.inputs.status === inputs.status && known.inputs.inLoop === inputs.inLoop;
    const made: ActionNode = {
      ...node,
      data: sameData ? known.node.data : node.data,
      position: inputs.position ?? node.position,
      selected: inputs.selected,
      measured: inputs.measured,
      ariaLabel: `${action.label || key}: ${node.data.typeName}`,
    };
    nodes.set(action, { inputs, node: made });
    return made;
  });
}

export function edgesOf(connections: Connection[], selected: ReadonlySet<string>): ConnectionEdge[] {
  return connections.map((c) => {
    const isSelected = selected.has(edgeId(c));
    const known = edges.get(c);
    if (known && known.selected === isSelected) return known.edge;
    const made: ConnectionEdge = { ...connectionEdge(c), type: "insertable", selected: isSelected };
    edges.set(c, { selected: isSelected, edge: made });
    return made;
  });
}
