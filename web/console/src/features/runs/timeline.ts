// The timeline's geometry: each action's bar along the run's time.
import type { ActionRun, ActionWithState } from "./types";

export type TimelineRow = {
  action: ActionWithState;
  receipt: ActionRun | undefined;
  /** left and width are the bar's place in percent of the run's span; no bar before start. */
  bar?: { left: number; width: number };
};

// Triggers, conditions and stops are decided inside the workflow: their receipts have a
// finish and no start, and show as an instant.
function startOf(r: ActionRun | undefined): number {
  const at = r?.started_at ?? r?.finished_at;
  return at ? Date.parse(at) : Infinity;
}

const liveStep = 10_000;

/** timelineRows orders the actions by when they started (those not started last, in graph
 * order) and places each bar between the first start and the last end (or now). */
export function timelineRows(actions: ActionWithState[], receipts: Map<string, ActionRun>, now: number): TimelineRow[] {
  const rows = actions.map((action, index) => ({ action, index, receipt: receipts.get(action.action_key), start: startOf(receipts.get(action.action_key)) }));
  rows.sort((a, b) => a.start - b.start || a.index - b.index);
  const starts = rows.map((r) => r.start).filter(Number.isFinite);
  if (starts.length === 0) return rows.map(({ action, receipt }) => ({ action, receipt }));
  const endOf = (r: ActionRun) => (r.finished_at ? Date.parse(r.finished_at) : now);
  const from = Math.min(...starts);
  const to = Math.max(from + 1, ...rows.flatMap((r) => (r.receipt && Number.isFinite(r.start) ? [endOf(r.receipt)] : [])));
  // While something runs the span grows in whole steps, so the bars of finished actions
  // stay put (and are not drawn again) between steps.
  const running = rows.some((r) => r.receipt && Number.isFinite(r.start) && !r.receipt.finished_at);
  const span = running ? Math.ceil((to - from) / liveStep) * liveStep : to - from;
  return rows.map(({ action, receipt, start }) => {
    if (!receipt || !Number.isFinite(start)) return { action, receipt };
    const width = Math.max(((endOf(receipt) - start) / span) * 100, 0.5);
    return { action, receipt, bar: { left: Math.min(((start - from) / span) * 100, 100 - width), width } };
  });
}
