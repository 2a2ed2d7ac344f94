import { describe, expect, it } from "vitest";
import { ProblemError } from "./problem";

const problem = (validate: string) =>
  new ProblemError(400, { status: "fix_required", title: "Bad", detail: "Fix it", action: "", validate, request_id: "r" });

describe("ProblemError.names", () => {
  it("names each field of validate, and the fields inside them", () => {
    const e = problem("email, actions[2].config.url");
    expect(e.names("email")).toBe(true);
    expect(e.names("actions")).toBe(true);
    expect(e.names("actions[2].config")).toBe(true);
    expect(e.names("password")).toBe(false);
    expect(e.names("emails")).toBe(false);
  });
  it("names nothing when validate is empty", () => {
    expect(problem("").fields).toEqual([]);
  });
});
