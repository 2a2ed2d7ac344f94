import { useTranslation } from "react-i18next";
import { formatMoney, type MoneyTotal } from "../../lib/money";
import "./texts";

/** Totals shows sums per currency side by side, each with how many it adds up. */
export function Totals({ label, totals }: { label: string; totals: MoneyTotal[] }) {
  const { t, i18n } = useTranslation("billing");
  return (
    <dl className="totals" aria-label={label}>
      {totals.map((total) => (
        <div key={total.currency}>
          <dt>
            {label}, {total.currency}
          </dt>
          <dd>
            <strong>{formatMoney(total.amount, total.currency, i18n.language)}</strong>
            <span className="muted"> {t("count", { count: total.count })}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
