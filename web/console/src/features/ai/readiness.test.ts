import { describe, expect, it } from "vitest";
import { providerToFix, readiness, type Envelope } from "./readiness";

function envelope(over: { enabled?: boolean; permission?: "read" | "propose" | "write"; provider?: string; runtime?: string; providers?: Envelope["configured_dependencies"] }): Envelope {
  return {
    capability: {
      state: "proposal_only",
      runtime: "temporal_agent",
      production: true,
      allows_read: true,
      allows_proposals: true,
      allows_writes: false,
      reasons: [],
      dependencies: { model_provider: { status: over.provider ?? "ok", detail: "" }, agent_runtime: { status: over.runtime ?? "ok", detail: "" } },
    },
    configured_dependencies: over.providers ?? [],
    employee: {
      project_id: "p",
      enabled: over.enabled ?? true,
      permission: over.permission ?? "propose",
      allow_low_risk_writes: false,
      action_dependency_id: null,
      model_id: "",
      instructions: "",
      approval_timeout_seconds: 86400,
      updated_at: "",
    },
    model_providers: [],
    project: { project_id: "p", company_id: "c", name: "Orders" },
    setup_required: false,
  };
}

const missing = (e: Envelope) => readiness(e).filter((s) => !s.done).map((s) => s.step);

describe("readiness", () => {
  it("lists what a new project's employee lacks: a tested provider and the permission to write", () => {
    expect(missing(envelope({ provider: "missing" }))).toEqual(["provider", "permission"]);
  });

  it("names every missing step, the switch and the engine included", () => {
    expect(missing(envelope({ enabled: false, provider: "untested", runtime: "unavailable", permission: "read" }))).toEqual([
      "switched_on",
      "provider",
      "runtime",
      "permission",
    ]);
  });

  it("has nothing missing once ready", () => {
    expect(missing(envelope({ permission: "write" }))).toEqual([]);
  });
});

describe("providerToFix", () => {
  const dep = (id: string, selected: boolean) => ({ action_dependency_id: id, dependency_type_key: "ai.model_provider", name: id, status: "active", health: "untested" as const, selected });
  it("is the provider the employee uses, else the first, else none", () => {
    expect(providerToFix(envelope({ providers: [dep("a", false), dep("b", true)] }))?.action_dependency_id).toBe("b");
    expect(providerToFix(envelope({ providers: [dep("a", false)] }))?.action_dependency_id).toBe("a");
    expect(providerToFix(envelope({}))).toBeUndefined();
  });
});
