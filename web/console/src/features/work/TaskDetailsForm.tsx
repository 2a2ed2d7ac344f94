import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { SelectField } from "../../components/SelectField";
import { TextAreaField } from "../../components/TextAreaField";
import { PeopleOptions } from "./PeopleOptions";
import { useMoveToColumn, usePatchTask, type TaskBoard, type TaskDetail, type TaskPatch, type WorkEmployee } from "./queries";
import "./texts";

const priorities = ["none", "low", "medium", "high", "urgent"] as const;

type Draft = { title: string; description: string; assignee: string; priority: TaskDetail["priority"]; due: string; labels: string };

function draftOf(task: TaskDetail): Draft {
  return {
    title: task.title,
    description: task.description,
    assignee: task.assignee_user_id ?? "",
    priority: task.priority,
    due: task.due_date ?? "",
    labels: task.labels.join(", "),
  };
}

/** changes is the patch that turns the task into the draft: only what the person changed,
 * with an emptied assignee or due date cleared. */
function changes(task: TaskDetail, draft: Draft): TaskPatch {
  const was = draftOf(task);
  const patch: TaskPatch = {};
  if (draft.title !== was.title) patch.title = draft.title;
  if (draft.description !== was.description) patch.description = draft.description;
  if (draft.assignee !== was.assignee) patch.assignee_user_id = draft.assignee || null;
  if (draft.priority !== was.priority) patch.priority = draft.priority;
  if (draft.due !== was.due) patch.due_date = draft.due || null;
  const labels = [...new Set(draft.labels.split(",").map((l) => l.trim()).filter(Boolean))];
  if (labels.join(",") !== task.labels.join(",")) patch.labels = labels;
  return patch;
}

type Props = { task: TaskDetail; people: WorkEmployee[]; columns: TaskBoard["columns"] };

/** TaskDetailsForm changes what a task is, who does it and by when; its column changes at
 * once when another is chosen (the task goes to that column's end). */
export function TaskDetailsForm({ task, people, columns }: Props) {
  const { t } = useTranslation("work");
  const { t: common } = useTranslation();
  const patch = usePatchTask(task.task_id);
  const moveTo = useMoveToColumn(task.task_id);
  const [draft, setDraft] = useState(() => draftOf(task));
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  const titleId = useId();
  const pending = changes(task, draft);

  function submit(e: FormEvent) {
    e.preventDefault();
    patch.mutate(pending, { onSuccess: (saved) => setDraft(draftOf(saved)) });
  }

  return (
    <form className="work-card stack" onSubmit={submit} aria-labelledby={titleId}>
      <h2 id={titleId}>{t("details")}</h2>
      <SelectField
        label={t("column")}
        name="status"
        value={task.status}
        disabled={moveTo.isPending}
        onChange={(e) => moveTo.mutate(e.target.value)}
        error={moveTo.error}
      >
        {columns.map((c) => (
          <option key={c.status} value={c.status}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <ProblemAlert error={moveTo.error} />
      <Field label={t("title")} name="title" required maxLength={500} value={draft.title} onChange={(e) => set({ title: e.target.value })} error={patch.error} />
      <TextAreaField
        label={common("description")}
        name="description"
        maxLength={20000}
        rows={6}
        value={draft.description}
        onChange={(e) => set({ description: e.target.value })}
        error={patch.error}
      />
      <div className="row wide-fields">
        <SelectField
          label={t("assignee")}
          name="assignee_user_id"
          value={draft.assignee}
          onChange={(e) => set({ assignee: e.target.value })}
          error={patch.error}
        >
          <option value="">{t("nobody")}</option>
          <PeopleOptions people={people} />
        </SelectField>
        <SelectField
          label={t("priority")}
          name="priority"
          value={draft.priority}
          onChange={(e) => set({ priority: e.target.value as Draft["priority"] })}
          error={patch.error}
        >
          {priorities.map((p) => (
            <option key={p} value={p}>
              {t(`priority_${p}`)}
            </option>
          ))}
        </SelectField>
        <Field label={t("dueDate")} name="due_date" type="date" value={draft.due} onChange={(e) => set({ due: e.target.value })} error={patch.error} />
      </div>
      <Field label={t("labels")} name="labels" hint={t("labelsHint")} value={draft.labels} onChange={(e) => set({ labels: e.target.value })} error={patch.error} />
      <ProblemAlert error={patch.error} />
      <div className="row">
        <button type="submit" className="primary" disabled={patch.isPending || Object.keys(pending).length === 0}>
          {patch.isPending ? common("saving") : common("save")}
        </button>
        {patch.isSuccess && Object.keys(pending).length === 0 && <span className="muted">{t("saved")}</span>}
      </div>
    </form>
  );
}
