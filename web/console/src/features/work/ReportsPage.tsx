import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { HoursChart } from "./HoursChart";
import { useReport, type ReportGrouping, type ReportQuery } from "./queries";
import { day, hours } from "./time";
import "./texts";

const groupings: ReportGrouping[] = ["user", "project", "client", "task"];

/** ReportsPage sums the time booked over a period (this month unless chosen) by person,
 * project, client or task: a chart, the same figures as a table, and a CSV download. */
export function ReportsPage() {
  const { t, i18n } = useTranslation("work");
  const [query, setQuery] = useState<ReportQuery>({ group_by: "user" });
  const report = useReport(query);
  const ids = { group: useId(), from: useId(), to: useId() };
  const r = report.data;
  const rows = r?.rows.map((row) => ({ ...row, key: row.id ?? "none", name: row.name || t(`no_${query.group_by}`) })) ?? [];
  const csv = new URLSearchParams({ ...query, format: "csv" } as Record<string, string>);
  return (
    <section className="page work-page">
      <h1>{t("reports")}</h1>
      <form className="row report-controls" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={ids.group}>{t("groupBy")}</label>
          <select id={ids.group} value={query.group_by} onChange={(e) => setQuery({ ...query, group_by: e.target.value as ReportGrouping })}>
            {groupings.map((g) => (
              <option key={g} value={g}>
                {t(`by_${g}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.from}>{t("from")}</label>
          <input id={ids.from} type="date" value={query.from ?? r?.from ?? ""} onChange={(e) => setQuery({ ...query, from: e.target.value || undefined })} />
        </div>
        <div className="field">
          <label htmlFor={ids.to}>{t("to")}</label>
          <input id={ids.to} type="date" value={query.to ?? r?.to ?? ""} onChange={(e) => setQuery({ ...query, to: e.target.value || undefined })} />
        </div>
        <a className="button" href={`/api/v1/work/reports?${csv}`} download>
          {t("downloadCsv")}
        </a>
      </form>
      <ProblemAlert error={report.error} />
      {r && (
        <>
          <p>
            {t("reportPeriod", { from: day(r.from, i18n.language), to: day(r.to, i18n.language), hours: hours(r.total_hours, i18n.language) })}
          </p>
          {rows.length === 0 ? (
            <p className="muted">{t("noTimeInPeriod")}</p>
          ) : (
            <div className="report">
              <HoursChart bars={rows.map((row) => ({ key: row.key, name: row.name, hours: row.seconds / 3600 }))} label={t("chartLabel", { by: t(`by_${query.group_by}`) })} />
              <table className="list">
                <caption className="visually-hidden">
                  {t("chartLabel", { by: t(`by_${query.group_by}`) })}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">{t(`by_${query.group_by}`)}</th>
                    <th scope="col">{t("hours")}</th>
                    <th scope="col">{t("entries")}</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.key}>
                      <td>{row.name}</td>
                      <td>{hours(row.hours, i18n.language)}</td>
                      <td>{row.entries}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row">{t("totalRow")}</th>
                    <td>{hours(r.total_hours, i18n.language)}</td>
                    <td />
                  </tr>
                </tfoot>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
