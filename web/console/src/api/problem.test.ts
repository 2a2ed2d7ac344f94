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

describe("ProblemError.namesOnly", () => {
  it("holds for a field that is all validate names, or that holds all it names", () => {
    expect(problem("password").namesOnly("password")).toBe(true);
    expect(problem("actions[2].config.url,actions[2].config.method").namesOnly("actions[2]")).toBe(true);
  });
  it("fails for one of several fields, and for an empty validate", () => {
    expect(problem("email,password").namesOnly("password")).toBe(false);
    expect(problem("").namesOnly("password")).toBe(false);
  });
});
