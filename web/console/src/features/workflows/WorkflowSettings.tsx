import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { AskFirst } from "../../components/AskFirst";
import { Field } from "../../components/Field";
import { FormButtons } from "../../components/FormButtons";
import { fieldError, ProblemAlert } from "../../components/ProblemAlert";
import { TextAreaField } from "../../components/TextAreaField";
import { usePatchWorkflow, type Workflow } from "./workflow";
import "./workflows.css";
import "./texts";

/** WorkflowSettings renames a workflow, changes its description, and archives or restores
 * it, asking first what archiving does. */
export function WorkflowSettings({ workflow }: { workflow: Workflow }) {
  const { t } = useTranslation("workflows");
  const patch = usePatchWorkflow(workflow.workflow_id);
  const [editing, setEditing] = useState(false);
  const archived = !!workflow.archived_at;
  return (
    <div className="workflow-settings">
      {archived && <span className="badge workflow-archived">{t("archivedBadge")}</span>}
      <button type="button" onClick={() => setEditing(true)} disabled={editing}>
        {t("rename")}
      </button>
      {archived ? (
        <button type="button" disabled={patch.isPending} onClick={() => patch.mutate({ archived: false })}>
          {t("unarchive")}
        </button>
      ) : (
        <AskFirst label={t("archive")} question={t("archiveConfirm", { name: workflow.name })} pending={patch.isPending} onConfirm={() => patch.mutate({ archived: true })} />
      )}
      {!editing && <ProblemAlert error={patch.error} />}
      {editing && <RenameForm workflow={workflow} onDone={() => setEditing(false)} />}
    </div>
  );
}

function RenameForm({ workflow, onDone }: { workflow: Workflow; onDone: () => void }) {
  const { t } = useTranslation("workflows");
  const { t: common } = useTranslation();
  const patch = usePatchWorkflow(workflow.workflow_id);
  const [name, setName] = useState(workflow.name);
  const [description, setDescription] = useState(workflow.description);
  const titleId = useId();
  const onField = fieldError(patch.error, "name") || fieldError(patch.error, "description");

  function submit(e: FormEvent) {
    e.preventDefault();
    patch.mutate({ name, description }, { onSuccess: onDone });
  }

  return (
    <form className="rename-workflow stack" onSubmit={submit} aria-labelledby={titleId}>
      <h2 id={titleId}>{t("renameTitle")}</h2>
      <Field label={common("name")} name="name" required maxLength={200} autoFocus value={name} onChange={(e) => setName(e.target.value)} error={patch.error} />
      <TextAreaField label={common("description")} name="description" maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} error={patch.error} />
      {!onField && <ProblemAlert error={patch.error} />}
      <FormButtons label={common("save")} pending={patch.isPending} onCancel={onDone} />
    </form>
  );
}
