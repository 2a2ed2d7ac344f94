// The site chat desk's server state: one query key under "site-chat" per thing the API
// answers, so a change of the active project (which invalidates every query) reloads them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, data, multipart } from "../../api/client";
import type { components } from "../../api/schema.gen";
import { withMessage } from "./live";

export type ChatWidget = components["schemas"]["SiteChatWidget"];
export type ChatWidgetInput = components["schemas"]["SiteChatWidgetInput"];
export type ChatWidgetPatch = components["schemas"]["SiteChatWidgetPatch"];
export type VisitSession = components["schemas"]["SiteVisitorSession"];
export type VisitorSnapshot = components["schemas"]["VisitorStateSnapshot"];
export type InviteInput = components["schemas"]["SiteChatInviteInput"];
export type Conversation = components["schemas"]["SiteChatConversation"];
export type ConversationStatus = Conversation["status"];
export type Message = components["schemas"]["SiteChatMessage"];

export const siteChatKeys = {
  all: ["site-chat"] as const,
  widgets: (projectId: string) => ["site-chat", "widgets", projectId] as const,
  visitors: (projectId: string) => ["site-chat", "visitors", projectId] as const,
  visit: (visitSessionId: string) => ["site-chat", "visit", visitSessionId] as const,
  conversationLists: ["site-chat", "conversations"] as const,
  conversations: (projectId: string, status: ConversationStatus | "") => ["site-chat", "conversations", projectId, status] as const,
  conversation: (id: string) => ["site-chat", "conversation", id] as const,
  messages: (conversationId: string) => ["site-chat", "messages", conversationId] as const,
};

type Page<T> = { items: T[]; next_cursor: string };

/** allPages reads a list to its end, the largest page at a time. */
export async function allPages<T>(page: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const p = await page(cursor);
    items.push(...p.items);
    cursor = p.next_cursor || undefined;
  } while (cursor);
  return items;
}

export const most = 200;

export function useWidgets(projectId: string) {
  return useQuery({
    queryKey: siteChatKeys.widgets(projectId),
    enabled: !!projectId,
    queryFn: () =>
      allPages((cursor) =>
        data(api.GET("/api/v1/projects/{project_id}/site-chat-widgets", { params: { path: { project_id: projectId }, query: { limit: most, cursor } } })),
      ),
  });
}

/** useActiveVisitors is who is on the project's sites now; the visitors view keeps it live
 * from the operator socket (live.ts). */
export function useActiveVisitors(projectId: string) {
  return useQuery({
    queryKey: siteChatKeys.visitors(projectId),
    enabled: !!projectId,
    queryFn: () =>
      allPages((cursor) =>
        data(api.GET("/api/v1/projects/{project_id}/site-visitors/active", { params: { path: { project_id: projectId }, query: { limit: most, cursor } } })),
      ),
  });
}

/** useVisit is one visit session as the notices about it carry it. */
export function useVisit(visitSessionId: string) {
  return useQuery({
    queryKey: siteChatKeys.visit(visitSessionId),
    queryFn: () => data(api.GET("/api/v1/site-visit-sessions/{visit_session_id}", { params: { path: { visit_session_id: visitSessionId } } })),
  });
}

/** useInvite invites a visit's visitor to chat; the answer is the session as it now is. */
export function useInvite(visitSessionId: string) {
  return useMutation({
    mutationFn: (body: InviteInput) =>
      data(api.POST("/api/v1/site-visit-sessions/{visit_session_id}/invite", { params: { path: { visit_session_id: visitSessionId } }, body })),
  });
}

/** useSaveWidget creates a widget in the project, or changes one. */
export function useSaveWidget(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: ChatWidgetPatch }) =>
      id
        ? data(api.PATCH("/api/v1/site-chat-widgets/{chat_widget_id}", { params: { path: { chat_widget_id: id } }, body }))
        : data(api.POST("/api/v1/projects/{project_id}/site-chat-widgets", { params: { path: { project_id: projectId } }, body: body as ChatWidgetInput })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: siteChatKeys.widgets(projectId) }),
  });
}

