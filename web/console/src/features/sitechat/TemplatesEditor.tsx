import { useTranslation } from "react-i18next";
import { fieldError } from "../../components/ProblemAlert";
import "./texts";

export type Template = { name: string; text: string };

/** TemplatesEditor edits a widget's invitation templates, each a name (what an operator
 * picks, SiteChatInviteInput.template) and the text the visitor reads. They are sent as
 * settings_json.invite_templates, so a Problem naming settings_json shows here. */
export function TemplatesEditor({ templates, onChange, error }: { templates: Template[]; onChange: (t: Template[]) => void; error: unknown }) {
  const { t } = useTranslation("siteChat");
  const set = (index: number, value: Template) => onChange(templates.map((x, i) => (i === index ? value : x)));
  const message = fieldError(error, "settings_json");
  return (
    <fieldset className="rows-editor templates-editor" aria-describedby="templates-hint">
      <legend>{t("templates")}</legend>
      <p id="templates-hint" className="muted">
        {templates.length ? t("templatesHint") : t("noTemplates")}
      </p>
      <ol className="stack">
        {templates.map((tpl, index) => (
          <li key={index} className="row align-end">
            <label className="field">
              <span>{t("templateName", { n: index + 1 })}</span>
              <input value={tpl.name} maxLength={100} onChange={(e) => set(index, { ...tpl, name: e.target.value })} />
            </label>
            <label className="field grow">
              <span>{t("templateText", { n: index + 1 })}</span>
              <textarea value={tpl.text} maxLength={1000} rows={2} onChange={(e) => set(index, { ...tpl, text: e.target.value })} />
            </label>
            <button type="button" className="link" onClick={() => onChange(templates.filter((_, i) => i !== index))}>
              {t("removeTemplate", { n: index + 1 })}
            </button>
          </li>
        ))}
      </ol>
      {message && <small className="field-error">{message}</small>}
      <button type="button" onClick={() => onChange([...templates, { name: "", text: "" }])}>
        {t("addTemplate")}
      </button>
    </fieldset>
  );
}
