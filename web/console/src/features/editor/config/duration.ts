// Durations kept as whole seconds and shown in the largest unit they are a whole number of.

export const UNITS = [
  ["days", 86400],
  ["hours", 3600],
  ["minutes", 60],
  ["seconds", 1],
] as const;
export type Unit = (typeof UNITS)[number][0];

export const unitSeconds = (unit: Unit) => UNITS.find(([u]) => u === unit)![1];

/** bestUnit is the largest unit the value is a whole number of, so 3600 reads as 1 hour. */
export function bestUnit(seconds: unknown): Unit {
  if (typeof seconds !== "number" || seconds <= 0) return "seconds";
  return UNITS.find(([, f]) => seconds % f === 0)![0];
}

/** formatDuration words a duration in the language, "30 days", "1 час". */
export function formatDuration(seconds: number, language: string): string {
  const unit = bestUnit(seconds);
  const intlUnit = unit.slice(0, -1);
  return new Intl.NumberFormat(language, { style: "unit", unit: intlUnit, unitDisplay: "long" }).format(seconds / unitSeconds(unit));
}
