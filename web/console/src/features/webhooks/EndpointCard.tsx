import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { CopyButton } from "../../components/CopyButton";
import { DeliveriesPanel } from "./DeliveriesPanel";
import { RotateSecretDialog } from "./RotateSecretDialog";
import { SnippetsPanel } from "./SnippetsPanel";
import { formatTime } from "../../lib/time";
import { usePatchWebhookEndpoint, type WebhookEndpoint } from "./webhooks";
import "./texts";

/** EndpointCard is one webhook endpoint: where to post, how to authenticate, what arrived. */
export function EndpointCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t, i18n } = useTranslation("webhooks");
  const patch = usePatchWebhookEndpoint(endpoint);
  const [rotating, setRotating] = useState(false);
  const [snippetsOpen, setSnippetsOpen] = useState(false);
  const active = endpoint.status === "active";
  const headingId = `endpoint-${endpoint.webhook_endpoint_id}`;
  return (
    <article className="endpoint" aria-labelledby={headingId}>
      <header className="endpoint-head">
        <h3 id={headingId}>
          <code>{endpoint.endpoint_key}</code>
        </h3>
        <span className={`badge ${active ? "ok" : "muted"}`}>{t(`status_${endpoint.status}`)}</span>
        <div className="row endpoint-actions" role="group" aria-label={t("endpointActions", { key: endpoint.endpoint_key })}>
          <button type="button" onClick={() => patch.mutate({ status: active ? "disabled" : "active" })} disabled={patch.isPending}>
            {active ? t("disable") : t("enable")}
          </button>
          <button type="button" onClick={() => setRotating(true)}>
            {t("rotateSecret")}
          </button>
        </div>
      </header>
      {endpoint.description && <p>{endpoint.description}</p>}
      <ProblemAlert error={patch.error} />
      <dl className="facts">
        <dt>{t("url")}</dt>
        <dd className="row">
          <code className="url">{endpoint.url}</code>
          <CopyButton text={endpoint.url} label={t("url")} />
        </dd>
        <dt>{t("authType")}</dt>
        <dd>
          {t(`auth_${endpoint.auth_type}`)}
          {endpoint.auth_type === "basic" && endpoint.basic_username && (
            <>
              {" "}
              (<code>{endpoint.basic_username}</code>)
            </>
          )}
          <small className="muted">{t(`auth_${endpoint.auth_type}_help`)}</small>
        </dd>
        <dt>{t("contentType")}</dt>
        <dd>{t(`content_${endpoint.content_type}`)}</dd>
        <dt>{t("secret")}</dt>
        <dd>
          <code>{endpoint.secret_masked}</code>
          {endpoint.previous_secret_expires_at && (
            <small className="muted">{t("previousSecretUntil", { time: formatTime(endpoint.previous_secret_expires_at, i18n.language) })}</small>
          )}
        </dd>
      </dl>
      {!active && <p className="muted">{t("disabledNote")}</p>}
      {endpoint.rejected_count > 0 && endpoint.last_rejected_at && (
        <p className="rejected">
          {t("rejected", {
            count: endpoint.rejected_count,
            time: formatTime(endpoint.last_rejected_at, i18n.language),
            reason: endpoint.last_rejection,
          })}
        </p>
      )}
      <details onToggle={(e) => setSnippetsOpen(e.currentTarget.open)}>
        <summary>{t("sendRequest")}</summary>
        {snippetsOpen && <SnippetsPanel endpointId={endpoint.webhook_endpoint_id} />}
      </details>
      <h4>{t("deliveries")}</h4>
      <p className="muted">{t("deliveriesIntro")}</p>
      <DeliveriesPanel endpointId={endpoint.webhook_endpoint_id} />
      {rotating && <RotateSecretDialog endpoint={endpoint} onClose={() => setRotating(false)} />}
    </article>
  );
}
