// The runs list's filters, kept in the page's address, and its pages.
import { useInfiniteQuery, useQueries } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import type { RetryClass, RunStatus, RunView } from "./types";

export const runStatuses: RunStatus[] = ["pending", "running", "waiting", "succeeded", "failed", "cancelled"];
export const triggerTypes: RunView["trigger_type"][] = ["manual", "test", "replay", "webhook", "schedule", "relay", "call", "payment", "task", "run_event"];

export const retryClasses: RetryClass[] = ["validation", "auth", "permanent", "transient", "rate_limited", "timeout_unknown", "canceled", "unknown_outcome"];

/** RunFilters are the list's filters as the address spells them: q is the words a run
 * carried, failed the key of the action it failed at, retry the retry class it failed with. */
export type RunFilters = {
  q?: string;
  status?: RunStatus;
  trigger?: RunView["trigger_type"];
  version?: string;
  from?: string;
  to?: string;
  failed?: string;
  retry?: RetryClass;
};

export function readFilters(params: URLSearchParams): RunFilters {
  const status = params.get("status");
  const trigger = params.get("trigger");
  const retry = params.get("retry");
  return {
    q: params.get("q")?.trim() || undefined,
    status: runStatuses.find((s) => s === status),
    trigger: triggerTypes.find((s) => s === trigger),
    version: params.get("version") || undefined,
    from: params.get("from") || undefined,
    to: params.get("to") || undefined,
    failed: params.get("failed") || undefined,
    retry: retryClasses.find((c) => c === retry),
  };
}

const pageSize = 50;

/** RunRow is a run of a list; the project's list names each run's workflow. */
export type RunRow = RunView & { workflow_name?: string };

/** RunScope is whose runs a list shows: one workflow's or the project's. */
export type RunScope = { workflowId: string } | { projectId: string };

// The address keeps days; the API takes instants: a day runs from the person's local
// midnight to the last millisecond before the next.
function apiFilters(f: RunFilters) {
  return {
    q: f.q,
    failed_action_key: f.failed,
    retry_class: f.retry,
    status: f.status,
    trigger_type: f.trigger,
    workflow_version_id: f.version,
    created_from: f.from ? new Date(`${f.from}T00:00:00`).toISOString() : undefined,
    created_to: f.to ? new Date(`${f.to}T23:59:59.999`).toISOString() : undefined,
    order: "desc" as const,
    limit: pageSize,
  };
}

type RunPage = { items: RunRow[]; next_cursor: string };

function runPage(scope: RunScope, filters: RunFilters, cursor: string): Promise<RunPage> {
  const query = { ...apiFilters(filters), cursor: cursor || undefined };
  if ("workflowId" in scope) {
    return data(api.GET("/api/v1/workflows/{workflow_id}/runs", { params: { path: { workflow_id: scope.workflowId }, query } }));
  }
  return data(api.GET("/api/v1/projects/{project_id}/runs", { params: { path: { project_id: scope.projectId }, query } }));
}

/** useRunList is the runs of a workflow or of a project, newest first, page by page. Runs
 * start on their own (deliveries, schedules), so the list is read again whenever it is
 * shown and every few seconds while it is. */
export function useRunList(scope: RunScope, filters: RunFilters) {
  return useInfiniteQuery({
    queryKey: ["run-lists", scope, filters],
    staleTime: 0,
    refetchInterval: 5_000,
    initialPageParam: "",
    getNextPageParam: (page: RunPage) => page.next_cursor || undefined,
    queryFn: ({ pageParam }) => runPage(scope, filters, pageParam),
  });
}

/** VersionNumber is a published version's number and its workflow. */
export type VersionNumber = { number: number; workflowId: string };

/** useVersionNumbers numbers the versions of the workflows, by version id. */
export function useVersionNumbers(workflowIds: string[]): Map<string, VersionNumber> {
  return useQueries({
    queries: workflowIds.map((id) => ({
      queryKey: ["workflows", id, "version-numbers"],
      queryFn: () => data(api.GET("/api/v1/workflows/{workflow_id}/versions", { params: { path: { workflow_id: id }, query: { limit: 200 } } })),
    })),
    combine: (results) =>
      new Map(results.flatMap((r) => r.data?.items.map((v) => [v.workflow_version_id, { number: v.version_number, workflowId: v.workflow_id }] as const) ?? [])),
  });
}
