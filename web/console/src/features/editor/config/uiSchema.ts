// Which of our widgets edits each config field, chosen by the schema's shape and the field's
// name, so a new action type gets them without code: template strings, free JSON, a body that
// is text or JSON, durations in seconds, the integration and workflow pickers and enum lists
// as checkboxes.
import type { RJSFSchema, UiSchema } from "@rjsf/utils";

type Schema = Record<string, unknown>;

/** Our fields and widgets, as ConfigForm registers them. */
export const FIELD = { integration: "integration", json: "json", body: "body", workflow: "workflow" } as const;
export const WIDGET = { template: "template", duration: "duration", checkboxes: "checkboxes" } as const;

/** How a template widget reads its text: {{ templates }} in text, or a bare expression. */
export type TemplateMode = "template" | "expression";

/** What the uiSchema takes besides the schema. */
export type UiChoices = {
  /** dependencyField is the action type's field holding an integration id, "" when none. */
  dependencyField: string;
  /** typeLabel names a JSON type for a choice between forms (email.send's to: one or a list). */
  typeLabel: (type: string) => string;
  /** integrationLabel is the dependency field's label; rootLabel the whole form's. */
  integrationLabel: string;
  rootLabel: string;
  /** order is the order of an object's fields by its path ("" the config, "retry_policy"). */
  order: (path: string) => string[] | undefined;
  /**
   * itemLabel names the nth item of a list (from 1): by the items' title when the schema
   * gives one, else by the list's name read as words in the singular (json_fields: "JSON field").
   */
  itemLabel: (n: number, title: string | undefined, singular: string) => string;
  /** addLabel is a list's add button, named as its items are ("Add case"). */
  addLabel: (title: string | undefined, singular: string) => string;
};

