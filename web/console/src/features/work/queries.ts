// The work tracker's server state: one query key under "work" per thing the API answers,
// so a change of the active company (which invalidates every query) reloads them all.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, data, multipart } from "../../api/client";
import type { components } from "../../api/schema.gen";

export type Task = components["schemas"]["Task"];
export type TaskDetail = components["schemas"]["TaskDetail"];
export type TaskBoard = components["schemas"]["TaskBoard"];
export type TaskPatch = components["schemas"]["TaskPatch"];
export type Timer = components["schemas"]["Timer"];
export type WorkEmployee = components["schemas"]["WorkEmployee"];
export type TaskWorkflow = components["schemas"]["TaskWorkflow"];
export type TaskProcessRole = components["schemas"]["TaskProcessRole"];
export type TaskStageInput = components["schemas"]["TaskStageInput"];
export type WorkReport = components["schemas"]["WorkReport"];
export type ReportGrouping = WorkReport["group_by"];

export const workKeys = {
  access: ["work", "access"] as const,
  overview: ["work", "overview"] as const,
  employees: ["work", "employees"] as const,
  boards: ["work", "boards"] as const,
  board: (id: string) => ["work", "board", id] as const,
  boardTasks: (id: string) => ["work", "board-tasks", id] as const,
  task: (id: string) => ["work", "task", id] as const,
  attachments: (taskId: string) => ["work", "attachments", taskId] as const,
  taskTime: (taskId: string) => ["work", "time", taskId] as const,
  timer: ["work", "timer"] as const,
  presets: ["work", "presets"] as const,
  taskWorkflows: ["work", "task-workflows"] as const,
  roles: (workflowId: string) => ["work", "roles", workflowId] as const,
  report: (query: ReportQuery) => ["work", "report", query] as const,
};

type Page<T> = { items: T[]; next_cursor: string };

/** allPages reads a list to its end, the largest page at a time: a board shows all its
 * tasks, a form offers all the company's members. */
async function allPages<T>(page: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const p = await page(cursor);
    items.push(...p.items);
    cursor = p.next_cursor || undefined;
  } while (cursor);
  return items;
}

const most = 200;

export function useWorkAccess() {
  return useQuery({ queryKey: workKeys.access, queryFn: () => data(api.GET("/api/v1/work/access")) });
}

export function useOverview() {
  return useQuery({ queryKey: workKeys.overview, queryFn: () => data(api.GET("/api/v1/work/overview")) });
}

export function useEmployees() {
  return useQuery({
    queryKey: workKeys.employees,
    queryFn: () => allPages((cursor) => data(api.GET("/api/v1/work/employees", { params: { query: { limit: most, cursor } } }))),
  });
}

/** personName is how the tracker names a member: by name, else by e-mail. */
export function personName(p: WorkEmployee): string {
  return p.name || p.email;
}

export function useBoards() {
  return useQuery({
    queryKey: workKeys.boards,
    queryFn: () => allPages((cursor) => data(api.GET("/api/v1/work/boards", { params: { query: { limit: most, cursor } } }))),
  });
}

export function useBoard(id: string) {
  return useQuery({
    queryKey: workKeys.board(id),
    queryFn: () => data(api.GET("/api/v1/work/boards/{task_board_id}", { params: { path: { task_board_id: id } } })),
  });
}

/** useBoardTasks is every task of a board. Boards have no event stream, so the board
 * reloads whenever the person comes back to the window: what others moved meanwhile shows
 * then. */
export function useBoardTasks(boardId: string) {
  return useQuery({
    queryKey: workKeys.boardTasks(boardId),
    refetchOnWindowFocus: "always",
    queryFn: () =>
      allPages((cursor) => data(api.GET("/api/v1/work/tasks", { params: { query: { task_board_id: boardId, limit: most, cursor } } }))),
  });
}

export function useCreateBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components["schemas"]["TaskBoardInput"]) => data(api.POST("/api/v1/work/boards", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workKeys.boards }),
  });
}

