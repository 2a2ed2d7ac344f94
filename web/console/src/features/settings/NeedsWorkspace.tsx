import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import type { Active } from "./active";
import "./texts";

/** NeedsWorkspace shows its page once the company (or project) it works on is chosen, and
 * otherwise says how to choose or create one. */
export function NeedsWorkspace({ active, project, children }: { active: Active; project?: boolean; children: ReactNode }) {
  const { t } = useTranslation("settings");
  const tc = useTranslation().t;
  if (active.error) return <ProblemAlert error={active.error} />;
  if (active.pending) return <p className="muted">{tc("loading")}</p>;
  if (!active.companyId || (project && !active.projectId)) {
    return (
      <p>
        {project ? t("needsProject") : t("needsCompany")} <Link to="/setup">{t("setUp")}</Link>
      </p>
    );
  }
  return <>{children}</>;
}
