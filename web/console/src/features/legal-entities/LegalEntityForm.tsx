import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { SelectField } from "../../components/SelectField";
import { TaxIdField, TaxIdFields } from "../../components/TaxIdField";
import { FormButtons } from "../../components/FormButtons";
import { bankState, taxIdFields, taxIdProblems, taxIdRules } from "../../lib/taxid";
import { useSaveLegalEntity, type LegalEntity, type LegalEntityInput } from "./legalEntities";
import "./texts";

type Draft = Required<LegalEntityInput>;
type EntityType = Draft["entity_type"];
const entityTypes: EntityType[] = ["legal_entity", "individual_entrepreneur"];
type BankField = "bik" | "settlement_account" | "correspondent_account";
const bankFields: BankField[] = ["bik", "settlement_account", "correspondent_account"];

function draftOf(e?: LegalEntity): Draft {
  return {
    entity_type: e?.entity_type ?? "legal_entity",
    name: e?.name ?? "",
    inn: e?.inn ?? "",
    kpp: e?.kpp ?? "",
    ogrn: e?.ogrn ?? "",
    ogrnip: e?.ogrnip ?? "",
    legal_address: e?.legal_address ?? "",
    actual_address: e?.actual_address ?? "",
    postal_address: e?.postal_address ?? "",
    bank_name: e?.bank_name ?? "",
    bik: e?.bik ?? "",
    settlement_account: e?.settlement_account ?? "",
    correspondent_account: e?.correspondent_account ?? "",
  };
}

/** LegalEntityForm adds or changes one of the company's legal entities. Its registry numbers
 * and bank accounts are checked as typed with the API's rules; a form the API would refuse
 * for them is not sent. */
export function LegalEntityForm({ companyId, entity, onDone }: { companyId: string; entity?: LegalEntity; onDone: () => void }) {
  const { t } = useTranslation("legalEntities");
  const { t: common } = useTranslation();
  const { t: tt } = useTranslation("taxid");
  const save = useSaveLegalEntity(companyId, entity);
  const [draft, setDraft] = useState<Draft>(() => draftOf(entity));
  const [sent, setSent] = useState(false);
  const set = (key: keyof Draft) => (value: string) => setDraft({ ...draft, [key]: value });
  const bankWrong = bankFields.some((f) => !["empty", "valid"].includes(bankState(f, draft[f], draft.bik, true)));

  function chooseType(type: EntityType) {
    const next = { ...draft, entity_type: type };
    for (const field of taxIdFields) if (!taxIdRules[type][field]) next[field] = "";
    setDraft(next);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    setSent(true);
    if (taxIdProblems(draft.entity_type, draft).length > 0 || bankWrong) return;
    save.mutate(draft, { onSuccess: onDone });
  }

  return (
    <form className="panel stack" onSubmit={submit} noValidate aria-label={entity ? t("editNamed", { name: entity.name }) : t("newEntity")}>
      <div className="form-grid">
        <SelectField
          label={t("entityType")}
          name="entity_type"
          value={draft.entity_type}
          onChange={(e) => chooseType(entityTypes.find((x) => x === e.target.value) ?? draft.entity_type)}
          error={save.error}
        >
          {entityTypes.map((type) => (
            <option key={type} value={type}>
              {t(`type_${type}`)}
            </option>
          ))}
        </SelectField>
        <Field label={t("name")} name="name" required maxLength={300} value={draft.name} onChange={(e) => set("name")(e.target.value)} error={save.error} />
      </div>
      <div className="form-grid">
        <TaxIdFields holder={draft.entity_type} values={draft} onChange={(field, value) => set(field)(value)} sent={sent} error={save.error} />
      </div>
      <div className="form-grid">
        <Field label={t("legalAddress")} name="legal_address" maxLength={500} value={draft.legal_address} onChange={(e) => set("legal_address")(e.target.value)} error={save.error} />
        <Field label={t("actualAddress")} name="actual_address" maxLength={500} value={draft.actual_address} onChange={(e) => set("actual_address")(e.target.value)} error={save.error} />
        <Field label={t("postalAddress")} name="postal_address" maxLength={500} value={draft.postal_address} onChange={(e) => set("postal_address")(e.target.value)} error={save.error} />
      </div>
      <fieldset className="form-grid bank">
        <legend>{t("bank")}</legend>
        <Field label={t("bankName")} name="bank_name" maxLength={500} value={draft.bank_name} onChange={(e) => set("bank_name")(e.target.value)} error={save.error} />
        {bankFields.map((field) => (
          <TaxIdField
            key={field}
            label={tt(field)}
            name={field}
            value={draft[field]}
            onChange={set(field)}
            state={bankState(field, draft[field], draft.bik, sent)}
            length={field === "bik" ? 9 : 20}
            checked={field !== "bik"}
            error={save.error}
          />
        ))}
      </fieldset>
      <ProblemAlert error={save.error} />
      <FormButtons label={entity ? common("save") : t("addEntity")} pending={save.isPending} onCancel={onDone} />
    </form>
  );
}
