import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api, data } from "../api/client";
import type { components } from "../api/schema.gen";

export type ActionType = components["schemas"]["ActionTypeCatalogItem"];

/** useActionTypes is the action catalog, in catalog order, its texts in the interface's
 * language (each language is its own answer); it changes only with the server. */
export function useActionTypes() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ["action-types", i18n.language],
    staleTime: Infinity,
    // The other language's answer stands in until this one's comes, so the pages built on
    // the catalog (the editor with its unsaved changes) stay as they are meanwhile.
    placeholderData: keepPreviousData,
    queryFn: () => data(api.GET("/api/v1/action-types")),
  });
}

/** byKey indexes the catalog by action type key. */
export function byKey(types: ActionType[]): Map<string, ActionType> {
  return new Map(types.map((t) => [t.action_key, t]));
}
