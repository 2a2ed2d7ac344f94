import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { personName, useBookTime, useEmployees, useTaskTime } from "./queries";
import { clock, day } from "./time";
import "./texts";

/** TaskTime lists the time booked on a task (by its timers and by hand) with the total, and
 * books time by hand. */
export function TaskTime({ taskId }: { taskId: string }) {
  const { t, i18n } = useTranslation("work");
  const { t: common } = useTranslation();
  const headingId = useId();
  const entries = useTaskTime(taskId);
  const people = useEmployees().data ?? [];
  const book = useBookTime(taskId);
  const [minutes, setMinutes] = useState("");
  const [date, setDate] = useState("");
  const [note, setNote] = useState("");
  const total = (entries.data ?? []).reduce((sum, e) => sum + e.duration_seconds, 0);
  const who = (id: string) => {
    const p = people.find((p) => p.user_id === id);
    return p ? personName(p) : "";
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    book.mutate(
      { duration_seconds: Math.round(Number(minutes) * 60), ...(date ? { work_date: date } : {}), note },
      {
        onSuccess: () => {
          setMinutes("");
          setNote("");
        },
      },
    );
  }

  return (
    <section className="work-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{t("time")}</h2>
      <p className="muted">{t("total", { time: clock(total) })}</p>
      <ProblemAlert error={entries.error} />
      {entries.isPending ? (
        <p className="muted">{common("loading")}</p>
      ) : entries.data?.length ? (
        <table className="list time-entries">
          <thead>
            <tr>
              <th scope="col">{t("workDate")}</th>
              <th scope="col">{t("duration")}</th>
              <th scope="col">{t("person")}</th>
              <th scope="col">{t("note")}</th>
            </tr>
          </thead>
          <tbody>
            {entries.data.map((e) => (
              <tr key={e.time_entry_id}>
                <td>{day(e.work_date, i18n.language)}</td>
                <td>
                  {clock(e.duration_seconds)} {e.source === "timer" && <span className="muted">{t("byTimer")}</span>}
                </td>
                <td>{who(e.user_id)}</td>
                <td>{e.note}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">{t("noTime")}</p>
      )}
      <form className="stack book-time" onSubmit={submit}>
        <h3>{t("bookTime")}</h3>
        <div className="row wide-fields">
          <Field label={t("minutes")} name="duration_seconds" type="number" required min={1} max={1440} value={minutes} onChange={(e) => setMinutes(e.target.value)} error={book.error} />
          <Field label={t("workDate")} name="work_date" type="date" value={date} onChange={(e) => setDate(e.target.value)} error={book.error} />
        </div>
        <Field label={t("note")} name="note" maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} error={book.error} />
        <ProblemAlert error={book.error} />
        <div className="row">
          <button type="submit" disabled={book.isPending}>
            {t("book")}
          </button>
        </div>
      </form>
    </section>
  );
}
