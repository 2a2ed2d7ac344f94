import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { SelectField } from "../../components/SelectField";
import { formProblem } from "../../lib/formProblem";
import { formatDay, momentOn, today } from "../../lib/dates";
import { amountText, formatMoney, parseAmount } from "../../lib/money";
import { useSingleFlight } from "../../lib/useSingleFlight";
import { paymentMethods, useConfirm, type PaymentAction, type PaymentMethod } from "./billing";
import { outstanding, paid } from "./queue";
import "./texts";

/** ConfirmForm records that the client paid: the whole amount still owed, or the items
 * ticked, each for the amount written beside it (the item's own by default). */
export function ConfirmForm({ action }: { action: PaymentAction }) {
  const { t, i18n } = useTranslation("billing");
  const confirm = useConfirm(action);
  const send = useSingleFlight(confirm);
  const items = action.items ?? [];
  const [ticked, setTicked] = useState<Record<string, boolean>>(() => Object.fromEntries(items.map((i) => [i.payment_action_item_id, true])));
  const [amounts, setAmounts] = useState<Record<string, string>>(() => Object.fromEntries(items.map((i) => [i.payment_action_item_id, amountText(i.amount)])));
  const [method, setMethod] = useState<PaymentMethod>("bank_transfer");
  const [paidOn, setPaidOn] = useState(today());
  const [invalid, setInvalid] = useState<unknown>(null);
  const error = invalid ?? confirm.error;
  const common = { payment_method: method, paid_at: momentOn(paidOn), source: "manual" as const };

  function confirmAll() {
    setInvalid(null);
    send(common);
  }

  function confirmTicked(e: FormEvent) {
    e.preventDefault();
    const chosen = items.map((item, n) => ({ item, n })).filter(({ item }) => ticked[item.payment_action_item_id]);
    const bad = chosen.filter(({ item }) => parseAmount(amounts[item.payment_action_item_id]) === undefined).map(({ n }) => `items.${n}.amount`);
    if (chosen.length === 0 || bad.length > 0) {
      setInvalid(formProblem(bad.length ? bad : ["items"], t(bad.length ? "amountFormat" : "tickAnItem")));
      return;
    }
    setInvalid(null);
    send({
      ...common,
      items: chosen.map(({ item }) => ({ payment_action_item_id: item.payment_action_item_id, amount: parseAmount(amounts[item.payment_action_item_id]) })),
    });
  }

  return (
    <form className="panel stack confirm-form" onSubmit={confirmTicked} noValidate aria-labelledby="confirm-title">
      <h2 id="confirm-title">{t("confirmTitle")}</h2>
      <p className="muted">{t("confirmIntro")}</p>
      <table className="list items">
        <thead>
          <tr>
            <th scope="col">{t("item")}</th>
            <th scope="col">{t("dueDate")}</th>
            <th scope="col" className="numeric">
              {t("amountPaid")}
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item, n) => {
            const id = item.payment_action_item_id;
            return (
              <tr key={id}>
                <td>
                  <label className="inline">
                    <input type="checkbox" checked={!!ticked[id]} onChange={(e) => setTicked({ ...ticked, [id]: e.target.checked })} />
                    {item.title}
                  </label>
                  <div className="muted">{formatMoney(item.amount, item.currency, i18n.language)}</div>
                </td>
                <td>{formatDay(item.due_date, i18n.language)}</td>
                <td className="numeric">
                  <Field
                    label={t("amountOf", { item: item.title })}
                    name={`items.${n}.amount`}
                    inputMode="decimal"
                    className="amount-input"
                    disabled={!ticked[id]}
                    value={amounts[id]}
                    onChange={(e) => setAmounts({ ...amounts, [id]: e.target.value })}
                    error={error}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="form-grid">
        <SelectField label={t("method")} name="payment_method" value={method} onChange={(e) => setMethod(paymentMethods.find((m) => m === e.target.value) ?? method)} error={error}>
          {paymentMethods.map((m) => (
            <option key={m} value={m}>
              {t(`method_${m}`)}
            </option>
          ))}
        </SelectField>
        <Field label={t("paidOn")} name="paid_at" type="date" max={today()} value={paidOn} onChange={(e) => setPaidOn(e.target.value)} error={error} />
      </div>
      <ProblemAlert error={error} />
      <div className="row">
        <button type="button" className="primary" onClick={confirmAll} disabled={confirm.isPending}>
          {t(paid(action) > 0 ? "confirmRest" : "confirmAll", { amount: formatMoney(outstanding(action), action.currency, i18n.language) })}
        </button>
        <button type="submit" disabled={confirm.isPending}>
          {t("confirmTicked")}
        </button>
      </div>
    </form>
  );
}
