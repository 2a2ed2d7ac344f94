import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { api, data } from "../../api/client";
import { ProblemAlert } from "../../components/ProblemAlert";
import { formatDay } from "../../lib/dates";
import { formatMoney } from "../../lib/money";
import { useBillNow } from "../billing/billing";
import { useProjects } from "../workspace/workspace";
import { ServiceForm } from "./ServiceForm";
import { useServiceChange, useServices, type Client, type ClientService } from "./clients";
import "./texts";

/** ServicesSection lists the client's services with what each costs, how often, and when it
 * is next due; adds, changes, pauses and resumes them. */
export function ServicesSection({ client }: { client: Client }) {
  const { t } = useTranslation("clients");
  const { t: common } = useTranslation();
  const services = useServices(client.client_id);
  const projects = useProjects(client.company_id).data?.items ?? [];
  const [editing, setEditing] = useState<string | "new" | null>(null);
  const projectName = (id: string) => projects.find((p) => p.project_id === id)?.name ?? "";
  return (
    <section className="panel client-services" aria-labelledby="services-title">
      <div className="part-head">
        <h2 id="services-title">{t("services")}</h2>
        {editing === null && client.status !== "deleted" && (
          <button type="button" onClick={() => setEditing("new")}>
            {t("addService")}
          </button>
        )}
      </div>
      <ProblemAlert error={services.error} />
      {services.isPending && <p className="muted">{common("loading")}</p>}
      {services.items?.length === 0 && editing !== "new" && <p className="muted">{t("noServices")}</p>}
      {editing === "new" && <ServiceForm client={client} onDone={() => setEditing(null)} />}
      {services.items && services.items.length > 0 && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{t("service")}</th>
              <th scope="col">{t("project")}</th>
              <th scope="col" className="numeric">
                {t("amount")}
              </th>
              <th scope="col">{t("billingPeriod")}</th>
              <th scope="col">{t("nextDueDate")}</th>
              <th scope="col">{t("status")}</th>
              <th scope="col">
                <span className="visually-hidden">{t("actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {services.items.map((s) =>
              editing === s.client_service_id ? (
                <tr key={s.client_service_id}>
                  <td colSpan={7}>
                    <ServiceForm client={client} service={s} onDone={() => setEditing(null)} />
                  </td>
                </tr>
              ) : (
                <ServiceRow key={s.client_service_id} service={s} projectName={projectName(s.project_id)} onEdit={() => setEditing(s.client_service_id)} />
              ),
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ServiceRow({ service, projectName, onEdit }: { service: ClientService; projectName: string; onEdit: () => void }) {
  const { t, i18n } = useTranslation("clients");
  const navigate = useNavigate();
  const billNow = useBillNow(service.client_service_id);
  const setStatus = useServiceChange(service.client_id, (status: "active" | "paused") =>
    data(api.PATCH("/api/v1/client-services/{client_service_id}", { params: { path: { client_service_id: service.client_service_id } }, body: { status } })),
  );
  return (
    <tr>
      <td>
        <strong>{service.name}</strong>
        <div className="muted">{service.service_type_name}</div>
      </td>
      <td>
        <Link to={`/projects/${service.project_id}/billing`}>{projectName || t("project")}</Link>
      </td>
      <td className="numeric">{formatMoney(service.amount, service.currency, i18n.language)}</td>
      <td>{t(`period_${service.billing_period}`)}</td>
      <td>{service.next_due_date ? formatDay(service.next_due_date, i18n.language) : "—"}</td>
      <td>
        <span className={`badge service-status-${service.status}`}>{t(`serviceStatus_${service.status}`)}</span>
      </td>
      <td className="row-actions">
        <button type="button" className="link" aria-label={t("editNamed", { name: service.name })} onClick={onEdit}>
          {t("edit")}
        </button>
        {service.status === "active" && (
          <button type="button" className="link" onClick={() => setStatus.mutate("paused")} disabled={setStatus.isPending}>
            {t("pause")}
          </button>
        )}
        {service.status === "active" && service.next_due_date && (
          <button
            type="button"
            className="link"
            aria-label={t("billNowNamed", { name: service.name })}
            onClick={() => billNow.mutate(undefined, { onSuccess: (a) => void navigate(`/payment-actions/${a.payment_action_id}`) })}
            disabled={billNow.isPending}
          >
            {t("billNow")}
          </button>
        )}
        {service.status === "paused" && (
          <button type="button" className="link" onClick={() => setStatus.mutate("active")} disabled={setStatus.isPending}>
            {t("resume")}
          </button>
        )}
        <ProblemAlert error={setStatus.error ?? billNow.error} />
      </td>
    </tr>
  );
}
