import { describe, expect, it } from "vitest";
import { isEmptyPayload, previewJson } from "./payload";

describe("previewJson", () => {
  it("is the whole indented JSON when it fits", () => {
    const value = { status_code: 200, json: { items: [1, "two", null, { deep: true }], empty: {}, none: [] } };
    expect(previewJson(value, 10_000)).toEqual({ text: JSON.stringify(value, null, 2), complete: true });
  });

  it("stops at the limit and says it is incomplete", () => {
    const value = { body: "x".repeat(5_000_000), after: { more: [1, 2, 3] } };
    const started = performance.now();
    const preview = previewJson(value, 64 * 1024);
    expect(performance.now() - started).toBeLessThan(200);
    expect(preview.complete).toBe(false);
    expect(preview.text.length).toBe(64 * 1024);
    expect(JSON.stringify(value, null, 2).startsWith(preview.text)).toBe(true);
  });

  it("stops walking a huge array", () => {
    const value = Array.from({ length: 200_000 }, (_, i) => ({ i, name: `item ${i}` }));
    const preview = previewJson(value, 1000);
    expect(preview.complete).toBe(false);
    expect(JSON.stringify(value, null, 2).startsWith(preview.text)).toBe(true);
  });

  it("counts a value exactly at the limit as whole", () => {
    const text = JSON.stringify({ a: 1 }, null, 2);
    expect(previewJson({ a: 1 }, text.length).complete).toBe(true);
    expect(previewJson({ a: 1 }, text.length - 1)).toEqual({ text: text.slice(0, -1), complete: false });
  });
});

describe("isEmptyPayload", () => {
  it("tells nothing from something", () => {
    expect([undefined, null, {}, []].map(isEmptyPayload)).toEqual([true, true, true, true]);
    expect([{ a: 1 }, [0], 0, ""].map(isEmptyPayload)).toEqual([false, false, false, false]);
  });
});
