import { ProblemError } from "../api/problem";

/** formProblem is a form's own finding before anything is sent (an amount that is not one),
 * shaped as the API's Problem, so it shows on the fields it names as the API's would. */
export function formProblem(fields: string[], detail: string): ProblemError {
  return new ProblemError(400, { status: "fix_required", title: detail, detail, action: "", validate: fields.join(","), request_id: "" });
}
