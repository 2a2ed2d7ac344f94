import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { today as todayOf } from "../../lib/dates";
import { BillingTabs } from "./BillingTabs";
import { PaymentActionTable } from "./PaymentActionTable";
import { Totals } from "./Totals";
import { usePaymentQueue } from "./billing";
import { queueTotals, queueViews, type QueueView } from "./queue";
import "./billing.css";
import "./texts";

/** PaymentQueuePage is the project's queue of what is due: the open payment actions (or one
 * state of them, or the closed ones), by due date, with their totals per currency. */
export function PaymentQueuePage() {
  const { t } = useTranslation("billing");
  const { t: common } = useTranslation();
  const projectId = useParams().projectId!;
  const [params] = useSearchParams();
  const view: QueueView = queueViews.find((v) => v === params.get("view")) ?? "open";
  const today = todayOf();
  const queue = usePaymentQueue(projectId, view, today);
  return (
    <>
      <BillingTabs projectId={projectId} />
      <section className="page billing-page stack" aria-labelledby="queue-title">
        <h2 id="queue-title" className="visually-hidden">
          {t("due")}
        </h2>
        <nav className="queue-views" aria-label={t("queueViews")}>
          {queueViews.map((v) => (
            <Link key={v} to={v === "open" ? "?" : `?view=${v}`} replace aria-current={v === view ? "page" : undefined}>
              {t(`view_${v}`)}
            </Link>
          ))}
        </nav>
        <ProblemAlert error={queue.error} />
        {!queue.items ? (
          !queue.error && <p className="muted">{common("loading")}</p>
        ) : queue.items.length === 0 ? (
          <p className="muted">{t(view === "open" ? "nothingDue" : "nothingInView")}</p>
        ) : (
          <>
            <Totals label={t(view === "open" ? "totalDue" : "totalOfView")} totals={queueTotals(queue.items)} />
            <PaymentActionTable actions={queue.items} today={today} show="client" />
          </>
        )}
      </section>
    </>
  );
}
