// The signed-in person's own settings: profile, sessions and API keys.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import type { components } from "../../api/schema.gen";
import { meKey } from "../auth/session";

export type SessionView = components["schemas"]["SessionView"];
export type ApiKeyView = components["schemas"]["ApiKeyView"];

export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components["schemas"]["ProfilePatch"]) => data(api.PATCH("/api/v1/auth/profile", { body })),
    onSuccess: (me) => queryClient.setQueryData(meKey, me),
  });
}

const sessionsKey = ["auth", "sessions"] as const;

/** useSessions is the person's live sessions; a person has few, so one page holds them. */
export function useSessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: () => data(api.GET("/api/v1/auth/sessions", { params: { query: { limit: 200 } } })),
  });
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) => data(api.DELETE("/api/v1/auth/sessions/{session_id}", { params: { path: { session_id: sessionId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

const apiKeysKey = ["auth", "api-keys"] as const;

/** useApiKeys is the person's API keys, masked; a person has few, so one page holds them. */
export function useApiKeys() {
  return useQuery({
    queryKey: apiKeysKey,
    queryFn: () => data(api.GET("/api/v1/auth/api-keys", { params: { query: { limit: 200 } } })),
  });
}

// The key in create's answer is shown once: gcTime 0 drops the mutation, and the key with
// it, as soon as the dialog showing it is gone, and the list is read again instead of
// being fed the answer.
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    gcTime: 0,
    mutationFn: (body: components["schemas"]["ApiKeyCreateRequest"]) => data(api.POST("/api/v1/auth/api-keys", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (apiKeyId: string) => data(api.DELETE("/api/v1/auth/api-keys/{api_key_id}", { params: { path: { api_key_id: apiKeyId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}
