import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { SelectField } from "../../components/SelectField";
import { momentOn, today } from "../../lib/dates";
import { formProblem } from "../../lib/formProblem";
import { newIdempotencyKey } from "../../lib/idempotencyKey";
import { amountText, parseAmount } from "../../lib/money";
import { useSingleFlight } from "../../lib/useSingleFlight";
import { paymentMethods, useManualPayment, type PaymentAction, type PaymentMethod } from "./billing";
import "./texts";

/** ManualPaymentForm records a payment the client made for one of the action's services, for
 * the period the action bills. */
export function ManualPaymentForm({ action }: { action: PaymentAction }) {
  const { t } = useTranslation("billing");
  // A new form, with a new idempotency key, for each payment.
  const [round, setRound] = useState(0);
  return (
    <section className="panel stack" aria-labelledby="manual-title">
      <h2 id="manual-title">{t("manualTitle")}</h2>
      <p className="muted">{t("manualIntro")}</p>
      <PaymentForm key={round} action={action} onAnother={() => setRound(round + 1)} />
    </section>
  );
}

function PaymentForm({ action, onAnother }: { action: PaymentAction; onAnother: () => void }) {
  const { t } = useTranslation("billing");
  const record = useManualPayment(action.client_id);
  const items = action.items ?? [];
  // The key is made once per form: a double click, or sending again after an answer was
  // lost, sends the same key, and the API records the payment once.
  const [key] = useState(newIdempotencyKey);
  // So is the time of a payment made today: a resend must be the same payment to the API.
  const [madeAt] = useState(() => new Date());
  const send = useSingleFlight(record);
  const [itemId, setItemId] = useState(items[0]?.payment_action_item_id ?? "");
  const item = items.find((i) => i.payment_action_item_id === itemId);
  const [amount, setAmount] = useState(() => (items[0] ? amountText(items[0].amount) : ""));
  const [paidOn, setPaidOn] = useState(today());
  const [method, setMethod] = useState<PaymentMethod>("bank_transfer");
  const [comment, setComment] = useState("");
  const [invalid, setInvalid] = useState<unknown>(null);
  const error = invalid ?? record.error;
  const done = record.isSuccess;

  function submit(e: FormEvent) {
    e.preventDefault();
    const paid = parseAmount(amount);
    if (!item || paid === undefined) {
      setInvalid(formProblem(["amount"], t("amountFormat")));
      return;
    }
    setInvalid(null);
    send({
      idempotency_key: key,
      client_service_id: item.client_service_id,
      project_id: action.project_id,
      amount: paid,
      currency: item.currency,
      period_start: item.due_date,
      paid_at: momentOn(paidOn, madeAt),
      payment_method: method,
      comment: comment || undefined,
    });
  }

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label={t("manualTitle")}>
      <SelectField
        label={t("service")}
        name="client_service_id"
        value={itemId}
        disabled={done}
        onChange={(e) => {
          const next = items.find((i) => i.payment_action_item_id === e.target.value);
          setItemId(e.target.value);
          if (next) setAmount(amountText(next.amount));
        }}
        error={error}
      >
        {items.map((i) => (
          <option key={i.payment_action_item_id} value={i.payment_action_item_id}>
            {i.title}
          </option>
        ))}
      </SelectField>
      <div className="form-grid">
        <Field label={t("amountReceived")} name="amount" inputMode="decimal" disabled={done} value={amount} onChange={(e) => setAmount(e.target.value)} error={error} />
        <Field label={t("paidOn")} name="paid_at" type="date" max={today()} disabled={done} value={paidOn} onChange={(e) => setPaidOn(e.target.value)} error={error} />
        <SelectField
          label={t("method")}
          name="payment_method"
          value={method}
          disabled={done}
          onChange={(e) => setMethod(paymentMethods.find((m) => m === e.target.value) ?? method)}
          error={error}
        >
          {paymentMethods.map((m) => (
            <option key={m} value={m}>
              {t(`method_${m}`)}
            </option>
          ))}
        </SelectField>
      </div>
      <Field label={t("comment")} name="comment" maxLength={2000} disabled={done} value={comment} onChange={(e) => setComment(e.target.value)} error={error} />
      <ProblemAlert error={error} />
      {done ? (
        <div className="row">
          <p className="notice" role="status">
            {t("paymentRecorded")}
          </p>
          <button type="button" onClick={onAnother}>
            {t("recordAnother")}
          </button>
        </div>
      ) : (
        <div className="row">
          <button type="submit" disabled={record.isPending}>
            {record.isPending ? t("recording") : t("recordPayment")}
          </button>
        </div>
      )}
    </form>
  );
}
