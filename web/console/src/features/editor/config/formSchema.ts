// The config schema as the form and its precompiled validators see it. Both this console's
// build (compile-validators.mjs) and the page derive it from the same catalog schema, so the
// validator compiled at build time is found again by the schema's hash at run time.
import type { RJSFSchema } from "@rjsf/utils";

/** The JSON Schema meta-schema: a field that holds a schema (output_schema, input_schema_json). */
const META_SCHEMA = "https://json-schema.org/draft/2020-12/schema";

/**
 * formSchema drops references to the meta-schema: the form cannot resolve a reference outside
 * the schema, and such a field is edited as free JSON (the server checks it is a schema).
 */
export function formSchema(schema: unknown): RJSFSchema {
  return strip(schema) as RJSFSchema;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === "$ref" && v === META_SCHEMA) continue;
    out[key] = strip(v);
  }
  return out;
}

/**
 * withoutTexts is the schema without its titles and descriptions, which the catalog serves in
 * the reader's language: what validates a config, so one validator compiled from the catalog's
 * files serves every language.
 */
export function withoutTexts(schema: RJSFSchema): RJSFSchema {
  return dropTexts(schema, false) as RJSFSchema;
}

function dropTexts(value: unknown, isProperties: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => dropTexts(v, false));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!isProperties && (key === "title" || key === "description") && typeof v === "string") continue;
    out[key] = dropTexts(v, !isProperties && key === "properties");
  }
  return out;
}
