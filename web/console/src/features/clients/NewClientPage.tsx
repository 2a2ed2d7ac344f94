import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { FormButtons } from "../../components/FormButtons";
import { ProblemError } from "../../api/client";
import { ProblemAlert } from "../../components/ProblemAlert";
import { partyNumber, taxIdProblems } from "../../lib/taxid";
import { useWorkspace } from "../workspace/workspace";
import { ClientFields, draftOf, emptyClient, withType, type ClientDraft } from "./ClientForm";
import { useClientsWithInn, useCreateClient, useFindParty, type Party } from "./clients";
import "./clients.css";
import "../../components/taxIdTexts";
import "./texts";

/** NewClientPage creates a client, from a tax number looked up in the registry (the party
 * found fills the form) or typed in by hand. A client of the company that already has the
 * INN is pointed out, and the form will not create a second one. */
export function NewClientPage() {
  const { t } = useTranslation("clients");
  const companyId = useParams().companyId!;
  const navigate = useNavigate();
  const create = useCreateClient(companyId);
  const [draft, setDraft] = useState<ClientDraft>(emptyClient);
  const [sent, setSent] = useState(false);
  const existing = useClientsWithInn(companyId, taxIdProblems(draft.client_type, { inn: draft.inn }).includes("inn") ? "" : draft.inn);
  const twin = existing.data?.[0];
  const titleId = useId();

  function submit(e: FormEvent) {
    e.preventDefault();
    setSent(true);
    if (twin || taxIdProblems(draft.client_type, draft).length > 0) return;
    create.mutate(draft, { onSuccess: (c) => void navigate(`/clients/${c.client_id}`) });
  }

  return (
    <section className="page back-office new-client" aria-labelledby={titleId}>
      <p className="crumbs">
        <Link to={`/companies/${companyId}/clients`}>{t("title")}</Link>
      </p>
      <h1 id={titleId}>{t("newClient")}</h1>
      <PartyLookup companyId={companyId} onFound={(party) => setDraft(draftOf(party.client))} onMissed={(number) => setDraft((d) => withNumber(d, number))} />
      <form className="panel stack" onSubmit={submit} noValidate aria-label={t("clientDetails")}>
        <h2>{t("clientDetails")}</h2>
        <ClientFields draft={draft} onChange={setDraft} error={create.error} sent={sent} />
        {twin && (
          <div role="alert" className="alert">
            <strong>{t("innTaken", { inn: twin.inn })}</strong>
            <p>
              <Link to={`/clients/${twin.client_id}`}>{t("openExisting", { name: twin.name })}</Link>
            </p>
          </div>
        )}
        <ProblemAlert error={create.error} />
        <FormButtons label={t("createClient")} pending={create.isPending} disabled={!!twin} onCancel={() => void navigate(`/companies/${companyId}/clients`)} />
      </form>
    </section>
  );
}

type PartyNumber = NonNullable<ReturnType<typeof partyNumber>>;

/** withNumber puts a number the registry could not tell about into the form's field for
 * it, with a client type that takes it (a 12-digit INN or an OGRNIP is a sole proprietor's,
 * unless the form says a person). */
function withNumber(draft: ClientDraft, number: PartyNumber): ClientDraft {
  if ("inn" in number) {
    const type = number.inn.length === 10 ? "legal_entity" : draft.client_type === "individual" ? "individual" : "individual_entrepreneur";
    return { ...withType(draft, type), inn: number.inn };
  }
  if (number.ogrn.length === 15) return { ...withType(draft, "individual_entrepreneur"), ogrnip: number.ogrn };
  return { ...withType(draft, "legal_entity"), ogrn: number.ogrn };
}

/** notSetUp tells the lookup's one conflict: no party lookup settings apply. */
function notSetUp(error: unknown): boolean {
  return error instanceof ProblemError && error.status === 409;
}

