// The config schema as the form and its precompiled validators see it. Both this console's
// build (compile-validators.mjs) and the page derive it from the same catalog schema, so the
// validator compiled at build time is found again by the schema's hash at run time. The
// validators see it without its texts (titles, descriptions), which the server answers in the
// person's language: a schema read in Russian finds the validator compiled from the files.
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

/** Keywords that only describe: they change nothing a validator checks. */
const ANNOTATIONS = new Set(["title", "description", "examples", "$comment"]);
/** Keywords whose value is a schema, a list of schemas, or a map of names to schemas. */
const SCHEMA = new Set(["items", "additionalItems", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties"]);
const SCHEMA_LIST = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
const SCHEMA_MAP = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** checkedSchema is the schema as its validator checks it: without its annotations. */
export function checkedSchema(schema: RJSFSchema): RJSFSchema {
  return bare(schema) as RJSFSchema;
}

function bare(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(bare);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key)) continue;
    if (SCHEMA.has(key) || (SCHEMA_LIST.has(key) && Array.isArray(v))) out[key] = bare(v);
    else if (SCHEMA_MAP.has(key) && v !== null && typeof v === "object") out[key] = Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, bare(sub)]));
    else out[key] = v;
  }
  return out;
}
