// The company's clients and what hangs off each one: contacts, responsibles, linked projects
// and services, read and changed through the API.
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import type { components } from "../../api/schema.gen";
import { useEveryPage } from "../../lib/useEveryPage";
import { billingChanged } from "../billing/billing";

export type Client = components["schemas"]["ClientView"];
export type ClientInput = components["schemas"]["ClientInput"];
export type ClientType = Client["client_type"];
export type ClientStatus = Client["status"];
export type Contact = components["schemas"]["ClientContactView"];
export type ContactInput = components["schemas"]["ClientContactInput"];
export type Responsible = components["schemas"]["ClientResponsibleView"];
export type ResponsibleRole = Responsible["role"];
export type ClientService = components["schemas"]["ClientServiceView"];
export type ClientServiceInput = components["schemas"]["ClientServiceInput"];
export type ServiceStatus = ClientService["status"];
export type BillingPeriod = ClientService["billing_period"];
export type Party = components["schemas"]["PartyLookupParty"];

export const clientTypes: ClientType[] = ["legal_entity", "individual_entrepreneur", "individual"];
export const clientStatuses: ClientStatus[] = ["active", "archived", "deleted"];
export const responsibleRoles: ResponsibleRole[] = ["account_manager", "project_manager", "accountant", "sales_manager"];
export const billingPeriods: BillingPeriod[] = ["monthly", "once", "weekly", "quarterly", "semiannual", "yearly"];

const clientsKey = (companyId: string) => ["companies", companyId, "clients"] as const;
export const clientKey = (clientId: string) => ["clients", clientId] as const;

/** ClientFilters are the list's filters as the address spells them. */
export type ClientFilters = { q: string; type?: ClientType; status?: ClientStatus };

export function readClientFilters(params: URLSearchParams): ClientFilters {
  const type = params.get("type");
  const status = params.get("status");
  return {
    q: params.get("q") ?? "",
    type: clientTypes.find((t) => t === type),
    status: clientStatuses.find((s) => s === status),
  };
}

const pageSize = 25;

/** useClientList is the company's clients that match the filters, a page at a time; the
 * previous answer stays on screen while another loads. */
export function useClientList(companyId: string, f: ClientFilters) {
  return useInfiniteQuery({
    queryKey: [...clientsKey(companyId), f],
    initialPageParam: "",
    placeholderData: keepPreviousData,
    queryFn: ({ pageParam }) =>
      data(
        api.GET("/api/v1/companies/{company_id}/clients", {
          params: {
            path: { company_id: companyId },
            query: {
              q: f.q || undefined,
              client_type: f.type ? [f.type] : undefined,
              status: f.status ? [f.status] : undefined,
              limit: pageSize,
              cursor: pageParam || undefined,
            },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor || undefined,
  });
}

/** useClientsWithInn is the company's clients (active or archived: the ones an INN may not
 * repeat) whose INN is exactly inn; none while inn is empty. */
export function useClientsWithInn(companyId: string, inn: string) {
  return useQuery({
    queryKey: [...clientsKey(companyId), "inn", inn],
    enabled: inn !== "",
    queryFn: () =>
      data(
        api.GET("/api/v1/companies/{company_id}/clients", {
          params: { path: { company_id: companyId }, query: { q: inn, status: ["active", "archived"], limit: 200 } },
        }),
      ).then((page) => page.items.filter((c) => c.inn === inn)),
  });
}

export function useClient(clientId: string) {
  return useQuery({
    queryKey: clientKey(clientId),
    queryFn: () => data(api.GET("/api/v1/clients/{client_id}", { params: { path: { client_id: clientId } } })),
  });
}

export function useCreateClient(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ClientInput) => data(api.POST("/api/v1/companies/{company_id}/clients", { params: { path: { company_id: companyId } }, body })),
    onSuccess: (client) => {
      queryClient.setQueryData(clientKey(client.client_id), client);
      void queryClient.invalidateQueries({ queryKey: clientsKey(companyId) });
    },
  });
}

export function usePatchClient(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components["schemas"]["ClientPatch"]) =>
      data(api.PATCH("/api/v1/clients/{client_id}", { params: { path: { client_id: clientId } }, body })),
    onSuccess: (client) => {
      queryClient.setQueryData(clientKey(clientId), client);
      void queryClient.invalidateQueries({ queryKey: clientsKey(client.company_id) });
    },
  });
}

