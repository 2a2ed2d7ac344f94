import { useQueryClient } from "@tanstack/react-query";
import { applyNotice, byNewest, sessionOf } from "./live";
import { useOperatorSocket } from "./operatorSocket";
import { siteChatKeys, useActiveVisitors, type VisitSession } from "./queries";

/** useLiveVisitors is who is on the project's sites now, newest visit first: read once,
 * then kept by the operator socket's notices (a visitor arrives, moves, opens the chat,
 * answers an invitation, leaves); the desk reads it again after a reconnect. */
export function useLiveVisitors(projectId: string) {
  const queryClient = useQueryClient();
  const key = siteChatKeys.visitors(projectId);
  const visitors = useActiveVisitors(projectId);
  useOperatorSocket((e) => {
    if (sessionOf(e)?.project_id !== projectId) return;
    queryClient.setQueryData(key, (old: VisitSession[] | undefined) => old && applyNotice(old, e));
  });
  return { ...visitors, data: visitors.data && byNewest(visitors.data) };
}
