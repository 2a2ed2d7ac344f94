import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ListTable } from "../../components/ListTable";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useActive } from "../settings/active";
import { canManage } from "../settings/company";
import { NeedsWorkspace } from "../settings/NeedsWorkspace";
import { useDependencyTypes, useProjectIntegrations, type Integration } from "./integrations";
import { TestStatus } from "./TestStatus";
import "./integrations.css";
import "./texts";

/** IntegrationsPage lists the active project's integrations with their last connection
 * test, and leads to creating one. */
export function IntegrationsPage() {
  const { t } = useTranslation("integrations");
  const active = useActive();
  return (
    <>
      <div className="page-head">
        <h1>{t("title")}</h1>
        {canManage(active.role) && active.projectId && (
          <Link className="button primary" to="/settings/integrations/new">
            {t("newIntegration")}
          </Link>
        )}
      </div>
      <p className="muted">{t("intro")}</p>
      <NeedsWorkspace active={active} project>
        <IntegrationList projectId={active.projectId} />
      </NeedsWorkspace>
    </>
  );
}

function IntegrationList({ projectId }: { projectId: string }) {
  const { t } = useTranslation("integrations");
  const tc = useTranslation().t;
  const integrations = useProjectIntegrations(projectId);
  const types = useDependencyTypes();
  const typeName = (d: Integration) => types.data?.find((ty) => ty.dependency_type_key === d.dependency_type_key)?.display_name ?? d.dependency_type_key;
  if (integrations.error) return <ProblemAlert error={integrations.error} />;
  if (!integrations.data) return <p className="muted">{tc("loading")}</p>;
  if (integrations.data.length === 0) return <p>{t("none")}</p>;
  return (
    <ListTable columns={[tc("name"), t("type"), t("status"), t("lastTest")]}>
      {integrations.data.map((d) => (
        <tr key={d.action_dependency_id}>
          <td>
            <Link to={`/settings/integrations/${d.action_dependency_id}`}>{d.name}</Link>
          </td>
          <td>{typeName(d)}</td>
          <td>
            <span className={`badge ${d.status === "active" ? "ok" : "muted"}`}>{t(`status_${d.status}`)}</span>
          </td>
          <td>{d.last_test ? <TestStatus result={d.last_test} /> : <span className="muted">{t("notTested")}</span>}</td>
        </tr>
      ))}
    </ListTable>
  );
}
