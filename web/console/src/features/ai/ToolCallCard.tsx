import { lazy, Suspense, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useDecide, type LiveTurn } from "./ai";
import { proposalOf, type Session, type ToolCall } from "./transcript";
import "./texts";

// The diff draws on the workflow canvas (React Flow): its script loads with the first
// proposal shown, not with the panel.
const ProposedChange = lazy(() => import("./ProposedChange").then((m) => ({ default: m.ProposedChange })));

const tools = [
  "list_workflows",
  "get_workflow",
  "list_runs",
  "get_run",
  "list_clients",
  "list_payment_actions",
  "search_integration_docs",
  "remember",
  "propose_workflow_patch",
  "apply_patch_proposal",
  "start_test_run",
  "retry_failed_action",
] as const;
type Tool = (typeof tools)[number];
const isTool = (key: string): key is Tool => (tools as readonly string[]).includes(key);

type ToolCallCardProps = { projectId: string; session: Session; call: ToolCall; live: LiveTurn };

/** ToolCallCard is a tool the employee called: what, its status and risk, its input and
 * result. A call that waits for the person is the approval card: the input in full, a
 * proposed workflow change as a diff on the canvas, and approve and reject. */
export function ToolCallCard({ projectId, session, call, live }: ToolCallCardProps) {
  const { t } = useTranslation("ai");
  const name = isTool(call.tool_key) ? t(`tool_${call.tool_key}`) : call.tool_key;
  const pending = call.status === "pending_approval";
  const id = useId();
  return (
    <div
      role="group"
      aria-labelledby={pending ? `${id}-approval ${id}-title` : `${id}-title`}
      className={pending ? "ai-tool ai-approval" : "ai-tool"}
      data-tool-key={call.tool_key}
      data-status={call.status}
    >
      {pending && (
        <p id={`${id}-approval`} className="ai-approval-title">
          {t("approvalNeeded")}
        </p>
      )}
      <p id={`${id}-title`} className="ai-tool-title">
        <span className="ai-tool-name">{name}</span>
        <code className="muted">{call.tool_key}</code>
        <span className={`ai-tool-status status-${call.status}`}>{t(`status_${call.status}`)}</span>
        <span className="muted">· {t(`risk_${call.risk_level}`)}</span>
      </p>
      <Payload summary={t("input")} value={call.input_json} open={pending} />
      {!pending && <Payload summary={t("result")} value={call.output_json} empty={t("noResult")} />}
      <ProposalPart session={session} call={call} />
      {pending && <Decision projectId={projectId} session={session} call={call} live={live} />}
    </div>
  );
}

/** Payload is a call's input or result as JSON text, folded unless open. */
function Payload({ summary, value, open, empty }: { summary: string; value: Record<string, unknown>; open?: boolean; empty?: string }) {
  const none = Object.keys(value).length === 0;
  return (
    <details className="ai-payload" open={open}>
      <summary>{summary}</summary>
      {none && empty ? <p className="muted">{empty}</p> : <pre>{JSON.stringify(value, null, 2)}</pre>}
    </details>
  );
}

/** ProposalPart shows the workflow change a call proposes or applies: on the canvas, as
 * the diff of the workflow's pages, before it is approved; once applied, where it went. */
function ProposalPart({ session, call }: { session: Session; call: ToolCall }) {
  const { t } = useTranslation("ai");
  const pending = call.status === "pending_approval";
  const [shown, setShown] = useState(pending);
  const proposal = proposalOf(session, call);
  const applying = call.tool_key === "apply_patch_proposal";
  if (!applying && call.tool_key !== "propose_workflow_patch") return null;
  if (!proposal) return applying && pending ? <p className="muted">{t("proposalMissing")}</p> : null;
  if (applying && call.status === "succeeded") {
    return (
      <p className="ai-applied">
        {t("appliedToDraft")} <Link to={`/workflows/${proposal.workflowId}`}>{t("openEditor")}</Link>
      </p>
    );
  }
  if (proposal.applied || (applying && !pending)) return null;
  return (
    <div className="ai-proposal">
      <button type="button" aria-expanded={shown} onClick={() => setShown((s) => !s)}>
        {shown ? t("hideChange") : t("showChange")}
      </button>
      {shown && (
        <Suspense fallback={<p className="muted">…</p>}>
          <ProposedChange workflowId={proposal.workflowId} patch={proposal.patch} />
        </Suspense>
      )}
    </div>
  );
}

/** Decision is the approval card's approve and reject. */
function Decision({ projectId, session, call, live }: ToolCallCardProps) {
  const { t } = useTranslation("ai");
  const decide = useDecide(projectId, session.ai_chat_session_id, live);
  const deciding = decide.isPending ? decide.variables.approve : undefined;
  return (
    <div className="stack ai-decision">
      <p className="muted">{t("approvalHint")}</p>
      <div className="row">
        <button type="button" className="primary" disabled={decide.isPending} onClick={() => decide.mutate({ call, approve: true })}>
          {deciding === true ? t("approving") : t("approve")}
        </button>
        <button type="button" className="danger" disabled={decide.isPending} onClick={() => decide.mutate({ call, approve: false })}>
          {deciding === false ? t("rejecting") : t("reject")}
        </button>
      </div>
      <ProblemAlert error={decide.error} />
    </div>
  );
}
