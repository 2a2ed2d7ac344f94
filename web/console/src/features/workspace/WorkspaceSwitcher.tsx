import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useCompanies, useProjects, useSelectWorkspace, useWorkspace } from "./workspace";

/** WorkspaceSwitcher picks the active company and project, which every page works in. */
export function WorkspaceSwitcher() {
  const { t } = useTranslation();
  const context = useWorkspace().data;
  const companyId = context?.active_company_id || "";
  const companies = useCompanies().data?.items ?? [];
  const projects = useProjects(companyId || undefined).data?.items ?? [];
  const select = useSelectWorkspace();
  return (
    <div className="switcher">
      <label className="inline">
        <span className="muted">{t("company")}</span>
        <select
          value={companyId}
          disabled={select.isPending}
          onChange={(e) => select.mutate({ active_company_id: e.target.value || null })}
        >
          <option value="">{t("noCompany")}</option>
          {companies.map((c) => (
            <option key={c.company_id} value={c.company_id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label className="inline">
        <span className="muted">{t("project")}</span>
        <select
          value={context?.active_project_id || ""}
          disabled={!companyId || select.isPending}
          onChange={(e) => select.mutate({ active_project_id: e.target.value || null })}
        >
          <option value="">{t("noProject")}</option>
          {projects.map((p) => (
            <option key={p.project_id} value={p.project_id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <Link to="/setup">{companyId ? t("newProject") : t("newCompany")}</Link>
    </div>
  );
}
