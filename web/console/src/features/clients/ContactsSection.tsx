import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, data } from "../../api/client";
import { Field } from "../../components/Field";
import { FormButtons } from "../../components/FormButtons";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useClientChange, useContacts, type Contact, type ContactInput } from "./clients";
import "./texts";

/** ContactsSection lists the client's contacts, the primary one first, and adds, promotes
 * and removes them. */
export function ContactsSection({ clientId }: { clientId: string }) {
  const { t } = useTranslation("clients");
  const { t: common } = useTranslation();
  const contacts = useContacts(clientId);
  const [adding, setAdding] = useState(false);
  const sorted = [...(contacts.items ?? [])].sort((a, b) => Number(b.is_primary) - Number(a.is_primary));
  return (
    <section className="panel client-part" aria-labelledby="contacts-title">
      <div className="part-head">
        <h2 id="contacts-title">{t("contacts")}</h2>
        {!adding && (
          <button type="button" onClick={() => setAdding(true)}>
            {t("addContact")}
          </button>
        )}
      </div>
      <ProblemAlert error={contacts.error} />
      {contacts.isPending && <p className="muted">{common("loading")}</p>}
      {contacts.items?.length === 0 && !adding && <p className="muted">{t("noContacts")}</p>}
      <ul className="part-list">
        {sorted.map((c) => (
          <ContactItem key={c.client_contact_id} contact={c} />
        ))}
      </ul>
      {adding && <ContactForm clientId={clientId} onDone={() => setAdding(false)} />}
    </section>
  );
}

function ContactItem({ contact }: { contact: Contact }) {
  const { t } = useTranslation("clients");
  const path = { client_id: contact.client_id, client_contact_id: contact.client_contact_id };
  const promote = useClientChange(contact.client_id, ["contacts"], () =>
    data(api.PATCH("/api/v1/clients/{client_id}/contacts/{client_contact_id}", { params: { path }, body: { is_primary: true } })),
  );
  const remove = useClientChange(contact.client_id, ["contacts"], () =>
    data(api.DELETE("/api/v1/clients/{client_id}/contacts/{client_contact_id}", { params: { path } })),
  );
  return (
    <li>
      <div>
        <strong>{contact.name}</strong> {contact.is_primary && <span className="badge">{t("primary")}</span>}
        {contact.position && <div className="muted">{contact.position}</div>}
        <div className="contact-ways">
          {contact.email && <a href={`mailto:${contact.email}`}>{contact.email}</a>}
          {contact.phone && <a href={`tel:${contact.phone.replace(/[^0-9+]/g, "")}`}>{contact.phone}</a>}
        </div>
      </div>
      <div className="row-actions">
        {!contact.is_primary && (
          <button type="button" className="link" onClick={() => promote.mutate(undefined)} disabled={promote.isPending}>
            {t("makePrimary")}
          </button>
        )}
        <button
          type="button"
          className="link"
          aria-label={t("removeNamed", { name: contact.name })}
          onClick={() => remove.mutate(undefined)}
          disabled={remove.isPending}
        >
          {t("remove")}
        </button>
      </div>
      <ProblemAlert error={promote.error ?? remove.error} />
    </li>
  );
}

function ContactForm({ clientId, onDone }: { clientId: string; onDone: () => void }) {
  const { t } = useTranslation("clients");
  const [form, setForm] = useState<Required<Omit<ContactInput, "comment">>>({ name: "", position: "", email: "", phone: "", is_primary: false });
  const add = useClientChange(clientId, ["contacts"], (body: ContactInput) =>
    data(api.POST("/api/v1/clients/{client_id}/contacts", { params: { path: { client_id: clientId } }, body })),
  );
  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate(form, { onSuccess: onDone });
  }
  return (
    <form className="stack part-form" onSubmit={submit} noValidate aria-label={t("addContact")}>
      <Field label={t("contactName")} name="name" required maxLength={200} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} error={add.error} />
      <Field label={t("position")} name="position" maxLength={200} value={form.position} onChange={(e) => setForm({ ...form, position: e.target.value })} error={add.error} />
      <Field label={t("email")} name="email" type="email" maxLength={254} value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} error={add.error} />
      <Field label={t("phone")} name="phone" type="tel" maxLength={32} value={form.phone} onChange={(e) => setForm({ ...form, phone: e.target.value })} error={add.error} />
      <label className="inline">
        <input type="checkbox" checked={form.is_primary} onChange={(e) => setForm({ ...form, is_primary: e.target.checked })} />
        {t("primaryContact")}
      </label>
      <ProblemAlert error={add.error} />
      <FormButtons label={t("addContact")} pending={add.isPending} onCancel={onDone} />
    </form>
  );
}
