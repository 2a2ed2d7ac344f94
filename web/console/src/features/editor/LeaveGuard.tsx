import { useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useBlocker } from "react-router";
import "./texts";

/** LeaveGuard asks before leaving the editor with unsaved changes: in the page for a link
 * within the console, the browser's own question for closing or reloading the tab. */
export function LeaveGuard({ when }: { when: boolean }) {
  const { t } = useTranslation("editor");
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    if (!when) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [when]);

  useEffect(() => {
    if (blocker.state === "blocked") dialog.current?.showModal();
    else dialog.current?.close();
  }, [blocker.state]);

  return (
    <dialog ref={dialog} className="editor-dialog" aria-labelledby={titleId} onCancel={() => blocker.reset?.()}>
      <h2 id={titleId}>{t("leaveTitle")}</h2>
      <p>{t("leaveBody")}</p>
      <div className="row">
        <button type="button" className="primary" onClick={() => blocker.reset?.()}>
          {t("stay")}
        </button>
        <button type="button" className="danger" onClick={() => blocker.proceed?.()}>
          {t("leave")}
        </button>
      </div>
    </dialog>
  );
}
