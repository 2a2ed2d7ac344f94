// The config form's errors in the person's words: the schema's errors (ajv's, in English and
// in its own terms) reworded in the interface's language, and the server's diagnostics placed
// on the fields they name.
import type { ErrorSchema, RJSFSchema, RJSFValidationError } from "@rjsf/utils";
import type { components } from "../../../api/schema.gen";
import { fieldWords } from "./uiSchema";

export type Diagnostic = components["schemas"]["Diagnostic"];

/** The messages an error can have; texts.ts words each in en and ru. */
export type ErrorKey =
  | "required"
  | "requiredUnless"
  | "notEmpty"
  | "minLength"
  | "maxLength"
  | "pattern"
  | "uuid"
  | "timeZone"
  | "format"
  | "minimum"
  | "maximum"
  | "multipleOf"
  | "typeString"
  | "typeInteger"
  | "typeNumber"
  | "typeBoolean"
  | "typeArray"
  | "typeObject"
  | "typeOther"
  | "enum"
  | "const"
  | "minItems"
  | "maxItems"
  | "uniqueItems"
  | "maxProperties"
  | "additionalProperties"
  | "propertyNames"
  | "notTogether"
  | "notAllowed"
  | "not"
  | "anyOf"
  | "invalidConfig"
  | "invalidSetting";

export type ErrorText = (key: ErrorKey, values?: Record<string, string | number>) => string;

type Params = Record<string, unknown>;

const TYPE_KEYS: Record<string, ErrorKey> = {
  string: "typeString",
  integer: "typeInteger",
  number: "typeNumber",
  boolean: "typeBoolean",
  array: "typeArray",
  object: "typeObject",
};

/** A field of whole seconds, whose limits read better as durations. */
const inSeconds = (property: string) => /(^|\.)seconds$|_seconds$/.test(property);

/**
 * otherRequired names the fields of a root anyOf's other options: email.send's body is
 * required unless email_template_id is given, schedule.trigger's cron unless interval_seconds.
 */
function otherRequired(root: RJSFSchema, schemaPath: string): string[] | undefined {
  const m = /^#\/(anyOf|oneOf)\/(\d+)\/required$/.exec(schemaPath);
  if (!m) return undefined;
  const opts = root[m[1] as "anyOf" | "oneOf"];
  if (!Array.isArray(opts)) return undefined;
  return opts.flatMap((o, i) => (i === Number(m[2]) || typeof o !== "object" || !Array.isArray(o.required) ? [] : o.required));
}

/** message words one error, or undefined when another error says it better. */
function message(e: RJSFValidationError, root: RJSFSchema, text: ErrorText, duration: (seconds: number) => string): string | undefined {
  const params: Params = e.params ?? {};
  const schemaPath = e.schemaPath ?? "";
  const property = e.property ?? "";
  const limit = typeof params.limit === "number" ? params.limit : 0;
  switch (e.name) {
    case "required": {
      const others = otherRequired(root, schemaPath);
      return others && others.length > 0 ? text("requiredUnless", { others: others.join(", ") }) : text("required");
    }
    case "minLength":
      return limit === 1 ? text("notEmpty") : text("minLength", { limit });
    case "maxLength":
      return text("maxLength", { limit });
    case "pattern":
      return text("pattern");
    case "format":
      if (params.format === "uuid") return text("uuid");
      if (params.format === "iana-time-zone") return text("timeZone");
      return text("format", { format: String(params.format) });
    case "minimum":
    case "exclusiveMinimum":
      return text("minimum", { limit: inSeconds(property) ? duration(limit) : limit });
    case "maximum":
    case "exclusiveMaximum":
      return text("maximum", { limit: inSeconds(property) ? duration(limit) : limit });
    case "multipleOf":
      return text("multipleOf", { limit: String(params.multipleOf) });
    case "type": {
      const type = String(params.type).split(",")[0];
      return text(TYPE_KEYS[type] ?? "typeOther");
    }
    case "enum":
      return text("enum");
    case "const":
      return text("const", { value: JSON.stringify(params.allowedValue) });
    case "minItems":
      return text("minItems", { limit });
    case "maxItems":
      return text("maxItems", { limit });
    case "uniqueItems":
      return text("uniqueItems");
    case "maxProperties":
      return text("maxProperties", { limit });
    case "additionalProperties":
      return text("additionalProperties", { name: String(params.additionalProperty) });
    case "propertyNames":
      return text("propertyNames", { name: String(params.propertyName) });
    case "false schema": {
      const dependent = /\/dependentSchemas\/([^/]+)\//.exec(schemaPath);
      return dependent ? text("notTogether", { other: dependent[1] }) : text("notAllowed");
    }
    case "not":
      return text("not");
    case "anyOf":
    case "oneOf":
      // The root's options only require fields, and the required errors name them.
      return property === "" ? undefined : text("anyOf");
    default:
      // "if" repeats the error of its "then"; others are too rare to word.
      return e.name === "if" ? undefined : e.message;
  }
}

/**
 * localizeErrors rewords the schema's errors in the interface's language. The errors of an
 * anyOf option are dropped (the anyOf's own error says the value fits none of them), except
 * the required fields of the root's options, which say what is missing.
 */
export function localizeErrors(
  errors: RJSFValidationError[],
  root: RJSFSchema,
  text: ErrorText,
  duration: (seconds: number) => string,
): RJSFValidationError[] {
  const out: RJSFValidationError[] = [];
  for (const e of errors) {
    const schemaPath = e.schemaPath ?? "";
    const inOption = /\/(anyOf|oneOf)\/\d+\//.test(schemaPath) && otherRequired(root, schemaPath) === undefined;
    if (inOption) continue;
    const words = message(e, root, text, duration);
    if (words === undefined) continue;
    out.push({ ...e, message: words, stack: `${e.property ?? ""} ${words}`.trim() });
  }
  return out;
}

/** configPath is the path inside the config that a diagnostic names, or undefined. */
export function configPath(d: Diagnostic): string[] | undefined {
  if (!d.field?.startsWith("config.")) return undefined;
  return d.field.slice("config.".length).split(".").filter(Boolean);
}

/**
 * diagnosticText words a diagnostic of the server for a list of problems. The server says a
 * config field "does not match the schema" of the type: the form says what is wrong with it,
 * the list names the field.
 */
export function diagnosticText(d: Diagnostic, text: ErrorText): string {
  const path = configPath(d);
  if (d.code !== "invalid_config" || !path) return d.message;
  return text("invalidSetting", { field: path.map(fieldWords).join(" › ") });
}

/**
 * diagnosticErrors places the server's diagnostics on the config fields they name. With the
 * form's own validator, which checks the same schema as the person types, a field's
 * invalid_config is left to it: its error says what is wrong, and goes once the value is right.
 */
export function diagnosticErrors(diagnostics: Diagnostic[], text: ErrorText, checkedHere: boolean): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const d of diagnostics) {
    const path = configPath(d);
    if (!path || path.length === 0 || (checkedHere && d.code === "invalid_config")) continue;
    let node = root;
    for (const part of path) {
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    }
    const message = d.code === "invalid_config" ? text("invalidConfig") : d.message;
    node.__errors = [...((node.__errors as string[] | undefined) ?? []), message];
  }
  return root as ErrorSchema;
}
