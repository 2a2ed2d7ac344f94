import { describe, expect, it } from "vitest";
import type { Action } from "../../canvas/graph";
import { fieldsOf, manualTrigger, parseInput, sampleOf, testedTrigger, testInputOf, valueOfField } from "./runInput";

const action = (action_key: string, action_type_key: string, config: Record<string, unknown> = {}): Action => ({ action_key, label: "", action_type_key, config });
const isTrigger = (key: string) => key.endsWith("trigger");

describe("the input a run starts with", () => {
  const hook = action("orders", "webhook.trigger", { endpoint_key: "orders", sample_payload_json: { total: 250 } });
  const start = action("start", "manual.trigger", { sample_payload_json: { customer: "Ada", total: 10 } });
  const stop = action("done", "stop");

  it("tests from the manual start, else the first trigger", () => {
    expect(testedTrigger([hook, start, stop], isTrigger)).toBe(start);
    expect(testedTrigger([stop, hook], isTrigger)).toBe(hook);
    expect(testedTrigger([stop], isTrigger)).toBeUndefined();
    expect(manualTrigger([hook, stop])).toBeUndefined();
  });

  it("starts from the trigger's sample while the test input is empty", () => {
    expect(testInputOf({}, sampleOf(hook))).toEqual({ total: 250 });
    expect(testInputOf({ total: 1 }, sampleOf(hook))).toEqual({ total: 1 });
    expect(sampleOf(stop)).toEqual({});
    expect(sampleOf(action("x", "manual.trigger", { sample_payload_json: [1] }))).toEqual({});
  });

  it("is a form only for a flat object", () => {
    expect(fieldsOf({ customer: "Ada", total: 10, vip: true, note: null })).toEqual([
      { name: "customer", kind: "string" },
      { name: "total", kind: "number" },
      { name: "vip", kind: "boolean" },
      { name: "note", kind: "null" },
    ]);
    expect(fieldsOf({ customer: { email: "a@b.c" } })).toBeUndefined();
    expect(fieldsOf({ items: [1] })).toBeUndefined();
  });

  it("reads each field as its kind", () => {
    expect(valueOfField({ name: "total", kind: "number" }, "12,5")).toBe(12.5);
    expect(valueOfField({ name: "total", kind: "number" }, "many")).toBeUndefined();
    expect(valueOfField({ name: "total", kind: "number" }, " ")).toBeUndefined();
    expect(valueOfField({ name: "note", kind: "null" }, "")).toBeNull();
    expect(valueOfField({ name: "customer", kind: "string" }, "")).toBe("");
  });

  it("takes JSON only as an object", () => {
    expect(parseInput('{"a": 1}')).toEqual({ value: { a: 1 } });
    expect(parseInput("[1]")).toEqual({ error: "notObject" });
    expect(parseInput("{")).toMatchObject({ error: "json" });
  });
});
