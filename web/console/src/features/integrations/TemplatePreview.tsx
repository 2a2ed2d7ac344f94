import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { renderTemplate, templatePaths } from "./template";
import "./texts";

type Part = { label: string; text: string };

/** TemplatePreview renders the template's parts with a sample value for each path it
 * uses, as plain text: markup in a template or a sample is shown, never applied. */
export function TemplatePreview({ parts }: { parts: Part[] }) {
  const { t } = useTranslation("integrations");
  const id = useId();
  const [samples, setSamples] = useState<Record<string, string>>({});
  const paths = templatePaths(...parts.map((p) => p.text));
  return (
    <section className="template-preview" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t("preview")}</h3>
      {paths.length === 0 ? (
        <p className="muted">{t("noPaths")}</p>
      ) : (
        <fieldset className="samples">
          <legend>{t("samples")}</legend>
          {paths.map((path) => (
            <div className="field" key={path}>
              <label htmlFor={`${id}-${path}`}>
                <code>{`{{ ${path} }}`}</code>
              </label>
              <input id={`${id}-${path}`} value={samples[path] ?? ""} onChange={(e) => setSamples({ ...samples, [path]: e.target.value })} />
            </div>
          ))}
          <small className="muted">{t("samplesHint")}</small>
        </fieldset>
      )}
      {parts.map((p) => (
        <div key={p.label} className="rendered">
          <span className="rendered-label">{p.label}</span>
          <pre tabIndex={0} aria-label={t("renderedOf", { part: p.label })}>
            {renderTemplate(p.text, samples)}
          </pre>
        </div>
      ))}
    </section>
  );
}
