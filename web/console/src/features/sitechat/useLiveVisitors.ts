import { useQueryClient } from "@tanstack/react-query";
import { applyNotice, byNewest, sessionOf } from "./live";
import { useOperatorSocket } from "./operatorSocket";
import { siteChatKeys, useActiveVisitors, type VisitSession } from "./queries";
import { useReadAgain } from "./useReadAgain";

/** useLiveVisitors is who is on the project's sites now, newest visit first: read once,
 * then kept by the operator socket's notices (a visitor arrives, moves, opens the chat,
 * answers an invitation, leaves), and read again after a reconnect. */
export function useLiveVisitors(projectId: string) {
  const queryClient = useQueryClient();
  const key = siteChatKeys.visitors(projectId);
  const visitors = useActiveVisitors(projectId);
  const socket = useOperatorSocket((e) => {
    if (sessionOf(e)?.project_id !== projectId) return;
    queryClient.setQueryData(key, (old: VisitSession[] | undefined) => old && applyNotice(old, e));
  });
  useReadAgain(socket.generation, key);
  return { ...visitors, data: visitors.data && byNewest(visitors.data) };
}