/** inviteTemplates are the widget's settings_json.invite_templates: name to text. */
export function inviteTemplates(w: ChatWidget | undefined): [string, string][] {
  const raw = w?.settings_json?.invite_templates;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return [];
  return Object.entries(raw as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string");
}

/** useConversations is the project's conversations, the newest activity first, with the
 * caller's unread counts; status narrows them to the open or the closed ones. */
export function useConversations(projectId: string, status: ConversationStatus | "") {
  return useQuery({
    queryKey: siteChatKeys.conversations(projectId, status),
    enabled: !!projectId,
    queryFn: async () => {
      let unread = 0;
      const items = await allPages(async (cursor) => {
        const page = await data(
          api.GET("/api/v1/projects/{project_id}/site-chat-conversations", {
            params: { path: { project_id: projectId }, query: { limit: most, cursor, status: status || undefined } },
          }),
        );
        unread = page.unread_conversations;
        return page;
      });
      return { items, unread };
    },
  });
}

/** useUnreadConversations is how many of the project's conversations hold a visitor's
 * message the person has not read: one conversation's worth of list, for the header. */
export function useUnreadConversations(projectId: string | undefined) {
  return useQuery({
    queryKey: [...siteChatKeys.conversationLists, projectId, "unread"],
    enabled: !!projectId,
    queryFn: () =>
      data(api.GET("/api/v1/projects/{project_id}/site-chat-conversations", { params: { path: { project_id: projectId! }, query: { limit: 1 } } })),
    select: (page) => page.unread_conversations,
  });
}

export function useConversation(id: string) {
  return useQuery({
    queryKey: siteChatKeys.conversation(id),
    queryFn: () => data(api.GET("/api/v1/site-chat-conversations/{conversation_id}", { params: { path: { conversation_id: id } } })),
  });
}

/** useMessages is the whole thread, oldest first. */
export function useMessages(conversationId: string, enabled: boolean) {
  return useQuery({
    queryKey: siteChatKeys.messages(conversationId),
    enabled,
    queryFn: () =>
      allPages((cursor) =>
        data(
          api.GET("/api/v1/site-chat-conversations/{conversation_id}/messages", {
            params: { path: { conversation_id: conversationId }, query: { limit: most, cursor } },
          }),
        ),
      ),
  });
}

/** useMarkRead records that the person has read the conversation; their unread counts
 * (the conversation's, the lists', the header's) are read again. */
export function useMarkRead(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.POST("/api/v1/site-chat-conversations/{conversation_id}/read", { params: { path: { conversation_id: conversationId } } })),
    onSuccess: (c) => {
      queryClient.setQueryData(siteChatKeys.conversation(conversationId), c);
      void queryClient.invalidateQueries({ queryKey: siteChatKeys.conversationLists });
    },
  });
}

/** useSetStatus closes the conversation or opens it again. */
export function useSetStatus(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: ConversationStatus) =>
      data(api.PATCH("/api/v1/site-chat-conversations/{conversation_id}", { params: { path: { conversation_id: conversationId } }, body: { status } })),
    onSuccess: (c) => {
      queryClient.setQueryData(siteChatKeys.conversation(conversationId), c);
      void queryClient.invalidateQueries({ queryKey: siteChatKeys.conversationLists });
    },
  });
}

/** useSendMessage posts the operator's message, under their own name. */
export function useSendMessage(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) =>
      data(api.POST("/api/v1/site-chat-conversations/{conversation_id}/messages", { params: { path: { conversation_id: conversationId } }, body: { body } })),
    onSuccess: (m) => queryClient.setQueryData(siteChatKeys.messages(conversationId), (old: Message[] | undefined) => old && withMessage(old, m)),
  });
}

/** useSendFile sends a file into the conversation, as a message of the operator's. */
export function useSendFile(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) =>
      data(
        api.POST("/api/v1/site-chat-conversations/{conversation_id}/attachments", {
          params: { path: { conversation_id: conversationId } },
          ...multipart({ file }),
        }),
      ),
    onSuccess: (m) => queryClient.setQueryData(siteChatKeys.messages(conversationId), (old: Message[] | undefined) => old && withMessage(old, m)),
  });
}
