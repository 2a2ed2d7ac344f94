import { useTranslation } from "react-i18next";
import type { components } from "../../api/schema.gen";
import "./texts";

type Diagnostic = components["schemas"]["Diagnostic"];

const severityGlyph = { error: "✕", warning: "⚠" } as const;

/** DiagnosticList shows the server's diagnostics of a draft: severity in words, the action and
 * field they name, and the message as the API worded it. */
export function DiagnosticList({ diagnostics, title }: { diagnostics: Diagnostic[]; title: string }) {
  const { t } = useTranslation("workflows");
  if (diagnostics.length === 0) return null;
  return (
    <section className="diagnostics" aria-label={title}>
      <h3>{title}</h3>
      <ul>
        {diagnostics.map((d, i) => (
          <li key={i} className={`severity-${d.severity}`}>
            <span className="mark">
              <span aria-hidden="true">{severityGlyph[d.severity]} </span>
              {t(`severity_${d.severity}`)}
            </span>{" "}
            {d.action_key && <code>{d.field ? `${d.action_key}.${d.field}` : d.action_key}</code>} {d.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
