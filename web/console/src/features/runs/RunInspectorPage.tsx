import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useParams, useSearchParams } from "react-router";
import { GraphView } from "../../canvas/GraphView";
import { loopBody, loopsOf, type Action, type ConnectionEdge, type NodeMarks } from "../../canvas/graph";
import { ProblemAlert } from "../../components/ProblemAlert";
import { ActionDetails } from "./ActionDetails";
import { edgeStates } from "./edges";
import { useLiveRun } from "./live";
import { ItemDetails, LoopPanel } from "./LoopPanel";
import { actionOfLoopKey, isLoop, itemReceipts, loopRunKey, readItem, useLoopItem, type ChosenItem } from "./loops";
import { useRunGraphShape } from "./run";
import { RunHeader } from "./RunHeader";
import { CancelRun, ReplayRun, RetryOrWhyNot } from "./RunSteps";
import { shownStatus } from "./status";
import { RunTimeline } from "./RunTimeline";
import { useNow } from "../../lib/now";
import "./runs.css";
import "./texts";

const retryable = new Set(["failed", "dead_lettered"]);

/** RunInspectorPage is one run, live while it runs: its graph with each action's status,
 * the taken path, a timeline, and the chosen action's details. */
export function RunInspectorPage() {
  const { t } = useTranslation("runs");
  const { runId = "" } = useParams();
  const { run, graph, actions, connected, error, isLoading } = useLiveRun(runId);
  // The graph's shape without its statuses keeps its identity while events arrive, so the
  // canvas is not laid out again on each of them.
  const shape = useRunGraphShape(runId).data;
  const [params, setParams] = useSearchParams();
  const selected = params.get("action") ?? undefined;
  const now = useNow(!!run && !run.terminal);

  // A loop's item chosen (loop=…&item=…) shows its statuses on the body of its loop.
  const chosenItem = readItem(params);
  const loops = useMemo(() => (shape ? loopsOf(shape) : new Map<string, string>()), [shape]);
  const itemLoop = chosenItem && actionOfLoopKey(chosenItem.loop);
  const itemBody = useMemo(() => (shape && itemLoop ? loopBody(shape, itemLoop) : new Set<string>()), [shape, itemLoop]);
  const item = useLoopItem(runId, chosenItem, !!run && !run.terminal);
  const shownItem = chosenItem && item.data?.loop_key === chosenItem.loop && item.data.item_index === chosenItem.index ? item.data : undefined;
  const receipts = useMemo(() => itemReceipts(actions, shownItem), [actions, shownItem]);

  const select = useCallback(
    (actionKey: string | undefined, choose?: ChosenItem | null) =>
      setParams(
        (p) => {
          if (actionKey) p.set("action", actionKey);
          else p.delete("action");
          // An item stays chosen while the person looks at its loop, its body or the loops
          // around it; choosing anything else lets it go.
          const keep = choose === undefined && actionKey && itemLoop && (actionKey === itemLoop || itemBody.has(actionKey) || encloses(loops, actionKey, itemLoop));
          if (choose) {
            p.set("loop", choose.loop);
            p.set("item", String(choose.index));
          } else if (!keep) {
            p.delete("loop");
            p.delete("item");
          }
          return p;
        },
        { replace: true },
      ),
    [setParams, itemLoop, itemBody, loops],
  );

  const statuses = useMemo(
    () => new Map(graph?.actions.map((a) => [a.action_key, shownStatus(receipts.get(a.action_key)?.status ?? a.status, receipts.get(a.action_key)?.retry_class)])),
    [graph, receipts],
  );
  const marks = useCallback(
    (a: Action): NodeMarks => {
      const loop = loops.get(a.action_key);
      // A body action has a status only for an item: the one shown, when it is of its loop.
      if (loop && !(shownItem && loop === itemLoop)) return { inLoop: "per_item" };
      const status = statuses.get(a.action_key);
      if (loop) return { status, inLoop: "body", dimmed: !status && shownItem?.status !== "running" };
      return { status, dimmed: status === "skipped" || (run?.terminal && status === "pending") };
    },
    [statuses, run?.terminal, loops, shownItem, itemLoop],
  );
  const edges = useMemo(() => (graph ? edgeStates(graph, receipts) : new Map()), [graph, receipts]);
  const edgeClass = useCallback((e: ConnectionEdge) => {
    const state = edges.get(e.id);
    return state === "taken" ? "taken" : state === "untaken" ? "dimmed" : undefined;
  }, [edges]);

  // The timeline is of the run's own actions: a loop's body runs per item (the loop's panel).
  const runActions = useMemo(() => graph?.actions.filter((a) => !loops.has(a.action_key)) ?? [], [graph, loops]);

  if (!run || !graph) {
    return (
      <div className="page" aria-busy={isLoading}>
        {error ? <ProblemAlert error={error} /> : <p className="muted">{t("loading", { ns: "common" })}</p>}
      </div>
    );
  }
  const chosen = selected ? graph.actions.find((a) => a.action_key === selected) : undefined;
  const receipt = chosen && receipts.get(chosen.action_key);
  const labelOf = (key: string) => {
    const a = graph.actions.find((x) => x.action_key === key);
    return a?.label || key;
  };
  const chosenLoop = chosen && loops.get(chosen.action_key);
  // An action of a loop's body read for the item shown: its details are that item's.
  const ofItem = !!chosenLoop && !!shownItem && chosenLoop === itemLoop;
  const loopKey = chosen && isLoop(shape ?? graph, chosen.action_key) ? loopRunKey(chosen.action_key, loops, chosenItem) : undefined;
  return (
    <div className="run-inspector">
      <RunHeader run={run} connected={connected} now={now}>
        <CancelRun run={run} />
        <ReplayRun run={run} />
      </RunHeader>
      {/* A later read that failed (the server gone a moment) leaves what was read in place. */}
      <ProblemAlert error={error} />
      <div className="run-body">
        <section className="run-graph" aria-label={t("graphTitle")}>
          {shape && <GraphView graph={shape} marks={marks} edgeClass={edgeClass} onSelect={select} selected={selected} />}
        </section>
        <aside className="run-side" aria-label={t("details")}>
          {chosen && ofItem && itemLoop && (
            <p className="item-back">
              <button type="button" className="link" onClick={() => select(itemLoop)}>
                ← {t("itemTitle", { index: chosenItem?.index, loop: labelOf(itemLoop) })}
              </button>
            </p>
          )}
          {chosen ? (
            <ActionDetails
              action={chosen}
              receipt={receipt}
              now={now}
              onClose={() => select(undefined)}
              failedRuns={ofItem ? undefined : `/workflows/${run.workflow_id}/runs?failed=${encodeURIComponent(chosen.action_key)}`}
              retry={
                !ofItem && run.terminal && run.status === "failed" && retryable.has(receipt?.status ?? chosen.status) ? (
                  <RetryOrWhyNot run={run} receipt={receipt} actionKey={chosen.action_key} label={chosen.label || chosen.action_key} />
                ) : undefined
              }
            >
              {chosenLoop && !ofItem && <p className="notice">{t("perItemHint", { loop: labelOf(chosenLoop) })}</p>}
              {isLoop(graph, chosen.action_key) &&
                (loopKey ? (
                  <LoopPanel
                    runId={runId}
                    loopKey={loopKey}
                    output={receipt?.output_json}
                    chosen={chosenItem}
                    live={!run.terminal}
                    onChoose={(index) => select(chosen.action_key, { loop: loopKey, index })}
                  />
                ) : (
                  <p className="notice">{t("outerItemFirst", { loop: labelOf(loops.get(chosen.action_key) ?? "") })}</p>
                ))}
              {shownItem && chosen.action_key === itemLoop && (
                <ItemDetails item={shownItem} loopLabel={labelOf(itemLoop)} labels={new Map(graph.actions.map((a) => [a.action_key, a.label || a.action_key]))} onSelectAction={(key) => select(key)} />
              )}
            </ActionDetails>
          ) : (
            <p className="muted">{t("noSelection")}</p>
          )}
          <ProblemAlert error={item.error} />
        </aside>
      </div>
      <section className="run-timeline-section" aria-labelledby="run-timeline-title">
        <h2 id="run-timeline-title">{t("timeline")}</h2>
        <RunTimeline actions={runActions} receipts={actions} now={now} selected={selected} onSelect={select} />
      </section>
    </div>
  );
}

/** encloses tells whether loop is one of the loops around inner (its body holds inner). */
function encloses(loops: Map<string, string>, loop: string, inner: string): boolean {
  for (let at = loops.get(inner); at; at = loops.get(at)) if (at === loop) return true;
  return false;
}
