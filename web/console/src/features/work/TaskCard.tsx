import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { personName, type Task, type WorkEmployee } from "./queries";
import { day } from "./time";
import "./texts";

/** SortableTaskCard is a task's card on its board. The whole card can be dragged with a
 * pointer; its move button is the keyboard's way to carry it (see KanbanBoard): dnd-kit
 * starts a keyboard drag only from the activator, so Enter on the task's link opens it. */
export function SortableTaskCard({
  task,
  people,
  focusHandle,
  onFocused,
}: {
  task: Task;
  people: WorkEmployee[];
  focusHandle: boolean;
  onFocused: () => void;
}) {
  const { t } = useTranslation("work");
  const handle = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    if (!focusHandle || !handle.current) return;
    handle.current.focus();
    onFocused();
  }, [focusHandle, onFocused]);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: task.task_id,
    attributes: { roleDescription: t("movableTask") },
  });
  return (
    <li
      ref={setNodeRef}
      className={isDragging ? "task-card carried" : "task-card"}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-task-id={task.task_id}
      {...listeners}
    >
      <TaskCardBody task={task} people={people}>
        <button
          type="button"
          ref={(button) => {
            setActivatorNodeRef(button);
            handle.current = button;
          }}
          className="move-handle"
          {...attributes}
          aria-label={t("moveTask", { title: task.title })}
        >
          <span aria-hidden="true">⠿</span>
        </button>
      </TaskCardBody>
    </li>
  );
}

/** TaskCardView is the card as it follows the pointer while carried. */
export function TaskCardView({ task, people, lifted }: { task: Task; people: WorkEmployee[]; lifted?: boolean }) {
  return (
    <div className={lifted ? "task-card lifted" : "task-card"}>
      <TaskCardBody task={task} people={people} />
    </div>
  );
}

function TaskCardBody({ task, people, children }: { task: Task; people: WorkEmployee[]; children?: ReactNode }) {
  const { t, i18n } = useTranslation("work");
  const assignee = people.find((p) => p.user_id === task.assignee_user_id);
  return (
    <>
      <div className="task-card-head">
        <Link to={`/work/tasks/${task.task_id}`} className="task-title">
          {task.title}
        </Link>
        {children}
      </div>
      <div className="task-meta">
        {task.priority !== "none" && <span className={`badge priority-${task.priority}`}>{t(`priority_${task.priority}`)}</span>}
        {task.due_date && (
          <span>
            {t("due")} <time dateTime={task.due_date}>{day(task.due_date, i18n.language)}</time>
          </span>
        )}
        {assignee && <span className="muted">{personName(assignee)}</span>}
      </div>
    </>
  );
}
