/** formatTime writes an API timestamp as the person's language writes a date and time. */
export function formatTime(iso: string, language: string): string {
  return new Date(iso).toLocaleString(language, { dateStyle: "medium", timeStyle: "medium" });
}
