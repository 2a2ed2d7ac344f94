/** formatFileSize writes a file's size as the person's language writes bytes, kB or MB: the
 * largest unit the size reaches, with at most one decimal. Bytes are written out ("16
 * bytes"), as their short form does not agree with the number in English ("16 byte"). */
export function formatFileSize(bytes: number, language: string): string {
  if (bytes < 1024) return new Intl.NumberFormat(language, { style: "unit", unit: "byte", unitDisplay: "long" }).format(bytes);
  const [unit, n] = bytes >= 1 << 20 ? ["megabyte", bytes / (1 << 20)] : ["kilobyte", bytes / 1024];
  return new Intl.NumberFormat(language, { style: "unit", unit, unitDisplay: "short", maximumFractionDigits: 1 }).format(n);
}
