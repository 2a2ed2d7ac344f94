// Durations of the work tracker: a running timer's elapsed time and booked seconds.

/** elapsedSeconds is a running timer's elapsed time at `now`: what the server counted when
 * it answered (`elapsed_seconds`, at `receivedAt`) plus the whole seconds since, so the
 * count follows the server's clock, not the browser's idea of when the timer started. */
export function elapsedSeconds(timer: { elapsed_seconds: number }, receivedAt: number, now: number): number {
  return timer.elapsed_seconds + Math.max(0, Math.floor((now - receivedAt) / 1000));
}

/** clock writes seconds as hours, minutes and seconds: 0:04:05, 12:00:00. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const two = (n: number) => String(n).padStart(2, "0");
  return `${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
}

/** hours writes a decimal number of hours (the API's "12.50") the way the language writes
 * numbers: 12.5 in English, 12,5 in Russian. */
export function hours(value: string, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(Number(value));
}

/** day writes a `YYYY-MM-DD` date the way the language writes days. */
export function day(date: string, language: string): string {
  return new Date(date + "T00:00:00").toLocaleDateString(language);
}
