import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { api, data } from "../../api/client";
import type { components } from "../../api/schema.gen";
import { useEveryPage } from "../../lib/useEveryPage";

export type Workflow = components["schemas"]["WorkflowView"];
export type WorkflowListItem = components["schemas"]["WorkflowListItem"];
export type WorkflowVersion = components["schemas"]["WorkflowVersionView"];

export const workflowKey = (workflowId: string) => ["workflows", workflowId] as const;
const projectWorkflowsKey = (projectId: string | undefined) => ["projects", projectId, "workflows"] as const;
const versionsKey = (workflowId: string) => ["workflows", workflowId, "versions"] as const;

/** useWorkflow is one workflow with its draft and the draft's diagnostics, which the API
 * words in the interface's language: switching the language reads them again. */
export function useWorkflow(workflowId: string) {
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  const worded = useRef(i18n.language);
  useEffect(() => {
    if (worded.current === i18n.language) return;
    worded.current = i18n.language;
    void queryClient.invalidateQueries({ queryKey: workflowKey(workflowId), exact: true });
  }, [i18n.language, queryClient, workflowId]);
  return useQuery({
    queryKey: workflowKey(workflowId),
    queryFn: () => data(api.GET("/api/v1/workflows/{workflow_id}", { params: { path: { workflow_id: workflowId } } })),
  });
}

const pageSize = 25;

/** useWorkflowList is the project's workflows whose name contains q (all when q is empty),
 * the archived ones or the others, a page at a time. While another q loads, the previous
 * answer stays on screen. */
export function useWorkflowList(projectId: string | undefined, q: string, archived: boolean) {
  return useInfiniteQuery({
    queryKey: [...projectWorkflowsKey(projectId), q, archived],
    enabled: !!projectId,
    initialPageParam: "",
    placeholderData: keepPreviousData,
    queryFn: ({ pageParam }) =>
      data(
        api.GET("/api/v1/projects/{project_id}/workflows", {
          params: { path: { project_id: projectId! }, query: { limit: pageSize, cursor: pageParam || undefined, q: q || undefined, archived } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor || undefined,
  });
}

/** useProjectWorkflows is every workflow of the project that is not archived, for a form that
 * names one (workflow.call's workflow, run.event_trigger's watched workflows). */
export function useProjectWorkflows(projectId: string) {
  return useEveryPage([...projectWorkflowsKey(projectId), "", false, "every"], (cursor) =>
    data(
      api.GET("/api/v1/projects/{project_id}/workflows", {
        params: { path: { project_id: projectId }, query: { limit: 200, cursor: cursor || undefined, archived: false } },
      }),
    ),
  );
}

/** The navigation state with which a new workflow's editor opens on the palette. */
export const openOnPalette = { focus: "palette" } as const;

export function opensOnPalette(state: unknown): boolean {
  return typeof state === "object" && state !== null && (state as { focus?: unknown }).focus === openOnPalette.focus;
}

export function useCreateWorkflow(projectId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components["schemas"]["WorkflowCreateRequest"]) =>
      data(api.POST("/api/v1/projects/{project_id}/workflows", { params: { path: { project_id: projectId! } }, body })),
    onSuccess: (workflow) => {
      queryClient.setQueryData(workflowKey(workflow.workflow_id), workflow);
      void queryClient.invalidateQueries({ queryKey: projectWorkflowsKey(projectId) });
    },
  });
}

/** useStartManualRun starts a run of the current version from its manual start with the
 * input given; the project's list shows it as the workflow's last run. */
export function useStartManualRun(workflowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Record<string, unknown>) =>
      data(api.POST("/api/v1/workflows/{workflow_id}/runs/manual", { params: { path: { workflow_id: workflowId } }, body: { input } })),
    onSuccess: () => invalidateWorkflow(queryClient, workflowId),
  });
}

/** usePatchWorkflow changes the workflow's name, description, or whether it is archived. */
export function usePatchWorkflow(workflowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components["schemas"]["WorkflowSettingsPatch"]) =>
      data(api.PATCH("/api/v1/workflows/{workflow_id}", { params: { path: { workflow_id: workflowId } }, body })),
    onSuccess: (workflow) => queryClient.setQueryData(workflowKey(workflowId), workflow),
    onSettled: () => invalidateWorkflow(queryClient, workflowId),
  });
}

/** useVersions is every published version of the workflow, oldest first. The API pages them;
 * the versions page needs them all (the list, the current one, the diff's choices), and a
 * workflow gathers versions slowly, so every page is loaded. */
export function useVersions(workflowId: string) {
  return useEveryPage(versionsKey(workflowId), (cursor) =>
    data(
      api.GET("/api/v1/workflows/{workflow_id}/versions", {
        params: { path: { workflow_id: workflowId }, query: { limit: 200, cursor: cursor || undefined } },
      }),
    ),
  );
}

/** usePublish freezes the draft as the next version. */
export function usePublish(workflowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (description: string) =>
      data(api.POST("/api/v1/workflows/{workflow_id}/publish", { params: { path: { workflow_id: workflowId } }, body: { description } })),
    onSettled: () => invalidateWorkflow(queryClient, workflowId),
  });
}

/** useRestore loads a version into the draft and makes it current. */
export function useRestore(workflowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) =>
      data(
        api.POST("/api/v1/workflows/{workflow_id}/versions/{workflow_version_id}/restore", {
          params: { path: { workflow_id: workflowId, workflow_version_id: versionId } },
        }),
      ),
    onSuccess: (workflow) => queryClient.setQueryData(workflowKey(workflowId), workflow),
    onSettled: () => invalidateWorkflow(queryClient, workflowId),
  });
}

// The workflow, its versions and the project's list (status, published version) all follow a
// publish, a restore or an import; the workflow's key prefixes its versions' key.
function invalidateWorkflow(queryClient: QueryClient, workflowId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: workflowKey(workflowId) }),
    queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === "projects" && q.queryKey[2] === "workflows" }),
  ]);
}

/** useMemberNames names the company's members by user id, for "published by". */
export function useMemberNames(companyId: string | undefined) {
  return useQuery({
    queryKey: ["companies", companyId, "members"],
    enabled: !!companyId,
    queryFn: () =>
      data(api.GET("/api/v1/companies/{company_id}/members", { params: { path: { company_id: companyId! }, query: { limit: 200 } } })),
    select: (list) => new Map(list.items.map((m) => [m.user_id, m.name || m.email])),
  });
}

/** useImportPatch applies an AI editor's patch to the draft: as a dry run that stores
 * nothing, or for real. The patch goes as the text the person pasted; the server finds the
 * patch in it. */
export function useImportPatch(workflowId: string, dryRun: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      data(
        api.POST("/api/v1/workflows/{workflow_id}/ai-import", {
          params: { path: { workflow_id: workflowId }, query: { dry_run: dryRun } },
          body: text,
        }),
      ),
    onSuccess: () => (dryRun ? undefined : invalidateWorkflow(queryClient, workflowId)),
  });
}
