import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink } from "react-router";
import { useProject } from "./billing";
import "./texts";

/** BillingTabs heads a project's billing pages: the project, its clients, and the pages of
 * what is due, the schedule and the service types. */
export function BillingTabs({ projectId, children }: { projectId: string; children?: ReactNode }) {
  const { t } = useTranslation("billing");
  const project = useProject(projectId);
  const base = `/projects/${projectId}/billing`;
  return (
    <div className="workflow-tabs billing-tabs">
      <p className="crumbs">
        {project.data ? <Link to={`/companies/${project.data.company_id}/clients`}>{t("clients")}</Link> : t("clients")}
      </p>
      <h1>{t("titleOf", { project: project.data?.name ?? "…" })}</h1>
      <nav aria-label={t("billingPages")}>
        <NavLink to={base} end>
          {t("due")}
        </NavLink>
        <NavLink to={`${base}/schedule`}>{t("schedule")}</NavLink>
        <NavLink to={`${base}/service-types`}>{t("serviceTypes")}</NavLink>
      </nav>
      {children && <div className="workflow-tabs-actions">{children}</div>}
    </div>
  );
}
