// The run's reads and the things a person does to a run, through the query cache.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import type { Action, Graph } from "../../canvas/graph";
import type { ActionWithState, RunGraphView, RunView } from "./types";

export const runKey = (runId: string) => ["runs", runId] as const;
export const runGraphKey = (runId: string) => ["runs", runId, "graph"] as const;
export const runActionsKey = (runId: string) => ["runs", runId, "actions"] as const;

const path = (runId: string) => ({ params: { path: { workflow_run_id: runId } } });

export function useRun(runId: string | undefined) {
  return useQuery({
    queryKey: runKey(runId ?? ""),
    enabled: !!runId,
    queryFn: () => data(api.GET("/api/v1/runs/{workflow_run_id}", path(runId!))),
  });
}

export function useRunGraph(runId: string | undefined) {
  return useQuery({
    queryKey: runGraphKey(runId ?? ""),
    enabled: !!runId,
    queryFn: () => data(api.GET("/api/v1/runs/{workflow_run_id}/graph", path(runId!))),
  });
}

/** useRunGraphShape is the run's graph as the canvas draws it, without the actions' states.
 * The query's structural sharing gives the same object back while only states change. */
export function useRunGraphShape(runId: string | undefined) {
  return useQuery({
    queryKey: runGraphKey(runId ?? ""),
    enabled: !!runId,
    queryFn: () => data(api.GET("/api/v1/runs/{workflow_run_id}/graph", path(runId!))),
    select: graphShape,
  });
}

function graphShape(graph: RunGraphView): Graph {
  return { actions: graph.actions.map(actionShape), connections: graph.connections };
}

function actionShape({ action_key, label, action_type_key, category, type_label, config, ui }: ActionWithState): Action {
  const position = ui?.position as { x?: unknown; y?: unknown } | undefined;
  const placed = typeof position?.x === "number" && typeof position.y === "number";
  return { action_key, label, action_type_key, category, type_label, config, ...(placed ? { ui: { position: { x: position.x as number, y: position.y as number } } } : {}) };
}

export function useRunActions(runId: string | undefined) {
  return useQuery({
    queryKey: runActionsKey(runId ?? ""),
    enabled: !!runId,
    queryFn: () => data(api.GET("/api/v1/runs/{workflow_run_id}/actions", path(runId!))),
  });
}

/** useVersion is a published version, for its number. */
export function useVersion(versionId: string | null | undefined) {
  return useQuery({
    queryKey: ["workflow-versions", versionId],
    enabled: !!versionId,
    staleTime: Infinity,
    queryFn: () =>
      data(api.GET("/api/v1/workflow-versions/{workflow_version_id}", { params: { path: { workflow_version_id: versionId! } } })),
  });
}

/** useSideEffects is the server's preview of a retry of actionKey, or of a replay without
 * one: which actions act again, which results are reused. Never computed here: the server
 * knows the graph and the catalog's idempotence. No effects reads nothing. */
export function useSideEffects(effects: { runId: string; actionKey?: string; version?: ReplayVersion } | undefined) {
  const { runId = "", actionKey, version = "original" } = effects ?? {};
  return useQuery({
    queryKey: [...runKey(runId), "effects", actionKey ?? "", version],
    enabled: !!effects,
    staleTime: 0,
    queryFn: () =>
      actionKey
        ? data(api.GET("/api/v1/runs/{workflow_run_id}/retry-preview", { params: { path: { workflow_run_id: runId }, query: { action_key: actionKey } } }))
        : data(api.GET("/api/v1/runs/{workflow_run_id}/replay-preview", { params: { path: { workflow_run_id: runId }, query: { version } } })),
  });
}

/** ReplayVersion is which version a replay runs: the run's own, or the workflow's current. */
export type ReplayVersion = "original" | "latest";

/** ReplayChanges are what a replay changes: its input (the recorded one when absent) and
 * its version. */
export type ReplayChanges = { input_json?: Record<string, unknown>; version: ReplayVersion };

// A run that starts again (a retry) is followed from its answer on: the inspector's stream
// opens again as the cached run stops being terminal.
function useRunAnswer(runId: string) {
  const queryClient = useQueryClient();
  return (run: RunView) => {
    queryClient.setQueryData(runKey(runId), run);
    void queryClient.invalidateQueries({ queryKey: runKey(runId) });
    void queryClient.invalidateQueries({ queryKey: ["run-lists"] });
  };
}

export function useCancelRun(runId: string) {
  const onSuccess = useRunAnswer(runId);
  return useMutation({ mutationFn: () => data(api.POST("/api/v1/runs/{workflow_run_id}/cancel", path(runId))), onSuccess });
}

export function useRetryAction(runId: string) {
  const onSuccess = useRunAnswer(runId);
  return useMutation({
    mutationFn: (actionKey: string) =>
      data(api.POST("/api/v1/runs/{workflow_run_id}/retry-action", { ...path(runId), body: { action_key: actionKey } })),
    onSuccess,
  });
}

/** useReplayRun starts a new run of the same version and input, or of those the changes
 * say; its answer is the new run. */
export function useReplayRun(runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ReplayChanges) => data(api.POST("/api/v1/runs/{workflow_run_id}/replay", { ...path(runId), body: changes })),
    onSuccess: (run) => {
      queryClient.setQueryData(runKey(run.workflow_run_id), run);
      void queryClient.invalidateQueries({ queryKey: ["run-lists"] });
    },
  });
}
