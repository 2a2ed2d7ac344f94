import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { addDays, formatDay, formatMonth, today } from "../../lib/dates";
import { formatMoney } from "../../lib/money";
import { BillingTabs } from "./BillingTabs";
import { Totals } from "./Totals";
import { usePaymentSchedule } from "./billing";
import { scheduleMonths } from "./schedule";
import "./billing.css";
import "./texts";

const horizons = [30, 90, 180, 365] as const;

/** PaymentSchedulePage is the project's coming dues as a timeline: month by month, each due
 * day with what falls due then, and each month's totals per currency. */
export function PaymentSchedulePage() {
  const { t, i18n } = useTranslation("billing");
  const { t: common } = useTranslation();
  const projectId = useParams().projectId!;
  const [params] = useSearchParams();
  const days = horizons.find((d) => String(d) === params.get("days")) ?? 90;
  const from = today();
  const schedule = usePaymentSchedule(projectId, from, addDays(from, days));
  const months = schedule.data ? scheduleMonths(schedule.data) : [];
  return (
    <>
      <BillingTabs projectId={projectId} />
      <section className="page billing-page stack" aria-labelledby="schedule-title">
        <div className="page-head">
          <h2 id="schedule-title">{t("scheduleTitle", { days })}</h2>
          <nav className="queue-views" aria-label={t("horizon")}>
            {horizons.map((d) => (
              <Link key={d} to={`?days=${d}`} replace aria-current={d === days ? "page" : undefined}>
                {t("days", { days: d })}
              </Link>
            ))}
          </nav>
        </div>
        <ProblemAlert error={schedule.error} />
        {schedule.isPending && <p className="muted">{common("loading")}</p>}
        {schedule.data && months.length === 0 && <p className="muted">{t("nothingScheduled")}</p>}
        <ol className="timeline">
          {months.map((m) => (
            <li key={m.month} className="timeline-month">
              <section aria-labelledby={`month-${m.month}`}>
                <h3 id={`month-${m.month}`}>{formatMonth(m.month, i18n.language)}</h3>
                <Totals label={t("monthTotal")} totals={m.totals} />
                <ol className="timeline-days">
                  {m.days.map((d) => (
                    <li key={d.date}>
                      <time dateTime={d.date} className="timeline-date">
                        {formatDay(d.date, i18n.language)}
                      </time>
                      <ul>
                        {d.dues.map((due) => (
                          <li key={due.client_service_id}>
                            <Link to={`/clients/${due.client_id}`}>{due.client_name}</Link> · {due.service_name}{" "}
                            <span className="muted">({t(`period_${due.billing_period}`)})</span>
                            <span className="numeric timeline-amount">{formatMoney(due.amount, due.currency, i18n.language)}</span>
                          </li>
                        ))}
                      </ul>
                    </li>
                  ))}
                </ol>
              </section>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
