import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { RunInputDialog } from "./RunInputDialog";
import { manualTrigger, sampleOf } from "./runInput";
import { useStartManualRun, useVersions } from "./workflow";
import "./texts";
import "./workflows.css";

type RunButtonProps = {
  workflowId: string;
  /** name, when given, goes into the button's name (a list has one per workflow). */
  name?: string;
  published: boolean;
  /** archived workflows do not run until they are restored. */
  archived: boolean;
  /** manual says whether the published version starts with a manual start; undefined
   * while that is being read. */
  manual: boolean | undefined;
};

/** RunButton starts a run of the published version by hand: it asks for the input in a
 * dialog and opens the run's inspector; where the workflow cannot be run so, it says why. */
export function RunButton({ workflowId, name, published, archived, manual }: RunButtonProps) {
  const { t } = useTranslation("workflows");
  const [open, setOpen] = useState(false);
  const reasonId = useId();
  const reason = archived ? t("runArchived") : !published ? t("runNotPublished") : manual === false ? t("runNoManualStart") : "";
  return (
    <span className="run-button">
      <button
        type="button"
        disabled={!!reason || manual === undefined}
        aria-describedby={reason ? reasonId : undefined}
        aria-label={name ? t("runNamed", { name }) : undefined}
        onClick={() => setOpen(true)}
      >
        {t("run")}
      </button>
      {reason && (
        <small id={reasonId} className="muted">
          {reason}
        </small>
      )}
      {open && <ManualRunDialog workflowId={workflowId} onClose={() => setOpen(false)} />}
    </span>
  );
}

/** ManualRunDialog asks for the run's input, starting from the manual start's sample, and
 * takes the person to the run it started. */
function ManualRunDialog({ workflowId, onClose }: { workflowId: string; onClose: () => void }) {
  const { t } = useTranslation("workflows");
  const navigate = useNavigate();
  const versions = useVersions(workflowId);
  const start = useStartManualRun(workflowId);
  const current = versions.items?.find((v) => v.is_current);
  if (!current) return null;
  return (
    <RunInputDialog
      title={t("runTitle")}
      help={t("runHelp")}
      value={sampleOf(manualTrigger(current.actions))}
      submitLabel={t("runStart")}
      pending={start.isPending}
      error={start.error}
      onSubmit={(input) => start.mutate(input, { onSuccess: (run) => void navigate(`/runs/${run.workflow_run_id}`) })}
      onClose={onClose}
    />
  );
}