export function useCreateTask(boardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { title: string; status: string }) => data(api.POST("/api/v1/work/tasks", { body: { task_board_id: boardId, priority: "none", ...body } })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: workKeys.boardTasks(boardId) }),
        queryClient.invalidateQueries({ queryKey: workKeys.board(boardId) }),
      ]),
  });
}

export function useTask(id: string) {
  return useQuery({
    queryKey: workKeys.task(id),
    queryFn: () => data(api.GET("/api/v1/work/tasks/{task_id}", { params: { path: { task_id: id } } })),
  });
}

/** taskChanged puts a task's new state where the pages read it: its page, and its card on
 * its board and in the person's lists (reloaded). */
export function taskChanged(queryClient: ReturnType<typeof useQueryClient>, task: Task | TaskDetail) {
  queryClient.setQueryData<TaskDetail>(workKeys.task(task.task_id), (old) => (old ? { ...old, ...task } : old));
  void queryClient.invalidateQueries({ queryKey: workKeys.boardTasks(task.task_board_id) });
  void queryClient.invalidateQueries({ queryKey: workKeys.board(task.task_board_id) });
  void queryClient.invalidateQueries({ queryKey: workKeys.overview });
}

export function usePatchTask(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TaskPatch) => data(api.PATCH("/api/v1/work/tasks/{task_id}", { params: { path: { task_id: id } }, body })),
    onSuccess: (task) => taskChanged(queryClient, task),
  });
}

export function useWorkflowPresets() {
  return useQuery({ queryKey: workKeys.presets, queryFn: () => data(api.GET("/api/v1/work/presets")) });
}

export function useTaskWorkflows() {
  return useQuery({
    queryKey: workKeys.taskWorkflows,
    queryFn: () => allPages((cursor) => data(api.GET("/api/v1/work/task-workflows", { params: { query: { limit: most, cursor } } }))),
  });
}

export type ReportQuery = { group_by: ReportGrouping; from?: string; to?: string };

/** useReport is a time report as JSON (the operation also answers CSV, for a download). */
export function useReport(query: ReportQuery) {
  return useQuery({
    queryKey: workKeys.report(query),
    queryFn: () => data(api.GET("/api/v1/work/reports", { params: { query } })) as Promise<WorkReport>,
  });
}

/** useTaskChange is a change of a part of a task (a comment, a checklist item, a custom
 * field's value) after which its page reloads it. */
export function useTaskChange<V, R>(taskId: string, change: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: change, onSuccess: () => queryClient.invalidateQueries({ queryKey: workKeys.task(taskId) }) });
}

/** useMoveToColumn puts a task at the end of another column of its board: the task page's
 * way to change its status. */
export function useMoveToColumn(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: string) => data(api.POST("/api/v1/work/tasks/{task_id}/move", { params: { path: { task_id: taskId } }, body: { status } })),
    onSuccess: (task) => taskChanged(queryClient, task),
  });
}

export function useAttachments(taskId: string) {
  return useQuery({
    queryKey: workKeys.attachments(taskId),
    queryFn: () =>
      allPages((cursor) =>
        data(api.GET("/api/v1/work/tasks/{task_id}/attachments", { params: { path: { task_id: taskId }, query: { limit: most, cursor } } })),
      ),
  });
}

/** useAttach uploads a file to a task as the multipart body the API takes. */
export function useAttach(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) =>
      data(
        api.POST("/api/v1/work/tasks/{task_id}/attachments", {
          params: { path: { task_id: taskId } },
          ...multipart({ file }),
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workKeys.attachments(taskId) }),
  });
}

export function useTaskTime(taskId: string) {
  return useQuery({
    queryKey: workKeys.taskTime(taskId),
    queryFn: () => allPages((cursor) => data(api.GET("/api/v1/work/time", { params: { query: { task_id: taskId, limit: most, cursor } } }))),
  });
}

export function useBookTime(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<components["schemas"]["TimeEntryInput"], "task_id">) =>
      data(api.POST("/api/v1/work/time", { body: { task_id: taskId, ...body } })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: workKeys.taskTime(taskId) }),
        queryClient.invalidateQueries({ queryKey: ["work", "report"] }),
      ]),
  });
}
