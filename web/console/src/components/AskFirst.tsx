import { useState } from "react";
import { useTranslation } from "react-i18next";

/** AskFirst is a button for what cannot be undone (a delete): it asks, in place, before it
 * acts. `name` names the button for a screen reader where the label alone is ambiguous. */
export function AskFirst({ label, name, question, pending, onConfirm }: { label: string; name?: string; question: string; pending: boolean; onConfirm: () => void }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="danger" aria-label={name} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={name ?? label}>
      {question}
      <button type="button" className="danger" disabled={pending} onClick={onConfirm}>
        {label}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        {t("cancel")}
      </button>
    </span>
  );
}
