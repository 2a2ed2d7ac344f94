import type { components } from "./schema.gen";

export type Problem = components["schemas"]["Problem"];

/** ProblemError is an API answer that is not a success, with its Problem body. */
export class ProblemError extends Error {
  readonly status: number;
  readonly problem: Problem;
  constructor(status: number, problem: Problem) {
    super(problem.detail || problem.title);
    this.status = status;
    this.problem = problem;
  }
  /** fields are the request fields the Problem's validate names. */
  get fields(): string[] {
    return this.problem.validate ? this.problem.validate.split(",").map((f) => f.trim()).filter(Boolean) : [];
  }
  /** names tells whether validate names the field (or a field inside it). */
  names(field: string): boolean {
    return this.fields.some((f) => inside(f, field));
  }
  /** namesOnly tells whether the field (or fields inside it) is all validate names. */
  namesOnly(field: string): boolean {
    return this.fields.length > 0 && this.fields.every((f) => inside(f, field));
  }
}

function inside(named: string, field: string): boolean {
  return named === field || named.startsWith(field + ".") || named.startsWith(field + "[");
}

function isProblem(v: unknown): v is Problem {
  return typeof v === "object" && v !== null && "title" in v && "detail" in v && "request_id" in v;
}

export async function readProblem(response: Response, body: unknown): Promise<ProblemError> {
  if (isProblem(body)) return new ProblemError(response.status, body);
  return new ProblemError(response.status, {
    status: "error",
    title: response.statusText || String(response.status),
    detail: "",
    action: "",
    validate: "",
    request_id: response.headers.get("X-Request-Id") ?? "",
  });
}
