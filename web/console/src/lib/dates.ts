// Calendar dates as the API writes them (YYYY-MM-DD, a day without a time or zone) and as
// the person's language writes them. A day is read and written in UTC, so it never shifts
// by the browser's time zone.

/** today is the person's current day, in their own time zone, as YYYY-MM-DD. */
export function today(now = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, "0");
  const d = String(now.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

/** addDays is the day n days after (before, when negative) the day. */
export function addDays(day: string, n: number): string {
  const t = Date.parse(day + "T00:00:00Z") + n * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** formatDay writes a YYYY-MM-DD day as the language writes a date. */
export function formatDay(day: string, language: string, style: "medium" | "long" | "full" = "medium"): string {
  return new Intl.DateTimeFormat(language, { dateStyle: style, timeZone: "UTC" }).format(new Date(day + "T00:00:00Z"));
}

/** formatMonth writes a YYYY-MM month as the language names a month of a year. */
export function formatMonth(month: string, language: string): string {
  return new Intl.DateTimeFormat(language, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(month + "-01T00:00:00Z"));
}

/** formatTimestamp writes an RFC 3339 time as the language writes a date and time. */
export function formatTimestamp(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

/** momentOn is the RFC 3339 time of something done on the day: now when the day is today,
 * else noon of the day in the person's time zone, which keeps its day in any zone within
 * twelve hours. */
export function momentOn(day: string, now = new Date()): string {
  if (day === today(now)) return now.toISOString();
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y, m - 1, d, 12).toISOString();
}
