import { useDroppable } from "@dnd-kit/core";
import { SortableContext, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { columnId } from "./order";
import { useCreateTask, type Task, type WorkEmployee } from "./queries";
import { SortableTaskCard } from "./TaskCard";
import "./texts";

type BoardColumnProps = {
  boardId: string;
  status: string;
  name: string;
  done: boolean;
  tasks: Task[];
  people: WorkEmployee[];
  /** refocus is the task whose move button takes the focus back (see KanbanBoard). */
  refocus: string | null;
  onRefocused: () => void;
};

/** BoardColumn is one column of a board: its tasks in order, a drop target as a whole (a
 * task dropped on it goes to its end), and a form that adds a task at its end. Its region
 * is named by the column's name alone, without the count its heading shows. */
export function BoardColumn({ boardId, status, name, done, tasks, people, refocus, onRefocused }: BoardColumnProps) {
  const { t } = useTranslation("work");
  const { setNodeRef, isOver } = useDroppable({ id: columnId(status) });
  return (
    <section ref={setNodeRef} className={isOver ? "board-column over" : "board-column"} aria-label={name}>
      <h2>
        {name} <span className="muted column-count">{tasks.length}</span>
        {done && <span className="visually-hidden">{t("doneColumn")}</span>}
      </h2>
      <SortableContext id={status} items={tasks.map((task) => task.task_id)} strategy={verticalListSortingStrategy}>
        <ol className="column-tasks">
          {tasks.map((task) => (
            <SortableTaskCard
              key={task.task_id}
              task={task}
              people={people}
              focusHandle={refocus === task.task_id}
              onFocused={onRefocused}
            />
          ))}
        </ol>
      </SortableContext>
      <NewTaskForm boardId={boardId} status={status} column={name} />
    </section>
  );
}

/** NewTaskForm adds tasks at the end of a column; it stays open, so several go in a row. */
function NewTaskForm({ boardId, status, column }: { boardId: string; status: string; column: string }) {
  const { t } = useTranslation("work");
  const { t: common } = useTranslation();
  const create = useCreateTask(boardId);
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState("");
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate(
      { title, status },
      {
        onSuccess: () => {
          setTitle("");
          input.current?.focus();
        },
      },
    );
  }

  if (!open) {
    return (
      <button type="button" className="add-task" onClick={() => setOpen(true)} aria-label={t("addTaskTo", { column })}>
        + {t("addTask")}
      </button>
    );
  }
  return (
    <form className="new-task stack" onSubmit={submit}>
      <label htmlFor={inputId} className="visually-hidden">
        {t("newTaskIn", { column })}
      </label>
      <input
        id={inputId}
        ref={input}
        required
        maxLength={500}
        autoFocus
        placeholder={t("taskTitle")}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        aria-invalid={create.error ? true : undefined}
      />
      <ProblemAlert error={create.error} />
      <div className="row">
        <button type="submit" className="primary" disabled={create.isPending}>
          {t("add")}
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          {common("close")}
        </button>
      </div>
    </form>
  );
}
