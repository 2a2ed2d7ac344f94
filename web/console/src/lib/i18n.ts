// Texts in the API's two languages. Each feature keeps its texts in its own `texts.ts`
// (English, and Russian typed to have the same keys) as a namespace: the sign-in pages'
// come with this module, the others as their pages load (lib/texts.ts).
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { setLanguage } from "../api/client";
import { common } from "../components/texts";
import { auth } from "../features/auth/texts";
import type { canvas } from "../canvas/texts";
import type { workflows } from "../features/workflows/texts";
import type { editor } from "../features/editor/texts";
import type { runs } from "../features/runs/texts";
import type { webhooks } from "../features/webhooks/texts";
import type { config } from "../features/editor/config/texts";
import type { taxid } from "../components/taxIdTexts";
import type { clients } from "../features/clients/texts";
import type { billing } from "../features/billing/texts";
import type { legalEntities } from "../features/legal-entities/texts";
import type { work } from "../features/work/texts";
import type { settings } from "../features/settings/texts";
import type { integrations } from "../features/integrations/texts";
import type { rjsf } from "../components/rjsfTexts";
import type { siteChat } from "../features/sitechat/texts";
import type { cobrowse } from "../features/sitechat/cobrowse/texts";
import type { calls } from "../features/sitechat/calls/texts";
import type { desktop } from "../features/desktop/texts";
import type { ai } from "../features/ai/texts";
import type { reference } from "../features/reference/texts";

export const languages = ["en", "ru"] as const;
export type Language = (typeof languages)[number];

const firstNamespaces = { common, auth };

function initialLanguage(): Language {
  const saved = localStorage.getItem("lang");
  if (saved === "en" || saved === "ru") return saved;
  return navigator.languages.some((l) => l.toLowerCase().startsWith("ru")) ? "ru" : "en";
}

const resources = Object.fromEntries(
  languages.map((lang) => [lang, Object.fromEntries(Object.entries(firstNamespaces).map(([ns, t]) => [ns, t[lang]]))]),
);

const lng = initialLanguage();
setLanguage(lng);
document.documentElement.lang = lng;

// Initialised at once (not on the next tick), so a page's texts module loaded later finds
// i18next ready to take its namespace.
void i18n.use(initReactI18next).init({
  resources,
  initAsync: false,
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

type Namespaces = typeof firstNamespaces & {
  canvas: typeof canvas;
  workflows: typeof workflows;
  editor: typeof editor;
  config: typeof config;
  runs: typeof runs;
  webhooks: typeof webhooks;
  taxid: typeof taxid;
  clients: typeof clients;
  billing: typeof billing;
  legalEntities: typeof legalEntities;
  work: typeof work;
  settings: typeof settings;
  integrations: typeof integrations;
  rjsf: typeof rjsf;
  siteChat: typeof siteChat;
  cobrowse: typeof cobrowse;
  calls: typeof calls;
  desktop: typeof desktop;
  ai: typeof ai;
  reference: typeof reference;
};

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: { [K in keyof Namespaces]: Namespaces[K]["en"] };
  }
}

export default i18n;
