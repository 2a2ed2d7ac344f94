import { useTranslation } from "react-i18next";
import { Field } from "../../components/Field";
import { SelectField } from "../../components/SelectField";
import { TaxIdFields } from "../../components/TaxIdField";
import { taxIdFields, taxIdRules } from "../../lib/taxid";
import { TextAreaField } from "../../components/TextAreaField";
import { clientTypes, type Client, type ClientType } from "./clients";
import "./texts";

/** ClientDraft is the client form's state: every writable field as the person typed it. */
export type ClientDraft = {
  client_type: ClientType;
  name: string;
  full_name: string;
  short_name: string;
  inn: string;
  kpp: string;
  ogrn: string;
  ogrnip: string;
  okved: string;
  legal_address: string;
  actual_address: string;
  comment: string;
};

export const emptyClient: ClientDraft = {
  client_type: "legal_entity",
  name: "",
  full_name: "",
  short_name: "",
  inn: "",
  kpp: "",
  ogrn: "",
  ogrnip: "",
  okved: "",
  legal_address: "",
  actual_address: "",
  comment: "",
};

/** draftOf is the form's state for a client (or a found party's client fields). */
export function draftOf(c: Partial<Client>): ClientDraft {
  const out = { ...emptyClient };
  for (const key of Object.keys(emptyClient) as (keyof ClientDraft)[]) {
    const v = c[key];
    if (typeof v === "string") (out as Record<string, string>)[key] = v;
  }
  return out;
}

/** withType changes the client type and empties the identifiers the new type does not take,
 * as the API requires. */
export function withType(draft: ClientDraft, type: ClientType): ClientDraft {
  const out = { ...draft, client_type: type };
  for (const field of taxIdFields) if (!taxIdRules[type][field]) out[field] = "";
  return out;
}

/** ClientFields are the client form's fields: the type, names, the registry identifiers the
 * type takes (checked as typed), the industry code, addresses and a comment. `sent` makes a
 * number left short show as wrong. */
export function ClientFields({
  draft,
  onChange,
  error,
  sent,
}: {
  draft: ClientDraft;
  onChange: (d: ClientDraft) => void;
  error: unknown;
  sent: boolean;
}) {
  const { t } = useTranslation("clients");
  const set = (key: keyof ClientDraft) => (value: string) => onChange({ ...draft, [key]: value });
  return (
    <>
      <SelectField
        label={t("type")}
        name="client_type"
        value={draft.client_type}
        onChange={(e) => onChange(withType(draft, clientTypes.find((c) => c === e.target.value) ?? draft.client_type))}
        error={error}
      >
        {clientTypes.map((type) => (
          <option key={type} value={type}>
            {t(`type_${type}`)}
          </option>
        ))}
      </SelectField>
      <Field label={t("name")} name="name" required maxLength={300} value={draft.name} onChange={(e) => set("name")(e.target.value)} error={error} />
      {draft.client_type !== "individual" && (
        <div className="form-grid">
          <Field label={t("fullName")} name="full_name" maxLength={500} value={draft.full_name} onChange={(e) => set("full_name")(e.target.value)} error={error} />
          <Field label={t("shortName")} name="short_name" maxLength={300} value={draft.short_name} onChange={(e) => set("short_name")(e.target.value)} error={error} />
        </div>
      )}
      <div className="form-grid">
        <TaxIdFields holder={draft.client_type} values={draft} onChange={(field, value) => set(field)(value)} sent={sent} error={error} />
        {draft.client_type !== "individual" && (
          <Field label={t("okved")} name="okved" maxLength={8} hint={t("okvedHint")} value={draft.okved} onChange={(e) => set("okved")(e.target.value)} error={error} />
        )}
      </div>
      <div className="form-grid">
        <Field label={t("legalAddress")} name="legal_address" maxLength={500} value={draft.legal_address} onChange={(e) => set("legal_address")(e.target.value)} error={error} />
        <Field label={t("actualAddress")} name="actual_address" maxLength={500} value={draft.actual_address} onChange={(e) => set("actual_address")(e.target.value)} error={error} />
      </div>
      <TextAreaField label={t("comment")} name="comment" maxLength={5000} value={draft.comment} onChange={(e) => set("comment")(e.target.value)} error={error} />
    </>
  );
}
