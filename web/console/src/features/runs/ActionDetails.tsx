import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { durationMs, useRunFormat } from "./format";
import { PayloadView } from "./PayloadView";
import { StatusWord } from "./StatusWord";
import { attempts } from "./RunTimeline";
import { Fact } from "./Fact";
import type { ActionRun, ActionWithState } from "./types";
import "./texts";

type ActionDetailsProps = {
  action: ActionWithState;
  receipt: ActionRun | undefined;
  now: number;
  onClose: () => void;
  /** retry is the button that retries this action, when it can be retried. */
  retry?: ReactNode;
  /** failedRuns is the address of the runs list of the runs that failed at this action,
   * offered when it failed. */
  failedRuns?: string;
  /** children show what the action's type adds (a loop's items), above its diagnostics. */
  children?: ReactNode;
};

/** ActionDetails is what one action of the run did: its status, attempts, diagnostics and
 * payloads (collapsed, previewed when opened). */
export function ActionDetails({ action, receipt, now, onClose, retry, failedRuns, children }: ActionDetailsProps) {
  const { t } = useTranslation("runs");
  const format = useRunFormat();
  const status = receipt?.status ?? action.status;
  const name = action.label || action.action_key;
  return (
    <section className="action-details" aria-labelledby="action-details-title">
      <div className="action-details-head">
        <h2 id="action-details-title">{name}</h2>
        <button type="button" className="link" onClick={onClose}>
          {t("closeDetails")}
        </button>
      </div>
      <dl className="run-facts">
        <Fact term={t("status")}>
          <StatusWord status={status} retryClass={receipt?.retry_class} />
        </Fact>
        <Fact term={t("actionType")}>
          <code>{action.type_label || action.action_type_key}</code>
        </Fact>
        <Fact term={t("attempts")}>{attempts(receipt, action, t)}</Fact>
        {/* Triggers, conditions and stops are decided inside the workflow: they only finish. */}
        {(receipt?.started_at || !receipt?.finished_at) && <Fact term={t("started")}>{format.date(receipt?.started_at)}</Fact>}
        <Fact term={t("finished")}>{format.date(receipt?.finished_at)}</Fact>
        <Fact term={t("duration")}>{format.duration(durationMs(receipt?.started_at, receipt?.finished_at, now))}</Fact>
      </dl>
      {retry}
      {failedRuns && (status === "failed" || status === "dead_lettered") && (
        <p>
          <Link to={failedRuns}>{t("runsFailedHere")}</Link>
        </p>
      )}
      {children}
      {receipt && <Diagnostics receipt={receipt} actionKey={action.action_key} />}
      {receipt && (
        <div className="payloads">
          <PayloadView title={t("output")} value={receipt.output_json} name={`${action.action_key}-output`} open />
          <PayloadView title={t("input")} value={receipt.input_json} name={`${action.action_key}-input`} />
          <PayloadView title={t("providerResponse")} value={receipt.provider_response_json} name={`${action.action_key}-provider-response`} />
        </div>
      )}
    </section>
  );
}

/** handled says whether the run went on along the action's error path after it failed: the
 * interpreter then keeps the failure as its output's error. */
function handled(receipt: ActionRun): boolean {
  const error = receipt.output_json?.error;
  return (receipt.status === "failed" || receipt.status === "dead_lettered") && typeof error === "object" && error !== null;
}

/** Diagnostics is why an action failed, as the action classified it, and whether its error
 * path took the failure (then what to do is the error path's business, not the person's). */
function Diagnostics({ receipt, actionKey }: { receipt: ActionRun; actionKey: string }) {
  const { t } = useTranslation("runs");
  const d = receipt.diagnostics ?? {};
  const failed = receipt.error || d.reason_code || d.human_reason;
  const onErrorPath = handled(receipt);
  return (
    <div className="diagnostics">
      <h3>{t("diagnostics")}</h3>
      {onErrorPath && <p className="notice">{t("handledByErrorPath", { key: actionKey })}</p>}
      {failed ? (
        <dl className="run-facts">
          {receipt.error && <Fact term={t("error")}>{receipt.error}</Fact>}
          {d.reason_code && (
            <Fact term={t("reasonCode")}>
              <code>{d.reason_code}</code>
            </Fact>
          )}
          {d.human_reason && d.human_reason !== receipt.error && <Fact term={t("humanReason")}>{d.human_reason}</Fact>}
          {receipt.retry_class && <Fact term={t("retryClass")}>{t(`retryClass_${receipt.retry_class}`)}</Fact>}
          {d.retryable !== undefined && <Fact term={t("retryable")}>{d.retryable ? t("yes") : t("no")}</Fact>}
          {d.next_action && !onErrorPath && <Fact term={t("nextAction")}>{d.next_action}</Fact>}
        </dl>
      ) : (
        <p className="muted">{t("noDiagnostics")}</p>
      )}
    </div>
  );
}
