import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { Field } from "../../components/Field";
import { FormButtons } from "../../components/FormButtons";
import { ProblemAlert } from "../../components/ProblemAlert";
import { TextAreaField } from "../../components/TextAreaField";
import { openOnPalette, useCreateWorkflow } from "./workflow";
import "./texts";

/** NewWorkflowForm creates a workflow with an empty draft and opens it in the editor, the
 * focus in the palette. */
export function NewWorkflowForm({ projectId, onCancel }: { projectId: string; onCancel: () => void }) {
  const { t } = useTranslation("workflows");
  const { t: common } = useTranslation();
  const create = useCreateWorkflow(projectId);
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const titleId = useId();

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate({ name, description }, { onSuccess: (w) => void navigate(`/workflows/${w.workflow_id}`, { state: openOnPalette }) });
  }

  return (
    <form className="new-workflow stack" onSubmit={submit} aria-labelledby={titleId}>
      <h2 id={titleId}>{t("newWorkflow")}</h2>
      <Field label={common("name")} name="name" required maxLength={200} autoFocus value={name} onChange={(e) => setName(e.target.value)} error={create.error} />
      <TextAreaField
        label={common("description")}
        name="description"
        maxLength={2000}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={create.error}
      />
      <ProblemAlert error={create.error} />
      <FormButtons label={common("create")} pending={create.isPending} onCancel={onCancel} />
    </form>
  );
}
