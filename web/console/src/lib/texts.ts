import i18n from "i18next";

/** Texts of one namespace: English, and Russian with exactly the same keys. */
export type Texts<T> = { en: T; ru: { [K in keyof T]: T[K] extends string ? string : T[K] } };

/** texts defines a namespace. The sign-in pages' namespaces (common, auth) come with the
 * first script; every other one is added to i18next when the first module that reads it
 * loads, so the sign-in page does not carry the editor's texts. A component that reads a
 * namespace imports its texts module. */
export function texts<T>(ns: string, en: T, ru: Texts<T>["ru"]): Texts<T> {
  if (i18n.isInitialized) {
    i18n.addResourceBundle("en", ns, en);
    i18n.addResourceBundle("ru", ns, ru);
  }
  return { en, ru };
}
