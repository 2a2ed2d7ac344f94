import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useCompanies } from "../workspace/workspace";
import { usePatchEmployee } from "./ai";
import { providerToFix, readiness, type Envelope, type Step } from "./readiness";
import "./texts";

const stateTone = { disabled: "danger", deterministic_preview: "warn", read_only: "muted", proposal_only: "muted", ready: "ok" } as const;
const dependencies = [
  ["model_provider", "modelProvider"],
  ["agent_runtime", "agentRuntime"],
] as const;

/** CapabilityPanel says plainly what the project's employee can do now, why, and what it
 * lacks to be ready, each missing step with the way to fix it. */
export function CapabilityPanel({ envelope }: { envelope: Envelope }) {
  const { t } = useTranslation("ai");
  const { capability } = envelope;
  const steps = readiness(envelope);
  return (
    <section className="panel ai-capability" aria-labelledby="ai-capability-title">
      <h2 id="ai-capability-title">{t("capabilityTitle")}</h2>
      <p>
        <span className={`badge ${stateTone[capability.state]}`}>{t("stateIs", { state: t(`state_${capability.state}`) })}</span>
      </p>
      <ul className="ai-reasons">
        {capability.reasons.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
      <dl className="facts">
        {dependencies.map(([key, label]) => {
          const dep = capability.dependencies[key];
          if (!dep) return null;
          return (
            <div key={key} className="ai-dependency">
              <dt>{t(label)}</dt>
              <dd>
                <span className={dep.status === "ok" ? "field-ok" : "field-error"}>{t(`dep_${dep.status}` as "dep_ok", { defaultValue: dep.status })}</span>
                <small className="muted">{dep.detail}</small>
              </dd>
            </div>
          );
        })}
      </dl>
      <h3>{t("toReady")}</h3>
      {steps.every((s) => s.done) ? (
        <p>{t("readyNote")}</p>
      ) : (
        <ol className="ai-steps">
          {steps.map(({ step, done }) => (
            <li key={step} className={done ? "done" : "missing"}>
              <span aria-hidden="true" className="mark">
                {done ? "✓" : "○"}
              </span>
              <div>
                <span>{t(`step_${step}`)}</span> <span className="visually-hidden">({done ? t("stepDone") : t("stepMissing")})</span>
                {!done && <StepFix step={step} envelope={envelope} />}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** StepFix is how a missing step is made: a button for what the employee's settings
 * change (owners and admins), a link to the integration, or who can. */
function StepFix({ step, envelope }: { step: Step; envelope: Envelope }) {
  const { t } = useTranslation("ai");
  const projectId = envelope.project.project_id;
  const role = useCompanies().data?.items.find((c) => c.company_id === envelope.project.company_id)?.role;
  const manager = role === "owner" || role === "admin";
  const patch = usePatchEmployee(projectId);
  if (step === "runtime") return <p className="muted">{t("runtimeHelp")}</p>;
  if (step === "provider") {
    const provider = providerToFix(envelope);
    return (
      <p>
        {provider ? (
          <Link to={`/settings/integrations/${provider.action_dependency_id}`}>{t("testProvider", { name: provider.name })}</Link>
        ) : (
          <Link to="/settings/integrations/new?type=ai.model_provider">{t("addProvider")}</Link>
        )}
      </p>
    );
  }
  if (!manager) return <p className="muted">{t("managersOnly")}</p>;
  const change = step === "switched_on" ? { enabled: true } : { permission: "write" as const };
  return (
    <div className="stack">
      <div>
        <button type="button" disabled={patch.isPending} onClick={() => patch.mutate(change)}>
          {step === "switched_on" ? t("switchOn") : t("allowChanges")}
        </button>
      </div>
      <ProblemAlert error={patch.error} />
    </div>
  );
}
