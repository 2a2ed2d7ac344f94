/** isRecord tells a plain JSON object (not null, not an array) from other values. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
