import { describe, expect, it } from "vitest";
import { ProblemError } from "../../api/problem";
import { formSchemaOf, labelOf, problemErrors, uiSchemaOf } from "./dependencyForm";

describe("formSchemaOf", () => {
  it("draws a property that is one of several kinds of text as one text field", () => {
    const schema = formSchemaOf({
      type: "object",
      properties: { api_base_url: { description: "Base", anyOf: [{ type: "string", format: "uri" }, { type: "string", const: "" }], default: "" } },
    });
    expect(schema.properties?.api_base_url).toEqual({ description: "Base", type: "string", default: "" });
  });
  it("draws a text whose anyOf only names formats as one text field", () => {
    const schema = formSchemaOf({ type: "object", properties: { host: { type: "string", anyOf: [{ format: "hostname" }, { format: "ipv4" }] } } });
    expect(schema.properties?.host).toEqual({ type: "string" });
  });
});

describe("labelOf", () => {
  it("writes a field name as words", () => {
    expect(labelOf("api_base_url")).toBe("API base URL");
    expect(labelOf("bot_token")).toBe("Bot token");
  });
});

describe("uiSchemaOf", () => {
  it("puts required fields first and hides secrets as passwords", () => {
    const ui = uiSchemaOf({ type: "object", required: ["host"], properties: { auth: { type: "string" }, host: { type: "string" }, password: { type: "string", writeOnly: true } } });
    expect(ui["ui:order"]).toEqual(["host", "auth", "password"]);
    expect(ui.password).toMatchObject({ "ui:widget": "password", "ui:title": "Password" });
  });
  it("labels a list's items as the list", () => {
    const ui = uiSchemaOf({ type: "object", properties: { allowed_hosts: { type: "array", items: { type: "string" } } } });
    expect(ui.allowed_hosts).toEqual({ "ui:title": "Allowed hosts", items: { "ui:title": "Allowed hosts" } });
  });
});

describe("problemErrors", () => {
  it("puts the Problem on the fields of its part that validate names", () => {
    const problem = new ProblemError(400, { status: "fix_required", title: "Invalid", detail: "Check these fields.", action: "", validate: "metadata.host,auth.password,name", request_id: "r" });
    expect(problemErrors(problem, "metadata")).toEqual({ host: { __errors: ["Check these fields."] } });
    expect(problemErrors(problem, "auth")).toEqual({ password: { __errors: ["Check these fields."] } });
    expect(problemErrors(new Error("x"), "auth")).toBeUndefined();
  });
});
