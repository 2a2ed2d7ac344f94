// The order of a board's tasks as the board shows it, and the moves a drag or the keyboard
// makes of it. A task's place is its `position`, a rank the server computes between its
// neighbours (docs/work-tracker.md, "Order without renumbering"); the board only ever says
// which neighbour a task goes next to, and the server's rank is the order that stays.

/** A board column as the board shows it: its status and its tasks' ids, in order. */
export type Column = { status: string; ids: string[] };

type Placed = { task_id: string; status: string; position: string };

/** byPosition orders tasks by their rank, compared byte by byte as the server compares it
 * (ranks are ASCII, so comparing UTF-16 code units is the same). */
export function byPosition(a: { position: string }, b: { position: string }): number {
  return a.position < b.position ? -1 : a.position > b.position ? 1 : 0;
}

/** columnsOf lays the tasks out in the board's columns, each column in rank order. A task
 * of a status the board has no column for is not shown. */
export function columnsOf(statuses: string[], tasks: Placed[]): Column[] {
  const sorted = [...tasks].sort(byPosition);
  return statuses.map((status) => ({ status, ids: sorted.filter((t) => t.status === status).map((t) => t.task_id) }));
}

const columnPrefix = "column:";

/** columnId is the drop target of a whole column: dropping there puts a task at its end. */
export function columnId(status: string): string {
  return columnPrefix + status;
}

function statusOfColumnId(id: string): string | undefined {
  return id.startsWith(columnPrefix) ? id.slice(columnPrefix.length) : undefined;
}

/** where tells the column and index of a task. */
export function where(columns: Column[], id: string): { column: number; index: number } | undefined {
  for (const [column, c] of columns.entries()) {
    const index = c.ids.indexOf(id);
    if (index >= 0) return { column, index };
  }
  return undefined;
}

/** arrange is the board with the task dragged over `over`: a task (it takes that task's
 * place, which moves down, or up when both are in one column and the dragged one came
 * from above) or a column (its end). Over nothing, or over itself, nothing moves. */
export function arrange(columns: Column[], id: string, over: string | undefined): Column[] {
  const from = where(columns, id);
  if (!from || !over || over === id) return columns;
  const overStatus = statusOfColumnId(over);
  let to: { column: number; index: number } | undefined;
  if (overStatus !== undefined) {
    const column = columns.findIndex((c) => c.status === overStatus);
    if (column < 0) return columns;
    const length = columns[column].ids.length;
    to = { column, index: column === from.column ? length - 1 : length };
  } else {
    to = where(columns, over);
  }
  if (!to || (to.column === from.column && to.index === from.index)) return columns;
  const next = columns.map((c) => ({ ...c, ids: [...c.ids] }));
  next[from.column].ids.splice(from.index, 1);
  next[to.column].ids.splice(to.index, 0, id);
  return next;
}

/** TaskPlace is where a move puts a task, as the move operation takes it. */
export type TaskPlace = { status: string; after_task_id?: string; before_task_id?: string };

/** placeOf is the task's place on the board by its neighbours: right after the task above
 * it, or right before the one below when it is first, or just its column when alone. */
export function placeOf(columns: Column[], id: string): TaskPlace | undefined {
  const at = where(columns, id);
  if (!at) return undefined;
  const { status, ids } = columns[at.column];
  if (at.index > 0) return { status, after_task_id: ids[at.index - 1] };
  if (ids.length > 1) return { status, before_task_id: ids[1] };
  return { status };
}

/** samePlace tells whether a move would leave the task where it is. */
export function samePlace(before: Column[], after: Column[], id: string): boolean {
  const a = where(before, id);
  const b = where(after, id);
  return !!a && !!b && a.column === b.column && a.index === b.index;
}

/** interimPosition is a rank for a task placed right after a task of rank `previous` (or
 * first, without one) that sorts before the next task's rank, whatever it is: the board
 * shows the move with it until the server's rank replaces it. Ranks are made of base-36
 * digits, so `previous` followed by the lowest character is the next string after it. */
export function interimPosition(previous: string | undefined): string {
  return previous === undefined ? "" : previous + "\u0000";
}

/** The arrow keys that move a picked-up task. */
export type Direction = "up" | "down" | "left" | "right";

/** keyboardTarget is what a picked-up task is to be over after an arrow key, on a board
 * whose columns hold it where `over` put it (see arrange): one place up or down in its
 * column, or the same place in the column to the left or right (the end when that column
 * is shorter). Undefined when it cannot go further that way. */
export function keyboardTarget(columns: Column[], id: string, over: string | undefined, direction: Direction): string | undefined {
  const shown = arrange(columns, id, over);
  const at = where(shown, id);
  if (!at) return undefined;
  if (direction === "up" || direction === "down") {
    const index = at.index + (direction === "up" ? -1 : 1);
    const ids = shown[at.column].ids;
    if (index < 0 || index >= ids.length) return undefined;
    // arrange(columns, id, x) puts the task where x stands in columns, so the task that
    // takes it to `index` is the one standing there before the drag moved anything.
    const before = columns[at.column].ids;
    return before.includes(id) ? before[index] : ids[index];
  }
  const column = at.column + (direction === "left" ? -1 : 1);
  if (column < 0 || column >= shown.length) return undefined;
  const ids = columns[column].ids.filter((x) => x !== id);
  return at.index < ids.length ? ids[at.index] : columnId(shown[column].status);
}
