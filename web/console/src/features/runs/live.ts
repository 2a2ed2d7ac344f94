// useLiveRun: a run, its graph and its action receipts, kept live from the run's event
// stream. The editor's test-run overlay and the run inspector both read a run through it.
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { followStream } from "../../lib/eventStream";
import { applyToGraph, applyToReceipts, applyToRun, RunEventQueue } from "./events";
import { loopsKey } from "./loops";
import { waitingChanges } from "./status";
import { runActionsKey, runGraphKey, runKey, useRun, useRunActions, useRunGraph } from "./run";
import type { ActionRun, RunEvent, RunGraphView, RunView } from "./types";

export type LiveRun = {
  /** run is the run (GET /runs/{id}), its status moved by the stream as it happens. */
  run: RunView | undefined;
  /** graph is the graph the run executes, each action with its live status. */
  graph: RunGraphView | undefined;
  /** actions are the action receipts by action key, in graph order. Statuses, times and
   * failures follow the stream at once; outputs and attempt counts are read again shortly
   * after (the events do not carry them). */
  actions: Map<string, ActionRun>;
  /** connected tells that the event stream is open. It is false before the first read,
   * while the stream reconnects, and once a finished run has nothing more to say. */
  connected: boolean;
  /** error is the first of the three reads that failed (a ProblemError), else undefined. */
  error: unknown;
  isLoading: boolean;
};

// While events flow, the receipts are read again at most this often (their outputs and
// attempt counts are not in the events); once more when the stream ends.
const receiptsRefresh = 1000;
// Events are applied to the cache together, at most this often (see followRun).
const applyEvery = 150;

/** useLiveRun reads the run and follows it while it is not finished: events are applied to
 * the query cache once per animation frame, so a run of hundreds of actions sending dozens
 * of events a second draws once a frame. No run (undefined) reads nothing. */
export function useLiveRun(runId: string | undefined): LiveRun {
  const run = useRun(runId);
  const graph = useRunGraph(runId);
  const receipts = useRunActions(runId);
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  // The events seen, kept across reconnects and across the stream's reopening after a
  // retry, so each event is applied once.
  const queues = useRef(new Map<string, RunEventQueue>());
  const loaded = !!run.data && !!graph.data && !!receipts.data;
  const follow = loaded && !run.data?.terminal;

  useEffect(() => {
    if (!runId || !follow) return;
    let queue = queues.current.get(runId);
    if (!queue) queues.current.set(runId, (queue = new RunEventQueue()));
    const stream = followRun(runId, queue, queryClient, setConnected);
    return () => {
      stream.close();
      setConnected(false);
    };
  }, [runId, follow, queryClient]);

  const actions = useMemo(() => new Map((receipts.data?.items ?? []).map((r) => [r.action_key, r])), [receipts.data]);
  return {
    run: run.data,
    graph: graph.data,
    actions,
    connected,
    error: run.error ?? graph.error ?? receipts.error ?? undefined,
    isLoading: run.isLoading || graph.isLoading || receipts.isLoading,
  };
}

/** followRun opens the run's event stream from the queue's last event and applies what it
 * says, until it ends or is closed. */
function followRun(runId: string, queue: RunEventQueue, queryClient: QueryClient, setConnected: (c: boolean) => void) {
  let frame = 0;
  let pending: ReturnType<typeof setTimeout> | undefined;
  let lastApplied = 0;
  let refresh: ReturnType<typeof setTimeout> | undefined;

  const refreshReceipts = () => {
    refresh ??= setTimeout(() => {
      refresh = undefined;
      void queryClient.refetchQueries({ queryKey: runActionsKey(runId) }, { cancelRefetch: false });
      // A loop's items move with its actions; only those on the page are read (active).
      void queryClient.refetchQueries({ queryKey: loopsKey(runId), type: "active" }, { cancelRefetch: false });
    }, receiptsRefresh);
  };

  const apply = () => {
    frame = 0;
    pending = undefined;
    lastApplied = performance.now();
    const events = queue.drain();
    if (events.length === 0) return;
    queryClient.setQueryData<RunView>(runKey(runId), (r) => r && applyToRun(r, events));
    queryClient.setQueryData<RunGraphView>(runGraphKey(runId), (g) => g && applyToGraph(g, events));
    queryClient.setQueryData<{ items: ActionRun[]; next_cursor: string }>(runActionsKey(runId), (list) => {
      if (!list) return list;
      const items = applyToReceipts(list.items, events);
      return items === list.items ? list : { ...list, items };
    });
    // A finished run is read once more whole: the receipts' last outputs, its end.
    if (events.some((e) => finished.has(e.event_type))) void queryClient.invalidateQueries({ queryKey: runKey(runId) });
    else {
      if (waitingChanges(events.map((e) => e.event_type), queryClient.getQueryData<RunView>(runKey(runId))?.status)) {
        void queryClient.invalidateQueries({ queryKey: runKey(runId) });
      }
      refreshReceipts();
    }
  };

  // Each application redraws the canvas, which takes tens of milliseconds on a large graph:
  // applied on every frame, a busy run's events left the page no time of its own.
  const schedule = () => {
    pending ??= setTimeout(() => {
      frame = requestAnimationFrame(apply);
    }, Math.max(0, lastApplied + applyEvery - performance.now()));
  };

  const receive = (message: MessageEvent<string>) => {
    stream.received();
    if (queue.push(JSON.parse(message.data) as RunEvent)) schedule();
  };

  // The stream says it is over once the run finished and every event was sent.
  const end = () => {
    close();
    apply();
  };

  // The cursor matters when the stream is opened again by us (from the last event seen);
  // the browser's own reconnects send Last-Event-ID, which the server prefers.
  const stream = followStream(
    () => {
      const source = new EventSource(`/api/v1/runs/${encodeURIComponent(runId)}/events/stream?cursor=${queue.lastSequence}`);
      source.onopen = () => setConnected(true);
      source.onmessage = receive;
      source.addEventListener("end", end);
      for (const type of eventTypes) source.addEventListener(type, receive);
      return source;
    },
    () => setConnected(false),
  );

  const close = () => {
    stream.close();
    setConnected(false);
  };

  return {
    close: () => {
      close();
      clearTimeout(pending);
      cancelAnimationFrame(frame);
      clearTimeout(refresh);
    },
  };
}

const finished = new Set(["run.succeeded", "run.failed", "run.cancelled"]);

// SSE messages are named by event type (docs/workflows.md); an EventSource hands a named
// message only to listeners of that name.
const eventTypes = [
  "run.started",
  "run.resumed",
  "run.succeeded",
  "run.failed",
  "run.cancelled",
  "action.started",
  "action.waiting",
  "action.succeeded",
  "action.failed",
  "action.dead_lettered",
  "action.skipped",
  "action.cancelled",
];
