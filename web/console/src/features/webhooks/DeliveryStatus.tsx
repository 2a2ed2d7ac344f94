import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { WebhookEventSummary } from "./webhooks";
import "./texts";

const statusTone = { received: "warn", accepted: "ok", failed: "danger" } as const;

/** DeliveryStatus says in words, not only in colour, what became of a delivery. */
export function DeliveryStatus({ status }: { status: WebhookEventSummary["status"] }) {
  const { t } = useTranslation("webhooks");
  return <span className={`badge ${statusTone[status]}`}>{t(`event_${status}`)}</span>;
}

/** RunLink leads to a run a delivery started. It shows the end of the id: run ids begin
 * with their time, so runs started close together share their beginning. */
export function RunLink({ runId }: { runId: string }) {
  const { t } = useTranslation("webhooks");
  return (
    <Link to={`/runs/${runId}`} className="run-link" title={runId}>
      <span className="visually-hidden">{t("run")} </span>…{runId.slice(-8)}
    </Link>
  );
}
