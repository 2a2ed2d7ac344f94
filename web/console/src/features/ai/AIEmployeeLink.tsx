import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { useActiveProjectId } from "../workspace/workspace";

/** AIEmployeeLink is the header's link to the active project's AI employee. */
export function AIEmployeeLink() {
  const { t } = useTranslation();
  const projectId = useActiveProjectId();
  return projectId ? <NavLink to={`/projects/${projectId}/ai`}>{t("aiEmployee")}</NavLink> : null;
}
