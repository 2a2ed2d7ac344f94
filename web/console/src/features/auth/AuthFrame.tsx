import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { chooseLanguage, languages, type Language } from "../../lib/i18n";

/** AuthFrame is the card the signed-out pages sit in, with the language choice. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t, i18n } = useTranslation();
  return (
    <main className="auth" id="main">
      <div className="auth-card">
        <p className="brand">{t("appName")}</p>
        <h1>{title}</h1>
        {children}
        <label className="inline auth-lang">
          <span>{t("language")}</span>
          <select value={i18n.language} onChange={(e) => chooseLanguage(e.target.value as Language)}>
            {languages.map((l) => (
              <option key={l} value={l}>
                {l === "en" ? "English" : "Русский"}
              </option>
            ))}
          </select>
        </label>
      </div>
    </main>
  );
}
