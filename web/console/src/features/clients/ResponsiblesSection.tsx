import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, data } from "../../api/client";
import { FormButtons } from "../../components/FormButtons";
import { ProblemAlert } from "../../components/ProblemAlert";
import { SelectField } from "../../components/SelectField";
import { responsibleRoles, useClientChange, useMembers, useResponsibles, type Client, type Responsible, type ResponsibleRole } from "./clients";
import "./texts";

/** ResponsiblesSection lists the members responsible for the client, each in a role, and
 * makes more of them responsible or none. */
export function ResponsiblesSection({ client }: { client: Client }) {
  const { t } = useTranslation("clients");
  const { t: common } = useTranslation();
  const responsibles = useResponsibles(client.client_id);
  const [adding, setAdding] = useState(false);
  return (
    <section className="panel client-part" aria-labelledby="responsibles-title">
      <div className="part-head">
        <h2 id="responsibles-title">{t("responsibles")}</h2>
        {!adding && (
          <button type="button" onClick={() => setAdding(true)}>
            {t("addResponsible")}
          </button>
        )}
      </div>
      <ProblemAlert error={responsibles.error} />
      {responsibles.isPending && <p className="muted">{common("loading")}</p>}
      {responsibles.items?.length === 0 && !adding && <p className="muted">{t("noResponsibles")}</p>}
      <ul className="part-list">
        {responsibles.items?.map((r) => (
          <ResponsibleItem key={r.client_responsible_id} responsible={r} />
        ))}
      </ul>
      {adding && <ResponsibleForm client={client} onDone={() => setAdding(false)} />}
    </section>
  );
}

function ResponsibleItem({ responsible }: { responsible: Responsible }) {
  const { t } = useTranslation("clients");
  const remove = useClientChange(responsible.client_id, ["responsibles"], () =>
    data(
      api.DELETE("/api/v1/clients/{client_id}/responsibles/{client_responsible_id}", {
        params: { path: { client_id: responsible.client_id, client_responsible_id: responsible.client_responsible_id } },
      }),
    ),
  );
  const who = responsible.name || responsible.email;
  return (
    <li>
      <div>
        <strong>{who}</strong>
        <div className="muted">{t(`role_${responsible.role}`)}</div>
      </div>
      <div className="row-actions">
        <button type="button" className="link" aria-label={t("removeNamed", { name: who })} onClick={() => remove.mutate(undefined)} disabled={remove.isPending}>
          {t("remove")}
        </button>
      </div>
      <ProblemAlert error={remove.error} />
    </li>
  );
}

function ResponsibleForm({ client, onDone }: { client: Client; onDone: () => void }) {
  const { t } = useTranslation("clients");
  const members = useMembers(client.company_id);
  const [userId, setUserId] = useState("");
  const [role, setRole] = useState<ResponsibleRole>("account_manager");
  // The first member until another is chosen.
  const chosen = userId || members.items?.[0]?.user_id || "";
  const add = useClientChange(client.client_id, ["responsibles"], (user_id: string) =>
    data(api.POST("/api/v1/clients/{client_id}/responsibles", { params: { path: { client_id: client.client_id } }, body: { user_id, role } })),
  );
  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate(chosen, { onSuccess: onDone });
  }
  return (
    <form className="stack part-form" onSubmit={submit} aria-label={t("addResponsible")}>
      <SelectField label={t("member")} name="user_id" value={chosen} onChange={(e) => setUserId(e.target.value)} error={add.error}>
        {members.items?.map((m) => (
          <option key={m.user_id} value={m.user_id}>
            {m.name ? `${m.name} (${m.email})` : m.email}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t("role")}
        name="role"
        value={role}
        onChange={(e) => setRole(responsibleRoles.find((r) => r === e.target.value) ?? role)}
        error={add.error}
      >
        {responsibleRoles.map((r) => (
          <option key={r} value={r}>
            {t(`role_${r}`)}
          </option>
        ))}
      </SelectField>
      <ProblemAlert error={add.error ?? members.error} />
      <FormButtons label={t("addResponsible")} pending={add.isPending} disabled={!chosen} onCancel={onDone} />
    </form>
  );
}
