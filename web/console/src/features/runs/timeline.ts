// The timeline's geometry: each action's bar along the run's time.
import type { ActionRun, ActionWithState } from "./types";

export type TimelineRow = {
  action: ActionWithState;
  receipt: ActionRun | undefined;
  /** left and width are the bar's place in percent of the run's span; no bar before start. */
  bar?: { left: number; width: number };
};

/** timelineRows orders the actions by when they started (those not started last, in graph
 * order) and places each bar between the first start and the last end (or now). */
export function timelineRows(actions: ActionWithState[], receipts: Map<string, ActionRun>, now: number): TimelineRow[] {
  const rows = actions.map((action, index) => ({ action, index, receipt: receipts.get(action.action_key) }));
  const startOf = (r: (typeof rows)[number]) => (r.receipt?.started_at ? Date.parse(r.receipt.started_at) : Infinity);
  rows.sort((a, b) => startOf(a) - startOf(b) || a.index - b.index);
  const starts = rows.map(startOf).filter(Number.isFinite);
  if (starts.length === 0) return rows.map(({ action, receipt }) => ({ action, receipt }));
  const from = Math.min(...starts);
  const endOf = (r: ActionRun) => (r.finished_at ? Date.parse(r.finished_at) : now);
  const to = Math.max(from + 1, ...rows.flatMap((r) => (r.receipt?.started_at ? [endOf(r.receipt)] : [])));
  const span = to - from;
  return rows.map(({ action, receipt }) => {
    if (!receipt?.started_at) return { action, receipt };
    const start = Date.parse(receipt.started_at);
    const left = ((start - from) / span) * 100;
    return { action, receipt, bar: { left, width: Math.max(((endOf(receipt) - start) / span) * 100, 0.5) } };
  });
}
