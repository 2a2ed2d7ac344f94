import { Background, Controls, MiniMap, ReactFlow, ReactFlowProvider, type NodeMouseHandler } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import "./canvas.css";
import { useEffect, useMemo, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { ActionNodeView } from "./ActionNodeView";
import { hasPositions, toFlow, type Action, type ActionNode, type ConnectionEdge, type Graph, type NodeMarks } from "./graph";
import { byKey, useActionTypes } from "./catalog";
import { layout } from "./layout";
import "./texts";

export const nodeTypes = { action: ActionNodeView };

type GraphViewProps = {
  graph: Graph;
  marks?: (a: Action) => NodeMarks;
  /** edgeClass styles an edge by what the view knows of it (taken, added, removed). */
  edgeClass?: (e: ConnectionEdge) => string | undefined;
  onSelect?: (actionKey: string) => void;
  selected?: string;
};

/** GraphView draws a graph read-only: a version, a diff, a run. A graph saved without
 * positions is laid out first. */
export function GraphView(props: GraphViewProps) {
  return (
    <ReactFlowProvider>
      <GraphViewInner {...props} />
    </ReactFlowProvider>
  );
}

function GraphViewInner({ graph, marks, edgeClass, onSelect, selected }: GraphViewProps) {
  const { t } = useTranslation("canvas");
  const types = useActionTypes().data;
  const positioned = useLaidOut(graph);
  // A node whose drawing did not change keeps its object, so a run's live marks redraw
  // only the nodes they changed, not all of them (ReactFlow compares nodes by identity).
  const [drawn] = useState(() => new Map<string, ActionNode>());
  const [drawnEdges] = useState(() => new Map<string, ConnectionEdge>());
  const flow = useMemo(() => {
    if (!positioned || !types) return null;
    const { nodes, edges } = toFlow(positioned, byKey(types), marks);
    return {
      nodes: nodes.map((n): ActionNode => {
        const node: ActionNode = { ...n, selected: n.id === selected, draggable: false, connectable: false };
        const before = drawn.get(n.id);
        if (before && sameNode(before, node)) return before;
        drawn.set(n.id, node);
        return node;
      }),
      edges: edges.map((e) => {
        const edge = { ...e, className: edgeClass?.(e) };
        const before = drawnEdges.get(e.id);
        if (before && before.className === edge.className && before.data?.change === edge.data?.change) return before;
        drawnEdges.set(e.id, edge);
        return edge;
      }),
    };
  }, [positioned, types, marks, edgeClass, selected, drawn, drawnEdges]);
  const click: NodeMouseHandler<ActionNode> = (_, node) => onSelect?.(node.id);
  // Nodes are focusable: Enter or Space on one chooses it as a click does.
  const key = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    const id = (e.target as HTMLElement).closest<HTMLElement>(".react-flow__node")?.dataset.id;
    if (id) onSelect?.(id);
  };
  if (!flow) return <div className="graph-view" aria-busy="true" />;
  return (
    <div className="graph-view" role="group" aria-label={t("graph")} onKeyDown={onSelect && key}>
      <ReactFlow
        nodes={flow.nodes}
        edges={flow.edges}
        nodeTypes={nodeTypes}
        onNodeClick={click}
        nodesDraggable={false}
        nodesConnectable={false}
        fitView
        fitViewOptions={fitClearOfMiniMap}
        minZoom={0.1}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <MiniMap pannable zoomable ariaLabel={t("miniMap")} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}

// The mini-map (150 px high, 15 px from the edge) and the zoom controls sit in the bottom
// corners over the graph: the first view leaves the strip they take free, so neither ever
// covers a node before the person pans.
const fitClearOfMiniMap = { padding: { top: "24px", right: "24px", bottom: "180px", left: "24px" } } as const;

function sameNode(a: ActionNode, b: ActionNode): boolean {
  if (a.selected !== b.selected || a.position !== b.position) return false;
  const keys = new Set([...Object.keys(a.data), ...Object.keys(b.data)]) as Set<keyof ActionNode["data"]>;
  for (const k of keys) {
    const x = a.data[k];
    const y = b.data[k];
    if (x === y) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
  }
  return true;
}

/** useLaidOut is the graph with every action placed: as saved, or laid out by elkjs. */
export function useLaidOut(graph: Graph): Graph | null {
  const [laidOut, setLaidOut] = useState<{ of: Graph; graph: Graph }>();
  const saved = hasPositions(graph);
  useEffect(() => {
    if (saved) return;
    let current = true;
    void layout(graph).then((at) => {
      if (current) setLaidOut({ of: graph, graph: { ...graph, actions: graph.actions.map((a) => ({ ...a, ui: { position: at.get(a.action_key)! } })) } });
    });
    return () => {
      current = false;
    };
  }, [graph, saved]);
  if (saved) return graph;
  return laidOut?.of === graph ? laidOut.graph : null;
}
