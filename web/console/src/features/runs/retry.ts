// What a manual retry of a failed action can do, read from how the action classified its
// failure: the same call with the same settings fails the same way after some failures.
import type { ActionRun } from "./types";

export type FutileRetry = "retryFutile_egress" | "retryFutile_validation" | "retryFutile_permanent" | "retryFutile_auth";

/** futileRetry names why retrying the action unchanged cannot help, or undefined when it may.
 * Classes the engine never retries on its own (validation, auth, permanent) fail again; an
 * auth failure can pass once the integration's credentials are fixed, so it still offers
 * the retry (retryAfterFix). */
export function futileRetry(receipt: ActionRun | undefined): FutileRetry | undefined {
  if (receipt?.diagnostics?.reason_code === "egress_refused") return "retryFutile_egress";
  switch (receipt?.retry_class) {
    case "validation":
      return "retryFutile_validation";
    case "permanent":
      return "retryFutile_permanent";
    case "auth":
      return "retryFutile_auth";
  }
  return undefined;
}

/** retryAfterFix tells whether the retry stays offered beside the reason: the fix is outside
 * the workflow, and the retry reads it. */
export const retryAfterFix = (reason: FutileRetry | undefined) => reason === undefined || reason === "retryFutile_auth";
