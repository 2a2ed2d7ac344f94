// The AI employee's reads and the things a person does with it, through the query cache.
// A turn's stream moves the cached session as it happens (useLiveTurn); when it ends the
// session is read again whole, so the cache ends as the server has it.
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, data } from "../../api/client";
import { readProblem } from "../../api/problem";
import type { components } from "../../api/schema.gen";
import type { SessionOpening } from "./context";
import type { Envelope } from "./readiness";
import { readSSE } from "./sse";
import { applyEvent, turnGoesOn, withDecision, type Session, type SessionEvent, type ToolCall } from "./transcript";

export type MessageInput = components["schemas"]["AIMessageInput"];
export type EmployeePatch = components["schemas"]["AIEmployeePatch"];

// The capability's reasons are worded by the API in the language asked: each language is
// its own answer, so switching the language reads them again.
const employeeKey = (projectId: string, language: string) => ["projects", projectId, "ai", "employee", language] as const;
export const sessionKey = (projectId: string, sessionId: string) => ["projects", projectId, "ai", "sessions", sessionId] as const;

/** useEmployee is the project's employee: its settings, capability and providers. */
export function useEmployee(projectId: string) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: employeeKey(projectId, i18n.language),
    queryFn: () => data(api.GET("/api/v1/projects/{project_id}/ai/employee", { params: { path: { project_id: projectId } } })),
  });
}

/** usePatchEmployee changes the employee's settings (owners and admins). */
export function usePatchEmployee(projectId: string) {
  const queryClient = useQueryClient();
  const { i18n } = useTranslation();
  return useMutation({
    mutationFn: (body: EmployeePatch) =>
      data(api.PATCH("/api/v1/projects/{project_id}/ai/employee", { params: { path: { project_id: projectId } }, body })),
    onSuccess: (envelope) => {
      queryClient.setQueryData<Envelope>(employeeKey(projectId, i18n.language), envelope);
      // The answers in the other language are out of date now.
      void queryClient.invalidateQueries({ queryKey: ["projects", projectId, "ai", "employee"], refetchType: "none" });
    },
  });
}

// While the employee works on a session no stream of this page follows (the page was
// opened during a turn, or the stream broke), the session is read again this often.
const readEvery = 1000;

function sessionQuery(projectId: string, sessionId: string | undefined) {
  return {
    queryKey: sessionKey(projectId, sessionId ?? ""),
    enabled: !!sessionId,
    retry: false,
    queryFn: () =>
      data(
        api.GET("/api/v1/projects/{project_id}/ai/employee/sessions/{session_id}", {
          params: { path: { project_id: projectId, session_id: sessionId! } },
        }),
      ),
  };
}

/** useSession is the conversation on screen with its messages and tool calls, read again
 * while the employee works on it and no stream of this page follows it. */
export function useSession(projectId: string, sessionId: string | undefined, streaming: boolean) {
  return useQuery({
    ...sessionQuery(projectId, sessionId),
    refetchInterval: (q) => (!streaming && q.state.data && turnGoesOn(q.state.data) ? readEvery : false),
  });
}

/** useSessionSummary is a conversation as the list names it (the same cached session). */
export function useSessionSummary(projectId: string, sessionId: string) {
  return useQuery(sessionQuery(projectId, sessionId));
}

/** openSession opens a conversation on what the person is looking at. */
export async function openSession(queryClient: QueryClient, projectId: string, body: SessionOpening): Promise<Session> {
  const session = await data(api.POST("/api/v1/projects/{project_id}/ai/employee/sessions", { params: { path: { project_id: projectId } }, body }));
  queryClient.setQueryData(sessionKey(projectId, session.ai_chat_session_id), session);
  return session;
}

/** LiveTurn follows the turns of a project's conversations as they are written. */
export type LiveTurn = {
  /** text is what the employee is writing now, before its message is stored. */
  text: string;
  /** streaming tells that a stream of this page is open. */
  streaming: boolean;
  /** send posts the message and follows its turn until it ends or waits for the person;
   * it answers once the message is taken, and throws the Problem when it is refused. */
  send: (sessionId: string, message: MessageInput) => Promise<void>;
  /** resume follows the turn again after the person decided on a tool call. */
  resume: (sessionId: string) => Promise<void>;
  /** stop closes the stream (the turn itself is stopped by the API's cancel). */
  stop: () => void;
};

const streamPath = "/api/v1/projects/{project_id}/ai/employee/sessions/{session_id}/messages/stream" as const;

/** useLiveTurn reads the message stream (Server-Sent Events over POST, through the one
 * client, so the CSRF header, the language and the session refresh are the same as for
 * every request) and applies each event to the cached session. */
