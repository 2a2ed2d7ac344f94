import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useBoard, useEmployees, useTask } from "./queries";
import { TaskAttachments } from "./TaskAttachments";
import { TaskChecklist } from "./TaskChecklist";
import { TaskComments } from "./TaskComments";
import { TaskCustomFields } from "./TaskCustomFields";
import { TaskDetailsForm } from "./TaskDetailsForm";
import { TaskTime } from "./TaskTime";
import { TimerButton } from "./TimerButton";
import "./texts";

/** TaskPage is one task: what it is and who does it by when, its board's custom fields,
 * checklist, comments, files and the time booked on it, and the timer. */
export function TaskPage() {
  const { taskId = "" } = useParams();
  const { t } = useTranslation("work");
  const { t: common } = useTranslation();
  const task = useTask(taskId);
  const board = useBoard(task.data?.task_board_id ?? "");
  const people = useEmployees().data ?? [];
  if (task.error) {
    return (
      <section className="page">
        <ProblemAlert error={task.error} />
      </section>
    );
  }
  if (!task.data) return <p className="page muted">{common("loading")}</p>;
  const column = board.data?.columns.find((c) => c.status === task.data.status);
  return (
    <section className="page task-page">
      <p className="crumbs">
        <Link to="/work/boards">{t("boards")}</Link>
        {board.data && (
          <>
            {" / "}
            <Link to={`/work/boards/${board.data.task_board_id}`}>{board.data.name}</Link>
          </>
        )}
      </p>
      <div className="page-head">
        <h1>{task.data.title}</h1>
        <TimerButton taskId={taskId} />
      </div>
      {column && (
        <p className="muted">
          {t("inColumn", { column: column.name })}
          {task.data.completed_at && ` · ${t("completed")}`}
        </p>
      )}
      <div className="task-layout">
        <div className="stack">
          <TaskDetailsForm key={task.data.task_id} task={task.data} people={people} columns={board.data?.columns ?? []} />
          <TaskChecklist task={task.data} />
          <TaskComments task={task.data} people={people} />
        </div>
        <div className="stack">
          <TaskCustomFields task={task.data} />
          <TaskAttachments taskId={taskId} />
          <TaskTime taskId={taskId} />
        </div>
      </div>
    </section>
  );
}
