import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { today as todayOf } from "../../lib/dates";
import { PaymentActionTable } from "./PaymentActionTable";
import { Totals } from "./Totals";
import { useClientPaymentActions } from "./billing";
import { queueTotals } from "./queue";
import "./billing.css";
import "./texts";

/** ClientPaymentActions is what the client owes: its open payment actions in every project,
 * with their totals per currency. */
export function ClientPaymentActions({ clientId }: { clientId: string }) {
  const { t } = useTranslation("billing");
  const { t: common } = useTranslation();
  const today = todayOf();
  const actions = useClientPaymentActions(clientId, today);
  return (
    <section className="panel stack" aria-labelledby="client-due-title">
      <h2 id="client-due-title">{t("clientDue")}</h2>
      <ProblemAlert error={actions.error} />
      {!actions.items ? (
        !actions.error && <p className="muted">{common("loading")}</p>
      ) : actions.items.length === 0 ? (
        <p className="muted">{t("nothingDue")}</p>
      ) : (
        <>
          <Totals label={t("totalDue")} totals={queueTotals(actions.items)} />
          <PaymentActionTable actions={actions.items} today={today} show="project" />
        </>
      )}
    </section>
  );
}
