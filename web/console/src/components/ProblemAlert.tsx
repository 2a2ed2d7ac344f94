import { useLayoutEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { ProblemError } from "../api/problem";

/** ProblemAlert shows an API Problem's detail and what to do, as the API worded them, once:
 * it stays hidden when a field of its form already shows the Problem (fieldError). */
export function ProblemAlert({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const alert = useRef<HTMLDivElement>(null);
  // The fields render before this effect runs, so the form's controls tell whether one of
  // them shows the Problem; hiding it here, before paint, means it never flashes.
  useLayoutEffect(() => {
    if (alert.current) alert.current.hidden = shownOnField(alert.current, error);
  }, [error]);
  if (!error) return null;
  if (!(error instanceof ProblemError)) {
    return (
      <div role="alert" className="alert">
        {t("errorTitle")}
      </div>
    );
  }
  const { detail, action, title, request_id } = error.problem;
  return (
    <div role="alert" className="alert" ref={alert}>
      <strong>{detail || title}</strong>
      {action && <p>{action}</p>}
      {request_id && <small className="muted">{t("requestId", { id: request_id })}</small>}
    </div>
  );
}

/** shownOnField tells whether a control of the alert's form (or dialog) shows the Problem:
 * one marked invalid whose name is the only field the Problem names. */
function shownOnField(alert: HTMLElement, error: unknown): boolean {
  const form = alert.closest("form, dialog");
  if (!form) return false;
  return Array.from(form.querySelectorAll<HTMLElement>("[name][aria-invalid=true]")).some((control) => fieldError(error, control.getAttribute("name") ?? "") !== undefined);
}

/** fieldError is the Problem's detail when the field is the only one its validate names (or
 * every field it names is inside this one); a Problem naming several fields is worded once,
 * by the form's ProblemAlert, and only marks each field (fieldInvalid). */
export function fieldError(error: unknown, field: string): string | undefined {
  if (error instanceof ProblemError && error.namesOnly(field)) return error.problem.detail || error.problem.title;
  return undefined;
}

/** fieldInvalid tells whether the Problem's validate names the field (or a field inside it). */
export function fieldInvalid(error: unknown, field: string): boolean {
  return error instanceof ProblemError && error.names(field);
}
