import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { Field } from "../../components/Field";
import { FormButtons } from "../../components/FormButtons";
import { SelectField } from "../../components/SelectField";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useProjects, useWorkspace } from "../workspace/workspace";
import { CustomFieldsEditor, type CustomFieldInput } from "./CustomFieldsEditor";
import { useCreateBoard, useTaskWorkflows, type TaskStageInput } from "./queries";
import { StagesEditor } from "./StagesEditor";
import "./texts";

/** How a new board gets its columns: To do, In progress, Done; a task workflow's stages;
 * or the person's own. */
type ColumnsFrom = "default" | "own" | `workflow:${string}`;

/** NewBoardForm creates a board of a project (the active one at first) or of the whole
 * company, and opens it. */
export function NewBoardForm({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation("work");
  const { t: common } = useTranslation();
  const context = useWorkspace().data;
  const projects = useProjects(context?.active_company_id || undefined).data?.items ?? [];
  const workflows = useTaskWorkflows().data ?? [];
  const create = useCreateBoard();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [projectId, setProjectId] = useState(context?.active_project_id ?? "");
  const [columnsFrom, setColumnsFrom] = useState<ColumnsFrom>("default");
  const [columns, setColumns] = useState<TaskStageInput[]>([{ name: "", is_done: false }, { name: "", is_done: true }]);
  const [fields, setFields] = useState<CustomFieldInput[]>([]);
  const titleId = useId();

  function submit(e: FormEvent) {
    e.preventDefault();
    const workflowId = columnsFrom.startsWith("workflow:") ? columnsFrom.slice("workflow:".length) : undefined;
    create.mutate(
      {
        name,
        ...(projectId ? { project_id: projectId } : {}),
        ...(workflowId ? { task_workflow_id: workflowId } : {}),
        ...(columnsFrom === "own" ? { columns } : {}),
        custom_fields: fields.map((f) => (f.field_type === "select" ? { ...f, options: (f.options ?? []).filter(Boolean) } : f)),
      },
      { onSuccess: (board) => void navigate(`/work/boards/${board.task_board_id}`) },
    );
  }

  return (
    <form className="work-form stack" onSubmit={submit} aria-labelledby={titleId}>
      <h2 id={titleId}>{t("newBoard")}</h2>
      <Field label={common("name")} name="name" required maxLength={200} autoFocus value={name} onChange={(e) => setName(e.target.value)} error={create.error} />
      <SelectField
        label={common("project")}
        name="project_id"
        value={projectId}
        onChange={(e) => setProjectId(e.target.value)}
        error={create.error}
      >
        <option value="">{t("wholeCompany")}</option>
        {projects.map((p) => (
          <option key={p.project_id} value={p.project_id}>
            {p.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t("columns")}
        name="task_workflow_id"
        value={columnsFrom}
        onChange={(e) => setColumnsFrom(e.target.value as ColumnsFrom)}
        error={create.error}
      >
        <option value="default">{t("defaultColumns")}</option>
        {workflows.map((w) => (
          <option key={w.task_workflow_id} value={`workflow:${w.task_workflow_id}`}>
            {t("stagesOf", { name: w.name })}
          </option>
        ))}
        <option value="own">{t("ownColumns")}</option>
      </SelectField>
      {columnsFrom === "own" && <StagesEditor legend={t("columns")} stages={columns} onChange={setColumns} field="columns" error={create.error} />}
      <CustomFieldsEditor fields={fields} onChange={setFields} />
      <ProblemAlert error={create.error} />
      <FormButtons label={t("createBoard")} pending={create.isPending} onCancel={onCancel} />
    </form>
  );
}
