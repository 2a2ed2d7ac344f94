// The person's one running timer: read by the header and by every task's page from one
// query, started and stopped through the API, which stops the running one when another
// starts (docs/work-tracker.md, "Time, timers, reports").
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { useWorkspace } from "../workspace/workspace";
import { workKeys, type Timer } from "./queries";

/** useActiveTimer is the running timer in the active company (null when none runs), with
 * when it was read, which its elapsed time counts from. Without an active company there is
 * no tracker to ask. */
export function useActiveTimer(): { timer: Timer | null; receivedAt: number } {
  const companyId = useWorkspace().data?.active_company_id;
  const query = useQuery({
    queryKey: workKeys.timer,
    enabled: !!companyId,
    refetchOnWindowFocus: "always",
    queryFn: () => data(api.GET("/api/v1/work/timer/active")),
  });
  return { timer: (companyId && query.data?.timer) || null, receivedAt: query.dataUpdatedAt };
}

/** useTimerControls starts the timer on a task (stopping the running one, whose time the
 * API books) and stops it; the time lists and the person's day follow. */
export function useTimerControls() {
  const queryClient = useQueryClient();
  const booked = (taskId: string | undefined) => {
    if (taskId) void queryClient.invalidateQueries({ queryKey: workKeys.taskTime(taskId) });
    void queryClient.invalidateQueries({ queryKey: workKeys.overview });
    void queryClient.invalidateQueries({ queryKey: ["work", "report"] });
  };
  const start = useMutation({
    mutationFn: (taskId: string) => data(api.POST("/api/v1/work/tasks/{task_id}/timer/start", { params: { path: { task_id: taskId } } })),
    onSuccess: (change) => {
      queryClient.setQueryData(workKeys.timer, { timer: change.timer });
      booked(change.stopped_timer?.task_id);
    },
  });
  const stop = useMutation({
    mutationFn: () => data(api.POST("/api/v1/work/timer/stop")),
    onSuccess: (change) => {
      queryClient.setQueryData(workKeys.timer, { timer: null });
      booked(change.timer.task_id);
    },
    // A stop that finds no running timer (stopped in another tab) leaves the header to
    // show what runs now.
    onError: () => queryClient.invalidateQueries({ queryKey: workKeys.timer }),
  });
  return { start, stop };
}
