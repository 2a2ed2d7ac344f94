import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { DeliveryDialog } from "./DeliveryDialog";
import { DeliveryStatus, RunLink } from "./DeliveryStatus";
import { ReplayDialog } from "./ReplayDialog";
import { formatTime } from "../../lib/time";
import { useWebhookDeliveries, type WebhookEventSummary } from "./webhooks";
import "./texts";

// A delivery replayed many times lists its latest replays here; its details list them all.
const replaysShown = 3;

function LatestReplays({ runIds }: { runIds: string[] }) {
  const { t } = useTranslation("webhooks");
  const hidden = runIds.length - replaysShown;
  return (
    <span className="run-links">
      {runIds.slice(-replaysShown).map((id) => (
        <RunLink key={id} runId={id} />
      ))}
      {hidden > 0 && <span className="muted">{t("moreReplays", { count: hidden })}</span>}
    </span>
  );
}

/** DeliveriesPanel lists the requests an endpoint accepted, with their runs and replay. */
export function DeliveriesPanel({ endpointId }: { endpointId: string }) {
  const { t, i18n } = useTranslation("webhooks");
  const tc = useTranslation().t;
  const deliveries = useWebhookDeliveries(endpointId);
  const [open, setOpen] = useState<{ event: WebhookEventSummary; action: "details" | "replay" } | null>(null);
  if (deliveries.isPending) return <p className="muted">{tc("loading")}</p>;
  if (deliveries.error) return <ProblemAlert error={deliveries.error} />;
  const events = deliveries.data.pages.flatMap((p) => p.items);
  if (events.length === 0) return <p className="muted">{t("noDeliveries")}</p>;
  return (
    <div className="stack">
      <table className="list deliveries">
        <colgroup>
          <col className="received" />
          <col className="status" />
          <col className="response" />
          <col />
          <col />
          <col />
          <col className="actions" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">{t("receivedAt")}</th>
            <th scope="col">{t("status")}</th>
            <th scope="col">{t("response")}</th>
            <th scope="col">{t("deliveryId")}</th>
            <th scope="col">{t("run")}</th>
            <th scope="col">{t("replays")}</th>
            <th scope="col">
              <span className="visually-hidden">{t("details")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={e.webhook_event_id}>
              <td>{formatTime(e.received_at, i18n.language)}</td>
              <td>
                <DeliveryStatus status={e.status} />
              </td>
              <td>{e.response_status || "—"}</td>
              <td className="delivery-id" title={e.delivery_id || undefined}>
                <code>{e.delivery_id || "—"}</code>
              </td>
              <td>{e.workflow_run_id ? <RunLink runId={e.workflow_run_id} /> : <span className="muted">{t("noRun")}</span>}</td>
              <td>
                <LatestReplays runIds={e.replay_run_ids} />
              </td>
              <td>
                <div className="row delivery-actions">
                  <button type="button" onClick={() => setOpen({ event: e, action: "details" })}>
                    {t("details")}
                  </button>
                  <button type="button" onClick={() => setOpen({ event: e, action: "replay" })}>
                    {t("replay")}
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {deliveries.hasNextPage && (
        <button type="button" onClick={() => void deliveries.fetchNextPage()} disabled={deliveries.isFetchingNextPage}>
          {tc("loadMore")}
        </button>
      )}
      {open?.action === "details" && <DeliveryDialog eventId={open.event.webhook_event_id} onClose={() => setOpen(null)} />}
      {open?.action === "replay" && <ReplayDialog event={open.event} onClose={() => setOpen(null)} />}
    </div>
  );
}
