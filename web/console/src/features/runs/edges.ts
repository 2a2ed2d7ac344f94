// Which connections a run took. The engine resolves an action's outgoing connections when it
// finishes: a condition takes the branch its result names, a switch its case, a reply wait
// its reply or its timeout, an approval its decision or timeout, a loop "each" into its body for every item and "done" once they
// all finished, a stop none, every other action its one way on; a failed action
// takes its error path where it has one (its output then holds the error), a skipped one
// none.
import { APPROVAL_TYPE, DONE_BRANCH, EACH_BRANCH, edgeId, ERROR_BRANCH, LOOP_TYPE, type Branch, type Connection } from "../../canvas/graph";
import type { ActionRun, ActionStatus, RunGraphView } from "./types";

export type EdgeState = "taken" | "untaken";

const settled = new Set<ActionStatus>(["succeeded", "failed", "dead_lettered", "skipped"]);
const notRun = new Set<ActionStatus>(["pending", "skipped"]);

/** chosenBranch is the branch a succeeded action took, "none", or undefined while its
 * output (which says the branch) is not known yet. */
function chosenBranch(actionTypeKey: string, output: Record<string, unknown> | undefined): Branch | "none" | undefined {
  switch (actionTypeKey) {
    case "stop":
      return "none";
    case "condition.branch":
      return output && "result" in output ? (output.result === true ? "true" : "false") : undefined;
    case "condition.switch":
      return output && typeof output.case === "string" ? output.case : undefined;
    case "bot.wait_for_reply":
      return output ? (output.timed_out === true ? "timeout" : "") : undefined;
    case LOOP_TYPE:
      return DONE_BRANCH;
    case APPROVAL_TYPE:
      return typeof output?.decision === "string" ? (output.decision === "timed_out" ? "timeout" : output.decision) : undefined;
    default:
      return "";
  }
}

/** failedBranch is the branch a failed action took: its error path, when its output holds
 * the failure, else none. */
function failedBranch(output: Record<string, unknown> | undefined): Branch | "none" {
  return typeof output?.error === "object" && output.error !== null ? ERROR_BRANCH : "none";
}

/** edgeStates marks each connection taken (its source succeeded with its branch and its
 * target ran) or untaken (its source settled without taking it, or its target was
 * skipped); connections still undecided are left out. A loop's body has no receipts in the
 * run's own list: the receipts given may hold one item's (loops.ts itemReceipts), and the
 * body's connections read those. */
export function edgeStates(graph: RunGraphView, receipts: Map<string, ActionRun>): Map<string, EdgeState> {
  // A receipt's status is the action's; the graph's is the fallback for an action without one.
  const actions = new Map(graph.actions.map((a) => [a.action_key, { ...a, status: receipts.get(a.action_key)?.status ?? a.status }]));
  const states = new Map<string, EdgeState>();
  for (const c of graph.connections) {
    const state = edgeState(c, actions.get(c.from), actions.get(c.to)?.status, receipts.get(c.from)?.output_json);
    if (state) states.set(edgeId(c), state);
  }
  return states;
}

function edgeState(
  c: Connection,
  source: { action_type_key: string; status: ActionStatus } | undefined,
  target: ActionStatus | undefined,
  output: Record<string, unknown> | undefined,
): EdgeState | undefined {
  if (source?.action_type_key === LOOP_TYPE && c.branch === EACH_BRANCH) return eachState(source.status, target, output);
  if (!source || !settled.has(source.status)) return undefined;
  if (source.status === "skipped" || target === "skipped") return "untaken";
  const chosen = source.status === "succeeded" ? chosenBranch(source.action_type_key, output) : failedBranch(output);
  if (chosen === "none") return "untaken";
  if (chosen !== undefined && chosen !== (c.branch ?? "")) return "untaken";
  return target && !notRun.has(target) ? "taken" : undefined;
}

/** eachState is a loop's way into its body, taken while or once items run (the item shown
 * ran its target), untaken when the loop never ran or its list was empty. */
function eachState(loop: ActionStatus, target: ActionStatus | undefined, output: Record<string, unknown> | undefined): EdgeState | undefined {
  if (loop === "skipped" || (settled.has(loop) && output?.count === 0)) return "untaken";
  return target && !notRun.has(target) ? "taken" : undefined;
}
