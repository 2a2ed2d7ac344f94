import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useOverview, type Task } from "./queries";
import { day } from "./time";
import "./texts";

/** MyTasksPage is the person's day: their overdue tasks, those due this week, and all that
 * are open, soonest due first. */
export function MyTasksPage() {
  const { t, i18n } = useTranslation("work");
  const { t: common } = useTranslation();
  const overview = useOverview();
  const o = overview.data;
  return (
    <section className="page work-page">
      <h1>{t("myTasks")}</h1>
      <ProblemAlert error={overview.error} />
      {!o ? (
        !overview.error && <p className="muted">{common("loading")}</p>
      ) : (
        <div className="my-tasks">
          <TaskGroup title={t("overdue")} count={o.overdue_count} tasks={o.overdue} empty={t("noneOverdue")} />
          <TaskGroup title={t("dueThisWeek", { until: day(o.week_ends, i18n.language) })} count={o.due_this_week_count} tasks={o.due_this_week} empty={t("noneThisWeek")} />
          <TaskGroup title={t("open")} count={o.open_count} tasks={o.open} empty={t("noneOpen")} />
        </div>
      )}
    </section>
  );
}

/** TaskGroup is one list of the day, with how many there are in all (it shows 20 at most). */
function TaskGroup({ title, count, tasks, empty }: { title: string; count: number; tasks: Task[]; empty: string }) {
  const { t, i18n } = useTranslation("work");
  const headingId = useId();
  return (
    <section className="work-card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {title} <span className="muted">{count}</span>
      </h2>
      {tasks.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="task-rows">
          {tasks.map((task) => (
            <li key={task.task_id}>
              <Link to={`/work/tasks/${task.task_id}`}>{task.title}</Link>
              <span className="muted">
                {task.due_date ? t("dueOn", { date: day(task.due_date, i18n.language) }) : t("noDueDate")}
                {task.priority !== "none" && ` · ${t(`priority_${task.priority}`)}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {count > tasks.length && <p className="muted">{t("andMore", { count: count - tasks.length })}</p>}
    </section>
  );
}
