// The company's own legal entities: the organisations and sole proprietors it bills as.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import type { components } from "../../api/schema.gen";

export type LegalEntity = components["schemas"]["LegalEntityView"];
export type LegalEntityInput = components["schemas"]["LegalEntityInput"];

const entitiesKey = (companyId: string) => ["companies", companyId, "legal-entities"] as const;

/** useLegalEntities is the company's legal entities; a company has a handful, so one page of
 * the API's largest holds them. */
export function useLegalEntities(companyId: string) {
  return useQuery({
    queryKey: entitiesKey(companyId),
    queryFn: () => data(api.GET("/api/v1/companies/{company_id}/legal-entities", { params: { path: { company_id: companyId }, query: { limit: 200 } } })),
  });
}

/** useSaveLegalEntity adds a legal entity, or changes the one given. */
export function useSaveLegalEntity(companyId: string, entity?: LegalEntity) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LegalEntityInput) =>
      entity
        ? data(api.PATCH("/api/v1/company-legal-entities/{company_legal_entity_id}", { params: { path: { company_legal_entity_id: entity.company_legal_entity_id } }, body }))
        : data(api.POST("/api/v1/companies/{company_id}/legal-entities", { params: { path: { company_id: companyId } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: entitiesKey(companyId) }),
  });
}

export function useDeleteLegalEntity(companyId: string, entity: LegalEntity) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      data(api.DELETE("/api/v1/company-legal-entities/{company_legal_entity_id}", { params: { path: { company_legal_entity_id: entity.company_legal_entity_id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: entitiesKey(companyId) }),
  });
}
