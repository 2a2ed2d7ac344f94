import { describe, expect, it } from "vitest";
import { safeNext } from "./next";

describe("safeNext", () => {
  it("returns to a page of this site", () => {
    expect(safeNext("/runs/42?tab=events")).toBe("/runs/42?tab=events");
  });
  it.each(["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)", null, ""])(
    "sends %s to the workflows instead",
    (next) => {
      expect(safeNext(next)).toBe("/workflows");
    },
  );
});