export function useDeleteClient(client: Client) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.DELETE("/api/v1/clients/{client_id}", { params: { path: { client_id: client.client_id } } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: clientKey(client.client_id) });
      void queryClient.invalidateQueries({ queryKey: clientsKey(client.company_id) });
    },
  });
}

/** useFindParty looks a number up in the registry through the company's (or the active
 * project's) party lookup settings. */
export function useFindParty(companyId: string, projectId: string | undefined) {
  return useMutation({
    mutationFn: (number: { inn: string } | { ogrn: string }) =>
      data(
        api.POST("/api/v1/companies/{company_id}/clients/party-lookup/find-party", {
          params: { path: { company_id: companyId } },
          body: { ...number, project_id: projectId },
        }),
      ),
  });
}

// A client gathers contacts, responsibles, projects and services slowly, and its card shows
// them all: every page of each is read.
const partKey = (clientId: string, part: string) => [...clientKey(clientId), part] as const;

export function useContacts(clientId: string) {
  return useEveryPage(partKey(clientId, "contacts"), (cursor) =>
    data(api.GET("/api/v1/clients/{client_id}/contacts", { params: { path: { client_id: clientId }, query: { limit: 200, cursor: cursor || undefined } } })),
  );
}

export function useResponsibles(clientId: string) {
  return useEveryPage(partKey(clientId, "responsibles"), (cursor) =>
    data(
      api.GET("/api/v1/clients/{client_id}/responsibles", { params: { path: { client_id: clientId }, query: { limit: 200, cursor: cursor || undefined } } }),
    ),
  );
}

export function useClientProjects(clientId: string) {
  return useEveryPage(partKey(clientId, "projects"), (cursor) =>
    data(api.GET("/api/v1/clients/{client_id}/projects", { params: { path: { client_id: clientId }, query: { limit: 200, cursor: cursor || undefined } } })),
  );
}

/** useServices is the client's services, the archived ones too (a deleted one is gone). */
export function useServices(clientId: string) {
  return useEveryPage(partKey(clientId, "services"), (cursor) =>
    data(
      api.GET("/api/v1/clients/{client_id}/services", {
        params: { path: { client_id: clientId }, query: { status: ["active", "paused", "completed", "archived"], limit: 200, cursor: cursor || undefined } },
      }),
    ),
  );
}

/** useMembers is the company's members, whom a client's responsibles are chosen from. */
export function useMembers(companyId: string) {
  return useEveryPage(["companies", companyId, "members"], (cursor) =>
    data(api.GET("/api/v1/companies/{company_id}/members", { params: { path: { company_id: companyId }, query: { limit: 200, cursor: cursor || undefined } } })),
  );
}

/** useClientChange is a change to one of the client's parts: when it succeeds, that part,
 * the client (its counts) and the company's lists are read again. */
export function useClientChange<V>(clientId: string, parts: string[], change: (v: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () =>
      Promise.all([
        ...parts.map((part) => queryClient.invalidateQueries({ queryKey: partKey(clientId, part) })),
        queryClient.invalidateQueries({ queryKey: clientKey(clientId), exact: true }),
      ]),
  });
}

/** useServiceChange is a change that answers one of the client's services: everything of
 * the client is read again, and its project's billing, since a service due by today is
 * billed as it is saved. */
export function useServiceChange<V>(clientId: string, change: (v: V) => Promise<ClientService>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: change, onSuccess: (service) => billingChanged(queryClient, service.project_id, clientId) });
}
