import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import type { components } from "../../api/schema.gen";
import { Field } from "../../components/Field";
import { FormButtons } from "../../components/FormButtons";
import { SelectField } from "../../components/SelectField";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useTaskWorkflows, useWorkAccess, useWorkflowPresets, workKeys, type TaskStageInput } from "./queries";
import { StagesEditor } from "./StagesEditor";
import "./texts";

/** TaskWorkflowsPage lists the company's task workflows (process templates: stages and the
 * roles that do the work) and, for managers, creates one from a preset or from scratch. */
export function TaskWorkflowsPage() {
  const { t } = useTranslation("work");
  const { t: common } = useTranslation();
  const workflows = useTaskWorkflows();
  const manages = useWorkAccess().data?.can.manage_task_workflows ?? false;
  const [creating, setCreating] = useState(false);
  return (
    <section className="page work-page">
      <div className="page-head">
        <h1>{t("taskWorkflows")}</h1>
        {manages && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            {t("newTaskWorkflow")}
          </button>
        )}
      </div>
      <p className="muted">{t("taskWorkflowsIntro")}</p>
      {creating && <NewTaskWorkflowForm onCancel={() => setCreating(false)} />}
      <ProblemAlert error={workflows.error} />
      {workflows.isPending ? (
        <p className="muted">{common("loading")}</p>
      ) : workflows.data?.length ? (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{common("name")}</th>
              <th scope="col">{t("stages")}</th>
            </tr>
          </thead>
          <tbody>
            {workflows.data.map((w) => (
              <tr key={w.task_workflow_id}>
                <td>
                  <Link to={`/work/task-workflows/${w.task_workflow_id}`}>{w.name}</Link>
                  {w.description && <div className="muted">{w.description}</div>}
                </td>
                <td>{w.stages.map((s) => s.name).join(" → ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        !workflows.error && <p className="muted">{t("noTaskWorkflows")}</p>
      )}
    </section>
  );
}

type WorkflowInput = components["schemas"]["TaskWorkflowInput"];

/** NewTaskWorkflowForm makes a task workflow from a preset (its stages and roles) or from
 * a name and stages, then opens its roles. */
function NewTaskWorkflowForm({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation("work");
  const { t: common } = useTranslation();
  const presets = useWorkflowPresets().data?.items ?? [];
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: (body: WorkflowInput) => data(api.POST("/api/v1/work/task-workflows", { body })),
    onSuccess: (w) => {
      void queryClient.invalidateQueries({ queryKey: workKeys.taskWorkflows });
      void navigate(`/work/task-workflows/${w.task_workflow_id}`);
    },
  });
  const [preset, setPreset] = useState("");
  const [name, setName] = useState("");
  const [stages, setStages] = useState<TaskStageInput[]>([{ name: "", is_done: false }, { name: "", is_done: true }]);
  const titleId = useId();
  const chosen = presets.find((p) => p.preset_key === preset);

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate(preset ? { preset_key: preset, ...(name ? { name } : {}) } : { name, stages });
  }

  return (
    <form className="work-form stack" onSubmit={submit} aria-labelledby={titleId}>
      <h2 id={titleId}>{t("newTaskWorkflow")}</h2>
      <SelectField
        label={t("startFrom")}
        name="preset_key"
        value={preset}
        onChange={(e) => setPreset(e.target.value)}
        error={create.error}
      >
        <option value="">{t("fromScratch")}</option>
        {presets.map((p) => (
          <option key={p.preset_key} value={p.preset_key}>
            {p.name}
          </option>
        ))}
      </SelectField>
      {chosen && (
        <p className="muted">
          {chosen.description} {t("presetHas", { stages: chosen.stages.map((s) => s.name).join(" → "), roles: chosen.roles.map((r) => r.name).join(", ") })}
        </p>
      )}
      <Field
        label={common("name")}
        name="name"
        required={!preset}
        maxLength={200}
        placeholder={chosen?.name}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={create.error}
      />
      {!preset && <StagesEditor legend={t("stages")} stages={stages} onChange={setStages} field="stages" error={create.error} />}
      <ProblemAlert error={create.error} />
      <FormButtons label={common("create")} pending={create.isPending} onCancel={onCancel} />
    </form>
  );
}
