import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { api, data } from "../../api/client";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { SelectField } from "../../components/SelectField";
import { BillingTabs } from "./BillingTabs";
import { useProject, useServiceTypeChange, useServiceTypes, type ServiceType } from "./billing";
import "./billing.css";
import "./texts";

/** ServiceTypesPage lists the service types a project's services can have (the global ones,
 * the company's and the project's own), adds types to the project or the whole company and
 * archives them. */
export function ServiceTypesPage() {
  const { t } = useTranslation("billing");
  const { t: common } = useTranslation();
  const projectId = useParams().projectId!;
  const types = useServiceTypes(projectId);
  return (
    <>
      <BillingTabs projectId={projectId} />
      <section className="page billing-page stack" aria-labelledby="types-title">
        <h2 id="types-title">{t("serviceTypes")}</h2>
        <p className="muted">{t("serviceTypesIntro")}</p>
        <ProblemAlert error={types.error} />
        {types.isPending && <p className="muted">{common("loading")}</p>}
        {types.data && (
          <table className="list">
            <thead>
              <tr>
                <th scope="col">{common("name")}</th>
                <th scope="col">{t("typeKey")}</th>
                <th scope="col">{t("scope")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {types.data.items.map((type) => (
                <ServiceTypeRow key={type.client_service_type_id} projectId={projectId} type={type} />
              ))}
            </tbody>
          </table>
        )}
        <NewServiceTypeForm projectId={projectId} />
      </section>
    </>
  );
}

function ServiceTypeRow({ projectId, type }: { projectId: string; type: ServiceType }) {
  const { t } = useTranslation("billing");
  const archive = useServiceTypeChange(projectId, () =>
    type.scope_kind === "company"
      ? data(
          api.DELETE("/api/v1/companies/{company_id}/client-service-types/{client_service_type_id}", {
            params: { path: { company_id: type.company_id!, client_service_type_id: type.client_service_type_id } },
          }),
        )
      : data(
          api.DELETE("/api/v1/projects/{project_id}/client-service-types/{client_service_type_id}", {
            params: { path: { project_id: projectId, client_service_type_id: type.client_service_type_id } },
          }),
        ),
  );
  return (
    <tr>
      <td>
        {type.display_name}
        {type.description && <div className="muted">{type.description}</div>}
      </td>
      <td>
        <code>{type.service_type_key}</code>
      </td>
      <td>{t(`scope_${type.scope_kind ?? "global"}`)}</td>
      <td className="row-actions">
        {type.scope_kind !== "global" && (
          <button type="button" className="link" aria-label={t("archiveNamed", { name: type.display_name })} onClick={() => archive.mutate(undefined)} disabled={archive.isPending}>
            {t("archive")}
          </button>
        )}
        <ProblemAlert error={archive.error} />
      </td>
    </tr>
  );
}

function NewServiceTypeForm({ projectId }: { projectId: string }) {
  const { t } = useTranslation("billing");
  const project = useProject(projectId);
  const [scope, setScope] = useState<"project" | "company">("project");
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const add = useServiceTypeChange(projectId, (body: { display_name: string; description: string }) =>
    scope === "company"
      ? data(api.POST("/api/v1/companies/{company_id}/client-service-types", { params: { path: { company_id: project.data!.company_id } }, body }))
      : data(api.POST("/api/v1/projects/{project_id}/client-service-types", { params: { path: { project_id: projectId } }, body })),
  );
  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate(
      { display_name: name, description },
      {
        onSuccess: () => {
          setName("");
          setDescription("");
        },
      },
    );
  }
  return (
    <form className="panel stack" onSubmit={submit} noValidate aria-labelledby="new-type-title">
      <h3 id="new-type-title">{t("newServiceType")}</h3>
      <div className="form-grid">
        <Field label={t("typeName")} name="display_name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} error={add.error} />
        <Field label={t("typeDescription")} name="description" maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} error={add.error} />
        <SelectField label={t("scope")} name="scope" value={scope} onChange={(e) => setScope(e.target.value === "company" ? "company" : "project")}>
          <option value="project">{t("scope_project")}</option>
          <option value="company">{t("scope_company")}</option>
        </SelectField>
      </div>
      <ProblemAlert error={add.error} />
      <div className="row">
        <button type="submit" className="primary" disabled={add.isPending || !project.data}>
          {t("addServiceType")}
        </button>
      </div>
    </form>
  );
}
