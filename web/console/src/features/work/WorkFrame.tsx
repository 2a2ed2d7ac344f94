import { useTranslation } from "react-i18next";
import { NavLink, Outlet } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { SetupWorkspace } from "../workspace/SetupWorkspace";
import { useWorkspace } from "../workspace/workspace";
import "./texts";
import "./work.css";

/** WorkFrame holds the work tracker's pages: its tabs above the page. The tracker works in
 * the active company, so without one the person sets one up first. */
export function WorkFrame() {
  const { t } = useTranslation("work");
  const { t: common } = useTranslation();
  const workspace = useWorkspace();
  if (workspace.isPending) return <p className="page muted">{common("loading")}</p>;
  if (workspace.error) {
    return (
      <section className="page">
        <ProblemAlert error={workspace.error} />
      </section>
    );
  }
  if (!workspace.data.active_company_id) return <SetupWorkspace />;
  return (
    <>
      <nav className="work-tabs" aria-label={t("tracker")}>
        <NavLink to="/work" end>
          {t("myTasks")}
        </NavLink>
        <NavLink to="/work/boards">{t("boards")}</NavLink>
        <NavLink to="/work/reports">{t("reports")}</NavLink>
        <NavLink to="/work/task-workflows">{t("taskWorkflows")}</NavLink>
      </nav>
      <Outlet />
    </>
  );
}
