import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { useWorkspace } from "./workspace";

/** ClientsAndBillingLinks are the header's links to the active company's clients and the
 * active project's billing; each shows once there is a company or a project to open. */
export function ClientsAndBillingLinks() {
  const { t } = useTranslation();
  const context = useWorkspace().data;
  return (
    <>
      {context?.active_company_id && <NavLink to={`/companies/${context.active_company_id}/clients`}>{t("clients")}</NavLink>}
      {context?.active_project_id && <NavLink to={`/projects/${context.active_project_id}/billing`}>{t("billing")}</NavLink>}
    </>
  );
}
