// The integration forms' validator. Dependency types' schemas come from the server at run
// time, so they cannot be compiled into validators at build time as the action config
// schemas are (features/editor/config), and the page may not compile code (the
// Content-Security-Policy forbids eval and new Function). @cfworker/json-schema interprets a
// schema instead of compiling it, so it runs under the policy; it gives rjsf what it asks
// of a validator: which branch of an if/then or anyOf the data takes (isValid), and the
// errors to show on the fields. The server checks the same schemas and has the last word.
import { Validator, type OutputUnit, type Schema } from "@cfworker/json-schema";
import { toErrorSchema, type RJSFSchema, type RJSFValidationError, type ValidatorType } from "@rjsf/utils";

/** The words of an error, by its keyword; texts.ts has them in en and ru. */
export type SchemaErrorKey =
  | "required"
  | "minLength"
  | "maxLength"
  | "pattern"
  | "example"
  | "format"
  | "minimum"
  | "maximum"
  | "enum"
  | "type"
  | "anyOf"
  | "notUsed"
  | "invalid";
export type SchemaErrorText = (key: SchemaErrorKey, values: Record<string, string | number>) => string;

const validators = new WeakMap<object, Validator>();

function validatorOf(schema: RJSFSchema): Validator {
  let v = validators.get(schema);
  if (!v) {
    v = new Validator(schema as Schema, "2020-12", false);
    validators.set(schema, v);
  }
  return v;
}

// Keywords that only say a part below them failed; the part's own error says what.
const containers = new Set(["properties", "allOf", "if", "then", "else", "items", "prefixItems", "$ref", "dependentSchemas", "unevaluatedProperties"]);

/** at resolves a JSON pointer ("#/properties/host/maxLength") in the schema. */
function at(schema: unknown, pointer: string): unknown {
  let cur = schema;
  for (const part of pointer.replace(/^#\/?/, "").split("/").filter(Boolean)) {
    const key = decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~");
    cur = typeof cur === "object" && cur !== null ? (cur as Record<string, unknown>)[key] : undefined;
  }
  return cur;
}

/** property turns an instance location ("#/auth/user") into rjsf's path (".auth.user"). */
function property(instanceLocation: string, child?: string): string {
  const parts = instanceLocation.replace(/^#\/?/, "").split("/").filter(Boolean);
  if (child !== undefined) parts.push(child);
  return parts.map((p) => "." + decodeURIComponent(p)).join("");
}

/** exampleOf is the first of a schema's examples, where it gives a text one. */
function exampleOf(schema: unknown): string | undefined {
  const examples = typeof schema === "object" && schema !== null ? (schema as { examples?: unknown }).examples : undefined;
  return Array.isArray(examples) && typeof examples[0] === "string" ? examples[0] : undefined;
}

const known = new Set<string>(["minLength", "maxLength", "pattern", "format", "minimum", "maximum", "enum", "type", "anyOf"]);

/** errorsOf words each failure the person can fix where it is: one error a field. */
export function errorsOf(schema: RJSFSchema, units: OutputUnit[], text: SchemaErrorText): RJSFValidationError[] {
  const out: RJSFValidationError[] = [];
  for (const u of units) {
    // Inside a branch of anyOf or oneOf, the branch's errors are why it did not match; the
    // anyOf's own error covers them.
    if (containers.has(u.keyword) || /\/(anyOf|oneOf)\/\d+\//.test(u.keywordLocation)) continue;
    if (u.keyword === "required") {
      const missing = /"([^"]+)"/.exec(u.error)?.[1];
      if (missing) out.push({ name: "required", property: property(u.instanceLocation, missing), message: text("required", {}), stack: u.error });
      continue;
    }
    const value = at(schema, u.keywordLocation);
    let key: SchemaErrorKey = u.keyword === "false" ? "notUsed" : known.has(u.keyword) ? (u.keyword as SchemaErrorKey) : "invalid";
    const values: Record<string, string | number> = typeof value === "number" || typeof value === "string" ? { limit: value } : {};
    // A pattern, or a choice of forms, says nothing a person reads; the field's own example
    // does.
    const example = key === "pattern" || key === "anyOf" ? exampleOf(at(schema, u.keywordLocation.replace(/\/(pattern|anyOf)$/, ""))) : undefined;
    if (example !== undefined) {
      key = "example";
      values.example = example;
    }
    out.push({ name: u.keyword, property: property(u.instanceLocation), message: text(key, values), stack: u.error, schemaPath: u.keywordLocation });
  }
  return out;
}

/**
 * schemaValidator checks form data against `schema` (the type's schema as the server has
 * it), even where the form shows a simpler one, and asks isValid of whatever part rjsf asks.
 * Dependency schemas are self-contained: no $ref leaves them.
 */
export function schemaValidator(schema: RJSFSchema, text: SchemaErrorText): ValidatorType {
  return {
    validateFormData(formData) {
      const result = validatorOf(schema).validate(formData ?? {});
      const errors = result.valid ? [] : errorsOf(schema, result.errors, text);
      return { errors, errorSchema: toErrorSchema(errors) };
    },
    isValid(part, formData) {
      return validatorOf(part).validate(formData).valid;
    },
    rawValidation(part, formData) {
      return { errors: validatorOf(part).validate(formData).errors as never[] };
    },
  };
}
