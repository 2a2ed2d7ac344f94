import { useId } from "react";
import { CopyButton } from "./CopyButton";

type Props = {
  secret: string;
  /** label names the secret (its field and copy button). */
  label: string;
  /** warning says it is shown this once and what to do with it. */
  warning: string;
  done: string;
  onDone: () => void;
};

/** SecretReveal shows a freshly made secret, the one time the API hands it out: as the
 * value of a read-only field, never as markup. */
export function SecretReveal({ secret, label, warning, done, onDone }: Props) {
  const id = useId();
  return (
    <div className="stack">
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
        <button type="button" className="primary" onClick={onDone}>
          {done}
        </button>
      </div>
    </div>
  );
}