function isSchema(v: unknown): v is Schema {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function types(s: Schema): string[] {
  if (typeof s.type === "string") return [s.type];
  return Array.isArray(s.type) ? s.type.filter((t): t is string => typeof t === "string") : [];
}

function options(s: Schema): Schema[] {
  const xs = s.anyOf ?? s.oneOf;
  return Array.isArray(xs) ? xs.filter(isSchema) : [];
}

/**
 * constraintsOnly: the options of an anyOf/oneOf only add constraints to one shape (an id or
 * "", a uuid or empty, the required fields of either form), so one plain field edits it and
 * rjsf's "Option 1 / Option 2" chooser would only confuse.
 */
function constraintsOnly(s: Schema): boolean {
  const opts = options(s);
  if (opts.length === 0) return false;
  const shapes = new Set(opts.flatMap((o) => (o.properties || o.items ? ["structured"] : types(o))));
  for (const t of types(s)) shapes.add(t);
  return shapes.size <= 1 && !opts.some((o) => o.properties || o.items);
}

/** The rjsf field that edits a value of the type, for constraint-only anyOf/oneOf. */
const PLAIN_FIELD: Record<string, string> = {
  string: "StringField",
  integer: "NumberField",
  number: "NumberField",
  boolean: "BooleanField",
  object: "ObjectField",
  array: "ArrayField",
};

/** A field whose value is free JSON: an object without listed properties, a list of anything. */
function freeJson(s: Schema): boolean {
  const t = types(s);
  if (t.length === 1 && t[0] === "object") return !isSchema(s.properties);
  if (t.length === 1 && t[0] === "array") return !isSchema(s.items) || types(s.items).length === 0;
  return t.length === 0 && options(s).length === 0 && s.enum === undefined && s.const === undefined;
}

/** A whole number of seconds: delay.wait's seconds, every *_seconds. */
function seconds(name: string, s: Schema): boolean {
  return types(s).includes("integer") && (name === "seconds" || name.endsWith("_seconds"));
}

/** A workflow of the project by its id (workflow.call's workflow_id, an item of
 * run.event_trigger's workflow_ids): picked from the project's workflows. */
function workflowRef(name: string, s: Schema): boolean {
  return types(s).includes("string") && s.format === "uuid" && (name === "workflow_id" || name === "workflow_ids");
}

/** An enum list whose items may not repeat: tick boxes. */
function enumSet(s: Schema): boolean {
  return types(s).includes("array") && s.uniqueItems === true && isSchema(s.items) && Array.isArray(s.items.enum);
}

// The catalog's descriptions say which fields take templates, in the reader's language
// (the catalog's texts come in English and Russian): these read both.
const mentionsTemplates = (text: unknown) =>
  typeof text === "string" && /\{\{|template|шаблон/i.test(text) && !/no templates/i.test(text);
const rootAllowsTemplates = (root: Schema) =>
  typeof root.description === "string" && /(string fields|texts) may contain \{\{|(строковые поля|тексты) могут содержать \{\{/i.test(root.description);
const isExpression = (s: Schema) =>
  typeof s.description === "string" && /expression over the run's variables|выражение над переменными запуска/i.test(s.description);

/** templateMode tells whether a string field reads templates (or is an expression), else undefined. */
function templateMode(s: Schema, root: Schema): TemplateMode | undefined {
  if (!types(s).includes("string") || s.enum !== undefined || s.const !== undefined || s.format !== undefined) return undefined;
  if (isExpression(s)) return "expression";
  // A pattern that does not let a template start means the value is a literal (keys, names).
  if (typeof s.pattern === "string" && !s.pattern.includes("\\{\\{")) return undefined;
  const forbidden = isSchema(s.not) && typeof s.not.pattern === "string" && s.not.pattern.includes("\\{\\{");
  if (forbidden) return undefined;
  return mentionsTemplates(s.description) || rootAllowsTemplates(root) ? "template" : undefined;
}

/** Long texts get a multi-line editor; keys, ids, addresses and URLs one line. */
function multiline(name: string, s: Schema): boolean {
  if (typeof s.pattern === "string") return false;
  const max = typeof s.maxLength === "number" ? s.maxLength : undefined;
  if (max !== undefined) return max > 1000;
  return /description|body|text|input|instructions/.test(name);
}

function templateUi(name: string, s: Schema, root: Schema): UiSchema | undefined {
  const mode = templateMode(s, root);
  if (!mode) return undefined;
  return { "ui:widget": WIDGET.template, "ui:options": { mode, multiline: mode === "expression" || multiline(name, s) } };
}

/** Words of field names that are written in capitals. */
const ACRONYMS = new Set(["ai", "bcc", "cc", "id", "json", "smtp", "sql", "url"]);

/** fieldWords reads a field's name as words: headers_json is "Headers", json_fields "JSON fields". */
export function fieldWords(name: string): string {
  const read = name
    .replace(/_json$/, "")
    .split("_")
    .filter(Boolean)
    .map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w))
    .join(" ");
  return read.charAt(0).toUpperCase() + read.slice(1);
}

/** words is a field's name as its label reads it: timeout_seconds is "Timeout" beside its unit. */
function words(name: string, s: Schema): string {
  return fieldWords(seconds(name, s) && name !== "seconds" ? name.replace(/_seconds$/, "") : name);
}

/** singular is a list's name in the singular: "JSON fields" is a list of "JSON field". */
function singular(text: string): string {
  if (/ies$/.test(text)) return text.replace(/ies$/, "y");
  if (/[^s]s$/.test(text)) return text.slice(0, -1);
  return text;
}

/** title is a field's label: the schema's title, else its name read as words. */
function title(name: string, s: Schema): string {
  return typeof s.title === "string" && s.title !== "" ? s.title : words(name, s);
}

function propertyUi(name: string, path: string, s: Schema, root: Schema, choices: UiChoices): UiSchema {
  if (path === choices.dependencyField) return { "ui:title": choices.integrationLabel, "ui:field": FIELD.integration, "ui:fieldReplacesAnyOrOneOf": true };
  return { "ui:title": title(name, s), ...shapeUi(name, path, s, root, choices) };
}

function shapeUi(name: string, path: string, s: Schema, root: Schema, choices: UiChoices): UiSchema {
  const t = types(s);
  if (t.includes("string") && t.includes("object")) return { "ui:field": FIELD.body, "ui:fieldReplacesAnyOrOneOf": true };
  if (workflowRef(name, s)) return { "ui:field": FIELD.workflow };
  if (freeJson(s)) return { "ui:field": FIELD.json };
  if (seconds(name, s)) return { "ui:widget": WIDGET.duration };
  if (enumSet(s)) return { "ui:widget": WIDGET.checkboxes };
  if (constraintsOnly(s)) {
    const shape = types(s)[0] ?? types(options(s)[0])[0];
    return { ...templateUi(name, { ...s, type: shape }, root), "ui:field": PLAIN_FIELD[shape] ?? "StringField", "ui:fieldReplacesAnyOrOneOf": true };
  }
  const opts = options(s);
  if (opts.length > 0) {
    const key = s.anyOf ? "anyOf" : "oneOf";
    return { [key]: opts.map((o) => ({ "ui:title": choices.typeLabel(types(o)[0] ?? ""), ...valueUi(name, path, o, root, choices) })) };
  }
  return valueUi(name, path, s, root, choices);
}

/** valueUi is the ui of a value's own shape: a template string, an object's fields, a list's items. */
function valueUi(name: string, path: string, s: Schema, root: Schema, choices: UiChoices): UiSchema {
  const t = types(s);
  if (t.includes("object") && isSchema(s.properties)) return objectUi(path, s, root, choices);
  if (t.includes("array") && isSchema(s.items)) {
    const items = s.items;
    // An object item's fields get their widgets as any object's do (a switch case's condition
    // is an expression editor the panel's width), a string item its template editor.
    const itemUi = workflowRef(name, items)
      ? { "ui:field": FIELD.workflow }
      : types(items).includes("object") && isSchema(items.properties)
        ? objectUi(`${path}/items`, items, root, choices)
        : templateUi(name, items, { ...root, description: mentionsTemplates(s.description) ? s.description : root.description });
    const itemTitle = typeof items.title === "string" && items.title !== "" ? items.title : undefined;
    const itemName = singular(words(name, s));
    // rjsf would name the items "json_fields-1" and its add button "Add item": each item gets
    // a label of its own, the button the items' name (read by RjsfTemplates' AddItemButton).
    return {
      "ui:options": { addLabel: choices.addLabel(itemTitle, itemName) },
      items: (_item: unknown, index: number): UiSchema => ({ "ui:title": choices.itemLabel(index + 1, itemTitle, itemName), ...itemUi }),
    };
  }
  return templateUi(name, s, root) ?? {};
}

function objectUi(path: string, s: Schema, root: Schema, choices: UiChoices): UiSchema {
  const ui: UiSchema = {};
  const order = choices.order(path);
  if (order) ui["ui:order"] = [...order, "*"];
  const props = isSchema(s.properties) ? s.properties : {};
  for (const [name, prop] of Object.entries(props)) {
    if (isSchema(prop)) ui[name] = propertyUi(name, path ? `${path}/${name}` : name, prop, root, choices);
  }
  return ui;
}

/** uiSchemaFor builds the form's uiSchema for a config schema. */
export function uiSchemaFor(schema: RJSFSchema, choices: UiChoices): UiSchema {
  const root = schema as Schema;
  const ui = objectUi("", root, root, choices);
  ui["ui:title"] = choices.rootLabel;
  // email.send needs body or a template, schedule.trigger cron or an interval: the fields say so
  // in their errors, the form shows every field at once.
  if (options(root).length > 0) {
    ui["ui:field"] = "ObjectField";
    ui["ui:fieldReplacesAnyOrOneOf"] = true;
  }
  ui["ui:submitButtonOptions"] = { norender: true };
  return ui;
}
