import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useParams, useSearchParams } from "react-router";
import { GraphView } from "../../canvas/GraphView";
import type { Action, ConnectionEdge, NodeMarks } from "../../canvas/graph";
import { ProblemAlert } from "../../components/ProblemAlert";
import { ActionDetails } from "./ActionDetails";
import { edgeStates } from "./edges";
import { useLiveRun } from "./live";
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

  const select = useCallback(
    (actionKey: string | undefined) =>
      setParams(
        (p) => {
          if (actionKey) p.set("action", actionKey);
          else p.delete("action");
          return p;
        },
        { replace: true },
      ),
    [setParams],
  );

  const statuses = useMemo(
    () => new Map(graph?.actions.map((a) => [a.action_key, shownStatus(actions.get(a.action_key)?.status ?? a.status, actions.get(a.action_key)?.retry_class)])),
    [graph, actions],
  );
  const marks = useCallback(
    (a: Action): NodeMarks => {
      const status = statuses.get(a.action_key);
      return { status, dimmed: status === "skipped" || (run?.terminal && status === "pending") };
    },
    [statuses, run?.terminal],
  );
  const edges = useMemo(() => (graph ? edgeStates(graph, actions) : new Map()), [graph, actions]);
  const edgeClass = useCallback((e: ConnectionEdge) => {
    const state = edges.get(e.id);
    return state === "taken" ? "taken" : state === "untaken" ? "dimmed" : undefined;
  }, [edges]);

  if (!run || !graph) {
    return (
      <div className="page" aria-busy={isLoading}>
        {error ? <ProblemAlert error={error} /> : <p className="muted">{t("loading", { ns: "common" })}</p>}
      </div>
    );
  }
  const chosen = selected ? graph.actions.find((a) => a.action_key === selected) : undefined;
  const receipt = chosen && actions.get(chosen.action_key);
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
          {chosen ? (
            <ActionDetails
              action={chosen}
              receipt={receipt}
              now={now}
              onClose={() => select(undefined)}
              retry={
                run.terminal && run.status === "failed" && retryable.has(receipt?.status ?? chosen.status) ? (
                  <RetryOrWhyNot run={run} receipt={receipt} actionKey={chosen.action_key} label={chosen.label || chosen.action_key} />
                ) : undefined
              }
            />
          ) : (
            <p className="muted">{t("noSelection")}</p>
          )}
        </aside>
      </div>
      <section className="run-timeline-section" aria-labelledby="run-timeline-title">
        <h2 id="run-timeline-title">{t("timeline")}</h2>
        <RunTimeline actions={graph.actions} receipts={actions} now={now} selected={selected} onSelect={select} />
      </section>
    </div>
  );
}

