import { describe, expect, it } from "vitest";
import { futileRetry, retryAfterFix } from "./retry";
import type { ActionRun } from "./types";

const failure = (retry_class: ActionRun["retry_class"], reason_code?: string): ActionRun =>
  ({ action_run_id: "a", action_key: "fetch", action_type_key: "http.request", status: "failed", attempt_count: 1, retry_count: 0,
    input_json: {}, output_json: {}, provider_response_json: {}, retry_class, diagnostics: reason_code ? { reason_code } : {} }) as ActionRun;

describe("futileRetry", () => {
  it("says a host the egress policy refuses is refused again, and offers no retry", () => {
    const reason = futileRetry(failure("validation", "egress_refused"));
    expect(reason).toBe("retryFutile_egress");
    expect(retryAfterFix(reason)).toBe(false);
  });
  it("says validation and permanent failures fail the same way, without a retry", () => {
    expect(futileRetry(failure("validation", "condition_error"))).toBe("retryFutile_validation");
    expect(futileRetry(failure("permanent", "http_404"))).toBe("retryFutile_permanent");
    expect(retryAfterFix("retryFutile_permanent")).toBe(false);
  });
  it("keeps the retry of an auth failure, to run once the credentials are fixed", () => {
    expect(futileRetry(failure("auth", "http_401"))).toBe("retryFutile_auth");
    expect(retryAfterFix("retryFutile_auth")).toBe(true);
  });
  it("offers the retry where it may help", () => {
    for (const cls of ["transient", "rate_limited", "timeout_unknown", "unknown_outcome", "canceled"] as const) {
      expect(futileRetry(failure(cls))).toBeUndefined();
    }
    expect(retryAfterFix(undefined)).toBe(true);
  });
});
