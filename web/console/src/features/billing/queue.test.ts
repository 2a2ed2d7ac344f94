import { describe, expect, it } from "vitest";
import type { components } from "../../api/schema.gen";
import { dueState, outstanding, queueQuery, queueTotals } from "./queue";

type PaymentAction = components["schemas"]["PaymentActionView"];

function action(over: Partial<PaymentAction>): PaymentAction {
  return {
    payment_action_id: "a",
    company_id: "c",
    client_id: "cl",
    client_name: "Acme",
    project_id: "p",
    project_name: "Site",
    status: "pending",
    source: "manual",
    payment_method: "other",
    period_start: "2026-11-25",
    period_end: "2026-12-24",
    due_date: "2026-11-25",
    total_amount: 100,
    currency: "RUB",
    items: [],
    facts: [],
    ...over,
  };
}

const fact = (amount: number, currency = "RUB") => ({
  payment_fact_id: "f",
  source: "manual" as const,
  payment_method: "bank_transfer" as const,
  amount,
  currency,
  paid_at: "2026-11-26T10:00:00Z",
});

describe("the queue's views", () => {
  it("asks for every open status by default", () => {
    expect(queueQuery("open", "2026-11-27")).toEqual({ status: ["pending", "sent", "snoozed", "needs_decision"] });
  });
  it("asks for overdue as awaited actions due before today", () => {
    expect(queueQuery("overdue", "2026-12-01")).toEqual({ status: ["pending", "sent"], due_to: "2026-11-30" });
  });
  it("asks for one status by its name", () => {
    expect(queueQuery("snoozed", "2026-11-27")).toEqual({ status: ["snoozed"] });
  });
});

describe("an action's state", () => {
  it("is overdue when awaited past its due date", () => {
    expect(dueState(action({ due_date: "2026-11-25" }), "2026-11-26")).toBe("overdue");
    expect(dueState(action({ status: "sent", due_date: "2026-11-25" }), "2026-11-26")).toBe("overdue");
  });
  it("is its status on its due date and for other statuses", () => {
    expect(dueState(action({ due_date: "2026-11-26" }), "2026-11-26")).toBe("pending");
    expect(dueState(action({ status: "snoozed", due_date: "2026-11-01" }), "2026-11-26")).toBe("snoozed");
    expect(dueState(action({ status: "needs_decision", due_date: "2026-11-01" }), "2026-11-26")).toBe("needs_decision");
  });
});

describe("what is owed", () => {
  it("is the total less the facts, in hundredths", () => {
    expect(outstanding(action({ status: "needs_decision", total_amount: 0.3, facts: [fact(0.1)] }))).toBe(0.2);
  });
  it("is nothing for an overpaid, paid or cancelled action", () => {
    expect(outstanding(action({ status: "needs_decision", total_amount: 100, facts: [fact(150)] }))).toBe(0);
    expect(outstanding(action({ status: "paid", total_amount: 100 }))).toBe(0);
    expect(outstanding(action({ status: "cancelled", total_amount: 100 }))).toBe(0);
  });
  it("totals each currency apart: open actions by what they still owe, closed ones by their total", () => {
    expect(
      queueTotals([
        action({ total_amount: 25000, currency: "RUB" }),
        action({ status: "needs_decision", total_amount: 1500.5, currency: "RUB", facts: [fact(500)] }),
        action({ status: "snoozed", total_amount: 99.99, currency: "EUR" }),
        action({ status: "paid", total_amount: 10, currency: "EUR", facts: [fact(10, "EUR")] }),
      ]),
    ).toEqual([
      { currency: "RUB", amount: 26000.5, count: 2 },
      { currency: "EUR", amount: 109.99, count: 2 },
    ]);
  });
});
