import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useRun } from "../runs/run";
import { useWorkflow } from "../workflows/workflow";
import "../../canvas/texts";
import "./texts";

type AboutNoteProps = { workflowId?: string; runId?: string; leaveOut: () => void };

/** AboutNote says what the person's messages are about (the workflow or the run they came
 * from, which each message carries), and lets them leave it out. */
export function AboutNote({ workflowId, runId, leaveOut }: AboutNoteProps) {
  const { t } = useTranslation("ai");
  return (
    <div className="ai-about">
      <p>
        <span className="ai-about-label">{t("about")}:</span>{" "}
        {runId ? <RunName runId={runId} /> : workflowId ? <WorkflowName workflowId={workflowId} /> : t("aboutProject")}{" "}
        {(runId || workflowId) && (
          <button type="button" className="link" onClick={leaveOut}>
            {t("leaveOut")}
          </button>
        )}
      </p>
      <small className="muted">{t("contextTravels")}</small>
    </div>
  );
}

function WorkflowName({ workflowId }: { workflowId: string }) {
  const { t } = useTranslation("ai");
  const workflow = useWorkflow(workflowId);
  if (workflow.error) return <ProblemAlert error={workflow.error} />;
  return <>{t("aboutWorkflow", { name: workflow.data?.name ?? "…" })}</>;
}

function RunName({ runId }: { runId: string }) {
  const { t: canvas } = useTranslation("canvas");
  const run = useRun(runId);
  if (run.error) return <ProblemAlert error={run.error} />;
  if (!run.data) return <>…</>;
  const status = canvas(`status_${run.data.status}` as "status_pending", { defaultValue: run.data.status });
  return <RunOf workflowId={run.data.workflow_id} status={status} />;
}

function RunOf({ workflowId, status }: { workflowId: string; status: string }) {
  const { t } = useTranslation("ai");
  const workflow = useWorkflow(workflowId);
  return <>{t("aboutRun", { workflow: workflow.data?.name ?? "…", status })}</>;
}
