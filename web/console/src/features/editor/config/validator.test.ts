import { describe, expect, it } from "vitest";
import { createSchemaUtils, type RJSFSchema } from "@rjsf/utils";
import { localizeErrors, type ErrorText } from "./errors";
import { checkedSchema, formSchema } from "./formSchema";
import { validatorFor } from "./validator";

const dir = "../../../../../../schemas/actions/";
const files = import.meta.glob<Record<string, unknown>>("../../../../../../schemas/actions/*.config.json", { eager: true, import: "default" });
const schemaOf = (type: string): RJSFSchema => formSchema(files[`${dir}${type}.config.json`]);
const types = Object.keys(files).map((f) => f.slice(dir.length, -".config.json".length));

const text: ErrorText = (key, values) => (values ? `${key} ${JSON.stringify(values)}` : key);

/** errors validates a config and answers each field's localized messages. */
function errors(type: string, config: Record<string, unknown>): Record<string, string[]> {
  const schema = schemaOf(type);
  const validator = validatorFor(schema)!;
  const { errors } = validator.validateFormData(config, schema, undefined, (es) => localizeErrors(es, schema, text, (s) => `${s}s`));
  const out: Record<string, string[]> = {};
  for (const e of errors) (out[e.property ?? ""] ??= []).push(e.message ?? "");
  return out;
}

describe("the precompiled validators", () => {
  it.each(types)("cover %s, and the form resolves it without asking for another", (type) => {
    const schema = schemaOf(type);
    const validator = validatorFor(schema);
    expect(validator).toBeDefined();
    const utils = createSchemaUtils(validator!, schema);
    const defaults = utils.getDefaultFormState(schema, {});
    expect(() => utils.retrieveSchema(schema, defaults)).not.toThrow();
    expect(() => validator!.validateFormData(defaults, schema)).not.toThrow();
  });

  it("checks what the server checks, in our words", () => {
    expect(errors("http.request", { url: "ftp://x" })).toEqual({ ".url": ["pattern"] });
    expect(errors("http.request", { url: "{{ hook.url }}", method: "GET", body: "x" })).toEqual({ ".body": ["notAllowed"] });
    expect(errors("http.request", { url: "https://a", timeout_seconds: 500 })).toEqual({ ".timeout_seconds": ['maximum {"limit":"120s"}'] });
    expect(errors("email.send", { smtp_action_dependency_id: "00000000-0000-4000-8000-000000000000", to: "a@b.c" })).toEqual({
      body: ['requiredUnless {"others":"email_template_id"}'],
      email_template_id: ['requiredUnless {"others":"body"}'],
    });
    expect(errors("email.send", { smtp_action_dependency_id: "nope", to: [], body: "x" })).toEqual({ ".smtp_action_dependency_id": ["uuid"], ".to": ["anyOf"] });
    expect(errors("schedule.trigger", { schedule_key: "daily", cron: "0 9 * * *", interval_seconds: 60, timezone: "Mars/Base" })).toEqual({
      ".interval_seconds": ['notTogether {"other":"cron"}'],
      ".timezone": ["timeZone"],
    });
    expect(errors("schedule.trigger", { schedule_key: "daily", cron: "0 9 * * *", timezone: "Europe/Moscow" })).toEqual({});
  });
});

/** translated is the schema as the server answers it in another language: its texts reworded. */
function translated(schema: unknown): RJSFSchema {
  if (Array.isArray(schema)) return schema.map(translated) as unknown as RJSFSchema;
  if (schema === null || typeof schema !== "object") return schema as RJSFSchema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, (k === "title" || k === "description") && typeof v === "string" ? `перевод: ${v}` : translated(v)]),
  ) as RJSFSchema;
}

describe("a schema whose texts the server translated", () => {
  it.each(types)("finds %s's validator, which the form resolves as before", (type) => {
    const schema = translated(schemaOf(type));
    const validator = validatorFor(schema);
    expect(validator).toBeDefined();
    const utils = createSchemaUtils(validator!, schema);
    const defaults = utils.getDefaultFormState(schema, {});
    expect(() => utils.retrieveSchema(schema, defaults)).not.toThrow();
    expect(() => validator!.validateFormData(defaults, schema)).not.toThrow();
  });

  it("checks the same, and keeps a property named like a text", () => {
    const schema = translated(schemaOf("http.request"));
    const { errors } = validatorFor(schema)!.validateFormData({ url: "ftp://x" }, schema, undefined, (es) => localizeErrors(es, schema, text, (s) => `${s}s`));
    expect(errors.map((e) => [e.property, e.message])).toEqual([[".url", "pattern"]]);
    expect(Object.keys(checkedSchema(schemaOf("task.create")).properties ?? {})).toContain("description");
  });
});
