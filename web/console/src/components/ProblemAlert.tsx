import { useTranslation } from "react-i18next";
import { ProblemError } from "../api/problem";

/** ProblemAlert shows an API Problem's detail and what to do, as the API worded them. */
export function ProblemAlert({ error }: { error: unknown }) {
  const { t } = useTranslation();
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
    <div role="alert" className="alert">
      <strong>{detail || title}</strong>
      {action && <p>{action}</p>}
      {request_id && <small className="muted">{t("requestId", { id: request_id })}</small>}
    </div>
  );
}

/** fieldError is the Problem's detail when its validate names the field. */
export function fieldError(error: unknown, field: string): string | undefined {
  if (error instanceof ProblemError && error.names(field)) return error.problem.detail || error.problem.title;
  return undefined;
}
