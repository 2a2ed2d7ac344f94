import { useQuery } from "@tanstack/react-query";
import { api, data } from "../api/client";
import type { components } from "../api/schema.gen";

export type ActionType = components["schemas"]["ActionTypeCatalogItem"];

/** useActionTypes is the action catalog, in catalog order; it changes only with the server. */
export function useActionTypes() {
  return useQuery({
    queryKey: ["action-types"],
    staleTime: Infinity,
    queryFn: () => data(api.GET("/api/v1/action-types")),
  });
}

/** byKey indexes the catalog by action type key. */
export function byKey(types: ActionType[]): Map<string, ActionType> {
  return new Map(types.map((t) => [t.action_key, t]));
}
