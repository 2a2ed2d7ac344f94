// The calls' server state: a visit's calls and each call's recordings, under the desk's
// "site-chat" key, so a change of the active project reloads them too.
import { useQuery, type QueryClient } from "@tanstack/react-query";
import { api, data, multipart } from "../../../api/client";
import type { CallSession } from "./callState";

export const callKeys = {
  visitCalls: (visitSessionId: string) => ["site-chat", "visit-calls", visitSessionId] as const,
  recordings: (callSessionId: string) => ["site-chat", "call-recordings", callSessionId] as const,
};

// A visit rarely has more calls than this; the newest come first.
const newest = 50;

export function useVisitCalls(visitSessionId: string) {
  return useQuery({
    queryKey: callKeys.visitCalls(visitSessionId),
    queryFn: () =>
      data(
        api.GET("/api/v1/site-visit-sessions/{visit_session_id}/calls", {
          params: { path: { visit_session_id: visitSessionId }, query: { limit: newest, order: "desc" } },
        }),
      ).then((page) => page.items),
  });
}

// Download links last 15 minutes: the list is read again before they run out.
const linksLast = 10 * 60_000;

export function useRecordings(callSessionId: string) {
  return useQuery({
    queryKey: callKeys.recordings(callSessionId),
    refetchInterval: linksLast,
    queryFn: () =>
      data(
        api.GET("/api/v1/site-chat/calls/{call_session_id}/recordings", {
          params: { path: { call_session_id: callSessionId }, query: { limit: 100 } },
        }),
      ).then((page) => page.items),
  });
}

/** uploadRecording stores a call's recording through the API, as the multipart body it takes. */
export function uploadRecording(call: CallSession, file: File) {
  return data(
    api.POST("/api/v1/site-chat/calls/{call_session_id}/recordings", {
      params: { path: { call_session_id: call.call_session_id } },
      ...multipart({ file }),
    }),
  );
}

/** readRecordingsAgain has the call's recordings read again, once one is saved. A first
 * read begun before the upload was answered is cancelled rather than joined: TanStack Query
 * joins a query's fetch in flight while it has no data yet, and would keep that read's
 * empty answer. */
export async function readRecordingsAgain(queryClient: QueryClient, callSessionId: string) {
  const queryKey = callKeys.recordings(callSessionId);
  await queryClient.cancelQueries({ queryKey });
  await queryClient.invalidateQueries({ queryKey });
}
