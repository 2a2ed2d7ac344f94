import { useEffect, useId, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** Dialog is a modal with a title: the browser's own <dialog>, which keeps focus inside
 * and closes on Escape. */
export function Dialog({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    // StrictMode runs this twice; a dialog already open stays as it is. Unmounting removes
    // the element, which takes it out of the top layer without a close event.
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} className={wide ? "dialog wide" : "dialog"} aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

/** DialogButtons ends a dialog's form: cancel, and the button that does what it asks. */
export function DialogButtons({ label, onCancel, pending, danger }: { label: string; onCancel: () => void; pending: boolean; danger?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="row end">
      <button type="button" onClick={onCancel}>
        {t("cancel")}
      </button>
      <button type="submit" className={danger ? "danger" : "primary"} disabled={pending}>
        {label}
      </button>
    </div>
  );
}
