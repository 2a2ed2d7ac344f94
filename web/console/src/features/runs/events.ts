// How the run's event stream changes what the inspector shows. Events carry a status and a
// message, not outputs or attempt counts: they move each status at once, and the receipts
// read again afterwards (live.ts) bring the rest.
import type { ActionRun, ActionStatus, ActionWithState, RunEvent, RunGraphView, RunStatus, RunView } from "./types";

const runStatuses: readonly RunStatus[] = ["pending", "running", "waiting", "succeeded", "failed", "cancelled"];
const actionStatuses: readonly ActionStatus[] = ["pending", "running", "succeeded", "failed", "skipped", "waiting", "retrying", "dead_lettered"];
const finishedRun = new Set(["run.succeeded", "run.failed", "run.cancelled"]);

function isRunStatus(s: string): s is RunStatus {
  return (runStatuses as readonly string[]).includes(s);
}
function isActionStatus(s: string): s is ActionStatus {
  return (actionStatuses as readonly string[]).includes(s);
}

/** RunEventQueue keeps the events not yet applied, each once: a resumed stream may send
 * again what was already seen, and the sequence tells. */
export class RunEventQueue {
  /** lastSequence is the last event accepted, the stream's resume point. */
  lastSequence = 0;
  private pending: RunEvent[] = [];

  /** push queues the event unless it was already seen, and tells whether it was queued. */
  push(event: RunEvent): boolean {
    if (event.sequence <= this.lastSequence) return false;
    this.lastSequence = event.sequence;
    this.pending.push(event);
    return true;
  }

  /** drain hands over the queued events in order and empties the queue. */
  drain(): RunEvent[] {
    const events = this.pending;
    this.pending = [];
    return events;
  }
}

/** applyToRun is the run after the events; the same object when none concerns it. */
export function applyToRun(run: RunView, events: RunEvent[]): RunView {
  let next = run;
  for (const e of events) {
    if (!e.event_type.startsWith("run.") || !isRunStatus(e.status)) continue;
    next = { ...next, status: e.status };
    if (e.event_type === "run.started") next.started_at ??= e.created_at;
    if (e.event_type === "run.resumed") Object.assign(next, { terminal: false, finished_at: null, terminal_reason: "", error: "" });
    if (finishedRun.has(e.event_type)) Object.assign(next, { terminal: true, finished_at: e.created_at, terminal_reason: e.message });
  }
  return next;
}

/** actionEvents are the events that set an action's status, by action key, in order. */
function actionEvents(events: RunEvent[]): Map<string, RunEvent[]> {
  const byKey = new Map<string, RunEvent[]>();
  for (const e of events) {
    if (!e.event_type.startsWith("action.") || !e.action_key || !isActionStatus(e.status)) continue;
    const list = byKey.get(e.action_key);
    if (list) list.push(e);
    else byKey.set(e.action_key, [e]);
  }
  return byKey;
}

/** applyToGraph is the run's graph with the events' action statuses (and the run's). */
export function applyToGraph(graph: RunGraphView, events: RunEvent[]): RunGraphView {
  const byKey = actionEvents(events);
  const runStatus = events.reduce<RunStatus>((s, e) => (e.event_type.startsWith("run.") && isRunStatus(e.status) ? e.status : s), graph.status);
  if (byKey.size === 0 && runStatus === graph.status) return graph;
  const actions = graph.actions.map((a): ActionWithState => {
    const last = byKey.get(a.action_key)?.at(-1);
    return last && last.status !== a.status ? { ...a, status: last.status as ActionStatus } : a;
  });
  return { ...graph, status: runStatus, actions };
}

function applyToReceipt(receipt: ActionRun, e: RunEvent): ActionRun {
  const next: ActionRun = { ...receipt, status: e.status as ActionStatus };
  switch (e.event_type) {
    case "action.started":
      next.started_at ??= e.created_at;
      next.finished_at = null;
      break;
    case "action.succeeded":
      next.finished_at = e.created_at;
      next.error = null;
      break;
    case "action.cancelled":
    case "action.failed":
    case "action.dead_lettered": {
      // An action the run's cancellation never let start says nothing of a failure.
      if (e.event_type === "action.cancelled" && !(e.data_json as { retry_class?: string }).retry_class) break;
      const { retry_class, reason_code } = e.data_json as { retry_class?: ActionRun["retry_class"]; reason_code?: string };
      next.finished_at = e.created_at;
      next.error = e.message;
      if (retry_class) next.retry_class = retry_class;
      next.diagnostics = { ...receipt.diagnostics, human_reason: e.message, ...(reason_code ? { reason_code } : {}) };
      break;
    }
  }
  return next;
}

/** applyToReceipts is the action receipts after the events; receipts no event names keep
 * their identity, so the views of unchanged actions do not draw again. */
export function applyToReceipts(receipts: ActionRun[], events: RunEvent[]): ActionRun[] {
  const byKey = actionEvents(events);
  if (byKey.size === 0) return receipts;
  const next = receipts.map((r) => (byKey.get(r.action_key) ?? []).reduce(applyToReceipt, r));
  return next.some((r, i) => r !== receipts[i]) ? next : receipts;
}
