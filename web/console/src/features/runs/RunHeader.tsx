import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useWorkflow } from "../workflows/workflow";
import { AskEmployeeLink } from "../ai/AskEmployeeLink";
import { durationMs, useRunFormat } from "./format";
import { useVersion } from "./run";
import { StatusWord } from "./StatusWord";
import { Fact } from "./Fact";
import type { RunView } from "./types";
import "./texts";

type RunHeaderProps = {
  run: RunView;
  connected: boolean;
  now: number;
  /** children are the run's actions (cancel, replay). */
  children?: ReactNode;
};

/** RunHeader says what the run is: its status, workflow, version, trigger and times. */
export function RunHeader({ run, connected, now, children }: RunHeaderProps) {
  const { t } = useTranslation("runs");
  const format = useRunFormat();
  const workflow = useWorkflow(run.workflow_id).data;
  const version = useVersion(run.workflow_version_id).data;
  return (
    <header className="run-header">
      <div className="run-header-title">
        <p className="crumbs">
          <Link to={`/workflows/${run.workflow_id}/runs`}>{t("title")}</Link> /
        </p>
        <h1>{t("runOf", { workflow: workflow?.name ?? "…" })}</h1>
        <StatusWord status={run.status} />
        <LiveState terminal={run.terminal} connected={connected} />
        <div className="run-header-actions">
          {children}
          <AskEmployeeLink projectId={run.project_id} about={{ runId: run.workflow_run_id }} />
        </div>
      </div>
      <dl className="run-facts">
        <Fact term={t("workflow")}>
          <Link to={`/workflows/${run.workflow_id}`}>{workflow?.name ?? run.workflow_id}</Link>
        </Fact>
        <Fact term={t("version")}>
          {run.workflow_version_id ? (version ? t("versionNumber", { number: version.version_number }) : "…") : t("draft")}
        </Fact>
        <Fact term={t("trigger")}>
          {t(`trigger_${run.trigger_type}`)}
          {run.trigger_action_key && <code> {run.trigger_action_key}</code>}
        </Fact>
        {run.replay_of_run_id && (
          <Fact term={t("replayOf")}>
            <Link to={`/runs/${run.replay_of_run_id}`}>{run.replay_of_run_id.slice(0, 8)}</Link>
          </Fact>
        )}
        <Fact term={t("started")}>{format.date(run.started_at)}</Fact>
        <Fact term={t("finished")}>{format.date(run.finished_at)}</Fact>
        <Fact term={t("duration")}>{format.duration(durationMs(run.started_at, run.finished_at, now))}</Fact>
        {run.terminal && run.terminal_reason && <Fact term={t("reason")}>{run.terminal_reason}</Fact>}
        {run.history_url && (
          <Fact term={t("history")}>
            <a href={run.history_url} target="_blank" rel="noreferrer">
              {t("historyLink")}
            </a>
          </Fact>
        )}
      </dl>
    </header>
  );
}

/** LiveState tells whether the page follows the run as it happens. */
function LiveState({ terminal, connected }: { terminal: boolean; connected: boolean }) {
  const { t } = useTranslation("runs");
  if (terminal) return null;
  return (
    <span className={connected ? "live-state on" : "live-state"} role="status">
      <span aria-hidden="true">{connected ? "●" : "○"}</span> {connected ? t("live") : t("connecting")}
    </span>
  );
}
