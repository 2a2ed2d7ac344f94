import { describe, expect, it } from "vitest";
import { scheduleMonths, type Due } from "./schedule";

const due = (date: string, name: string, amount: number, currency = "RUB"): Due => ({
  client_service_id: name,
  client_id: "c",
  client_name: "Acme",
  service_name: name,
  service_type_key: "other",
  billing_period: "monthly",
  due_date: date,
  amount,
  currency,
});

describe("the schedule as a timeline", () => {
  it("groups dues by month and day in date order, with each month's totals", () => {
    const months = scheduleMonths({
      from: "2026-11-27",
      to: "2027-01-31",
      items: [due("2026-12-25", "Hosting", 1500), due("2026-11-30", "SEO", 30000), due("2026-12-25", "Ads", 100, "EUR")],
      totals: [
        { month: "2026-11", currency: "RUB", amount: 30000, count: 1 },
        { month: "2026-12", currency: "RUB", amount: 1500, count: 1 },
        { month: "2026-12", currency: "EUR", amount: 100, count: 1 },
      ],
    });
    expect(months.map((m) => [m.month, m.days.map((d) => [d.date, d.dues.map((x) => x.service_name)]), m.totals.map((t) => t.currency)])).toEqual([
      ["2026-11", [["2026-11-30", ["SEO"]]], ["RUB"]],
      ["2026-12", [["2026-12-25", ["Hosting", "Ads"]]], ["RUB", "EUR"]],
    ]);
  });
  it("is empty when nothing is due", () => {
    expect(scheduleMonths({ from: "2026-11-27", to: "2027-01-31", items: [], totals: [] })).toEqual([]);
  });
});
