import { useTranslation } from "react-i18next";
import type { components } from "../../api/schema.gen";
import "./texts";

export type CustomFieldInput = NonNullable<components["schemas"]["TaskBoardInput"]["custom_fields"]>[number];
const fieldTypes = ["text", "number", "date", "select"] as const;

/** CustomFieldsEditor defines a board's custom fields: a name, a type and, for a select,
 * its options (written comma-separated). */
export function CustomFieldsEditor({ fields, onChange }: { fields: CustomFieldInput[]; onChange: (fields: CustomFieldInput[]) => void }) {
  const { t } = useTranslation("work");
  const set = (index: number, field: CustomFieldInput) => onChange(fields.map((f, i) => (i === index ? field : f)));
  return (
    <fieldset className="rows-editor">
      <legend>{t("customFields")}</legend>
      {fields.length === 0 && <p className="muted">{t("noCustomFields")}</p>}
      <ol>
        {fields.map((field, index) => (
          <li key={index} className="row">
            <label className="inline">
              <span className="visually-hidden">{t("fieldName", { n: index + 1 })}</span>
              <input
                required
                maxLength={100}
                placeholder={t("fieldName", { n: index + 1 })}
                value={field.name}
                onChange={(e) => set(index, { ...field, name: e.target.value })}
              />
            </label>
            <label className="inline">
              <span className="visually-hidden">{t("fieldType", { n: index + 1 })}</span>
              <select
                value={field.field_type}
                onChange={(e) => {
                  const field_type = e.target.value as CustomFieldInput["field_type"];
                  set(index, { name: field.name, field_type, ...(field_type === "select" ? { options: [] } : {}) });
                }}
              >
                {fieldTypes.map((type) => (
                  <option key={type} value={type}>
                    {t(`fieldType_${type}`)}
                  </option>
                ))}
              </select>
            </label>
            {field.field_type === "select" && (
              <label className="inline">
                <span className="visually-hidden">{t("fieldOptions", { n: index + 1 })}</span>
                <input
                  required
                  placeholder={t("fieldOptionsHint")}
                  value={(field.options ?? []).join(", ")}
                  onChange={(e) => set(index, { ...field, options: e.target.value.split(",").map((o) => o.trim()) })}
                  onBlur={() => set(index, { ...field, options: (field.options ?? []).filter(Boolean) })}
                />
              </label>
            )}
            <button type="button" className="link" aria-label={t("removeField", { n: index + 1 })} onClick={() => onChange(fields.filter((_, i) => i !== index))}>
              {t("remove")}
            </button>
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => onChange([...fields, { name: "", field_type: "text" }])} disabled={fields.length >= 50}>
        {t("addField")}
      </button>
    </fieldset>
  );
}
