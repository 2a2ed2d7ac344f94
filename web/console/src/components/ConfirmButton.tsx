import { useState, type FormEvent, type ReactNode } from "react";
import { ProblemAlert } from "./ProblemAlert";
import { Dialog, DialogButtons } from "./Dialog";

type Props = {
  /** label is the button's text; name, when given, its accessible name (e.g. "Revoke CI"). */
  label: string;
  name?: string;
  title: string;
  confirm: string;
  children: ReactNode;
  step: { isPending: boolean; error: unknown; reset: () => void };
  /** onConfirm runs the step; done closes the dialog. */
  onConfirm: (done: () => void) => void;
};

/** ConfirmButton is a step that cannot be undone (revoke, remove), asked about first in a
 * dialog that shows the API's Problem when it is refused. */
export function ConfirmButton({ label, name, title, confirm, children, step, onConfirm }: Props) {
  const [asking, setAsking] = useState(false);
  const close = () => {
    setAsking(false);
    step.reset();
  };
  function submit(e: FormEvent) {
    e.preventDefault();
    onConfirm(close);
  }
  return (
    <>
      <button type="button" className="danger" aria-label={name} onClick={() => setAsking(true)}>
        {label}
      </button>
      {asking && (
        <Dialog title={title} onClose={close}>
          <form className="stack" onSubmit={submit}>
            {children}
            <ProblemAlert error={step.error} />
            <DialogButtons label={confirm} onCancel={close} pending={step.isPending} danger />
          </form>
        </Dialog>
      )}
    </>
  );
}
