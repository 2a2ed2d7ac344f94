import { useQueryClient } from "@tanstack/react-query";
import { useOperatorSocket, type SocketState } from "./operatorSocket";
import { withMessage } from "./live";
import { siteChatKeys, type Message } from "./queries";
import { useReadAgain } from "./useReadAgain";

/** useDeskLive keeps the operator socket open while the person is on the desk and keeps
 * what the desk has read current: a message puts itself into its thread and has the
 * conversation lists and unread counts read again; after a reconnect everything the desk
 * shows is read again, since notices sent while the socket was away are lost. */
export function useDeskLive(): SocketState {
  const queryClient = useQueryClient();
  const socket = useOperatorSocket((e) => {
    if (e.type !== "chat.message" || !e.payload) return;
    const m = e.payload as Message;
    if (typeof m.message_id !== "string" || typeof m.conversation_id !== "string") return;
    queryClient.setQueryData(siteChatKeys.messages(m.conversation_id), (old: Message[] | undefined) => old && withMessage(old, m));
    void queryClient.invalidateQueries({ queryKey: siteChatKeys.conversation(m.conversation_id) });
    void queryClient.invalidateQueries({ queryKey: siteChatKeys.conversationLists });
  });
  useReadAgain(socket.generation, siteChatKeys.all);
  return socket;
}
