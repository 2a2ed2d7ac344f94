import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { LanguageSelect } from "../../components/LanguageSelect";

/** AuthFrame is the card the signed-out pages sit in, with the language choice. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <main className="auth" id="main">
      <div className="auth-card">
        <p className="brand">{t("appName")}</p>
        <h1>{title}</h1>
        {children}
        <LanguageSelect className="auth-lang" />
        <p className="auth-lang">
          <Link to="/reference">{t("apiReference")}</Link>
        </p>
      </div>
    </main>
  );
}
