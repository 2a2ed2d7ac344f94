import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { CopyButton } from "../../components/CopyButton";
import { useWebhookSnippets } from "./webhooks";
import "./texts";

/** SnippetsPanel shows the API's ready-to-run sender examples, as plain text to copy. */
export function SnippetsPanel({ endpointId }: { endpointId: string }) {
  const { t } = useTranslation("webhooks");
  const tc = useTranslation().t;
  const snippets = useWebhookSnippets(endpointId);
  const [language, setLanguage] = useState<string>("curl");
  if (snippets.isPending) return <p className="muted">{tc("loading")}</p>;
  if (snippets.error) return <ProblemAlert error={snippets.error} />;
  const { snippets: examples, secret_env, auth_type } = snippets.data;
  const shown = examples.find((s) => s.language === language) ?? examples[0];
  return (
    <div className="stack snippets">
      <p className="muted">
        {t("snippetsIntro")} {auth_type !== "none" && t("secretEnv", { env: secret_env })}
      </p>
      <div className="row" role="group" aria-label={t("snippetLanguages")}>
        {examples.map((s) => (
          <button key={s.language} type="button" aria-pressed={s === shown} onClick={() => setLanguage(s.language)}>
            {s.label}
          </button>
        ))}
      </div>
      {shown && (
        <div className="snippet">
          <pre tabIndex={0} aria-label={shown.label}>
            {shown.code}
          </pre>
          <CopyButton text={shown.code} label={shown.label} />
        </div>
      )}
    </div>
  );
}
