// The person's desktop inbox (docs/desktop.md): the list with its unread count, kept live
// by the message stream, and acknowledgements.
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { api, data } from "../../api/client";
import { followStream } from "../../lib/eventStream";
import type { components } from "../../api/schema.gen";

export type DesktopMessage = components["schemas"]["DesktopMessage"];

const inboxKey = ["desktop", "messages"] as const;
const pageSize = 20;

/** useInbox is the person's messages, unread first, a page at a time; `unread_count` of the
 * first page counts every unread one. */
export function useInbox() {
  return useInfiniteQuery({
    queryKey: inboxKey,
    initialPageParam: "",
    queryFn: ({ pageParam }) =>
      data(api.GET("/api/v1/desktop/messages", { params: { query: { limit: pageSize, cursor: pageParam || undefined } } })),
    getNextPageParam: (last) => last.next_cursor || undefined,
  });
}

/** useInboxStream reads the inbox again whenever the stream says a message arrived, so the
 * count moves without a reload. */
export function useInboxStream() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const arrived = () => {
      stream.received();
      void queryClient.invalidateQueries({ queryKey: inboxKey });
    };
    // Without Last-Event-ID the stream starts with the next message; what came while it was
    // closed is read by the list, so every (re)opening reads the list again.
    const stream = followStream(() => {
      const source = new EventSource("/api/v1/desktop/messages/stream");
      source.onopen = arrived;
      source.addEventListener("desktop.message", arrived);
      return source;
    });
    return () => stream.close();
  }, [queryClient]);
}

/** useAcknowledge marks messages read: one, or every unread one (each page of unread
 * messages is read and acknowledged until none is left). */
export function useAcknowledge() {
  const queryClient = useQueryClient();
  const done = () => queryClient.invalidateQueries({ queryKey: inboxKey });
  const one = useMutation({
    mutationFn: (id: string) =>
      data(api.POST("/api/v1/desktop/messages/{desktop_message_id}/ack", { params: { path: { desktop_message_id: id } } })),
    onSettled: done,
  });
  const all = useMutation({
    mutationFn: async () => {
      for (;;) {
        const page = await data(api.GET("/api/v1/desktop/messages", { params: { query: { unread: true, limit: 100 } } }));
        if (page.items.length === 0) return;
        for (const m of page.items) {
          await data(
            api.POST("/api/v1/desktop/messages/{desktop_message_id}/ack", { params: { path: { desktop_message_id: m.desktop_message_id } } }),
          );
        }
      }
    },
    onSettled: done,
  });
  return { one, all };
}

/** subjectPath is the console page of what a message is about, or undefined when it is
 * about nothing the console shows. */
export function subjectPath(m: Pick<DesktopMessage, "subject_type" | "subject_id" | "project_id">): string | undefined {
  const id = encodeURIComponent(m.subject_id);
  if (!m.subject_id) return undefined;
  switch (m.subject_type) {
    case "workflow_run":
      return `/runs/${id}`;
    case "task":
      return `/work/tasks/${id}`;
    case "payment_action":
      return `/payment-actions/${id}`;
    case "site_chat_conversation":
      return `/site-chat/conversations/${id}`;
    case "ai_tool_call":
      return m.project_id ? `/projects/${encodeURIComponent(m.project_id)}/ai?tool_call_id=${id}` : undefined;
  }
  return undefined;
}
