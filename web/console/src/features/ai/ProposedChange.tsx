import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { Graph } from "../../canvas/graph";
import { ProblemAlert } from "../../components/ProblemAlert";
import { DiagnosticList } from "../workflows/DiagnosticList";
import { GraphDiffView } from "../workflows/GraphDiffView";
import { useWorkflow } from "../workflows/workflow";
import { usePatchPreview } from "./ai";
import "./texts";

/** ProposedChange draws a proposed patch as the workflow pages draw a diff: the draft as it
 * would be, on the canvas, with what the patch adds, removes and changes marked, and the
 * changes in words beside it. */
export function ProposedChange({ workflowId, patch }: { workflowId: string; patch: Record<string, unknown> }) {
  const { t } = useTranslation("ai");
  const { t: common } = useTranslation();
  const workflow = useWorkflow(workflowId);
  const preview = usePatchPreview(workflowId, patch);
  const draft = workflow.data?.draft;
  const from = useMemo<Graph | undefined>(() => draft && { actions: draft.actions, connections: draft.connections }, [draft]);
  const result = preview.data?.draft;
  const to = useMemo<Graph | undefined>(() => result && { actions: result.actions, connections: result.connections }, [result]);
  const error = workflow.error ?? preview.error;
  return (
    <section className="ai-proposed-change" aria-label={t("proposedChange")}>
      {error ? (
        <ProblemAlert error={error} />
      ) : from && to && preview.data ? (
        <>
          <p>
            <strong>{workflow.data?.name}</strong>
            {preview.data.change_description && <span className="muted"> — {preview.data.change_description}</span>}
          </p>
          <GraphDiffView from={from} to={to} />
          <DiagnosticList diagnostics={preview.data.diagnostics} title={t("proposalFindings")} />
        </>
      ) : (
        <p className="muted">{common("loading")}</p>
      )}
    </section>
  );
}
