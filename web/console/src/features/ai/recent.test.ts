import { describe, expect, it } from "vitest";
import { forget, parseIds, recentLimit, remember } from "./recent";

describe("recent conversations", () => {
  it("puts the latest first, once, and keeps a few", () => {
    expect(remember(["a", "b", "c"], "b")).toEqual(["b", "a", "c"]);
    const many = Array.from({ length: recentLimit }, (_, i) => String(i));
    expect(remember(many, "new")).toEqual(["new", ...many.slice(0, recentLimit - 1)]);
    expect(forget(["a", "b"], "a")).toEqual(["b"]);
  });

  it("reads only a list of ids from storage", () => {
    expect(parseIds(null)).toEqual([]);
    expect(parseIds("not json")).toEqual([]);
    expect(parseIds('{"a":1}')).toEqual([]);
    expect(parseIds('["a", 2, "b"]')).toEqual(["a", "b"]);
  });
});
