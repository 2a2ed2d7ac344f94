import { describe, expect, it } from "vitest";
import type { UiSchema } from "@rjsf/utils";
import { formSchema } from "./formSchema";
import { uiSchemaFor } from "./uiSchema";

const files = import.meta.glob<Record<string, unknown>>("../../../../../../schemas/actions/*.config.json", { eager: true, import: "default" });

const ui = (actionType: string, dependencyField = ""): UiSchema => {
  const schema = formSchema(files[`../../../../../../schemas/actions/${actionType}.config.json`]);
  return uiSchemaFor(schema, { dependencyField, typeLabel: (type) => `<${type}>`, integrationLabel: "Integration", rootLabel: "Settings", order: () => undefined, itemLabel: (n, title, singular) => `${title ?? singular} #${n}`, addLabel: (title, singular) => `Add ${title ?? singular}` });
};

describe("uiSchemaFor", () => {
  it("gives http.request its template URL, JSON headers, body, duration and integration picker", () => {
    const http = ui("http.request", "auth_dependency_id");
    expect(http.url).toMatchObject({ "ui:widget": "template", "ui:options": { mode: "template", multiline: false } });
    expect(http.headers_json).toMatchObject({ "ui:field": "json" });
    expect(http.body).toMatchObject({ "ui:field": "body", "ui:fieldReplacesAnyOrOneOf": true });
    expect(http.timeout_seconds).toMatchObject({ "ui:widget": "duration" });
    expect(http.retry_policy.initial_interval_seconds).toMatchObject({ "ui:widget": "duration" });
    expect(http.retry_policy.backoff_coefficient["ui:widget"] ?? http.retry_policy.backoff_coefficient["ui:field"]).toBeUndefined();
    expect(http.auth_dependency_id).toMatchObject({ "ui:field": "integration", "ui:fieldReplacesAnyOrOneOf": true });
    expect(http.method["ui:widget"] ?? http.method["ui:field"]).toBeUndefined();
    expect(http.timeout_seconds["ui:title"]).toBe("Timeout");
    expect(http.headers_json["ui:title"]).toBe("Headers");
    expect(http.auth_dependency_id["ui:title"]).toBe("Integration");
  });

  it("lets email.send choose one address or a list, and shows every field despite its anyOf", () => {
    const email = ui("email.send", "smtp_action_dependency_id");
    expect(email["ui:field"]).toBe("ObjectField");
    expect(email.to.anyOf[0]["ui:title"]).toBe("<string>");
    expect(email.to.anyOf[0]["ui:widget"]).toBe("template");
    expect(email.to.anyOf[1]["ui:title"]).toBe("<array>");
    expect(email.to.anyOf[1].items("a@b.c", 0)).toMatchObject({ "ui:widget": "template", "ui:title": "To #1" });
    expect(email.body["ui:options"]).toMatchObject({ mode: "template", multiline: true });
    expect(email.email_template_id["ui:widget"] ?? email.email_template_id["ui:field"]).toBeUndefined();
  });

  it("keeps literals literal: SQL, keys, cron", () => {
    const db = ui("db.query", "action_dependency_id");
    expect(db.sql["ui:widget"] ?? db.sql["ui:field"]).toBeUndefined();
    expect(db.params).toMatchObject({ "ui:field": "json" });
    const schedule = ui("schedule.trigger");
    expect(schedule.schedule_key["ui:widget"] ?? schedule.schedule_key["ui:field"]).toBeUndefined();
    expect(schedule.cron["ui:widget"] ?? schedule.cron["ui:field"]).toBeUndefined();
    expect(schedule.interval_seconds).toMatchObject({ "ui:widget": "duration" });
    expect(ui("webhook.trigger").endpoint_key).toMatchObject({});
  });

  it("labels a list's items by the list's name in the singular, and fields by their name read as words", () => {
    const webhook = ui("webhook.trigger");
    expect(webhook.json_fields["ui:title"]).toBe("JSON fields");
    expect(webhook.json_fields.items("customer.email", 1)).toEqual({ "ui:title": "JSON field #2" });
    expect(ui("ai.agent", "action_dependency_id").output_schema["ui:title"]).toBe("Output schema");
  });

  it("names a list's add button by its items, and gives an object item's fields their widgets", () => {
    const cases = ui("condition.switch").cases;
    expect(cases["ui:options"]).toEqual({ addLabel: "Add Case" });
    expect(ui("webhook.trigger").json_fields["ui:options"]).toEqual({ addLabel: "Add JSON field" });
    const item = cases.items({ name: "north", text: "" }, 0);
    expect(item["ui:title"]).toBe("Case #1");
    expect(item.text["ui:options"]).toMatchObject({ mode: "expression", multiline: true });
  });

  it("makes the condition an expression and enum sets tick boxes", () => {
    expect(ui("condition.branch").text["ui:options"]).toMatchObject({ mode: "expression", multiline: true });
    expect(ui("ai.agent", "action_dependency_id").tools).toMatchObject({ "ui:widget": "checkboxes" });
    expect(ui("ai.agent", "action_dependency_id").output_schema).toMatchObject({ "ui:field": "json" });
    expect(ui("task.event_trigger").board_id).toMatchObject({ "ui:field": "StringField", "ui:fieldReplacesAnyOrOneOf": true });
  });

  it("picks workflows of the project for the fields that name one by id", () => {
    expect(ui("workflow.call").workflow_id).toMatchObject({ "ui:field": "workflow", "ui:title": "Workflow" });
    const watched = ui("run.event_trigger");
    expect(watched.events).toMatchObject({ "ui:widget": "checkboxes" });
    expect(watched.workflow_ids["ui:options"]).toEqual({ addLabel: "Add Workflow" });
    expect(watched.workflow_ids.items("", 0)).toEqual({ "ui:title": "Workflow #1", "ui:field": "workflow" });
    expect(ui("task.create").board_id["ui:field"]).not.toBe("workflow");
  });
});
