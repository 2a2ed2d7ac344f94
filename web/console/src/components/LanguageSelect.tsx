import { useTranslation } from "react-i18next";
import { chooseLanguage, languages, type Language } from "../lib/i18n";

const names: Record<Language, string> = { en: "English", ru: "Русский" };

/** LanguageSelect switches the interface, and the API's answers, between its languages;
 * quiet hides its label from sight (not from assistive technology); label replaces the
 * word "Language" where the page says more. */
export function LanguageSelect({ className, quiet, label }: { className?: string; quiet?: boolean; label?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <label className={["inline", className].filter(Boolean).join(" ")}>
      <span className={quiet ? "visually-hidden" : undefined}>{label ?? t("language")}</span>
      <select value={i18n.language} onChange={(e) => chooseLanguage(e.target.value as Language)}>
        {languages.map((l) => (
          <option key={l} value={l}>
            {names[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
