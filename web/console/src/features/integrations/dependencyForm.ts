// How an integration type's schema becomes a form: what the form draws, the labels and
// widgets of its fields, the server's Problem placed on them, and the data it sends.
import type { ErrorSchema, RJSFSchema, SchemaUtilsType, UiSchema } from "@rjsf/utils";
import { ProblemError } from "../../api/problem";

type Properties = Record<string, RJSFSchema | boolean>;

const isSchema = (v: unknown): v is RJSFSchema => typeof v === "object" && v !== null && !Array.isArray(v);

/** textOnly: the anyOf only chooses among kinds of text (a URL or "", a host name or an IP
 * address): one text field. */
function textOnly(prop: RJSFSchema, options: unknown[]): boolean {
  return prop.type === "string" || options.every((o) => isSchema(o) && (o.type === "string" || typeof o.const === "string"));
}

/**
 * formSchemaOf is the schema the form draws: a property that may be one of several kinds of
 * text is one text field, not a choice between "Option 1" and "Option 2". The validator
 * still checks the type's own schema (schemaValidator).
 */
export function formSchemaOf(schema: RJSFSchema): RJSFSchema {
  if (!isSchema(schema.properties)) return schema;
  const properties: Properties = {};
  for (const [name, prop] of Object.entries(schema.properties as Properties)) {
    if (isSchema(prop) && Array.isArray(prop.anyOf) && textOnly(prop, prop.anyOf)) {
      const text: RJSFSchema = { ...prop, type: "string" };
      delete text.anyOf;
      properties[name] = text;
    } else {
      properties[name] = prop;
    }
  }
  return { ...schema, properties };
}

const words: Record<string, string> = { api: "API", url: "URL", id: "ID", http: "HTTP", smtp: "SMTP", tls: "TLS", ssl: "SSL" };

/** labelOf writes a field's name as words: api_base_url is "API base URL". */
export function labelOf(name: string): string {
  const text = name
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => words[w.toLowerCase()] ?? w.toLowerCase())
    .join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * uiSchemaOf gives every field a label in words, its schema's title or else its name (a list's items its label too, not
 * "allowed_hosts-1") and its required fields first; a secret (writeOnly) is a password field
 * the browser neither fills in nor remembers.
 */
export function uiSchemaOf(schema: RJSFSchema): UiSchema {
  const ui: UiSchema = { "ui:submitButtonOptions": { norender: true } };
  const properties = isSchema(schema.properties) ? (schema.properties as Properties) : {};
  const required = new Set(schema.required ?? []);
  const names = Object.keys(properties);
  ui["ui:order"] = [...names.filter((n) => required.has(n)), ...names.filter((n) => !required.has(n))];
  for (const [name, prop] of Object.entries(properties)) {
    const label = isSchema(prop) && typeof prop.title === "string" && prop.title !== "" ? prop.title : labelOf(name);
    ui[name] = { "ui:title": label };
    if (isSchema(prop) && prop.type === "array") ui[name] = { ...ui[name], items: { "ui:title": label } };
    if (isSchema(prop) && prop.writeOnly === true) {
      ui[name] = { ...ui[name], "ui:widget": "password", "ui:autocomplete": "new-password" };
    }
  }
  return ui;
}

/**
 * problemErrors places the API's Problem on the fields of one part of the request
 * (`metadata` or `auth`) that its validate names, e.g. metadata.host.
 */
export function problemErrors(error: unknown, part: string): ErrorSchema | undefined {
  if (!(error instanceof ProblemError)) return undefined;
  const message = error.problem.detail || error.problem.title;
  const out: Record<string, unknown> = {};
  for (const field of error.fields.filter((f) => f.startsWith(part + "."))) {
    let node = out;
    for (const key of field.slice(part.length + 1).split(".")) {
      node[key] ??= {};
      node = node[key] as Record<string, unknown>;
    }
    node.__errors = [message];
  }
  return Object.keys(out).length > 0 ? (out as ErrorSchema) : undefined;
}

/**
 * sendable is the data the form holds without the fields its current choice does not use
 * (a token typed before switching http.auth's scheme to basic), which the API refuses.
 */
export function sendable(utils: SchemaUtilsType, schema: RJSFSchema, data: Record<string, unknown>): Record<string, unknown> {
  const resolved = utils.retrieveSchema(schema, data);
  const properties = isSchema(resolved.properties) ? (resolved.properties as Properties) : {};
  return Object.fromEntries(Object.entries(data).filter(([name, value]) => properties[name] !== false && value !== undefined));
}
