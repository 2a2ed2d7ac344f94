import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { LoadMore } from "../../components/LoadMore";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useSearchParam } from "../../lib/useSearchParam";
import { clientStatuses, clientTypes, readClientFilters, useClientList, type Client } from "./clients";
import "./clients.css";
import "../../components/taxIdTexts";
import "./texts";

/** ClientsPage lists the company's clients: searched by name or INN, filtered by type and
 * status, a page at a time. The filters live in the address. */
export function ClientsPage() {
  const { t } = useTranslation("clients");
  const { t: common } = useTranslation();
  const { t: tt } = useTranslation("taxid");
  const companyId = useParams().companyId!;
  const [params, setParams] = useSearchParams();
  const [search, setSearch, q] = useSearchParam("q");
  const filters = { ...readClientFilters(params), q };
  const list = useClientList(companyId, filters);
  const clients = list.data?.pages.flatMap((p) => p.items) ?? [];
  const searchId = useId();

  function filter(name: "type" | "status", value: string) {
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        if (value) out.set(name, value);
        else out.delete(name);
        return out;
      },
      { replace: true },
    );
  }

  return (
    <section className="page back-office" aria-labelledby="clients-title">
      <div className="page-head">
        <h1 id="clients-title">{t("title")}</h1>
        <div className="row">
          <Link to={`/companies/${companyId}/legal-entities`}>{t("ourLegalEntities")}</Link>
          <Link to={`/companies/${companyId}/clients/new`} className="button primary">
            {t("newClient")}
          </Link>
        </div>
      </div>
      <form role="search" className="clients-filters row" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor={searchId} className="visually-hidden">
          {t("searchLabel")}
        </label>
        <input id={searchId} type="search" placeholder={t("searchLabel")} maxLength={200} value={search} onChange={(e) => setSearch(e.target.value)} />
        <label className="inline">
          <span>{t("type")}</span>
          <select value={filters.type ?? ""} onChange={(e) => filter("type", e.target.value)}>
            <option value="">{t("anyType")}</option>
            {clientTypes.map((type) => (
              <option key={type} value={type}>
                {t(`type_${type}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          <span>{t("status")}</span>
          <select value={filters.status ?? ""} onChange={(e) => filter("status", e.target.value)}>
            <option value="">{t("status_active")}</option>
            {clientStatuses
              .filter((s) => s !== "active")
              .map((s) => (
                <option key={s} value={s}>
                  {t(`status_${s}`)}
                </option>
              ))}
          </select>
        </label>
      </form>
      <ProblemAlert error={list.error} />
      {list.isPending ? (
        <p className="muted">{common("loading")}</p>
      ) : clients.length === 0 ? (
        <p className="muted">{q || filters.type || filters.status ? t("noMatch") : t("noClients")}</p>
      ) : (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{common("name")}</th>
              <th scope="col">{t("type")}</th>
              <th scope="col">{tt("inn")}</th>
              <th scope="col" className="numeric">
                {t("projects")}
              </th>
              <th scope="col" className="numeric">
                {t("services")}
              </th>
              <th scope="col">{t("status")}</th>
            </tr>
          </thead>
          <tbody>
            {clients.map((c) => (
              <ClientRow key={c.client_id} client={c} />
            ))}
          </tbody>
        </table>
      )}
      <LoadMore list={list} />
    </section>
  );
}

function ClientRow({ client }: { client: Client }) {
  const { t } = useTranslation("clients");
  return (
    <tr>
      <td>
        <Link to={`/clients/${client.client_id}`}>{client.name}</Link>
        {client.full_name && client.full_name !== client.name && <div className="muted client-full-name">{client.full_name}</div>}
      </td>
      <td>{t(`type_${client.client_type}`)}</td>
      <td>{client.inn || "—"}</td>
      <td className="numeric">{client.projects_count ?? 0}</td>
      <td className="numeric">{client.services_count ?? 0}</td>
      <td>
        <span className={`badge client-status-${client.status}`}>{t(`clientStatus_${client.status}`)}</span>
      </td>
    </tr>
  );
}
