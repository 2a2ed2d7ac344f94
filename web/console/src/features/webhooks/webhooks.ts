// The webhook endpoints of a workflow, their deliveries and the calls that change them.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import type { components } from "../../api/schema.gen";

export type WebhookEndpoint = components["schemas"]["WebhookEndpointView"];
export type WebhookAuthType = components["schemas"]["WebhookAuthType"];
export type WebhookEndpointCreate = components["schemas"]["WebhookEndpointCreateRequest"];
export type WebhookEventSummary = components["schemas"]["WebhookEventSummary"];
type Action = components["schemas"]["Action"];

export const authTypes: readonly WebhookAuthType[] = ["hmac_standard", "shared_secret", "basic", "none"];

/** WebhookTrigger is a webhook.trigger of the draft: what an endpoint can make reachable. */
export type WebhookTrigger = { endpointKey: string; label: string; authType: WebhookAuthType };

function isAuthType(v: unknown): v is WebhookAuthType {
  return typeof v === "string" && (authTypes as readonly string[]).includes(v);
}

/** webhookTriggers lists the draft's webhook triggers that have an endpoint key. */
export function webhookTriggers(actions: Action[]): WebhookTrigger[] {
  return actions.flatMap((a) => {
    const key = a.action_type_key === "webhook.trigger" ? a.config?.endpoint_key : undefined;
    if (typeof key !== "string" || key === "") return [];
    // The endpoint starts with the trigger's auth type, as the API's default does.
    const authType = isAuthType(a.config?.auth_type) ? a.config.auth_type : "hmac_standard";
    return [{ endpointKey: key, label: a.label || a.action_key, authType }];
  });
}

/** withoutEndpoint keeps the triggers no endpoint makes reachable yet. */
export function withoutEndpoint(triggers: WebhookTrigger[], endpoints: WebhookEndpoint[]): WebhookTrigger[] {
  const taken = new Set(endpoints.map((e) => e.endpoint_key));
  return triggers.filter((t) => !taken.has(t.endpointKey));
}

const endpointsKey = (workflowId: string) => ["workflows", workflowId, "webhook-endpoints"] as const;
const eventsKey = (endpointId: string) => ["webhook-endpoints", endpointId, "events"] as const;

/** useWebhookEndpoints is the workflow's endpoints, secrets masked; a workflow has few. */
export function useWebhookEndpoints(workflowId: string) {
  return useQuery({
    queryKey: endpointsKey(workflowId),
    queryFn: () =>
      data(
        api.GET("/api/v1/workflows/{workflow_id}/webhook-endpoints", {
          params: { path: { workflow_id: workflowId }, query: { limit: 200 } },
        }),
      ),
  });
}

// The secret in create's and rotate's answers is shown once: gcTime 0 drops the mutation,
// and the secret with it, as soon as the dialog showing it is gone, and the list is read
// again instead of being fed the answer.
export function useCreateWebhookEndpoint(workflowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    gcTime: 0,
    mutationFn: (body: WebhookEndpointCreate) =>
      data(api.POST("/api/v1/workflows/{workflow_id}/webhook-endpoints", { params: { path: { workflow_id: workflowId } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey(workflowId) }),
  });
}

export function useRotateWebhookSecret(endpoint: WebhookEndpoint) {
  const queryClient = useQueryClient();
  return useMutation({
    gcTime: 0,
    mutationFn: (grace_period_seconds: number) =>
      data(
        api.POST("/api/v1/webhook-endpoints/{webhook_endpoint_id}/rotate-secret", {
          params: { path: { webhook_endpoint_id: endpoint.webhook_endpoint_id } },
          body: { grace_period_seconds },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey(endpoint.workflow_id) }),
  });
}

export function usePatchWebhookEndpoint(endpoint: WebhookEndpoint) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components["schemas"]["WebhookEndpointPatch"]) =>
      data(
        api.PATCH("/api/v1/webhook-endpoints/{webhook_endpoint_id}", {
          params: { path: { webhook_endpoint_id: endpoint.webhook_endpoint_id } },
          body,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey(endpoint.workflow_id) }),
  });
}

export function useWebhookSnippets(endpointId: string) {
  return useQuery({
    queryKey: ["webhook-endpoints", endpointId, "snippets"],
    queryFn: () =>
      data(api.GET("/api/v1/webhook-endpoints/{webhook_endpoint_id}/snippets", { params: { path: { webhook_endpoint_id: endpointId } } })),
  });
}

const deliveriesPage = 20;

/** useWebhookDeliveries pages through the requests the endpoint accepted, newest first. */
export function useWebhookDeliveries(endpointId: string) {
  return useInfiniteQuery({
    queryKey: eventsKey(endpointId),
    initialPageParam: "",
    queryFn: ({ pageParam }) =>
      data(
        api.GET("/api/v1/webhook-endpoints/{webhook_endpoint_id}/events", {
          params: { path: { webhook_endpoint_id: endpointId }, query: { limit: deliveriesPage, cursor: pageParam || undefined, order: "desc" } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor || undefined,
    // Someone trying a snippet watches for the request to arrive.
    refetchInterval: 10_000,
  });
}

export function useWebhookDelivery(eventId: string) {
  return useQuery({
    queryKey: ["webhook-events", eventId],
    queryFn: () => data(api.GET("/api/v1/webhook-events/{webhook_event_id}", { params: { path: { webhook_event_id: eventId } } })),
  });
}

export function useReplayWebhookDelivery(event: WebhookEventSummary) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      data(api.POST("/api/v1/webhook-events/{webhook_event_id}/replay", { params: { path: { webhook_event_id: event.webhook_event_id } } })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: eventsKey(event.webhook_endpoint_id) }),
        queryClient.invalidateQueries({ queryKey: ["webhook-events", event.webhook_event_id] }),
      ]),
  });
}
