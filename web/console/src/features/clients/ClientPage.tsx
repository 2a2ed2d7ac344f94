import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { AskFirst } from "../../components/AskFirst";
import { FormButtons } from "../../components/FormButtons";
import { ProblemAlert } from "../../components/ProblemAlert";
import { taxIdProblems } from "../../lib/taxid";
import { ClientPaymentActions } from "../billing/ClientPaymentActions";
import { ClientFields, draftOf, type ClientDraft } from "./ClientForm";
import { ContactsSection } from "./ContactsSection";
import { ProjectsSection } from "./ProjectsSection";
import { ResponsiblesSection } from "./ResponsiblesSection";
import { ServicesSection } from "./ServicesSection";
import { useClient, useDeleteClient, usePatchClient, type Client } from "./clients";
import "./clients.css";
import "../../components/taxIdTexts";
import "./texts";

/** ClientPage is a client's card: its details (changed in place), contacts, responsibles,
 * linked projects, services and what it owes. */
export function ClientPage() {
  const { t: common } = useTranslation();
  const clientId = useParams().clientId!;
  const client = useClient(clientId);
  if (client.isPending) return <p className="page muted">{common("loading")}</p>;
  if (client.error) {
    return (
      <section className="page">
        <ProblemAlert error={client.error} />
      </section>
    );
  }
  return <ClientCard client={client.data} />;
}

function ClientCard({ client }: { client: Client }) {
  const { t } = useTranslation("clients");
  const [editing, setEditing] = useState(false);
  return (
    <section className="page back-office client-card" aria-labelledby="client-title">
      <p className="crumbs">
        <Link to={`/companies/${client.company_id}/clients`}>{t("title")}</Link>
      </p>
      <div className="page-head">
        <h1 id="client-title">{client.name}</h1>
        <div className="row">
          <span className="badge">{t(`type_${client.client_type}`)}</span>
          <span className={`badge client-status-${client.status}`}>{t(`clientStatus_${client.status}`)}</span>
          {!editing && (
            <button type="button" onClick={() => setEditing(true)}>
              {t("edit")}
            </button>
          )}
          <StatusButtons client={client} />
        </div>
      </div>
      {editing ? <ClientEditForm client={client} onDone={() => setEditing(false)} /> : <ClientDetails client={client} />}
      <div className="client-parts">
        <ContactsSection clientId={client.client_id} />
        <ResponsiblesSection client={client} />
        <ProjectsSection client={client} />
      </div>
      <ServicesSection client={client} />
      <ClientPaymentActions clientId={client.client_id} />
    </section>
  );
}

/** ClientDetails lists the client's filled-in details. */
function ClientDetails({ client }: { client: Client }) {
  const { t } = useTranslation("clients");
  const { t: tt } = useTranslation("taxid");
  const rows: [string, string | undefined][] = [
    [t("fullName"), client.full_name],
    [t("shortName"), client.short_name],
    [tt("inn"), client.inn],
    [tt("kpp"), client.kpp],
    [tt("ogrn"), client.ogrn],
    [tt("ogrnip"), client.ogrnip],
    [t("okved"), client.okved],
    [t("legalAddress"), client.legal_address],
    [t("actualAddress"), client.actual_address],
    [t("comment"), client.comment],
  ];
  const filled = rows.filter(([, v]) => v);
  if (filled.length === 0) return null;
  return (
    <dl className="details panel">
      {filled.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function ClientEditForm({ client, onDone }: { client: Client; onDone: () => void }) {
  const { t } = useTranslation("clients");
  const { t: common } = useTranslation();
  const patch = usePatchClient(client.client_id);
  const [draft, setDraft] = useState<ClientDraft>(() => draftOf(client));
  const [sent, setSent] = useState(false);
  function submit(e: FormEvent) {
    e.preventDefault();
    setSent(true);
    if (taxIdProblems(draft.client_type, draft).length > 0) return;
    patch.mutate(draft, { onSuccess: onDone });
  }
  return (
    <form className="panel stack" onSubmit={submit} noValidate aria-label={t("editClient")}>
      <ClientFields draft={draft} onChange={setDraft} error={patch.error} sent={sent} />
      <ProblemAlert error={patch.error} />
      <FormButtons label={common("save")} pending={patch.isPending} onCancel={onDone} />
    </form>
  );
}

/** StatusButtons archive, restore or delete the client; deleting asks first. */
function StatusButtons({ client }: { client: Client }) {
  const { t } = useTranslation("clients");
  const { t: common } = useTranslation();
  const patch = usePatchClient(client.client_id);
  const remove = useDeleteClient(client);
  return (
    <>
      {client.status === "active" ? (
        <button type="button" onClick={() => patch.mutate({ status: "archived" })} disabled={patch.isPending}>
          {t("archive")}
        </button>
      ) : (
        <button type="button" onClick={() => patch.mutate({ status: "active" })} disabled={patch.isPending}>
          {t("restore")}
        </button>
      )}
      {client.status !== "deleted" && (
        <AskFirst label={common("delete")} name={t("deleteClient")} question={t("deleteAsk")} pending={remove.isPending} onConfirm={() => remove.mutate()} />
      )}
      <ProblemAlert error={patch.error ?? remove.error} />
    </>
  );
}
