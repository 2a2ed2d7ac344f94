import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, data } from "../../api/client";
import type { components } from "../../api/schema.gen";
import { fieldError } from "../../components/ProblemAlert";
import { useTaskChange, type TaskDetail } from "./queries";
import "./texts";

type FieldValue = components["schemas"]["TaskCustomFieldValue"];

/** TaskCustomFields shows the task's values of its board's custom fields; each is saved
 * when the person leaves it (a select, when they choose), and emptying one removes it. */
export function TaskCustomFields({ task }: { task: TaskDetail }) {
  const { t } = useTranslation("work");
  const headingId = useId();
  if (task.custom_fields.length === 0) return null;
  return (
    <section className="work-card stack" aria-labelledby={headingId}>
      <h2 id={headingId}>{t("customFields")}</h2>
      {task.custom_fields.map((f) => (
        <CustomFieldInput key={f.task_custom_field_id} taskId={task.task_id} field={f} />
      ))}
    </section>
  );
}

/** valueOf is what the API takes for what the person typed: a number for a number field,
 * null for nothing. */
function valueOf(field: FieldValue, text: string): string | number | null {
  if (text.trim() === "") return null;
  return field.field_type === "number" ? Number(text) : text;
}

function CustomFieldInput({ taskId, field }: { taskId: string; field: FieldValue }) {
  const { t } = useTranslation("work");
  const id = useId();
  const stored = field.value === null ? "" : String(field.value);
  const [text, setText] = useState(stored);
  const save = useTaskChange(taskId, (value: string | number | null) =>
    data(
      api.PUT("/api/v1/work/tasks/{task_id}/custom-fields/{task_custom_field_id}", {
        params: { path: { task_id: taskId, task_custom_field_id: field.task_custom_field_id } },
        body: { value },
      }),
    ),
  );
  const commit = (next: string) => {
    if (next !== stored) save.mutate(valueOf(field, next));
  };
  const message = fieldError(save.error, "value");
  const common = {
    id,
    "aria-invalid": message ? true : undefined,
    "aria-describedby": message ? `${id}-error` : undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{field.name}</label>
      {field.field_type === "select" ? (
        <select
          {...common}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            commit(e.target.value);
          }}
        >
          <option value="">{t("noValue")}</option>
          {field.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type={field.field_type === "text" ? "text" : field.field_type}
          maxLength={field.field_type === "text" ? 2000 : undefined}
          step={field.field_type === "number" ? "any" : undefined}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => commit(text)}
        />
      )}
      {save.isPending && <small className="muted">{t("saving")}</small>}
      {message && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </div>
  );
}
