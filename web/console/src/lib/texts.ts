/** Texts of one namespace: English, and Russian with exactly the same keys. */
export type Texts<T> = { en: T; ru: { [K in keyof T]: T[K] extends string ? string : T[K] } };

export function texts<T>(en: T, ru: { [K in keyof T]: T[K] extends string ? string : T[K] }): Texts<T> {
  return { en, ru };
}
