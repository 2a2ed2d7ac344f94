import { describe, expect, it } from "vitest";
import type { RJSFSchema, UiSchema } from "@rjsf/utils";
import { formSchema } from "./formSchema";
import { uiSchemaFor } from "./uiSchema";
import { validatorFor } from "./validator";
import ru from "../../../../../../schemas/locales/ru.json";

// The server serves the catalog's schemas with their texts in the reader's language
// (schemas/locales/ru.json, keyed by JSON pointer); these tests build the Russian schema the
// same way and check the form treats it as the English one.
const files = import.meta.glob<Record<string, unknown>>("../../../../../../schemas/actions/*.config.json", { eager: true, import: "default" });
const english = (actionType: string) => files[`../../../../../../schemas/actions/${actionType}.config.json`];
const actionTypes = Object.keys(files).map((f) => f.replace(/^.*\/(.+)\.config\.json$/, "$1"));

type Texts = Record<string, { en: string; ru: string }>;

function russian(actionType: string): Record<string, unknown> {
  const schema = structuredClone(english(actionType));
  const texts = (ru.actions as Record<string, { config: Texts }>)[actionType].config;
  for (const [pointer, text] of Object.entries(texts)) {
    const parts = pointer.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    let at = schema as Record<string, unknown>;
    for (const p of parts.slice(0, -1)) at = at[p] as Record<string, unknown>;
    at[parts[parts.length - 1]] = text.ru;
  }
  return schema;
}

const ui = (schema: RJSFSchema): UiSchema =>
  uiSchemaFor(schema, { dependencyField: "", typeLabel: (type) => `<${type}>`, integrationLabel: "Integration", rootLabel: "Settings", order: () => undefined, itemLabel: (n, title, singular) => `${title ?? singular} ${n}`, addLabel: () => "Add" });

/** widgets is the uiSchema without its labels: which field and widget edits each value (a
 * list's items, which the uiSchema gives as a function of the item, as its first one's). */
function widgets(u: unknown): unknown {
  if (typeof u === "function") return widgets(u(undefined, 0));
  if (Array.isArray(u)) return u.map(widgets);
  if (u === null || typeof u !== "object") return u;
  return Object.fromEntries(Object.entries(u).filter(([k]) => k !== "ui:title").map(([k, v]) => [k, widgets(v)]));
}

describe("the catalog in Russian", () => {
  it.each(actionTypes)("gives %s the same fields and widgets as in English", (actionType) => {
    expect(widgets(ui(formSchema(russian(actionType))))).toEqual(widgets(ui(formSchema(english(actionType)))));
  });

  it.each(actionTypes)("checks %s as you type with the validator compiled from the English files", (actionType) => {
    expect(validatorFor(formSchema(russian(actionType)))).toBeDefined();
  });

  it("labels the fields in Russian", () => {
    const http = ui(formSchema(russian("http.request")));
    expect(http.timeout_seconds["ui:title"]).toBe("Время ожидания");
    expect(http.headers_json["ui:title"]).toBe("Заголовки");
    expect(http.url["ui:widget"]).toBe("template");
  });

  it("finds the same problems in a Russian form as in an English one", () => {
    const config = { url: "", timeout_seconds: 500 };
    const check = (schema: RJSFSchema) => validatorFor(schema)!.validateFormData(config, schema).errors.map((e) => `${e.property} ${e.name}`);
    const en = check(formSchema(english("http.request")));
    expect(en.length).toBeGreaterThan(0);
    expect(check(formSchema(russian("http.request")))).toEqual(en);
  });
});
