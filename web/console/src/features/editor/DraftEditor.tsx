import { useMutation } from "@tanstack/react-query";
import { useReactFlow } from "@xyflow/react";
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { api, data } from "../../api/client";
import { byKey, type ActionType } from "../../canvas/catalog";
import { useBranchLabel } from "../../canvas/branchLabel";
import { edgeId, NODE_HEIGHT, NODE_WIDTH, outputsOf, type Action, type Branch, type Connection, type Graph } from "../../canvas/graph";
import { clearOf, layout } from "../../canvas/layout";
import { ProblemAlert } from "../../components/ProblemAlert";
import { RunInputDialog } from "../workflows/RunInputDialog";
import { sampleOf, testedTrigger, testInputOf } from "../workflows/runInput";
import { WorkflowTabs } from "../workflows/WorkflowTabs";
import { opensOnPalette, type Workflow } from "../workflows/workflow";
import { ActionPalette } from "./ActionPalette";
import { ActionSettings } from "./ActionSettings";
import { ConflictBanner } from "./ConflictBanner";
import { diagnosticText, type ErrorText } from "./config/errors";
import "./config/texts";
import { currentDiagnostics } from "./diagnostics";
import { DiagnosticsPanel } from "./DiagnosticsPanel";
import { connectionProblem, type Draft, type Operation, type Position } from "./document";
import { EditorCanvas } from "./EditorCanvas";
import { EditorToolbar } from "./EditorToolbar";
import { begin, commit, redo, undo } from "./history";
import { InsertContext } from "./InsertableEdge";
import { copyToClipboard, DUPLICATE_OFFSET, nextPaste } from "./clipboard";
import { clipOf, copyOf, newAction } from "./keys";
import { LeaveGuard } from "./LeaveGuard";
import { nothingSelected, selectActions, type Selection } from "./selection";
import { SelectionBar } from "./SelectionBar";
import { commandOf, type Command } from "./shortcuts";
import { TestRunBar, useTestRunStatuses } from "./TestRunBar";
import { useDraftSave } from "./useDraftSave";
import "./editor.css";
import "../../canvas/texts";
import "./texts";

/** Where the next action from the palette goes, when a "+" chose the place. */
type Target = { kind: "after"; from: string; branch: Branch } | { kind: "between"; connection: Connection };

const GAP_X = 80;
const GAP_Y = 40;

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || !!target.closest("input, textarea, select, .cm-editor"));
}

type DraftEditorProps = {
  workflow: Workflow;
  initial: Draft;
  types: ActionType[];
  /** onReload loads the draft from the server again, dropping this one. */
  onReload: () => void;
};

/** DraftEditor edits a workflow's draft: the palette, the canvas, the selected action's
 * settings, and the draft's saving, test input and test run. */
