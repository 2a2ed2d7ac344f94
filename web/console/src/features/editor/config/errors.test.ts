import { describe, expect, it } from "vitest";
import { diagnosticErrors, type Diagnostic } from "./errors";

const diagnostic = (field: string | undefined, message: string): Diagnostic => ({ severity: "error", code: "invalid_config", message, action_key: "a", field });

describe("diagnosticErrors", () => {
  it("places diagnostics on the config fields they name, nested ones too", () => {
    expect(
      diagnosticErrors([
        diagnostic("config.url", "bad url"),
        diagnostic("config.url", "template {{ x }} cannot resolve here"),
        diagnostic("config.retry_policy.max_attempts", "too many"),
        diagnostic("action_key", "duplicate"),
        diagnostic(undefined, "unreachable"),
      ]),
    ).toEqual({
      url: { __errors: ["bad url", "template {{ x }} cannot resolve here"] },
      retry_policy: { max_attempts: { __errors: ["too many"] } },
    });
  });
});
