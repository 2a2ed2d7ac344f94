import { useTranslation } from "react-i18next";
import { fieldError } from "../../components/ProblemAlert";
import type { TaskStageInput } from "./queries";
import "./texts";

/** StagesEditor edits an ordered list of stages (a board's columns, a task workflow's
 * stages): each a name and whether tasks there are done. `field` is the request field the
 * list is sent as, for the Problem that names one of them. */
export function StagesEditor({
  legend,
  stages,
  onChange,
  field,
  error,
}: {
  legend: string;
  stages: TaskStageInput[];
  onChange: (stages: TaskStageInput[]) => void;
  field: string;
  error: unknown;
}) {
  const { t } = useTranslation("work");
  const set = (index: number, stage: TaskStageInput) => onChange(stages.map((s, i) => (i === index ? stage : s)));
  const message = fieldError(error, field);
  return (
    <fieldset className="rows-editor">
      <legend>{legend}</legend>
      <ol>
        {stages.map((stage, index) => (
          <li key={index} className="row">
            <label className="inline">
              <span className="visually-hidden">{t("stageName", { n: index + 1 })}</span>
              <input
                required
                maxLength={100}
                value={stage.name}
                placeholder={t("stageName", { n: index + 1 })}
                aria-invalid={fieldError(error, `${field}[${index}]`) ? true : undefined}
                onChange={(e) => set(index, { ...stage, name: e.target.value })}
              />
            </label>
            <label className="inline">
              <input type="checkbox" checked={stage.is_done} onChange={(e) => set(index, { ...stage, is_done: e.target.checked })} />
              {t("stageDone")}
            </label>
            <button
              type="button"
              className="link"
              aria-label={t("removeStage", { n: index + 1 })}
              onClick={() => onChange(stages.filter((_, i) => i !== index))}
              disabled={stages.length <= 1}
            >
              {t("remove")}
            </button>
          </li>
        ))}
      </ol>
      {message && <small className="field-error">{message}</small>}
      <button type="button" onClick={() => onChange([...stages, { name: "", is_done: false }])} disabled={stages.length >= 20}>
        {t("addStage")}
      </button>
    </fieldset>
  );
}
