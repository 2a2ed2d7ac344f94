// Money as the console shows, sums and reads it. The API sends amounts as JSON numbers of at
// most two decimals and keeps them as whole hundredths; sums here are taken in hundredths
// too, so 0.1 + 0.2 is 0.30 and never 0.30000000000000004.

/** cents is an amount in whole hundredths. */
export function cents(amount: number): number {
  return Math.round(amount * 100);
}

/** formatMoney writes an amount in its currency as the person's language writes money. */
export function formatMoney(amount: number, currency: string, language: string): string {
  try {
    return new Intl.NumberFormat(language, { style: "currency", currency }).format(amount);
  } catch {
    // A code Intl does not know is still the API's: the number, then the code.
    return `${new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)} ${currency}`;
  }
}

/** MoneyTotal is the sum of some amounts of one currency. */
export type MoneyTotal = { currency: string; amount: number; count: number };

/** totalsByCurrency sums amounts per currency, in hundredths, in the order currencies first
 * appear. Amounts of different currencies are never added together. */
export function totalsByCurrency(amounts: { amount: number; currency: string }[]): MoneyTotal[] {
  const totals = new Map<string, { cents: number; count: number }>();
  for (const { amount, currency } of amounts) {
    const t = totals.get(currency) ?? { cents: 0, count: 0 };
    totals.set(currency, { cents: t.cents + cents(amount), count: t.count + 1 });
  }
  return [...totals].map(([currency, t]) => ({ currency, amount: t.cents / 100, count: t.count }));
}

/** parseAmount reads an amount as a person types it: digits with "." or "," before at most
 * two decimals, spaces between thousands allowed ("25 000,50"). Undefined when it is not one. */
export function parseAmount(text: string): number | undefined {
  const plain = text.replace(/[\s\u00a0\u202f]/g, "").replace(",", ".");
  if (!/^[0-9]+(\.[0-9]{1,2})?$/.test(plain)) return undefined;
  return Number(plain);
}

/** amountText is an amount as the form's field first shows it: plain digits, a point and
 * two decimals when there are any, so parseAmount reads it back. */
export function amountText(amount: number): string {
  return Number.isInteger(amount) ? String(amount) : amount.toFixed(2);
}
