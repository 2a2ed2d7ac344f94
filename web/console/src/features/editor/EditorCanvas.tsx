import {
  Background,
  Controls,
  MiniMap,
  NodeToolbar,
  Position,
  ReactFlow,
  useReactFlow,
  type Connection as FlowConnection,
  type EdgeChange,
  type NodeChange,
  type OnNodeDrag,
  type XYPosition,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import "../../canvas/canvas.css";
import { useCallback, useMemo, useState, type DragEvent, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { nodeTypes } from "../../canvas/GraphView";
import { useBranchLabel } from "../../canvas/branchLabel";
import { branchOfHandle, loopsOf, NODE_HEIGHT, NODE_WIDTH, outputsOf, type Action, type ActionNode, type Branch, type Connection, type ConnectionEdge } from "../../canvas/graph";
import type { ActionType } from "../../canvas/catalog";
import { ACTION_TYPE_MIME } from "./ActionPalette";
import type { Draft, Position as At } from "./document";
import { edgesOf, nodesOf, type Size } from "./flowElements";
import { InsertableEdge } from "./InsertableEdge";
import { nudgeOf } from "./shortcuts";
import type { Selection } from "./selection";
import "../../canvas/texts";
import "./texts";

const edgeTypes = { insertable: InsertableEdge };

type EditorCanvasProps = {
  draft: Draft;
  types: Map<string, ActionType>;
  selection: Selection;
  onSelectionChange: (update: (s: Selection) => Selection) => void;
  issues: ReadonlyMap<string, string[]>;
  statuses: ReadonlyMap<string, string> | undefined;
  onMove: (positions: Record<string, At>, group?: string) => void;
  onConnect: (c: Connection) => void;
  /** canConnect tells React Flow, while a connection is dragged, whether it may end here. */
  canConnect: (c: Connection) => boolean;
  onDropType: (typeKey: string, at: At) => void;
  onAddAfter: (from: string, branch: Branch) => void;
};

function connectionOf(c: FlowConnection | ConnectionEdge): Connection {
  return { from: c.source, to: c.target, branch: branchOfHandle(c.sourceHandle) };
}

/** EditorCanvas is the draft drawn for editing: drag to move, handles to connect, click,
 * Shift-click or a selection box to select, arrow keys to move the selection. */
export function EditorCanvas(props: EditorCanvasProps) {
  const { draft, types, selection, onSelectionChange, issues, statuses, onMove, onConnect, canConnect, onDropType, onAddAfter } = props;
  const { t } = useTranslation("editor");
  const tc = useTranslation("canvas").t;
  const { screenToFlowPosition } = useReactFlow();
  const [measured, setMeasured] = useState<ReadonlyMap<string, Size>>(new Map());
  const [dragging, setDragging] = useState<ReadonlyMap<string, XYPosition>>(new Map());

  // Which actions run per item; a drag moves actions and so computes it again, cheaply.
  const loops = useMemo(() => loopsOf({ actions: draft.actions, connections: draft.connections }), [draft.actions, draft.connections]);
  const nodes = useMemo(
    () => nodesOf(draft.actions, { types, selected: selection.actions, measured, dragging, issues, statuses, loops }),
    [draft.actions, types, selection.actions, measured, dragging, issues, statuses, loops],
  );
  const edges = useMemo(() => edgesOf(draft.connections, selection.edges), [draft.connections, selection.edges]);

  const onNodesChange = useCallback(
    (changes: NodeChange<ActionNode>[]) => {
      const sizes = new Map<string, Size>();
      const moves = new Map<string, XYPosition>();
      const picks = new Map<string, boolean>();
      for (const c of changes) {
        if (c.type === "dimensions" && c.dimensions) sizes.set(c.id, c.dimensions);
        else if (c.type === "position" && c.dragging && c.position) moves.set(c.id, c.position);
        else if (c.type === "select") picks.set(c.id, c.selected);
      }
      if (sizes.size) setMeasured((m) => new Map([...m, ...sizes]));
      if (moves.size) setDragging((d) => new Map([...d, ...moves]));
      if (picks.size) onSelectionChange((s) => ({ ...s, actions: toggled(s.actions, picks) }));
    },
    [onSelectionChange],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange<ConnectionEdge>[]) => {
      const picks = new Map<string, boolean>();
      for (const c of changes) if (c.type === "select") picks.set(c.id, c.selected);
      if (picks.size) onSelectionChange((s) => ({ ...s, edges: toggled(s.edges, picks) }));
    },
    [onSelectionChange],
  );
  const onNodeDragStop: OnNodeDrag<ActionNode> = (_, __, dragged) => {
    onMove(Object.fromEntries(dragged.map((n) => [n.id, { x: Math.round(n.position.x), y: Math.round(n.position.y) }])));
    setDragging(new Map());
  };

  const onDrop = (e: DragEvent) => {
    const typeKey = e.dataTransfer.getData(ACTION_TYPE_MIME);
    if (!typeKey) return;
    e.preventDefault();
    const at = screenToFlowPosition({ x: e.clientX, y: e.clientY });
    onDropType(typeKey, { x: Math.round(at.x - NODE_WIDTH / 2), y: Math.round(at.y - NODE_HEIGHT / 2) });
  };
  const onDragOver = (e: DragEvent) => {
    if (!e.dataTransfer.types.includes(ACTION_TYPE_MIME)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  };

  // Arrow keys move the selected actions by our steps, as one undo step per burst, instead
  // of React Flow's own 5 px moves that would not reach the draft.
  const onKeyDownCapture = (e: KeyboardEvent) => {
    const delta = nudgeOf(e);
    const target = e.target as HTMLElement;
    if (!delta || selection.actions.size === 0 || target.closest("input, textarea, select, button, .cm-editor")) return;
    e.preventDefault();
    e.stopPropagation();
    const positions: Record<string, At> = {};
    for (const a of draft.actions) {
      if (!selection.actions.has(a.action_key)) continue;
      const at = a.ui?.position ?? { x: 0, y: 0 };
      positions[a.action_key] = { x: at.x + delta.x, y: at.y + delta.y };
    }
    onMove(positions, "nudge");
  };

  const single = selection.actions.size === 1 ? draft.actions.find((a) => selection.actions.has(a.action_key)) : undefined;
  return (
    <div className="editor-canvas" role="group" aria-label={t("canvas")} onDrop={onDrop} onDragOver={onDragOver} onKeyDownCapture={onKeyDownCapture}>
      <ReactFlow<ActionNode, ConnectionEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onNodeDragStop={onNodeDragStop}
        onConnect={(c) => onConnect(connectionOf(c))}
        isValidConnection={(c) => canConnect(connectionOf(c))}
        deleteKeyCode={null}
        multiSelectionKeyCode={["Shift", "Meta", "Control"]}
        nodesFocusable
        edgesFocusable
        fitView
        fitViewOptions={{ maxZoom: 1 }}
        minZoom={0.1}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        {draft.actions.length === 0 && <p className="canvas-empty">{t("canvasEmpty")}</p>}
        <MiniMap pannable zoomable ariaLabel={tc("miniMap")} />
        <Controls showInteractive={false} />
        {single && dragging.size === 0 && <AddAfterButtons action={single} onAddAfter={onAddAfter} />}
      </ReactFlow>
    </div>
  );
}

/** AddAfterButtons are the selected action's "+" buttons, one per way on, beside its handles
 * but off the node's right side, where the branches' edges leave: the first of several
 * outputs above the node, the others (or the only one) in a row below it. */
function AddAfterButtons({ action, onAddAfter }: { action: Action; onAddAfter: (from: string, branch: Branch) => void }) {
  const outputs = outputsOf(action);
  const [above, below] = outputs.length > 1 ? [outputs.slice(0, 1), outputs.slice(1)] : [[], outputs];
  return (
    <>
      {above.length > 0 && <AddAfterRow action={action} branches={above} position={Position.Top} onAddAfter={onAddAfter} />}
      <AddAfterRow action={action} branches={below} position={Position.Bottom} onAddAfter={onAddAfter} />
    </>
  );
}

function AddAfterRow({ action, branches, position, onAddAfter }: { action: Action; branches: Branch[]; position: Position; onAddAfter: (from: string, branch: Branch) => void }) {
  const { t } = useTranslation("editor");
  const branchLabel = useBranchLabel();
  return (
    <NodeToolbar nodeId={action.action_key} position={position} align="end" offset={6} isVisible className="node-add-after">
      {branches.map((branch) => {
        const name = branch ? t("addAfterBranch", { branch: branchLabel(branch) }) : t("addAfter");
        return (
          <button key={branch} type="button" onClick={() => onAddAfter(action.action_key, branch)} aria-label={name} title={name}>
            +{branch && <span className="branch-name"> {branchLabel(branch)}</span>}
          </button>
        );
      })}
    </NodeToolbar>
  );
}

function toggled(set: ReadonlySet<string>, picks: Map<string, boolean>): ReadonlySet<string> {
  const next = new Set(set);
  for (const [id, on] of picks) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}