/** PartyLookup finds a party in the registry by INN, OGRN or OGRNIP and hands the chosen one
 * over; with one party found, that one. The number is checked as typed, as the API checks it,
 * so a mistyped number costs no lookup. A number the registry could not tell about (nothing
 * found, the lookup not set up or failing) goes to onMissed, for the form. */
function PartyLookup({ companyId, onFound, onMissed }: { companyId: string; onFound: (p: Party) => void; onMissed: (n: PartyNumber) => void }) {
  const { t } = useTranslation("clients");
  const { t: tt } = useTranslation("taxid");
  const workspace = useWorkspace().data;
  // The active project's settings override the company's, when it is this company's project.
  const projectId = workspace?.active_company_id === companyId ? workspace.active_project_id || undefined : undefined;
  const find = useFindParty(companyId, projectId);
  const [number, setNumber] = useState("");
  const [tried, setTried] = useState(false);
  const inputId = useId();
  const query = partyNumber(number);
  const wrong = tried && !query;

  function lookUp(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (!query) return;
    find.mutate(query, {
      onSuccess: (found) => {
        if (found.items.length === 1) onFound(found.items[0]);
        if (found.items.length === 0) onMissed(query);
      },
      onError: () => onMissed(query),
    });
  }

  return (
    <form className="panel stack" onSubmit={lookUp} noValidate aria-label={t("lookupTitle")}>
      <h2>{t("lookupTitle")}</h2>
      <p className="muted">{t("lookupIntro")}</p>
      <div className="field">
        <label htmlFor={inputId}>{t("taxNumber")}</label>
        <div className="row">
          <input
            id={inputId}
            inputMode="numeric"
            autoComplete="off"
            maxLength={17}
            value={number}
            onChange={(e) => setNumber(e.target.value.trim())}
            aria-invalid={wrong ? true : undefined}
            aria-describedby={`${inputId}-hint`}
          />
          <button type="submit" disabled={find.isPending}>
            {find.isPending ? t("finding") : t("find")}
          </button>
        </div>
        <small id={`${inputId}-hint`} className={wrong ? "field-error" : query ? "field-ok" : "muted"}>
          {wrong ? t("taxNumberWrong") : query ? t("taxNumberRight") : t("taxNumberHint")}
        </small>
      </div>
      {notSetUp(find.error) ? (
        <div role="alert" className="alert">
          <strong>{t("lookupNotSetUp")}</strong>
          <p>
            {t("lookupSetUpIn")} <Link to="/settings/party-lookup">{t("lookupSettings")}</Link>
            {t("lookupByHand")}
          </p>
        </div>
      ) : (
        find.error && (
          <>
            <ProblemAlert error={find.error} />
            <p className="muted">{t("numberInForm")}</p>
          </>
        )
      )}
      {find.data?.items.length === 0 && (
        <p>
          {t("nothingFound")} {t("numberInForm")}
        </p>
      )}
      {find.data && find.data.items.length > 0 && (
        <ul className="parties" aria-label={t("partiesFound")}>
          {find.data.items.map((p) => (
            <li key={`${p.client.inn}-${p.client.ogrn}${p.client.ogrnip}`}>
              <strong>{p.client.name}</strong>
              {p.registry_status && <span className={`badge party-${p.registry_status}`}>{t(`registry_${p.registry_status}`, { defaultValue: p.registry_status })}</span>}
              <div className="muted">
                {tt("inn")} {p.client.inn}
                {p.client.ogrn && ` · ${tt("ogrn")} ${p.client.ogrn}`}
                {p.client.ogrnip && ` · ${tt("ogrnip")} ${p.client.ogrnip}`}
              </div>
              {p.client.legal_address && <div className="muted">{p.client.legal_address}</div>}
              {p.management_name && <div className="muted">{t("management", { name: p.management_name })}</div>}
              {find.data.items.length > 1 && (
                <button type="button" onClick={() => onFound(p)}>
                  {t("useParty")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {find.data?.items.length === 1 && (
        <p className="notice" role="status">
          {t("filledFromRegistry")}
        </p>
      )}
    </form>
  );
}
