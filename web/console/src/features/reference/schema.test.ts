import { describe, expect, it } from "vitest";
import type { Schema } from "./model";
import { constraints, hasFields, mergedObject, typeLabel } from "./schema";

const schemas: Record<string, Schema> = {
  Base: { type: "object", required: ["id"], properties: { id: { type: "string", format: "uuid" } } },
  Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/components/schemas/Node" } } } },
  Word: { type: "string" },
};

describe("a schema as the reference reads it", () => {
  it("names its type in a few words", () => {
    expect(typeLabel({ type: "string", format: "uuid" })).toBe("string (uuid)");
    expect(typeLabel({ type: "array", items: { $ref: "#/components/schemas/Node" } })).toBe("array of Node");
    expect(typeLabel({ type: ["integer", "null"] })).toBe("integer or null");
    expect(typeLabel({ type: "object", additionalProperties: { type: "string" } })).toBe("map of string");
    expect(typeLabel({ oneOf: [{ type: "string" }, { $ref: "#/components/schemas/Base" }] })).toBe("string or Base");
  });

  it("gives its limits and default", () => {
    expect(constraints({ type: "integer", minimum: 1, maximum: 200, default: 50 })).toEqual(["minimum 1", "maximum 200", "default 50"]);
  });

  it("joins an allOf's members into one object", () => {
    expect(mergedObject({ allOf: [{ $ref: "#/components/schemas/Base" }, { properties: { name: { type: "string" } }, required: ["name"] }] }, schemas)).toEqual({
      properties: { id: { type: "string", format: "uuid" }, name: { type: "string" } },
      required: ["id", "name"],
    });
  });

  it("unfolds objects and arrays of them, not plain values", () => {
    expect(hasFields({ $ref: "#/components/schemas/Node" }, schemas)).toBe(true);
    expect(hasFields({ type: "array", items: { $ref: "#/components/schemas/Base" } }, schemas)).toBe(true);
    expect(hasFields({ $ref: "#/components/schemas/Word" }, schemas)).toBe(false);
  });
});
