import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink } from "react-router";
import { AskEmployeeLink } from "../ai/AskEmployeeLink";
import { RunButton } from "./RunButton";
import { manualTrigger } from "./runInput";
import { useVersions, useWorkflow } from "./workflow";
import { WorkflowSettings } from "./WorkflowSettings";
import "./texts";

/** WorkflowTabs heads every page of one workflow: its name, its settings (rename, archive),
 * the links between its pages, and Run, which starts the published version by hand. */
export function WorkflowTabs({ workflowId, children }: { workflowId: string; children?: ReactNode }) {
  const { t } = useTranslation("workflows");
  const workflow = useWorkflow(workflowId).data;
  const published = !!workflow?.current_version_id;
  const current = useVersions(workflowId).items?.find((v) => v.is_current);
  const base = `/workflows/${workflowId}`;
  return (
    <div className="workflow-tabs">
      <p className="crumbs">
        <Link to="/workflows">{t("title")}</Link> /
      </p>
      <h1 title={workflow?.description || undefined}>{workflow?.name ?? "…"}</h1>
      <nav aria-label={t("workflowPages")}>
        <NavLink to={base} end>
          {t("tabEditor")}
        </NavLink>
        <NavLink to={`${base}/versions`}>{t("tabVersions")}</NavLink>
        <NavLink to={`${base}/runs`}>{t("tabRuns")}</NavLink>
        <NavLink to={`${base}/webhooks`}>{t("tabWebhooks")}</NavLink>
        <NavLink to={`${base}/import`}>{t("tabImport")}</NavLink>
      </nav>
      {workflow && (
        <RunButton
          workflowId={workflowId}
          published={published}
          archived={!!workflow.archived_at}
          manual={published ? current && !!manualTrigger(current.actions) : false}
        />
      )}
      {workflow && <AskEmployeeLink projectId={workflow.project_id} about={{ workflowId }} />}
      {workflow && <WorkflowSettings workflow={workflow} />}
      {children && <div className="workflow-tabs-actions">{children}</div>}
    </div>
  );
}
