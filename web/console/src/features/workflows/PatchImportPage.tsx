import { json } from "@codemirror/lang-json";
import { EditorView } from "@uiw/react-codemirror";
import { useId, useMemo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ProblemError } from "../../api/problem";
import { ProblemAlert } from "../../components/ProblemAlert";
import { CodeEditor } from "../../components/CodeEditor";
import type { Graph } from "../../canvas/graph";
import { DiagnosticList } from "./DiagnosticList";
import { GraphDiffView } from "./GraphDiffView";
import { useImportPatch, useWorkflow, type Workflow } from "./workflow";
import { WorkflowTabs } from "./WorkflowTabs";
import "./workflows.css";
import "./texts";

/** PatchImportPage takes the patch an AI editor wrote, tries it on the draft (a dry run shown
 * as a diff on the canvas, with the server's diagnostics), then saves it to the draft. */
export function PatchImportPage() {
  const { workflowId = "" } = useParams();
  const { t: common } = useTranslation();
  const workflow = useWorkflow(workflowId);
  return (
    <>
      <WorkflowTabs workflowId={workflowId} />
      <section className="page">
        <ProblemAlert error={workflow.error} />
        {workflow.data ? <PatchImport workflow={workflow.data} /> : !workflow.error && <p className="muted">{common("loading")}</p>}
      </section>
    </>
  );
}

function PatchImport({ workflow }: { workflow: Workflow }) {
  const { t } = useTranslation("workflows");
  const { t: common } = useTranslation();
  const id = workflow.workflow_id;
  const [text, setText] = useState("");
  const tryPatch = useImportPatch(id, true);
  const save = useImportPatch(id, false);
  const problemId = useId();
  const tried = tryPatch.isSuccess && tryPatch.variables === text ? tryPatch.data : undefined;
  const stale = tryPatch.isSuccess && !tried;
  const error = tryPatch.error ?? save.error;
  const draft = useMemo<Graph>(() => ({ actions: workflow.draft.actions, connections: workflow.draft.connections }), [workflow.draft]);
  const result = useMemo<Graph | undefined>(() => tried && { actions: tried.draft.actions, connections: tried.draft.connections }, [tried]);

  function submit(e: FormEvent) {
    e.preventDefault();
    save.reset();
    tryPatch.mutate(text);
  }

  function saveToDraft() {
    save.mutate(text, { onSuccess: () => tryPatch.reset() });
  }

  return (
    <div className="patch-import">
      <form className="patch-form stack" onSubmit={submit} aria-labelledby="import-title">
        <h2 id="import-title">{t("importTitle")}</h2>
        <p className="muted">{t("importHint")}</p>
        <p>
          {t("importContext")}:{" "}
          <a href={`/api/v1/workflows/${id}/ai-context`} target="_blank" rel="noreferrer">
            {t("importContextLink")}
          </a>
        </p>
        <div className="field">
          <span className="label" id={`${problemId}-label`}>
            {t("patchLabel")}
          </span>
          <div className="patch-editor">
            <CodeEditor
              value={text}
              onChange={setText}
              height="22rem"
              basicSetup={{ foldGutter: true }}
              extensions={[
                json(),
                EditorView.lineWrapping,
                EditorView.contentAttributes.of({
                  "aria-labelledby": `${problemId}-label`,
                  "aria-describedby": problemId,
                  "aria-invalid": error instanceof ProblemError && error.fields.length > 0 ? "true" : "false",
                }),
              ]}
            />
          </div>
          <PatchFields id={problemId} error={error} />
        </div>
        <ProblemAlert error={error} />
        {stale && <p className="muted">{t("dryRunStale")}</p>}
        {save.isSuccess && (
          <p role="status" className="notice">
            {t("savedToDraft")} <Link to={`/workflows/${id}`}>{t("openEditor")}</Link>
          </p>
        )}
        <div className="row">
          <button type="submit" disabled={tryPatch.isPending || !text.trim()}>
            {tryPatch.isPending ? t("trying") : t("tryPatch")}
          </button>
          <button type="button" className="primary" disabled={!tried || save.isPending} onClick={saveToDraft}>
            {save.isPending ? common("saving") : t("saveToDraft")}
          </button>
        </div>
        {tried && (
          <>
            <h3>{t("appliedOperations")}</h3>
            <ol className="applied-operations" start={0}>
              {tried.applied_operations.map((op) => (
                <li key={op.index}>
                  <code>{op.op}</code> {op.action_key ?? (op.from && `${op.from} → ${op.to}`)} — {t(`effect_${op.effect}`)}
                </li>
              ))}
            </ol>
            <DiagnosticList diagnostics={tried.diagnostics} title={t("diagnosticsTitle")} />
          </>
        )}
      </form>
      {result && (
        <section aria-labelledby="dry-run-title">
          <h2 id="dry-run-title">{t("dryRunTitle")}</h2>
          <GraphDiffView from={draft} to={result} />
        </section>
      )}
    </div>
  );
}

/** PatchFields names the patch's fields a refusal's validate lists (operations.1.action.action_key). */
function PatchFields({ id, error }: { id: string; error: unknown }) {
  const fields = error instanceof ProblemError ? error.fields : [];
  return (
    <ul id={id} className="field-error patch-fields">
      {fields.map((f) => (
        <li key={f}>
          <code>{f}</code>
        </li>
      ))}
    </ul>
  );
}
