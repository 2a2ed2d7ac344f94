import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "./CopyButton";
import { Dialog } from "./Dialog";

type Props = {
  title: string;
  secret: string;
  /** label names the secret (its field and copy button). */
  label: string;
  /** warning says it is shown this once and what to do with it. */
  warning: string;
  onClose: () => void;
  /** children say where the secret goes, before it. */
  children?: ReactNode;
};

/** SecretDialog shows a freshly made secret, the one time the API hands it out: as the
 * value of a read-only field, never as markup. Closing it forgets the secret. */
export function SecretDialog({ title, secret, label, warning, onClose, children }: Props) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Dialog title={title} onClose={onClose}>
      <div className="stack">
        {children}
        <p className="secret-once" role="alert">
          {warning}
        </p>
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <div className="row">
            <input id={id} className="secret" readOnly value={secret} onFocus={(e) => e.target.select()} spellCheck={false} autoComplete="off" />
            <CopyButton text={secret} label={label} />
          </div>
        </div>
        <div className="row end">
          <button type="button" className="primary" onClick={onClose}>
            {t("copiedIt")}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
