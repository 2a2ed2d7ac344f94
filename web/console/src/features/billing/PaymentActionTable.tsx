import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatDay } from "../../lib/dates";
import { formatMoney } from "../../lib/money";
import { DueBadge } from "./DueBadge";
import { dueState, outstanding } from "./queue";
import type { PaymentAction } from "./billing";
import "./texts";

/** PaymentActionTable lists payment actions by due date: what each bills (leading to the
 * action), whom or in which project, its amount (what an open one still asks for, and of
 * which total when part is paid; the total of a closed one) and its state. */
export function PaymentActionTable({ actions, today, show }: { actions: PaymentAction[]; today: string; show: "client" | "project" }) {
  const { t, i18n } = useTranslation("billing");
  const sorted = [...actions].sort((a, b) => a.due_date.localeCompare(b.due_date));
  return (
    <table className="list payment-actions">
      <thead>
        <tr>
          <th scope="col">{t("dueDate")}</th>
          <th scope="col">{t("bills")}</th>
          <th scope="col">{show === "client" ? t("client") : t("project")}</th>
          <th scope="col" className="numeric">
            {t("amount")}
          </th>
          <th scope="col">{t("state")}</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((a) => {
          const owed = outstanding(a);
          return (
            <tr key={a.payment_action_id} className={`due-${dueState(a, today)}`}>
              <td>{formatDay(a.due_date, i18n.language)}</td>
              <td>
                <Link to={`/payment-actions/${a.payment_action_id}`}>{(a.items ?? []).map((i) => i.title).join(", ") || t("paymentAction")}</Link>
              </td>
              <td>
                {show === "client" ? (
                  <Link to={`/clients/${a.client_id}`}>{a.client_name}</Link>
                ) : (
                  <Link to={`/projects/${a.project_id}/billing`}>{a.project_name}</Link>
                )}
              </td>
              <td className="numeric">
                {formatMoney(owed || a.total_amount, a.currency, i18n.language)}
                {owed > 0 && owed !== a.total_amount && (
                  <div className="muted">{t("leftOfTotal", { total: formatMoney(a.total_amount, a.currency, i18n.language) })}</div>
                )}
              </td>
              <td>
                <DueBadge action={a} today={today} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