export function useLiveTurn(projectId: string): LiveTurn {
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [streaming, setStreaming] = useState(false);
  const current = useRef<AbortController | undefined>(undefined);
  // The last event seen of each session, from which a stream resumes after a decision.
  const seen = useRef(new Map<string, number>());

  const stop = useCallback(() => {
    current.current?.abort();
    current.current = undefined;
  }, []);
  useEffect(() => stop, [stop]);
  // A page with an open stream is not kept in the back/forward cache: hidden, it lets the
  // stream go (the session is read again when it is shown).
  useEffect(() => {
    addEventListener("pagehide", stop);
    return () => removeEventListener("pagehide", stop);
  }, [stop]);

  // read applies the stream's events to the cached session until it ends.
  const read = useCallback(
    async (sessionId: string, body: ReadableStream<Uint8Array>, controller: AbortController) => {
      const key = sessionKey(projectId, sessionId);
      try {
        await readSSE(body, (m) => {
          const event = JSON.parse(m.data) as SessionEvent;
          seen.current.set(sessionId, event.sequence);
          if (event.event_type === "message.delta") {
            const piece = event.data?.text;
            if (typeof piece === "string") setText((t) => t + piece);
            return;
          }
          // A stored step ends the text written so far: it is now a message (or tool calls).
          if (event.event_type === "message.created" || event.event_type === "tool_call.created") setText("");
          queryClient.setQueryData<Session>(key, (s) => s && applyEvent(s, event));
        });
      } catch {
        // Closed by the page, or broken: the session's own reads take over.
      } finally {
        if (current.current === controller) current.current = undefined;
        setText("");
        await queryClient.refetchQueries({ queryKey: key });
        // Unless a newer stream has opened meanwhile, none is open now.
        if (!current.current) setStreaming(false);
      }
    },
    [projectId, queryClient],
  );

  // follow opens the stream (posting the message, or resuming after the last event seen)
  // and reads it in the background; it answers once the stream is open.
  const follow = useCallback(
    async (sessionId: string, message: MessageInput | undefined) => {
      const after = seen.current.get(sessionId);
      stop();
      const controller = new AbortController();
      current.current = controller;
      const { data: body, error, response } = await api.POST(streamPath, {
        params: {
          path: { project_id: projectId, session_id: sessionId },
          header: message ? undefined : { "Last-Event-ID": String(after ?? 0) },
        },
        body: message,
        parseAs: "stream",
        signal: controller.signal,
      });
      if (error !== undefined || !response.ok || !body) {
        if (current.current === controller) current.current = undefined;
        throw await readProblem(response, error);
      }
      setStreaming(true);
      void read(sessionId, body, controller);
    },
    [projectId, stop, read],
  );

  const send = useCallback((sessionId: string, message: MessageInput) => follow(sessionId, message), [follow]);
  const resume = useCallback(
    async (sessionId: string) => {
      // A page that did not follow the turn before the decision knows no event to resume
      // after: it reads the session until the turn ends.
      if (!seen.current.has(sessionId)) {
        await queryClient.invalidateQueries({ queryKey: sessionKey(projectId, sessionId) });
        return;
      }
      try {
        await follow(sessionId, undefined);
      } catch {
        await queryClient.invalidateQueries({ queryKey: sessionKey(projectId, sessionId) });
      }
    },
    [follow, projectId, queryClient],
  );
  return { text, streaming, send, resume, stop };
}

/** useDecide approves or rejects a tool call that waits, then follows the turn on. */
export function useDecide(projectId: string, sessionId: string, live: LiveTurn) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ call, approve }: { call: ToolCall; approve: boolean }) => {
      const params = { params: { path: { project_id: projectId, tool_call_id: call.ai_tool_call_id } } };
      return data(
        approve
          ? api.POST("/api/v1/projects/{project_id}/ai/tool-calls/{tool_call_id}/approve", params)
          : api.POST("/api/v1/projects/{project_id}/ai/tool-calls/{tool_call_id}/reject", params),
      );
    },
    onSuccess: (call) => {
      queryClient.setQueryData<Session>(sessionKey(projectId, sessionId), (s) => s && withDecision(s, call));
      void live.resume(sessionId);
    },
  });
}

/** useCancelTurn stops the turn in progress; the answer is the session once stopped. */
export function useCancelTurn(projectId: string, sessionId: string, live: LiveTurn) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      data(
        api.POST("/api/v1/projects/{project_id}/ai/employee/sessions/{session_id}/cancel", {
          params: { path: { project_id: projectId, session_id: sessionId } },
        }),
      ),
    onSuccess: (session) => {
      live.stop();
      queryClient.setQueryData(sessionKey(projectId, sessionId), session);
    },
  });
}

/** usePatchPreview is the draft a proposed patch would make, by the import's dry run: the
 * same check the employee's proposal passed, against the draft as it is now; nothing is
 * saved. */
export function usePatchPreview(workflowId: string, patch: Record<string, unknown>) {
  const text = JSON.stringify(patch);
  return useQuery({
    queryKey: ["ai", "patch-preview", workflowId, text],
    staleTime: Infinity,
    retry: false,
    queryFn: () =>
      data(
        api.POST("/api/v1/workflows/{workflow_id}/ai-import", {
          params: { path: { workflow_id: workflowId }, query: { dry_run: true } },
          body: text,
        }),
      ),
  });
}
