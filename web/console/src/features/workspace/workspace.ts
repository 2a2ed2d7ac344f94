import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, data } from "../../api/client";

const contextKey = ["workspace-context"] as const;

/** useWorkspace is the person's active company and project, kept by the API. */
export function useWorkspace() {
  return useQuery({ queryKey: contextKey, queryFn: () => data(api.GET("/api/v1/auth/workspace-context")) });
}

/** useActiveProjectId is the active project's id, or undefined while there is none. */
export function useActiveProjectId(): string | undefined {
  return useWorkspace().data?.active_project_id || undefined;
}

export function useCompanies() {
  return useQuery({
    queryKey: ["companies"],
    queryFn: () => data(api.GET("/api/v1/companies", { params: { query: { limit: 100 } } })),
  });
}

export function useProjects(companyId: string | undefined) {
  return useQuery({
    queryKey: ["companies", companyId, "projects"],
    enabled: !!companyId,
    queryFn: () =>
      data(api.GET("/api/v1/companies/{company_id}/projects", { params: { path: { company_id: companyId! }, query: { limit: 100 } } })),
  });
}

type Selection = { active_company_id?: string | null; active_project_id?: string | null };

/** useSelectWorkspace changes the active company or project; every page follows it. */
export function useSelectWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (selection: Selection) => data(api.PUT("/api/v1/auth/workspace-context", { body: selection })),
    onSuccess: (context) => {
      queryClient.setQueryData(contextKey, context);
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== "workspace-context" && q.queryKey[0] !== "auth" });
    },
  });
}

export function useCreateCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => data(api.POST("/api/v1/companies", { body: { name } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["companies"] }),
  });
}

// The answer holds the project's hook secret, shown this once (the settings' projects page
// shows it): gcTime 0 drops it with the component that asked.
export function useCreateProject(companyId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    gcTime: 0,
    mutationFn: (name: string) =>
      data(api.POST("/api/v1/companies/{company_id}/projects", { params: { path: { company_id: companyId! } }, body: { name } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["companies", companyId, "projects"] }),
  });
}
