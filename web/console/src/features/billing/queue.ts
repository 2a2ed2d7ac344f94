// The queue of what is due: which actions each view holds, what each still owes, and the
// queue's totals per currency. Pure, so Vitest checks it.
import { addDays } from "../../lib/dates";
import { cents, totalsByCurrency, type MoneyTotal } from "../../lib/money";
import type { components } from "../../api/schema.gen";

type PaymentAction = components["schemas"]["PaymentActionView"];
type Status = PaymentAction["status"];

/** The queue's views: what is still open (the default), each state of it, and the closed. */
export const queueViews = ["open", "overdue", "pending", "snoozed", "needs_decision", "paid", "cancelled"] as const;
export type QueueView = (typeof queueViews)[number];

const openStatuses: Status[] = ["pending", "sent", "snoozed", "needs_decision"];
const awaiting: Status[] = ["pending", "sent"];

/** queueQuery is the API's filter of the view. Overdue is not a status: it is an action
 * still awaited whose due date has passed (before today, in the person's calendar). */
export function queueQuery(view: QueueView, today: string): { status: Status[]; due_to?: string } {
  switch (view) {
    case "open":
      return { status: openStatuses };
    case "overdue":
      return { status: awaiting, due_to: addDays(today, -1) };
    case "pending":
      return { status: awaiting };
    default:
      return { status: [view] };
  }
}

/** DueState is an action's state as the queue shows it: its status, or overdue. */
export type DueState = Status | "overdue";

export function dueState(action: Pick<PaymentAction, "status" | "due_date">, today: string): DueState {
  return awaiting.includes(action.status) && action.due_date < today ? "overdue" : action.status;
}

/** paid is what the action's facts cover. */
export function paid(action: Pick<PaymentAction, "facts">): number {
  return (action.facts ?? []).reduce((sum, f) => sum + cents(f.amount), 0) / 100;
}

/** outstanding is what the action still asks for: its total less what its facts cover, never
 * below nothing; a paid or cancelled action asks for nothing. */
export function outstanding(action: Pick<PaymentAction, "status" | "total_amount" | "facts">): number {
  if (action.status === "paid" || action.status === "cancelled") return 0;
  return Math.max(0, cents(action.total_amount) - cents(paid(action))) / 100;
}

/** queueTotals are the actions' totals per currency: what is still owed of open actions, the
 * total of the others (a list of paid actions sums what was billed). */
export function queueTotals(actions: PaymentAction[]): MoneyTotal[] {
  return totalsByCurrency(
    actions.map((a) => ({ amount: openStatuses.includes(a.status) ? outstanding(a) : a.total_amount, currency: a.currency })),
  );
}
