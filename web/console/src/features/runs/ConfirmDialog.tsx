import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useSideEffects, type ReplayVersion } from "./run";
import { SideEffects } from "./SideEffects";
import "./texts";

/** Effects names the retry (of actionKey) or replay (without, on version) whose preview a
 * dialog shows. */
export type Effects = { runId: string; actionKey?: string; version?: ReplayVersion };

type ConfirmDialogProps = {
  title: string;
  confirm: string;
  /** children say what the step will do. */
  children: ReactNode;
  /** effects, for a retry or a replay, show the server's preview of what acts again; the
   * step cannot be confirmed before the preview is there. */
  effects?: Effects;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
};

/** ConfirmDialog asks before a step on the run (cancel, retry, replay) and shows the API's
 * Problem when it is refused. A modal <dialog>: the browser keeps focus inside it and
 * Escape closes it. */
function ConfirmDialog({ title, confirm, children, effects, pending, error, onConfirm, onClose }: ConfirmDialogProps) {
  const { t } = useTranslation("runs");
  const preview = useSideEffects(effects);
  const ref = useRef<HTMLDialogElement>(null);
  // Not closed on unmount: close() would fire the close event, whose handler unmounts the
  // dialog, and a removed dialog leaves the top layer by itself.
  useEffect(() => {
    if (ref.current && !ref.current.open) ref.current.showModal();
  }, []);
  return (
    <dialog ref={ref} className="confirm-dialog" aria-labelledby="confirm-dialog-title" onClose={onClose}>
      <h2 id="confirm-dialog-title">{title}</h2>
      {children}
      {effects && <SideEffects preview={preview} retry={!!effects.actionKey} />}
      <ProblemAlert error={error} />
      <div className="row dialog-buttons">
        <button type="button" onClick={onClose}>
          {t("dialogCancel")}
        </button>
        <button type="button" className="primary" disabled={pending || (!!effects && !preview.data)} onClick={onConfirm}>
          {confirm}
        </button>
      </div>
    </dialog>
  );
}

type ConfirmedButtonProps = {
  label: string;
  className?: string;
  title: string;
  confirm: string;
  /** step is the mutation the button asks for. */
  step: { isPending: boolean; error: unknown; reset: () => void };
  effects?: Effects;
  /** onConfirm runs the step; done closes the dialog. */
  onConfirm: (done: () => void) => void;
  children: ReactNode;
};

/** ConfirmedButton is a step on the run that asks first, in a ConfirmDialog. */
export function ConfirmedButton({ label, className, title, confirm, step, effects, onConfirm, children }: ConfirmedButtonProps) {
  const [asking, setAsking] = useState(false);
  const close = () => {
    setAsking(false);
    step.reset();
  };
  return (
    <>
      <button type="button" className={className} onClick={() => setAsking(true)}>
        {label}
      </button>
      {asking && (
        <ConfirmDialog title={title} confirm={confirm} effects={effects} pending={step.isPending} error={step.error} onConfirm={() => onConfirm(close)} onClose={close}>
          {children}
        </ConfirmDialog>
      )}
    </>
  );
}
