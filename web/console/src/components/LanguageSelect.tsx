import { useTranslation } from "react-i18next";
import { chooseLanguage, languages, type Language } from "../lib/i18n";

const names: Record<Language, string> = { en: "English", ru: "Русский" };

type Props = {
  className?: string;
  /** quiet hides the label from sight (not from assistive technology). */
  quiet?: boolean;
  /** label replaces the word "Language" where the page says more. */
  label?: string;
  /** onChosen hears of the language chosen, once the interface speaks it. */
  onChosen?: (lang: Language) => void;
};

/** LanguageSelect switches the interface, and the API's answers, between its languages. */
export function LanguageSelect({ className, quiet, label, onChosen }: Props) {
  const { t, i18n } = useTranslation();
  return (
    <label className={["inline", className].filter(Boolean).join(" ")}>
      <span className={quiet ? "visually-hidden" : undefined}>{label ?? t("language")}</span>
      <select value={i18n.language} onChange={(e) => {
          const lang = e.target.value as Language;
          chooseLanguage(lang);
          onChosen?.(lang);
        }}>
        {languages.map((l) => (
          <option key={l} value={l}>
            {names[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
