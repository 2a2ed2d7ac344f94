// Texts in the API's two languages. Each feature keeps its texts in its own `texts.ts`
// (English, and Russian typed to have the same keys), registered here as a namespace.
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { setLanguage } from "../api/client";
import { common } from "../components/texts";
import { canvas } from "../canvas/texts";
import { auth } from "../features/auth/texts";
import { workflows } from "../features/workflows/texts";
import { editor } from "../features/editor/texts";
import { runs } from "../features/runs/texts";
import { webhooks } from "../features/webhooks/texts";
import { config } from "../features/editor/config/texts";

export const languages = ["en", "ru"] as const;
export type Language = (typeof languages)[number];

const namespaces = { common, canvas, auth, workflows, editor, config, runs, webhooks };

function initialLanguage(): Language {
  const saved = localStorage.getItem("lang");
  if (saved === "en" || saved === "ru") return saved;
  return navigator.languages.some((l) => l.toLowerCase().startsWith("ru")) ? "ru" : "en";
}

const resources = Object.fromEntries(
  languages.map((lang) => [lang, Object.fromEntries(Object.entries(namespaces).map(([ns, t]) => [ns, t[lang]]))]),
);

const lng = initialLanguage();
setLanguage(lng);
document.documentElement.lang = lng;

void i18n.use(initReactI18next).init({
  resources,
  lng,
  fallbackLng: "en",
  defaultNS: "common",
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** chooseLanguage switches the interface and the API's answers to the language. */
export function chooseLanguage(lang: Language) {
  localStorage.setItem("lang", lang);
  setLanguage(lang);
  document.documentElement.lang = lang;
  void i18n.changeLanguage(lang);
}

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: { [K in keyof typeof namespaces]: (typeof namespaces)[K]["en"] };
  }
}

export default i18n;
