import { useTranslation } from "react-i18next";
import { formatTimestamp } from "../../lib/dates";
import { ApprovalDecision } from "./ApprovalDecision";
import { useDecide, useRunApprovals, type Approval } from "./approvals";
import "./texts";

/** RunApprovals are the run's approvals in the inspector: a pending one its approver decides
 * here; the others say what became of them. */
export function RunApprovals({ runId, live }: { runId: string; live: boolean }) {
  const { t } = useTranslation("runs");
  const approvals = useRunApprovals(runId, live);
  const items = approvals.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section className="run-approvals" aria-labelledby="run-approvals-title">
      <h2 id="run-approvals-title">{t("approvals")}</h2>
      {items.map((a) => (
        <ApprovalCard key={a.approval_id} approval={a} />
      ))}
    </section>
  );
}

/** ApprovalCard is one approval: its title and message as text, its status, and while it
 * waits for the person, their decision. */
export function ApprovalCard({ approval, heading = "h3" }: { approval: Approval; heading?: "h2" | "h3" }) {
  const { t, i18n } = useTranslation("runs");
  const decide = useDecide(approval.approval_id, approval.workflow_run_id);
  const Heading = heading;
  return (
    <article className="approval" data-approval-status={approval.status} aria-labelledby={`approval-${approval.approval_id}`}>
      <Heading id={`approval-${approval.approval_id}`}>{approval.title}</Heading>
      {approval.message && <p className="approval-message">{approval.message}</p>}
      <p className="muted">
        {approval.status === "pending"
          ? t("approvalWaitsUntil", { time: formatTimestamp(approval.expires_at, i18n.language), role: t(`approverRole_${approval.approver_role}`) })
          : t(`approvalStatus_${approval.status}`, { by: approval.decided_by })}
      </p>
      {approval.comment && <p>{t("approvalCommentWas", { comment: approval.comment })}</p>}
      {approval.can_decide && <ApprovalDecision formSchema={approval.form_schema_json} pending={decide.isPending} error={decide.error} onDecide={(body) => decide.mutate(body)} />}
    </article>
  );
}
