/** newIdempotencyKey is a random key for one write that must happen once however often it is
 * sent (a double click, a resend after a lost answer). Made from getRandomValues, which works
 * on plain-HTTP sites too, where crypto.randomUUID does not. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
