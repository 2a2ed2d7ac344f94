// A project's billing through the API: payment actions and what is done to them (confirm,
// snooze, manual payments, documents), the payment schedule and the service types.
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api, data, multipart } from "../../api/client";
import type { components } from "../../api/schema.gen";
import { useEveryPage } from "../../lib/useEveryPage";
import { queueQuery, type QueueView } from "./queue";

export type PaymentAction = components["schemas"]["PaymentActionView"];
export type PaymentActionItem = components["schemas"]["PaymentActionItem"];
export type PaymentFact = components["schemas"]["PaymentFactView"];
export type PaymentMethod = components["schemas"]["PaymentMethod"];
export type PaymentDocument = components["schemas"]["PaymentActionDocumentView"];
export type ServiceType = components["schemas"]["ClientServiceTypeView"];
export type ManualPayment = components["schemas"]["ManualPaymentRecordRequest"];
export type ConfirmRequest = components["schemas"]["PaymentActionConfirmRequest"];

export const paymentMethods: PaymentMethod[] = ["bank_transfer", "legal_invoice", "card", "cash", "other"];
export const documentKinds: PaymentDocument["kind"][] = ["invoice", "act", "receipt", "other"];

export const paymentActionKey = (id: string) => ["payment-actions", id] as const;
const projectActionsKey = (projectId: string) => ["projects", projectId, "payment-actions"] as const;
const clientActionsKey = (clientId: string) => ["clients", clientId, "payment-actions"] as const;
const serviceTypesKey = (projectId: string) => ["projects", projectId, "client-service-types"] as const;

/** useProject is the project whose billing a page shows. */
export function useProject(projectId: string) {
  return useQuery({
    queryKey: ["projects", projectId],
    queryFn: () => data(api.GET("/api/v1/projects/{project_id}", { params: { path: { project_id: projectId } } })),
  });
}

/** usePaymentQueue is the project's payment actions in the view, every page of them: the
 * queue's totals are of the whole queue, never of the pages seen so far. */
export function usePaymentQueue(projectId: string, view: QueueView, today: string) {
  return useEveryPage([...projectActionsKey(projectId), view, today], (cursor) =>
    data(
      api.GET("/api/v1/projects/{project_id}/payment-actions", {
        params: { path: { project_id: projectId }, query: { ...queueQuery(view, today), limit: 200, cursor: cursor || undefined } },
      }),
    ),
  );
}

/** useClientPaymentActions is the client's payment actions still open, every page of them. */
export function useClientPaymentActions(clientId: string, today: string) {
  return useEveryPage([...clientActionsKey(clientId), today], (cursor) =>
    data(
      api.GET("/api/v1/clients/{client_id}/payment-actions", {
        params: { path: { client_id: clientId }, query: { ...queueQuery("open", today), limit: 200, cursor: cursor || undefined } },
      }),
    ),
  );
}

export function usePaymentAction(id: string) {
  return useQuery({
    queryKey: paymentActionKey(id),
    queryFn: () => data(api.GET("/api/v1/payment-actions/{payment_action_id}", { params: { path: { payment_action_id: id } } })),
  });
}

/** billingChanged has what a payment, or a change of a service, may have moved read again:
 * the project's payment actions and schedule, and the client's pages (its actions, and its
 * services, whose next due dates payments move). A service saved on or after its due date
 * is billed as it is saved. */
export function billingChanged(queryClient: QueryClient, projectId: string, clientId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: projectActionsKey(projectId) }),
    queryClient.invalidateQueries({ queryKey: ["clients", clientId] }),
    queryClient.invalidateQueries({ queryKey: ["projects", projectId, "payment-schedule"] }),
  ]);
}

/** settled keeps the changed action and has what it moved read again. */
function settled(queryClient: QueryClient, action: PaymentAction) {
  queryClient.setQueryData(paymentActionKey(action.payment_action_id), action);
  return billingChanged(queryClient, action.project_id, action.client_id);
}

/** useBillNow bills a service's next due date now, ahead of the billing cycle, and answers
 * the action: a new one, or the one that bills that date already. */
export function useBillNow(serviceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.POST("/api/v1/client-services/{client_service_id}/bill-now", { params: { path: { client_service_id: serviceId } } })),
    onSuccess: (action) => settled(queryClient, action),
  });
}

/** useConfirm records a payment of the whole action, or of some of its items. */
export function useConfirm(action: PaymentAction) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConfirmRequest) =>
      data(api.POST("/api/v1/payment-actions/{payment_action_id}/confirm", { params: { path: { payment_action_id: action.payment_action_id } }, body })),
    onSuccess: (changed) => settled(queryClient, changed),
  });
}

export function useSnooze(action: PaymentAction) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components["schemas"]["PaymentActionSnoozeRequest"]) =>
      data(api.POST("/api/v1/payment-actions/{payment_action_id}/snooze", { params: { path: { payment_action_id: action.payment_action_id } }, body })),
    onSuccess: (changed) => settled(queryClient, changed),
  });
}

/** useManualPayment records a payment the client made. The form's idempotency key goes with
 * every send of it, so the API records the payment once however often it is sent. */
export function useManualPayment(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ManualPayment) =>
      data(api.POST("/api/v1/clients/{client_id}/payments/manual", { params: { path: { client_id: clientId } }, body })),
    onSuccess: async (recorded) => {
      // The answer names the action the payment went to; it is read afresh, as it is now.
      const action = await queryClient.fetchQuery({
        staleTime: 0,
        queryKey: paymentActionKey(recorded.payment_action_id),
        queryFn: () => data(api.GET("/api/v1/payment-actions/{payment_action_id}", { params: { path: { payment_action_id: recorded.payment_action_id } } })),
      });
      await settled(queryClient, action);
    },
  });
}

const documentsKey = (actionId: string) => [...paymentActionKey(actionId), "documents"] as const;

export function useDocuments(actionId: string) {
  return useQuery({
    queryKey: documentsKey(actionId),
    queryFn: () =>
      data(api.GET("/api/v1/payment-actions/{payment_action_id}/documents", { params: { path: { payment_action_id: actionId }, query: { limit: 200 } } })),
  });
}

/** useUploadDocument sends a file as the multipart form the API takes. */
export function useUploadDocument(actionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, kind }: { file: File; kind: PaymentDocument["kind"] }) =>
      data(
        api.POST("/api/v1/payment-actions/{payment_action_id}/documents", {
          params: { path: { payment_action_id: actionId } },
          ...multipart({ file, kind }),
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: documentsKey(actionId) }),
  });
}

/** usePaymentSchedule is the coming dues of the project's active services from one day to
 * another, with totals per month and currency. */
export function usePaymentSchedule(projectId: string, from: string, to: string) {
  return useQuery({
    queryKey: ["projects", projectId, "payment-schedule", from, to],
    queryFn: () => data(api.GET("/api/v1/projects/{project_id}/payment-schedule", { params: { path: { project_id: projectId }, query: { from, to } } })),
  });
}

/** useServiceTypes is the service types seen in the project: global, the company's and the
 * project's own, told apart by scope_kind. */
export function useServiceTypes(projectId: string | undefined) {
  return useQuery({
    queryKey: serviceTypesKey(projectId ?? ""),
    enabled: !!projectId,
    queryFn: () => data(api.GET("/api/v1/projects/{project_id}/client-service-types", { params: { path: { project_id: projectId! } } })),
  });
}

/** useServiceTypeChange adds or archives a service type, then reads the project's again. */
export function useServiceTypeChange<V>(projectId: string, change: (v: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: change, onSuccess: () => queryClient.invalidateQueries({ queryKey: serviceTypesKey(projectId) }) });
}
