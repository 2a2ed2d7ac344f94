import { describe, expect, it } from "vitest";
import { diagnosticErrors, diagnosticText, type Diagnostic, type ErrorText } from "./errors";

const diagnostic = (field: string | undefined, message: string, code = "broken_template"): Diagnostic => ({ severity: "error", code, message, action_key: "a", field });
const text: ErrorText = (key, values) => (values ? `${key} ${JSON.stringify(values)}` : key);

describe("diagnosticErrors", () => {
  it("places diagnostics on the config fields they name, nested ones too", () => {
    expect(
      diagnosticErrors([
        diagnostic("config.url", "bad url"),
        diagnostic("config.url", "template {{ x }} cannot resolve here"),
        diagnostic("config.retry_policy.max_attempts", "too many"),
        diagnostic("action_key", "duplicate"),
        diagnostic(undefined, "unreachable"),
      ], text, true),
    ).toEqual({
      url: { __errors: ["bad url", "template {{ x }} cannot resolve here"] },
      retry_policy: { max_attempts: { __errors: ["too many"] } },
    });
  });
});

describe("the server's invalid_config", () => {
  const schemaError = diagnostic("config.retry_policy.max_attempts", "config field retry_policy.max_attempts does not match the http.request schema", "invalid_config");

  it("is left to the form's own validator, which says what is wrong", () => {
    expect(diagnosticErrors([schemaError], text, true)).toEqual({});
  });

  it("is worded in plain words where the form cannot check", () => {
    expect(diagnosticErrors([schemaError], text, false)).toEqual({ retry_policy: { max_attempts: { __errors: ["invalidConfig"] } } });
  });

  it("names the field in the list of problems", () => {
    expect(diagnosticText(schemaError, text)).toBe('invalidSetting {"field":"Retry policy › Max attempts"}');
    expect(diagnosticText(diagnostic("config.url", "template {{ x }} cannot resolve here"), text)).toBe("template {{ x }} cannot resolve here");
  });
});
