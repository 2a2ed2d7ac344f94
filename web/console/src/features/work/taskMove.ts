import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { ProblemError } from "../../api/problem";
import { interimPosition, placeOf, type Column } from "./order";
import { workKeys, type Task } from "./queries";

/** useTaskMove moves a board's tasks the way a flaky connection cannot scramble: the board
 * shows a move at once, the moves of one board go to the server one after another in the
 * order they were made (a network failure is tried again; a refusal is not), a refused
 * move puts the task back, and once the last one is answered the board reloads, so the
 * server's order is what stays. */
export function useTaskMove(boardId: string) {
  const queryClient = useQueryClient();
  const tasksKey = workKeys.boardTasks(boardId);
  const mutationKey = ["work", "move", boardId];
  const mutation = useMutation({
    mutationKey,
    scope: { id: `work-move-${boardId}` },
    retry: (count, error) => !(error instanceof ProblemError) && count < 3,
    mutationFn: ({ place, before }: { place: NonNullable<ReturnType<typeof placeOf>>; before: Task }) =>
      data(api.POST("/api/v1/work/tasks/{task_id}/move", { params: { path: { task_id: before.task_id } }, body: place })),
    onSuccess: (task) => queryClient.setQueryData<Task[]>(tasksKey, (tasks) => tasks?.map((t) => (t.task_id === task.task_id ? task : t))),
    onError: (_error, { before }) =>
      queryClient.setQueryData<Task[]>(tasksKey, (tasks) => tasks?.map((t) => (t.task_id === before.task_id ? before : t))),
    onSettled: async (_task, _error, { before }) => {
      await queryClient.invalidateQueries({ queryKey: workKeys.task(before.task_id) });
      await queryClient.invalidateQueries({ queryKey: workKeys.overview });
      // This move still counts as running here: reload when it is the last one.
      if (queryClient.isMutating({ mutationKey }) === 1) await queryClient.invalidateQueries({ queryKey: tasksKey });
    },
  });

  /** move puts the task where the columns show it in the board's tasks (a reload under way
   * is called off first, so it cannot bring the old order back); the server's answer
   * follows, and onRefused runs when the server refuses it. */
  async function move(columns: Column[], taskId: string, onRefused: () => void) {
    const place = placeOf(columns, taskId);
    await queryClient.cancelQueries({ queryKey: tasksKey });
    const tasks = queryClient.getQueryData<Task[]>(tasksKey);
    const before = tasks?.find((t) => t.task_id === taskId);
    if (!place || !tasks || !before) return;
    const previous = place.after_task_id ? tasks.find((t) => t.task_id === place.after_task_id)?.position : undefined;
    queryClient.setQueryData<Task[]>(
      tasksKey,
      tasks.map((t) => (t.task_id === taskId ? { ...t, status: place.status, position: interimPosition(previous) } : t)),
    );
    mutation.mutate({ place, before }, { onError: onRefused });
  }

  return { move, error: mutation.error, reset: mutation.reset };
}