export function DraftEditor({ workflow, initial, types, onReload }: DraftEditorProps) {
  const { t } = useTranslation("editor");
  const branchLabel = useBranchLabel();
  const workflowId = workflow.workflow_id;
  const flow = useReactFlow();
  const [history, setHistory] = useState(() => begin(initial));
  const [loadedRevision] = useState(workflow.draft.revision);
  const [selection, setSelection] = useState<Selection>(nothingSelected);
  const [target, setTarget] = useState<Target>();
  const [notice, setNotice] = useState("");
  const [editingInput, setEditingInput] = useState(false);
  const [runId, setRunId] = useState<string>();
  const canvasCell = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const present = history.present;
  const typeMap = useMemo(() => byKey(types), [types]);
  const saving = useDraftSave(workflowId, present, initial, loadedRevision);
  const run = useTestRunStatuses(runId);
  const testInput = useMemo(
    () => testInputOf(present.test_input_json, sampleOf(testedTrigger(present.actions, (key) => !!typeMap.get(key)?.trigger))),
    [present.test_input_json, present.actions, typeMap],
  );
  // A workflow just created opens with the focus in the palette's search: adding the
  // first action is all there is to do.
  const location = useLocation();
  useEffect(() => {
    if (opensOnPalette(location.state)) searchRef.current?.focus();
  }, [location.state]);

  const diagnostics = useMemo(() => currentDiagnostics(workflow.diagnostics, present, workflow.draft), [workflow.diagnostics, present, workflow.draft]);
  const configText = useTranslation("config").t;
  const issues = useMemo(() => {
    const text: ErrorText = (key, values) => configText(`errors.${key}`, values ?? {});
    const byAction = new Map<string, string[]>();
    for (const d of diagnostics) if (d.action_key) byAction.set(d.action_key, [...(byAction.get(d.action_key) ?? []), diagnosticText(d, text)]);
    return byAction;
  }, [diagnostics, configText]);

  const apply = useCallback((op: Operation, group?: string) => {
    setNotice("");
    setHistory((h) => commit(h, op, Date.now(), group));
  }, []);

  const actionOf = (key: string) => present.actions.find((a) => a.action_key === key);
  const selectedActions = present.actions.filter((a) => selection.actions.has(a.action_key));
  const single = selectedActions.length === 1 ? selectedActions[0] : undefined;

  /** freeSpot is at, or the first place below it that no action's box covers. */
  const freeSpot = (at: Position): Position => clearOf(present.actions.flatMap((a) => (a.ui?.position ? [a.ui.position] : [])), at);
  const canvasBox = () => canvasCell.current?.querySelector(".editor-canvas")?.getBoundingClientRect();
  const centre = (): Position => {
    const box = canvasBox();
    if (!box) return { x: 0, y: 0 };
    const at = flow.screenToFlowPosition({ x: box.left + box.width / 2, y: box.top + box.height / 2 });
    return { x: Math.round(at.x - NODE_WIDTH / 2), y: Math.round(at.y - NODE_HEIGHT / 2) };
  };
  /** reveal pans the canvas, keeping the zoom, just far enough to show an action placed
   * out of sight: centring it instead would push the action it follows out of sight. */
  const reveal = (at: Position) => {
    const box = canvasBox();
    if (!box) return;
    const { x, y, zoom } = flow.getViewport();
    const margin = 24 / zoom;
    const width = box.width / zoom;
    const height = box.height / zoom;
    const into = (start: number, size: number, view: number, from: number) =>
      start < from ? start - margin : start + size > from + view ? Math.min(start - margin, start + size + margin - view) : from;
    const left = into(at.x, NODE_WIDTH, width, -x / zoom);
    const top = into(at.y, NODE_HEIGHT, height, -y / zoom);
    if (left !== -x / zoom || top !== -y / zoom) void flow.setViewport({ x: -left * zoom, y: -top * zoom, zoom }, { duration: 200 });
  };
  const after = (from: Action, branch: Branch): Position => {
    const at = from.ui?.position ?? { x: 0, y: 0 };
    const row = outputsOf(from).indexOf(branch) + present.connections.filter((c) => c.from === from.action_key).length;
    return freeSpot({ x: at.x + NODE_WIDTH + GAP_X, y: at.y + Math.max(0, row) * (NODE_HEIGHT + GAP_Y) });
  };

  /** addAction adds an action of the type: where it was dropped, where a "+" said, after
   * the one selected action (connected), or in the middle of the canvas. */
  const addAction = (typeKey: string, droppedAt?: Position) => {
    const type = typeMap.get(typeKey);
    if (!type) return;
    const taken = new Set(present.actions.map((a) => a.action_key));
    const place = (at: Position) => newAction(type, taken, at);
    let action: Action;
    if (droppedAt) {
      action = place(droppedAt);
      apply({ type: "addAction", action });
    } else if (target?.kind === "between") {
      const from = actionOf(target.connection.from)?.ui?.position ?? { x: 0, y: 0 };
      const to = actionOf(target.connection.to)?.ui?.position ?? from;
      action = place(freeSpot({ x: Math.round((from.x + to.x) / 2), y: Math.round((from.y + to.y) / 2 + NODE_HEIGHT + GAP_Y) }));
      apply({ type: "insertAction", action, between: target.connection });
    } else {
      const from = target?.kind === "after" ? actionOf(target.from) : single;
      const branch = target?.kind === "after" ? target.branch : from && firstFreeOutput(from, present.connections);
      action = place(from && branch !== undefined ? after(from, branch) : freeSpot(centre()));
      apply({ type: "addAction", action, after: from && branch !== undefined && !type.trigger ? { from: from.action_key, branch } : undefined });
    }
    setTarget(undefined);
    setSelection(selectActions([action.action_key]));
    if (action.ui?.position) reveal(action.ui.position);
  };

  const connect = (c: Connection) => {
    const problem = connectionProblem(present, c, typeMap);
    if (problem === "missing") return;
    if (problem) {
      setNotice(t(problemText[problem]));
      return;
    }
    apply({ type: "connect", connection: c });
  };

  const removeSelection = () => {
    if (selection.actions.size === 0 && selection.edges.size === 0) return false;
    apply({ type: "removeActions", keys: [...selection.actions], connectionIds: [...selection.edges] });
    setSelection(nothingSelected);
    return true;
  };
  const pasteGraph = (graph: Graph, offset: number) => {
    const copy = copyOf(graph, new Set(present.actions.map((a) => a.action_key)), { x: offset, y: offset });
    apply({ type: "paste", graph: copy });
    setSelection(selectActions(copy.actions.map((a) => a.action_key)));
    const first = copy.actions[0]?.ui?.position;
    if (first) reveal(first);
  };
  const duplicate = () => {
    if (selection.actions.size > 0) pasteGraph(clipOf(present, selection.actions), DUPLICATE_OFFSET);
  };
  const tidy = async () => {
    const at = await layout(present);
    apply({ type: "tidy", positions: Object.fromEntries([...at].map(([k, p]) => [k, { x: Math.round(p.x), y: Math.round(p.y) }])) });
    requestAnimationFrame(() => void flow.fitView({ duration: 200 }));
  };
  const show = (key: string) => {
    setSelection(selectActions([key]));
    void flow.fitView({ nodes: [{ id: key }], maxZoom: 1, duration: 200 });
  };

  const testRun = useMutation({
    mutationFn: (input: Record<string, unknown>) =>
      data(api.POST("/api/v1/workflows/{workflow_id}/test-runs", { params: { path: { workflow_id: workflowId } }, body: { input } })),
    onSuccess: (r) => setRunId(r.workflow_run_id),
  });
  const startTestRun = async () => {
    if (await saving.save()) testRun.mutate(testInput);
  };

  const perform = (cmd: Command): boolean => {
    switch (cmd) {
      case "undo":
        setHistory(undo);
        return true;
      case "redo":
        setHistory(redo);
        return true;
      case "save":
        void saving.save();
        return true;
      case "delete":
        return removeSelection();
      case "copy":
        if (selection.actions.size === 0 || window.getSelection()?.toString()) return false;
        copyToClipboard(clipOf(present, selection.actions));
        return true;
      case "paste": {
        const paste = nextPaste();
        if (paste) pasteGraph(paste.graph, paste.offset);
        return !!paste;
      }
      case "duplicate":
        duplicate();
        return true;
    }
  };
  const onKeyDown = useEffectEvent((e: KeyboardEvent) => {
    const cmd = commandOf(e);
    if (!cmd || document.querySelector("dialog[open]")) return;
    if (cmd !== "save" && isTyping(e.target)) return;
    if (perform(cmd)) e.preventDefault();
  });
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKeyDown(e);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);

  const insertOnEdge = useCallback(
    (id: string) => {
      const connection = present.connections.find((c) => edgeId(c) === id);
      if (!connection) return;
      setTarget({ kind: "between", connection });
      searchRef.current?.focus();
    },
    [present.connections],
  );
  const addAfter = useCallback((from: string, branch: Branch) => {
    setTarget({ kind: "after", from, branch });
    searchRef.current?.focus();
  }, []);
  const move = useCallback((positions: Record<string, Position>, group?: string) => apply({ type: "moveActions", positions }, group), [apply]);
  const canConnect = useCallback((c: Connection) => !connectionProblem(present, c, typeMap), [present, typeMap]);

  const labelOf = (key: string) => {
    const a = actionOf(key);
    return a && (a.label || a.action_key);
  };
  const targetText = (() => {
    if (target?.kind === "between") return t("addsBetween", { from: labelOf(target.connection.from), to: labelOf(target.connection.to) });
    const from = target?.kind === "after" ? actionOf(target.from) : single;
    const branch = target?.kind === "after" ? target.branch : from && firstFreeOutput(from, present.connections);
    if (!from || branch === undefined) return t("addsAtCentre");
    return outputsOf(from).length > 1 ? t("addsAfterBranch", { label: labelOf(from.action_key), branch: branchLabel(branch) }) : t("addsAfter", { label: labelOf(from.action_key) });
  })();

  return (
    <div className="editor-page">
      <WorkflowTabs workflowId={workflowId}>
        <EditorToolbar
          state={saving.state}
          canUndo={history.past.length > 0}
          canRedo={history.future.length > 0}
          onUndo={() => setHistory(undo)}
          onRedo={() => setHistory(redo)}
          onTidy={() => void tidy()}
          onTestInput={() => setEditingInput(true)}
          onTestRun={() => void startTestRun()}
          testRunStarting={testRun.isPending}
          onSave={() => void saving.save()}
        />
      </WorkflowTabs>
      {saving.state === "conflict" && <ConflictBanner onLoadTheirs={onReload} onKeepMine={() => void saving.keepMine()} />}
      <ProblemAlert error={saving.error ?? testRun.error} />
      {runId && <TestRunBar runId={runId} status={run.run?.status} error={run.error} onClear={() => setRunId(undefined)} />}
      <DiagnosticsPanel diagnostics={diagnostics} labelOf={labelOf} onShow={show} />
      <div className={single ? "editor-body with-settings" : "editor-body"}>
        <ActionPalette types={types} target={targetText} onCancelTarget={target && (() => setTarget(undefined))} onAdd={addAction} searchRef={searchRef} />
        <div className="editor-canvas-cell" ref={canvasCell}>
          <SelectionBar actions={present.actions} types={typeMap} selected={selectedActions} onConnect={connect} onDuplicate={duplicate} onDelete={removeSelection} />
          {notice && (
            <p className="editor-problem" role="status">
              {notice}
            </p>
          )}
          <InsertContext value={insertOnEdge}>
            <EditorCanvas
              draft={present}
              types={typeMap}
              selection={selection}
              onSelectionChange={setSelection}
              issues={issues}
              statuses={run.statuses}
              onMove={move}
              onConnect={connect}
              canConnect={canConnect}
              onDropType={addAction}
              onAddAfter={addAfter}
            />
          </InsertContext>
          <p className="muted shortcuts" title={t("shortcuts")}>
            {t("shortcuts")}
          </p>
        </div>
        {single && (
          <ActionSettings
            key={present.actions.indexOf(single)}
            action={single}
            actionType={typeMap.get(single.action_type_key)}
            graph={present}
            projectId={workflow.project_id}
            testInput={testInput}
            diagnostics={diagnostics.filter((d) => d.action_key === single.action_key)}
            onChange={(next) => {
              apply({ type: "updateAction", key: single.action_key, action: next }, `update:${single.action_key}`);
              if (next.action_key !== single.action_key) setSelection(selectActions([next.action_key]));
            }}
          />
        )}
      </div>
      {editingInput && (
        <RunInputDialog
          title={t("testInputTitle")}
          help={t("testInputHelp")}
          value={testInput}
          submitLabel={t("apply")}
          onSubmit={(value) => {
            apply({ type: "setTestInput", value });
            setEditingInput(false);
          }}
          onClose={() => setEditingInput(false)}
        />
      )}
      <LeaveGuard when={saving.dirty} />
    </div>
  );
}

const problemText = {
  self: "connectSelf",
  duplicate: "connectDuplicate",
  trigger: "connectTrigger",
  branch: "connectBranchMissing",
} as const;

/** firstFreeOutput is the first output of the action nothing leaves yet, else its first. */
function firstFreeOutput(a: Action, connections: Connection[]): Branch {
  const outputs = outputsOf(a);
  return outputs.find((b) => !connections.some((c) => c.from === a.action_key && (c.branch ?? "") === b)) ?? outputs[0];
}
