// A loop.for_each in a run: its items (GET /runs/{id}/loops/{loop_key}/items), one item with
// its body's action runs, and what the inspector draws of them. The run's own action list and
// graph have no per-item rows: a body action's status is that of one item, chosen here.
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { LOOP_TYPE, type Graph } from "../../canvas/graph";
import type { components } from "../../api/schema.gen";
import type { ActionRun } from "./types";

export type LoopItem = components["schemas"]["LoopItemView"];
export type ItemStatus = LoopItem["status"];

/** The item filter's choices; "" is every item. */
export const itemStatuses: ("" | ItemStatus)[] = ["", "failed", "succeeded", "running", "cancelled"];

/** loopsKey holds every loop read of a run: the live view reads them again together. */
export const loopsKey = (runId: string) => ["runs", runId, "loops"] as const;

const itemsPage = 50;

// While the run runs its items are read again this often, besides on the run's events
// (live.ts), which an item's own actions do not all send.
const liveRefresh = 2000;

/** useLoopItems are a loop's items in item order, of one status or all, page by page; live
 * while the run runs. */
export function useLoopItems(runId: string, loopKey: string | undefined, status: "" | ItemStatus, live: boolean) {
  return useInfiniteQuery({
    queryKey: [...loopsKey(runId), loopKey, "items", status],
    enabled: !!loopKey,
    refetchInterval: live ? liveRefresh : false,
    initialPageParam: "",
    getNextPageParam: (page: components["schemas"]["LoopItemList"]) => page.next_cursor || undefined,
    queryFn: ({ pageParam }) =>
      data(
        api.GET("/api/v1/runs/{workflow_run_id}/loops/{loop_key}/items", {
          params: { path: { workflow_run_id: runId, loop_key: loopKey! }, query: { status: status || undefined, limit: itemsPage, cursor: pageParam || undefined } },
        }),
      ),
  });
}

/** useLoopItem is one item with its body's action runs, live while the item runs; no item
 * reads nothing. */
export function useLoopItem(runId: string, item: ChosenItem | undefined, live: boolean) {
  return useQuery({
    queryKey: [...loopsKey(runId), item?.loop, "item", item?.index],
    enabled: !!item,
    refetchInterval: (q) => (live && q.state.data?.status !== "succeeded" && q.state.data?.status !== "failed" ? liveRefresh : false),
    queryFn: () =>
      data(
        api.GET("/api/v1/runs/{workflow_run_id}/loops/{loop_key}/items/{item_index}", {
          params: { path: { workflow_run_id: runId, loop_key: item!.loop, item_index: String(item!.index) } },
        }),
      ),
  });
}

/** ChosenItem is the item the inspector shows: its loop's key in the run (lines, or
 * lines[2].parts for an inner loop) and its index. */
export type ChosenItem = { loop: string; index: number };

/** readItem reads the chosen item from the page's address (loop=…&item=…). */
export function readItem(params: URLSearchParams): ChosenItem | undefined {
  const loop = params.get("loop");
  const index = Number(params.get("item"));
  return loop && params.get("item") !== null && Number.isInteger(index) && index >= 0 ? { loop, index } : undefined;
}

/** actionOfLoopKey is the loop's action key in the graph: the last part of its key in the
 * run (lines[2].parts is the loop parts). */
export function actionOfLoopKey(loopKey: string): string {
  return loopKey.slice(loopKey.lastIndexOf(".") + 1);
}

/** loopRunKey is a loop's key in the run, for its loop panel: a loop outside any body is
 * its own action key; one inside another loop's body is known only within an item of that
 * loop, the one chosen (else undefined). */
export function loopRunKey(loopKey: string, loops: Map<string, string>, chosen: ChosenItem | undefined): string | undefined {
  const outer = loops.get(loopKey);
  if (!outer) return loopKey;
  if (chosen && actionOfLoopKey(chosen.loop) === outer) return `${chosen.loop}[${chosen.index}].${loopKey}`;
  return undefined;
}

/** isLoop tells a loop.for_each among a graph's actions. */
export function isLoop(graph: Graph, actionKey: string | undefined): boolean {
  return graph.actions.some((a) => a.action_key === actionKey && a.action_type_key === LOOP_TYPE);
}

/** itemReceipts are the run's receipts with, for the body of the chosen item's loop, that
 * item's action runs (which the run's own list leaves out). */
export function itemReceipts(receipts: Map<string, ActionRun>, item: LoopItem | undefined): Map<string, ActionRun> {
  if (!item?.actions?.length) return receipts;
  const out = new Map(receipts);
  for (const a of item.actions) out.set(a.action_key, a);
  return out;
}

/** LoopCounts are what a loop's output says of its items once it has one. */
export type LoopCounts = { count: number; succeeded: number; failed: number };

export function loopCounts(output: Record<string, unknown> | undefined): LoopCounts | undefined {
  const n = (k: string) => (typeof output?.[k] === "number" ? (output[k] as number) : undefined);
  const count = n("count");
  return count === undefined ? undefined : { count, succeeded: n("succeeded") ?? 0, failed: n("failed") ?? 0 };
}

/** itemPreview is an item's JSON on one line, cut at max characters. */
export function itemPreview(value: unknown, max = 80): string {
  const text = JSON.stringify(value) ?? "null";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
