import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { formatDay, formatTimestamp, today as todayOf } from "../../lib/dates";
import { formatMoney } from "../../lib/money";
import { ConfirmForm } from "./ConfirmForm";
import { DocumentsSection } from "./DocumentsSection";
import { DueBadge } from "./DueBadge";
import { ManualPaymentForm } from "./ManualPaymentForm";
import { SnoozeForm } from "./SnoozeForm";
import { usePaymentAction, type PaymentAction } from "./billing";
import { outstanding, paid } from "./queue";
import "./billing.css";
import "./texts";

/** PaymentActionPage is one payment action: what it bills and what is still owed, and what
 * can be done about it (confirm all or some items, snooze, record a payment the client
 * made), its payments and its documents. */
export function PaymentActionPage() {
  const { t: common } = useTranslation();
  const id = useParams().paymentActionId!;
  const action = usePaymentAction(id);
  if (action.isPending) return <p className="page muted">{common("loading")}</p>;
  if (action.error) {
    return (
      <section className="page">
        <ProblemAlert error={action.error} />
      </section>
    );
  }
  return <ActionView action={action.data} />;
}

function ActionView({ action }: { action: PaymentAction }) {
  const { t, i18n } = useTranslation("billing");
  const today = todayOf();
  const money = (amount: number) => formatMoney(amount, action.currency, i18n.language);
  const open = action.status !== "paid" && action.status !== "cancelled";
  return (
    <section className="page billing-page payment-action stack" aria-labelledby="action-title">
      <p className="crumbs">
        <Link to={`/projects/${action.project_id}/billing`}>{t("titleOf", { project: action.project_name })}</Link>
      </p>
      <div className="page-head">
        <h1 id="action-title">
          {t("actionTitle", { client: action.client_name, date: formatDay(action.due_date, i18n.language) })}
        </h1>
        <DueBadge action={action} today={today} />
      </div>
      <dl className="details panel">
        <div>
          <dt>{t("client")}</dt>
          <dd>
            <Link to={`/clients/${action.client_id}`}>{action.client_name}</Link>
          </dd>
        </div>
        <div>
          <dt>{t("period")}</dt>
          <dd>
            {formatDay(action.period_start, i18n.language)} – {formatDay(action.period_end, i18n.language)}
          </dd>
        </div>
        <div>
          <dt>{t("total")}</dt>
          <dd>{money(action.total_amount)}</dd>
        </div>
        <div>
          <dt>{t("paid")}</dt>
          <dd>{money(paid(action))}</dd>
        </div>
        {open && (
          <div>
            <dt>{t("owed")}</dt>
            <dd>
              <strong>{money(outstanding(action))}</strong>
            </dd>
          </div>
        )}
        {action.comment && (
          <div>
            <dt>{t("comment")}</dt>
            <dd>{action.comment}</dd>
          </div>
        )}
        {action.workflow_run_id && (
          <div>
            <dt>{t("run")}</dt>
            <dd>
              <Link to={`/runs/${action.workflow_run_id}`}>{t("openRun")}</Link>
            </dd>
          </div>
        )}
      </dl>
      {action.status === "needs_decision" && <PartPaid action={action} />}
      {open ? <ConfirmForm action={action} /> : <ItemList action={action} />}
      {open && (
        <div className="action-forms">
          <SnoozeForm action={action} />
          <ManualPaymentForm action={action} />
        </div>
      )}
      <FactList action={action} />
      <DocumentsSection actionId={action.payment_action_id} />
    </section>
  );
}

/** PartPaid says why an action needs a decision: what its payments cover, what is left,
 * and what can be done about the rest. */
function PartPaid({ action }: { action: PaymentAction }) {
  const { t, i18n } = useTranslation("billing");
  const money = (amount: number) => formatMoney(amount, action.currency, i18n.language);
  return (
    <section className="panel part-paid" aria-labelledby="part-paid-title">
      <h2 id="part-paid-title">{t("partPaidTitle")}</h2>
      <p>{t("partPaid", { paid: money(paid(action)), total: money(action.total_amount), left: money(outstanding(action)) })}</p>
      <p>{t("partPaidDecide")}</p>
    </section>
  );
}

/** ItemList is what a closed action billed. */
function ItemList({ action }: { action: PaymentAction }) {
  const { t, i18n } = useTranslation("billing");
  return (
    <section className="panel" aria-labelledby="items-title">
      <h2 id="items-title">{t("items")}</h2>
      <ul className="part-list">
        {(action.items ?? []).map((item) => (
          <li key={item.payment_action_item_id}>
            <span>{item.title}</span>
            <span className="numeric">{formatMoney(item.amount, item.currency, i18n.language)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** FactList lists the payments recorded on the action, the newest first. */
function FactList({ action }: { action: PaymentAction }) {
  const { t, i18n } = useTranslation("billing");
  const facts = [...(action.facts ?? [])].sort((a, b) => b.paid_at.localeCompare(a.paid_at));
  return (
    <section className="panel" aria-labelledby="facts-title">
      <h2 id="facts-title">{t("facts")}</h2>
      {facts.length === 0 ? (
        <p className="muted">{t("noFacts")}</p>
      ) : (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{t("paidAt")}</th>
              <th scope="col" className="numeric">
                {t("amount")}
              </th>
              <th scope="col">{t("method")}</th>
              <th scope="col">{t("source")}</th>
            </tr>
          </thead>
          <tbody>
            {facts.map((f) => (
              <tr key={f.payment_fact_id}>
                <td>{formatTimestamp(f.paid_at, i18n.language)}</td>
                <td className="numeric">{formatMoney(f.amount, f.currency, i18n.language)}</td>
                <td>{t(`method_${f.payment_method}`)}</td>
                <td>{t(`source_${f.source}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
