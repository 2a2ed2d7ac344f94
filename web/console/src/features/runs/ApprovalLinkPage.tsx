import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { LanguageSelect } from "../../components/LanguageSelect";
import { ProblemAlert } from "../../components/ProblemAlert";
import { ApprovalDecision } from "./ApprovalDecision";
import { useApprovalLink, useDecideByLink } from "./approvals";
import "./texts";

/** ApprovalLinkPage is where a signed decide link opens, for someone without an account:
 * what is to be decided, and Approve or Reject, once. */
export function ApprovalLinkPage() {
  const { t } = useTranslation("runs");
  const { approvalId = "", token = "" } = useParams();
  const approval = useApprovalLink(approvalId, token);
  const decide = useDecideByLink(approvalId, token);
  const a = approval.data;
  return (
    <main className="auth" id="main">
      <div className="auth-card">
        <p className="brand">{t("appName", { ns: "common" })}</p>
        <h1>{a ? a.title : t("approvalLinkTitle")}</h1>
        {approval.error ? <ProblemAlert error={approval.error} /> : !a && <p className="muted">{t("loading", { ns: "common" })}</p>}
        {a && (
          <>
            {a.message && <p className="approval-message">{a.message}</p>}
            {a.status === "pending" ? (
              <ApprovalDecision formSchema={a.form_schema_json} pending={decide.isPending} error={decide.error} onDecide={(body) => decide.mutate(body)} />
            ) : (
              <p role="status">{t(`approvalLinkDone_${a.status}`)}</p>
            )}
          </>
        )}
        <LanguageSelect className="auth-lang" />
      </div>
    </main>
  );
}
