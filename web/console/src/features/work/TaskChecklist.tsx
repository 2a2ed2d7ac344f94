import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, data } from "../../api/client";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useTaskChange, type TaskDetail } from "./queries";
import "./texts";

/** TaskChecklist ticks a task's checklist items off and adds items at its end. */
export function TaskChecklist({ task }: { task: TaskDetail }) {
  const { t } = useTranslation("work");
  const headingId = useId();
  const inputId = useId();
  const [title, setTitle] = useState("");
  const path = { task_id: task.task_id };
  const tick = useTaskChange(task.task_id, ({ id, done }: { id: string; done: boolean }) =>
    data(api.PATCH("/api/v1/work/tasks/{task_id}/checklist/{task_checklist_item_id}", { params: { path: { ...path, task_checklist_item_id: id } }, body: { done } })),
  );
  const add = useTaskChange(task.task_id, (itemTitle: string) =>
    data(api.POST("/api/v1/work/tasks/{task_id}/checklist", { params: { path }, body: { title: itemTitle, done: false } })),
  );
  const done = task.checklist.filter((i) => i.done).length;

  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate(title, { onSuccess: () => setTitle("") });
  }

  return (
    <section className="work-card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {t("checklist")} {task.checklist.length > 0 && <span className="muted">{t("doneOf", { done, count: task.checklist.length })}</span>}
      </h2>
      <ul className="checklist">
        {task.checklist.map((item) => (
          <li key={item.task_checklist_item_id}>
            <label className="inline">
              <input
                type="checkbox"
                checked={item.done}
                disabled={tick.isPending}
                onChange={(e) => tick.mutate({ id: item.task_checklist_item_id, done: e.target.checked })}
              />
              <span className={item.done ? "ticked" : undefined}>{item.title}</span>
            </label>
          </li>
        ))}
      </ul>
      <ProblemAlert error={tick.error} />
      <form className="row" onSubmit={submit}>
        <label htmlFor={inputId} className="visually-hidden">
          {t("newItem")}
        </label>
        <input id={inputId} required maxLength={500} placeholder={t("newItem")} value={title} onChange={(e) => setTitle(e.target.value)} />
        <button type="submit" disabled={add.isPending}>
          {t("add")}
        </button>
      </form>
      <ProblemAlert error={add.error} />
    </section>
  );
}
