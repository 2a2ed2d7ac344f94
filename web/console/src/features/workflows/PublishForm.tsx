import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { DiagnosticList } from "./DiagnosticList";
import { TextAreaField } from "../../components/TextAreaField";
import { usePublish, type Workflow } from "./workflow";
import "./texts";

/** PublishForm freezes the draft as the next version with a description of the change; a
 * draft with problems lists them, as the server found them. */
export function PublishForm({ workflow }: { workflow: Workflow }) {
  const { t } = useTranslation("workflows");
  const publish = usePublish(workflow.workflow_id);
  const [description, setDescription] = useState(workflow.draft.change_description);
  const errors = workflow.diagnostics.filter((d) => d.severity === "error");

  function submit(e: FormEvent) {
    e.preventDefault();
    // Published, the description belongs to that version; the next one starts blank.
    publish.mutate(description, { onSuccess: () => setDescription("") });
  }

  return (
    <form className="publish-form stack" onSubmit={submit} aria-labelledby="publish-title">
      <h2 id="publish-title">{t("publishTitle")}</h2>
      <p className="muted">{t("publishHint")}</p>
      <TextAreaField
        label={t("changeDescription")}
        name="description"
        maxLength={2000}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={publish.error}
      />
      {errors.length > 0 && (
        <p className="alert">
          {t("draftProblems", { count: errors.length })} <Link to={`/workflows/${workflow.workflow_id}`}>{t("openEditor")}</Link>
        </p>
      )}
      <ProblemAlert error={publish.error} />
      {publish.isSuccess && (
        <p role="status" className="notice">
          {t("published", { number: publish.data.version_number })}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={publish.isPending}>
          {publish.isPending ? t("publishing") : t("publish")}
        </button>
      </div>
      <DiagnosticList diagnostics={workflow.diagnostics} title={t("diagnosticsTitle")} />
    </form>
  );
}
