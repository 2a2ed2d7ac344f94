import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { addDays, formatDay, today } from "../../lib/dates";
import { useSnooze, type PaymentAction } from "./billing";
import "./texts";

/** SnoozeForm puts the action aside until a day after today (a week by default); the billing
 * cycle brings it back that day. */
export function SnoozeForm({ action }: { action: PaymentAction }) {
  const { t, i18n } = useTranslation("billing");
  const snooze = useSnooze(action);
  const [until, setUntil] = useState(() => addDays(today(), 7));
  const [comment, setComment] = useState("");
  function submit(e: FormEvent) {
    e.preventDefault();
    snooze.mutate({ snoozed_until: until, comment: comment || undefined });
  }
  return (
    <form className="panel stack" onSubmit={submit} noValidate aria-labelledby="snooze-title">
      <h2 id="snooze-title">{t("snoozeTitle")}</h2>
      <Field label={t("snoozeUntil")} name="snoozed_until" type="date" min={addDays(today(), 1)} value={until} onChange={(e) => setUntil(e.target.value)} error={snooze.error} />
      <Field label={t("comment")} name="comment" maxLength={2000} value={comment} onChange={(e) => setComment(e.target.value)} error={snooze.error} />
      <ProblemAlert error={snooze.error} />
      {snooze.isSuccess && (
        <p className="notice" role="status">
          {t("snoozed", { date: formatDay(snooze.variables.snoozed_until, i18n.language) })}
        </p>
      )}
      <div className="row">
        <button type="submit" disabled={snooze.isPending || !until}>
          {t("snooze")}
        </button>
      </div>
    </form>
  );
}
