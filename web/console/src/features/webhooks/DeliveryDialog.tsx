import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { DeliveryStatus, RunLink } from "./DeliveryStatus";
import { Dialog } from "../../components/Dialog";
import { formatTime } from "../../lib/time";
import { preview } from "./time";
import { useWebhookDelivery } from "./webhooks";
import "./texts";

// A body can be 1 MiB; the first part is what a person reads, the rest on request.
const previewChars = 20_000;

/** TextPreview shows a request's text as text, long ones cut until asked for in full. */
function TextPreview({ label, text }: { label: string; text: string }) {
  const { t, i18n } = useTranslation("webhooks");
  const [whole, setWhole] = useState(false);
  const { shown, cut } = preview(text, whole ? Infinity : previewChars);
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <>
      <pre tabIndex={0} aria-label={label}>
        {shown}
      </pre>
      {cut && (
        <p className="row">
          <span className="muted">{t("bodyTruncated", { shown: number.format(shown.length), total: number.format(text.length) })}</span>
          <button type="button" onClick={() => setWhole(true)}>
            {t("showAll")}
          </button>
        </p>
      )}
    </>
  );
}

/** DeliveryDialog shows one stored request: headers, body and the payload its run got. */
export function DeliveryDialog({ eventId, onClose }: { eventId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation("webhooks");
  const tc = useTranslation().t;
  const delivery = useWebhookDelivery(eventId);
  const e = delivery.data;
  const title = e ? t("detailsTitle", { time: formatTime(e.received_at, i18n.language) }) : t("details");
  return (
    <Dialog title={title} onClose={onClose} wide>
      {delivery.isPending && <p className="muted">{tc("loading")}</p>}
      <ProblemAlert error={delivery.error} />
      {e && (
        <div className="stack delivery">
          <dl className="facts">
            <dt>{t("status")}</dt>
            <dd>
              <DeliveryStatus status={e.status} /> {e.response_status > 0 && <code>{e.response_status}</code>}
            </dd>
            <dt>{t("deliveryId")}</dt>
            <dd>
              <code>{e.delivery_id || "—"}</code>
            </dd>
            <dt>{t("sourceIp")}</dt>
            <dd>{e.source_ip || "—"}</dd>
            <dt>{t("run")}</dt>
            <dd>{e.workflow_run_id ? <RunLink runId={e.workflow_run_id} /> : t("noRun")}</dd>
            {e.replay_run_ids.length > 0 && (
              <>
                <dt>{t("replays")}</dt>
                <dd className="run-links">
                  {e.replay_run_ids.map((id) => (
                    <RunLink key={id} runId={id} />
                  ))}
                </dd>
              </>
            )}
            {e.error && (
              <>
                <dt>{t("error")}</dt>
                <dd>{e.error}</dd>
              </>
            )}
          </dl>
          <h3>{t("headers")}</h3>
          <table className="list headers">
            <tbody>
              {Object.entries(e.headers)
                .sort(([a], [b]) => a.localeCompare(b))
                .map(([name, value]) => (
                  <tr key={name}>
                    <th scope="row">{name}</th>
                    <td>
                      <code>{value}</code>
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
          <h3>{t("body")}</h3>
          {e.body === "" ? <p className="muted">{t("emptyBody")}</p> : <TextPreview label={t("body")} text={e.body} />}
          <h3>{t("payload")}</h3>
          <TextPreview label={t("payload")} text={JSON.stringify(e.payload_json, null, 2)} />
          {Object.keys(e.fields_json).length > 0 && (
            <>
              <h3>{t("fields")}</h3>
              <TextPreview label={t("fields")} text={JSON.stringify(e.fields_json, null, 2)} />
            </>
          )}
        </div>
      )}
      <div className="row end">
        <button type="button" onClick={onClose}>
          {tc("close")}
        </button>
      </div>
    </Dialog>
  );
}
