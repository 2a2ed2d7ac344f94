import { useTranslation } from "react-i18next";
import { diagnosticText, type Diagnostic, type ErrorKey } from "./config/errors";
import "./config/texts";
import "./texts";

/** DiagnosticsPanel lists the draft's problems as the server found them; those of one action
 * are buttons that select it (they also show on its node), the others concern the workflow. */
export function DiagnosticsPanel({ diagnostics, labelOf, onShow }: { diagnostics: Diagnostic[]; labelOf: (key: string) => string | undefined; onShow: (actionKey: string) => void }) {
  const { t } = useTranslation("editor");
  const tc = useTranslation("config").t;
  if (diagnostics.length === 0) return null;
  const general = diagnostics.some((d) => !d.action_key);
  return (
    <details className="diagnostics" open={general}>
      <summary>{t("problems", { count: diagnostics.length })}</summary>
      <ul aria-label={t("problemsOfWorkflow")}>
        {diagnostics.map((d, i) => (
          <li key={i} className={`diagnostic severity-${d.severity}`}>
            <span className="badge">{t(`severity_${d.severity}`)}</span> {diagnosticText(d, (key: ErrorKey, values) => tc(`errors.${key}`, values ?? {}))}{" "}
            {d.action_key && labelOf(d.action_key) !== undefined && (
              <button type="button" className="link" onClick={() => onShow(d.action_key!)}>
                {t("showAction", { action: labelOf(d.action_key) })}
              </button>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
