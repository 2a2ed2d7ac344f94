import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { ApprovalCard } from "./RunApprovals";
import { useWaitingApprovals } from "./approvals";
import "./runs.css";
import "./texts";

/** ApprovalsPage is what waits for the signed-in person's decision, in every company of
 * theirs, the soonest to expire first; each is decided here or opened in its run. */
export function ApprovalsPage() {
  const { t } = useTranslation("runs");
  const waiting = useWaitingApprovals();
  const items = waiting.data?.items ?? [];
  return (
    <div className="page">
      <h1>{t("approvalsTitle")}</h1>
      <ProblemAlert error={waiting.error} />
      {waiting.data && items.length === 0 && <p className="muted">{t("approvalsNone")}</p>}
      <ul className="approval-list">
        {items.map((a) => (
          <li key={a.approval_id}>
            <ApprovalCard approval={a} heading="h2" />
            <Link to={`/runs/${a.workflow_run_id}`}>{t("approvalOpenRun")}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
