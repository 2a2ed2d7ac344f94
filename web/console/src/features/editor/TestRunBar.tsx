import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { statusGlyph } from "../../canvas/graph";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useLiveRun } from "../runs/live";
import "./texts";

/** useTestRunStatuses is each action's status in the test run, live, for the canvas. */
export function useTestRunStatuses(runId: string | undefined) {
  const live = useLiveRun(runId);
  const statuses = useMemo(() => (runId ? new Map([...live.actions].map(([key, a]) => [key, a.status])) : undefined), [runId, live.actions]);
  return { statuses, run: live.run, error: live.error };
}

/** TestRunBar says how the test run goes and links to it in the run inspector. */
export function TestRunBar({ runId, status, error, onClear }: { runId: string; status: string | undefined; error: unknown; onClear: () => void }) {
  const { t } = useTranslation("editor");
  return (
    <div className="test-run-bar row" role="status">
      <span className={`mark status status-${status ?? "pending"}`}>
        <span aria-hidden="true">{statusGlyph[status ?? "pending"]} </span>
        {t("runStatus", { status: t(`run_${status ?? "pending"}` as "run_pending") })}
      </span>
      <Link to={`/runs/${runId}`}>{t("openInInspector")}</Link>
      <button type="button" className="link" onClick={onClear}>
        {t("clearRun")}
      </button>
      <ProblemAlert error={error} />
    </div>
  );
}
