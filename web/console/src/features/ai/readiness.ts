// What the project's employee lacks to be `ready` (docs/ai-employee.md, the capability
// ladder), step by step, so the panel can say it plainly and point at the fix.
import type { components } from "../../api/schema.gen";

export type Envelope = components["schemas"]["AIEmployeeEnvelope"];
export type Capability = components["schemas"]["AICapability"];
export type ConfiguredProvider = Envelope["configured_dependencies"][number];

/** Step is one condition of `ready`, in the ladder's order. */
export type Step = "switched_on" | "provider" | "runtime" | "permission";

export type StepState = { step: Step; done: boolean };

/** readiness lists the conditions of `ready` and whether each holds. */
export function readiness(envelope: Envelope): StepState[] {
  const deps = envelope.capability.dependencies;
  return [
    { step: "switched_on", done: envelope.employee.enabled },
    { step: "provider", done: deps.model_provider?.status === "ok" },
    { step: "runtime", done: deps.agent_runtime?.status === "ok" },
    { step: "permission", done: envelope.employee.permission === "write" },
  ];
}

/** providerToFix is the model provider integration to test or enable: the one the
 * employee uses, else the project's first; undefined when the project has none. */
export function providerToFix(envelope: Envelope): ConfiguredProvider | undefined {
  return envelope.configured_dependencies.find((d) => d.selected) ?? envelope.configured_dependencies[0];
}
