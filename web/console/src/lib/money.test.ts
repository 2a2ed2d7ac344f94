import { describe, expect, it } from "vitest";
import { amountText, formatMoney, parseAmount, totalsByCurrency } from "./money";

describe("totals per currency", () => {
  it("adds amounts of each currency apart, in hundredths", () => {
    expect(
      totalsByCurrency([
        { amount: 0.1, currency: "RUB" },
        { amount: 100, currency: "EUR" },
        { amount: 0.2, currency: "RUB" },
        { amount: 25000.5, currency: "RUB" },
        { amount: 0.01, currency: "EUR" },
      ]),
    ).toEqual([
      { currency: "RUB", amount: 25000.8, count: 3 },
      { currency: "EUR", amount: 100.01, count: 2 },
    ]);
  });
  it("is empty for nothing", () => {
    expect(totalsByCurrency([])).toEqual([]);
  });
});

describe("money in the person's language", () => {
  it("writes roubles as Russian does", () => {
    expect(formatMoney(25000.5, "RUB", "ru")).toBe("25\u00a0000,50\u00a0₽");
  });
  it("writes roubles as English does", () => {
    expect(formatMoney(25000.5, "RUB", "en")).toBe("RUB\u00a025,000.50");
  });
  it("writes euros as English does", () => {
    expect(formatMoney(1500, "EUR", "en")).toBe("€1,500.00");
  });
  it("writes a code Intl does not know after the number", () => {
    expect(formatMoney(1, "XX1", "en")).toBe("1.00 XX1");
  });
});

describe("an amount as typed", () => {
  it.each([
    ["25000", 25000],
    ["25 000,50", 25000.5],
    ["25\u00a0000.5", 25000.5],
    ["0.01", 0.01],
  ])("reads %j", (text, want) => {
    expect(parseAmount(text)).toBe(want);
  });
  it.each(["", "1.234", "-5", "1e3", "abc", "1,000.50"])("refuses %j", (text) => {
    expect(parseAmount(text)).toBeUndefined();
  });
  it("writes what it reads back", () => {
    for (const amount of [25000, 0.5, 1234.56]) expect(parseAmount(amountText(amount))).toBe(amount);
  });
});
