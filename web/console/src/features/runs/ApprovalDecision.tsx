import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { TextAreaField } from "../../components/TextAreaField";
import type { DecisionBody } from "./approvals";
import "./texts";

type ApprovalDecisionProps = {
  /** formSchema is the approval's form_schema_json: with one, the approver fills its data as JSON. */
  formSchema: Record<string, unknown> | null | undefined;
  pending: boolean;
  error: unknown;
  onDecide: (body: DecisionBody) => void;
};

/** ApprovalDecision is the approver's answer: a comment, the form's data where it has one, and
 * Approve or Reject. A Problem shows on the field it names. */
export function ApprovalDecision({ formSchema, pending, error, onDecide }: ApprovalDecisionProps) {
  const { t } = useTranslation("runs");
  const [comment, setComment] = useState("");
  const [dataText, setDataText] = useState("{}");
  const [dataInvalid, setDataInvalid] = useState(false);
  const decide = (decision: DecisionBody["decision"]) => (e: FormEvent) => {
    e.preventDefault();
    const body: DecisionBody = { decision, comment };
    if (formSchema) {
      try {
        const parsed: unknown = JSON.parse(dataText);
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
        body.data = parsed as Record<string, unknown>;
      } catch {
        setDataInvalid(true);
        return;
      }
    }
    setDataInvalid(false);
    onDecide(body);
  };
  return (
    <form className="approval-decision" onSubmit={decide("approved")}>
      <TextAreaField label={t("approvalComment")} name="comment" value={comment} maxLength={2000} rows={2} error={error} onChange={(e) => setComment(e.target.value)} />
      {formSchema && (
        <>
          <TextAreaField
            label={t("approvalData")}
            name="data"
            value={dataText}
            rows={3}
            error={error}
            onChange={(e) => setDataText(e.target.value)}
          />
          {dataInvalid && <p className="field-error">{t("approvalDataNotJson")}</p>}
          <details>
            <summary>{t("approvalFormSchema")}</summary>
            <pre className="payload">{JSON.stringify(formSchema, null, 2)}</pre>
          </details>
        </>
      )}
      <ProblemAlert error={error} />
      <div className="form-buttons">
        <button type="submit" className="primary" disabled={pending}>
          {t("approve")}
        </button>
        <button type="button" disabled={pending} onClick={decide("rejected")}>
          {t("reject")}
        </button>
      </div>
    </form>
  );
}
