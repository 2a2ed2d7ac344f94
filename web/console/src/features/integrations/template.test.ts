import { describe, expect, it } from "vitest";
import { renderTemplate, templatePaths } from "./template";

describe("templatePaths", () => {
  it("lists each path once, in the order the texts use them", () => {
    expect(templatePaths("Invoice {{ invoice.number }} for {{client.name}}", "Dear {{ client.name }}, {{ due_date }}")).toEqual(["invoice.number", "client.name", "due_date"]);
  });
  it("ignores what is not a path", () => {
    expect(templatePaths("{{ }} {{ a b }} {single}")).toEqual([]);
  });
});

describe("renderTemplate", () => {
  it("puts the samples in place, and nothing where a path has none, as a run does", () => {
    expect(renderTemplate("Hello {{ name }}, order {{order.id}}{{ missing }}.", { name: "Ada", "order.id": "42" })).toBe("Hello Ada, order 42.");
  });
  it("leaves markup as text", () => {
    expect(renderTemplate("<b>{{ x }}</b>", { x: "<i>y</i>" })).toBe("<b><i>y</i></b>");
  });
});
