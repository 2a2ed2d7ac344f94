import {
  closestCorners,
  DndContext,
  DragOverlay,
  KeyboardCode,
  KeyboardSensor,
  MeasuringStrategy,
  PointerSensor,
  pointerWithin,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import { useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { BoardColumn } from "./BoardColumn";
import { arrange, columnId, columnsOf, keyboardTarget, samePlace, where, type Column, type Direction } from "./order";
import type { Task, TaskBoard, WorkEmployee } from "./queries";
import { TaskCardView } from "./TaskCard";
import { useTaskMove } from "./taskMove";
import "./texts";

const arrows: Partial<Record<string, Direction>> = {
  [KeyboardCode.Up]: "up",
  [KeyboardCode.Down]: "down",
  [KeyboardCode.Left]: "left",
  [KeyboardCode.Right]: "right",
};

/** The board while a task is carried: the columns as the carried task left them (moves
 * within a column show as the cards making way, see arrange), and whether the keyboard
 * carries it. */
type Carrying = { id: string; columns: Column[]; keyboard: boolean };

/** KanbanBoard shows a board's columns and moves tasks between and within them: by mouse or
 * touch (drag a card), or by keyboard (Space on a card's move button picks it up, the
 * arrows carry it, Space drops it, Escape puts it back), with every step said to screen
 * readers. A drop is sent as the task's new neighbours (see useTaskMove). */
export function KanbanBoard({ board, tasks, people }: { board: TaskBoard; tasks: Task[]; people: WorkEmployee[] }) {
  const { t } = useTranslation("work");
  const { move, error } = useTaskMove(board.task_board_id);
  const stored = useMemo(() => columnsOf(board.columns.map((c) => c.status), tasks), [board.columns, tasks]);
  const byId = useMemo(() => new Map(tasks.map((task) => [task.task_id, task])), [tasks]);
  const names = useMemo(() => new Map(board.columns.map((c) => [c.status, c.name])), [board.columns]);

  const [carrying, setCarryingState] = useState<Carrying | null>(null);
  // A dropped task's new place, shown until the board's tasks show it there: the query's
  // answer reaches the page a moment after the move writes it.
  const [landing, setLanding] = useState<{ id: string; columns: Column[] } | null>(null);
  if (landing && samePlace(stored, landing.columns, landing.id)) setLanding(null);
  // The task whose move button takes the keyboard's focus back after a keyboard drop or
  // cancel: a card carried into another column is a new element there, so dnd-kit's own
  // focus restoring (off) finds the one it started from gone.
  const [refocus, setRefocus] = useState<string | null>(null);
  // The handlers dnd-kit calls between renders read the latest state from here.
  const carried = useRef<Carrying | null>(null);
  const setCarrying = (next: Carrying | null) => {
    carried.current = next;
    setCarryingState(next);
  };
  // What a keyboard-carried task is over: the arrows choose it (keyboardTarget), not the
  // card's distance to the others, so each press moves exactly one place.
  const keyboardOver = useRef<UniqueIdentifier | null>(null);
  // The columns a carried task was last carried across, which what it is over arranges
  // (see arrange): what screen readers are told, also once it is dropped.
  const said = useRef<Column[]>(stored);

  const coordinateGetter: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
    const direction = arrows[event.code];
    const c = carried.current;
    if (!direction || !c) return undefined;
    event.preventDefault();
    const target = keyboardTarget(c.columns, c.id, context.over ? String(context.over.id) : undefined, direction);
    if (!target) return currentCoordinates;
    keyboardOver.current = target;
    const rect = context.droppableRects.get(target);
    if (!rect) return currentCoordinates;
    const column = c.columns.find((col) => columnId(col.status) === target);
    const last = column?.ids.filter((id) => id !== c.id).at(-1);
    const below = last ? context.droppableRects.get(last) : undefined;
    return below ? { x: below.left, y: below.bottom + 8 } : { x: rect.left, y: rect.top };
  };

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter }),
  );

  // A keyboard-carried task is over what the arrows chose; a pointer's is the card under
  // it, else the column under it, else the nearest.
  const collisionDetection: CollisionDetection = (args) => {
    if (keyboardOver.current !== null) return [{ id: keyboardOver.current }];
    const within = pointerWithin(args);
    const cards = within.filter((c) => !String(c.id).startsWith(columnId("")));
    if (cards.length > 0) return cards;
    return within.length > 0 ? within : closestCorners(args);
  };

  function onDragStart({ active, activatorEvent }: DragStartEvent) {
    const keyboard = activatorEvent instanceof KeyboardEvent;
    setLanding(null);
    keyboardOver.current = keyboard ? active.id : null;
    said.current = stored;
    setCarrying({ id: String(active.id), columns: stored, keyboard });
  }

  // Crossing into another column moves the card there at once, so that column makes
  // room for it; within a column the cards make way without a change of state.
  function onDragOver({ active, over }: DragOverEvent) {
    const c = carried.current;
    if (!c || !over) return;
    const from = where(c.columns, c.id)?.column;
    const next = arrange(c.columns, c.id, String(over.id));
    if (where(next, c.id)?.column === from) return;
    said.current = next;
    setCarrying({ ...c, columns: next });
    if (c.keyboard) keyboardOver.current = active.id;
  }

  function onDragEnd({ over }: DragEndEvent) {
    const c = carried.current;
    keyboardOver.current = null;
    if (c?.keyboard) setRefocus(c.id);
    if (!c || !over) {
      setCarrying(null);
      return;
    }
    const dropped = arrange(c.columns, c.id, String(over.id));
    setCarrying(null);
    if (samePlace(stored, dropped, c.id)) return;
    setLanding({ id: c.id, columns: dropped });
    void move(dropped, c.id, () => setLanding(null));
  }

  function onDragCancel() {
    keyboardOver.current = null;
    if (carried.current?.keyboard) setRefocus(carried.current.id);
    setCarrying(null);
  }

  // Where a task is, in words: "In progress, 2 of 3".
  const placeIn = (columns: Column[], id: UniqueIdentifier) => {
    const at = where(columns, String(id));
    const title = byId.get(String(id))?.title ?? "";
    if (!at) return { title, column: "", position: 0, count: 0 };
    const column = columns[at.column];
    return { title, column: names.get(column.status) ?? column.status, position: at.index + 1, count: column.ids.length };
  };
  const overIn = (id: UniqueIdentifier, over: UniqueIdentifier) => placeIn(arrange(said.current, String(id), String(over)), id);
  // The place last said, so that being over something new without moving (over itself,
  // as every drag starts) says nothing.
  const lastSaid = useRef("");
  const sayOnce = (place: ReturnType<typeof placeIn>, text: string) => {
    const key = `${place.column}/${place.position}/${place.count}`;
    if (key === lastSaid.current) return undefined;
    lastSaid.current = key;
    return text;
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      const place = placeIn(stored, active.id);
      lastSaid.current = "";
      return sayOnce(place, t("pickedUp", place));
    },
    onDragOver: ({ active, over }) => {
      if (!over) {
        lastSaid.current = "";
        return t("overNothing");
      }
      // A keyboard move into another column is over a task of it for a moment before it
      // is over itself there (onDragOver); only where it then stands is said.
      if (carried.current?.keyboard && over.id !== keyboardOver.current) return undefined;
      const place = overIn(active.id, over.id);
      return sayOnce(place, t("carriedTo", place));
    },
    onDragEnd: ({ active, over }) => (over ? t("droppedAt", overIn(active.id, over.id)) : t("putBack", placeIn(stored, active.id))),
    onDragCancel: ({ active }) => t("putBack", placeIn(stored, active.id)),
  };

  const columns = carrying?.columns ?? landing?.columns ?? stored;
  const active = carrying ? byId.get(carrying.id) : undefined;
  return (
    <>
      <ProblemAlert error={error} />
      <DndContext
        sensors={sensors}
        collisionDetection={collisionDetection}
        measuring={{ droppable: { strategy: MeasuringStrategy.Always } }}
        accessibility={{ announcements, screenReaderInstructions: { draggable: t("dragInstructions") }, restoreFocus: false }}
        onDragStart={onDragStart}
        onDragOver={onDragOver}
        onDragEnd={onDragEnd}
        onDragCancel={onDragCancel}
      >
        <div className="kanban">
          {columns.map((column) => {
            const meta = board.columns.find((c) => c.status === column.status)!;
            return (
              <BoardColumn
                key={column.status}
                boardId={board.task_board_id}
                status={column.status}
                name={meta.name}
                done={meta.is_done}
                tasks={column.ids.map((id) => byId.get(id)).filter((task) => task !== undefined)}
                people={people}
                refocus={refocus}
                onRefocused={() => setRefocus(null)}
              />
            );
          })}
        </div>
        <DragOverlay>{active && <TaskCardView task={active} people={people} lifted />}</DragOverlay>
      </DndContext>
    </>
  );
}
