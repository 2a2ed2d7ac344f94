// The project's integrations and the catalog of their types, for the integration picker.
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../../api/client";
import type { components } from "../../../api/schema.gen";

export type Integration = components["schemas"]["ActionDependencyView"];

/** useProjectIntegrations is every integration of the project (a project has few: all pages). */
export function useProjectIntegrations(projectId: string) {
  return useQuery({
    queryKey: ["projects", projectId, "action-dependencies", "all"],
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

/** useDependencyTypes is the catalog of integration types; it changes only with the server. */
export function useDependencyTypes() {
  return useQuery({
    queryKey: ["action-dependency-types"],
    staleTime: Infinity,
    queryFn: () => data(api.GET("/api/v1/action-dependency-types")),
  });
}
