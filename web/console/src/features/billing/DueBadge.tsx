import { useTranslation } from "react-i18next";
import { dueState } from "./queue";
import type { PaymentAction } from "./billing";
import "./texts";

const glyphs: Record<string, string> = { overdue: "!", pending: "○", sent: "→", snoozed: "⏸", needs_decision: "?", paid: "✓", cancelled: "×" };

/** DueBadge is a payment action's state in glyph and word, never colour alone. */
export function DueBadge({ action, today }: { action: Pick<PaymentAction, "status" | "due_date">; today: string }) {
  const { t } = useTranslation("billing");
  const state = dueState(action, today);
  return (
    <span className={`badge due-badge due-${state}`}>
      <span aria-hidden="true">{glyphs[state]} </span>
      {t(`state_${state}`)}
    </span>
  );
}

