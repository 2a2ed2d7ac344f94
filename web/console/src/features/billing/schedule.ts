// The payment schedule as a timeline: the API's dues and monthly totals, grouped by month and
// then by day. Pure, so Vitest checks it.
import type { components } from "../../api/schema.gen";
import type { MoneyTotal } from "../../lib/money";

type Schedule = components["schemas"]["PaymentSchedule"];
export type Due = Schedule["items"][number];

/** ScheduleMonth is one month of the timeline: its totals per currency and its due days. */
export type ScheduleMonth = { month: string; totals: MoneyTotal[]; days: { date: string; dues: Due[] }[] };

/** scheduleMonths groups the dues by month and day, in date order, each month with the
 * API's totals of it (the API sums them; the page only shows them). */
export function scheduleMonths(schedule: Schedule): ScheduleMonth[] {
  const months = new Map<string, ScheduleMonth>();
  const month = (key: string) => {
    let m = months.get(key);
    if (!m) {
      m = { month: key, totals: [], days: [] };
      months.set(key, m);
    }
    return m;
  };
  for (const due of [...schedule.items].sort((a, b) => a.due_date.localeCompare(b.due_date))) {
    const m = month(due.due_date.slice(0, 7));
    const last = m.days[m.days.length - 1];
    if (last?.date === due.due_date) last.dues.push(due);
    else m.days.push({ date: due.due_date, dues: [due] });
  }
  for (const total of schedule.totals) month(total.month).totals.push({ currency: total.currency, amount: total.amount, count: total.count });
  return [...months.values()].sort((a, b) => a.month.localeCompare(b.month));
}
