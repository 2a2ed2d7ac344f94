/** formatFileSize writes a file's size as the person's language writes bytes, kB or MB: the
 * largest unit the size reaches, with at most one decimal. */
export function formatFileSize(bytes: number, language: string): string {
  const [unit, n] = bytes >= 1 << 20 ? ["megabyte", bytes / (1 << 20)] : bytes >= 1024 ? ["kilobyte", bytes / 1024] : ["byte", bytes];
  return new Intl.NumberFormat(language, { style: "unit", unit, unitDisplay: "short", maximumFractionDigits: 1 }).format(n);
}
