// The project's integrations (action dependencies) and the catalog of their types: what the
// settings pages and the editor's integration picker read, and the calls that change them.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api, data, ProblemError } from "../../api/client";
import type { components } from "../../api/schema.gen";

export type Integration = components["schemas"]["ActionDependencyView"];
export type DependencyType = components["schemas"]["DependencyTypeCatalogItem"];
export type TestResult = components["schemas"]["ActionDependencyTestResult"];
export type Relay = components["schemas"]["MessengerARelayView"];
type Json = Record<string, unknown>;

const allKey = (projectId: string) => ["projects", projectId, "action-dependencies", "all"] as const;
const oneKey = (projectId: string, id: string) => ["projects", projectId, "action-dependencies", id] as const;

/** useProjectIntegrations is every integration of the project (a project has few: all pages). */
export function useProjectIntegrations(projectId: string) {
  return useQuery({
    queryKey: allKey(projectId),
    enabled: projectId !== "",
    queryFn: async () => {
      const all: Integration[] = [];
      let cursor: string | undefined;
      do {
        const page = await data(
          api.GET("/api/v1/projects/{project_id}/action-dependencies", {
            params: { path: { project_id: projectId }, query: { limit: 200, cursor } },
          }),
        );
        all.push(...page.items);
        cursor = page.next_cursor || undefined;
      } while (cursor);
      return all;
    },
  });
}

/** useDependencyTypes is the catalog of integration types, its texts in the interface's
 * language; it changes only with the server. */
export function useDependencyTypes() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ["action-dependency-types", i18n.language],
    staleTime: Infinity,
    // The other language's answer stands in until this one's comes, so the pages built on
    // the catalog (the editor with its unsaved changes) stay as they are meanwhile.
    placeholderData: keepPreviousData,
    queryFn: () => data(api.GET("/api/v1/action-dependency-types")),
  });
}

export function useIntegration(projectId: string, id: string) {
  return useQuery({
    queryKey: oneKey(projectId, id),
    queryFn: () =>
      data(
        api.GET("/api/v1/projects/{project_id}/action-dependencies/{action_dependency_id}", {
          params: { path: { project_id: projectId, action_dependency_id: id } },
        }),
      ),
  });
}

/** changed refreshes the project's integrations after one of them changed. */
function useChanged(projectId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["projects", projectId, "action-dependencies"] });
}

// The credential the person typed is sent, never kept: gcTime 0 drops the mutation, and
// its variables with it, once the form is gone. The API answers it masked only.
export function useCreateIntegration(projectId: string) {
  const changed = useChanged(projectId);
  return useMutation({
    gcTime: 0,
    mutationFn: (body: components["schemas"]["ActionDependencyCreateRequest"]) =>
      data(api.POST("/api/v1/projects/{project_id}/action-dependencies", { params: { path: { project_id: projectId } }, body })),
    onSuccess: changed,
  });
}

const path = (d: Integration) => ({ params: { path: { project_id: d.project_id, action_dependency_id: d.action_dependency_id } } });

export function usePatchIntegration(d: Integration) {
  const changed = useChanged(d.project_id);
  return useMutation({
    mutationFn: (body: components["schemas"]["ActionDependencyPatch"]) =>
      data(api.PATCH("/api/v1/projects/{project_id}/action-dependencies/{action_dependency_id}", { ...path(d), body })),
    onSuccess: changed,
  });
}

export function useDeleteIntegration(d: Integration) {
  const changed = useChanged(d.project_id);
  return useMutation({
    mutationFn: () => data(api.DELETE("/api/v1/projects/{project_id}/action-dependencies/{action_dependency_id}", path(d))),
    onSuccess: changed,
  });
}

export function useRotateCredential(d: Integration) {
  const changed = useChanged(d.project_id);
  return useMutation({
    gcTime: 0,
    mutationFn: (auth: Json) => data(api.POST("/api/v1/projects/{project_id}/action-dependencies/{action_dependency_id}/rotate-secret", { ...path(d), body: { auth } })),
    onSuccess: changed,
  });
}

/** useTestConnection makes one real call to the provider; the API stores the outcome as the
 * integration's last_test, which the page shows from the integration read again. */
export function useTestConnection(d: Integration) {
  const changed = useChanged(d.project_id);
  return useMutation({
    mutationFn: () => data(api.POST("/api/v1/projects/{project_id}/action-dependencies/{action_dependency_id}/test", path(d))),
    onSettled: changed,
  });
}

const relayKey = (d: Integration) => ["projects", d.project_id, "action-dependencies", d.action_dependency_id, "relay"] as const;

/** useRelay is a messenger_a.bot integration's relay, or null while it has none. */
export function useRelay(d: Integration) {
  return useQuery({
    queryKey: relayKey(d),
    queryFn: async () => {
      try {
        return await data(api.GET("/api/v1/projects/{project_id}/action-dependencies/{action_dependency_id}/messenger_a-relay", path(d)));
      } catch (e) {
        if (e instanceof ProblemError && e.status === 404) return null;
        throw e;
      }
    },
  });
}

export function useRelayPolling(d: Integration) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      data(api.POST("/api/v1/projects/{project_id}/action-dependencies/{action_dependency_id}/messenger_a-relay-polling", { ...path(d), body: { enabled } })),
    onSuccess: (relay) => queryClient.setQueryData(relayKey(d), relay),
  });
}

// The new webhook secret is in this answer only; gcTime 0 as for every secret.
export function useRotateRelaySecret(d: Integration) {
  const queryClient = useQueryClient();
  return useMutation({
    gcTime: 0,
    mutationFn: () => data(api.POST("/api/v1/projects/{project_id}/action-dependencies/{action_dependency_id}/messenger_a-relay-webhook-secret/rotate", path(d))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: relayKey(d) }),
  });
}
