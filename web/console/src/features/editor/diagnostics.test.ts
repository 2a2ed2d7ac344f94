import { describe, expect, it } from "vitest";
import type { Graph } from "../../canvas/graph";
import type { Diagnostic } from "./config/errors";
import { currentDiagnostics } from "./diagnostics";

const graph = (config: Record<string, unknown>): Graph => ({
  actions: [{ action_key: "fetch", action_type_key: "http.request", config }],
  connections: [],
});
const on = (field: string | undefined, actionKey: string | undefined = "fetch"): Diagnostic => ({ severity: "error", code: "invalid_config", message: "m", action_key: actionKey, field });

describe("currentDiagnostics", () => {
  const checked = graph({ url: "ftp://x", retry_policy: { max_attempts: 50 } });
  const all = [on("config.url"), on("config.retry_policy.max_attempts"), on("action_key"), on(undefined, undefined), on("config.url", "gone")];

  it("keeps every diagnostic of the draft as it was checked", () => {
    expect(currentDiagnostics(all, checked, checked)).toEqual(all.slice(0, 4));
  });

  it("drops the diagnostic of a field changed since, nested ones too, and keeps the others", () => {
    const edited = graph({ url: "https://example.com", retry_policy: { max_attempts: 50 } });
    expect(currentDiagnostics(all, edited, checked)).toEqual([all[1], all[2], all[3]]);
    const nested = graph({ url: "ftp://x", retry_policy: { max_attempts: 3 } });
    expect(currentDiagnostics(all, nested, checked)).toEqual([all[0], all[2], all[3]]);
  });
});
