import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "../../components/CopyButton";
import { Dialog, DialogButtons } from "../../components/Dialog";
import { ProblemAlert } from "../../components/ProblemAlert";
import { SecretDialog } from "../../components/SecretDialog";
import { formatTime } from "../../lib/time";
import { useRelay, useRelayPolling, useRotateRelaySecret, type Integration, type Relay } from "./integrations";
import "./texts";

/** RelayPanel is a messenger bot's relay: how the bot's updates reach the project's
 * workflows (the messenger's webhook delivery, or the server polling for them), its
 * addresses, and its webhook secret, shown once when made. */
export function RelayPanel({ integration: d, manage }: { integration: Integration; manage: boolean }) {
  const { t } = useTranslation("integrations");
  const tc = useTranslation().t;
  const relay = useRelay(d);
  const polling = useRelayPolling(d);
  const [rotating, setRotating] = useState(false);
  return (
    <section className="card" aria-labelledby="integration-relay">
      <h2 id="integration-relay">{t("relay")}</h2>
      <p className="muted">{t("relayIntro")}</p>
      <ProblemAlert error={relay.error ?? polling.error} />
      {relay.isPending && <p className="muted">{tc("loading")}</p>}
      {relay.data === null && <p>{t("relayNone")}</p>}
      {relay.data && <RelayFacts relay={relay.data} />}
      {manage && relay.data !== undefined && (
        <div className="row">
          <button type="button" onClick={() => setRotating(true)}>
            {relay.data ? t("rotateWebhookSecret") : t("useWebhook")}
          </button>
          <button type="button" disabled={polling.isPending} onClick={() => polling.mutate(relay.data?.mode !== "polling")}>
            {relay.data?.mode === "polling" ? t("stopPolling") : t("startPolling")}
          </button>
        </div>
      )}
      {rotating && <RotateRelaySecretDialog integration={d} onClose={() => setRotating(false)} />}
    </section>
  );
}

function RelayFacts({ relay }: { relay: Relay }) {
  const { t, i18n } = useTranslation("integrations");
  return (
    <dl className="facts">
      <dt>{t("relayMode")}</dt>
      <dd>{t(`mode_${relay.mode}`)}</dd>
      <dt>{t("webhookUrl")}</dt>
      <dd className="row">
        <code className="url">{relay.webhook_url}</code>
        <CopyButton text={relay.webhook_url} label={t("webhookUrl")} />
      </dd>
      <dt>{t("webhookSecret")}</dt>
      <dd>
        <code>{relay.webhook_secret_masked}</code> <small className="muted">{t("secretHeader", { header: relay.secret_header })}</small>
      </dd>
      {relay.mode === "polling" && (
        <>
          <dt>{t("lastPolled")}</dt>
          <dd>{relay.polling.last_polled_at ? formatTime(relay.polling.last_polled_at, i18n.language) : t("notYet")}</dd>
          {relay.polling.last_error && (
            <>
              <dt>{t("lastError")}</dt>
              <dd className="field-error">{relay.polling.last_error}</dd>
            </>
          )}
        </>
      )}
    </dl>
  );
}

function RotateRelaySecretDialog({ integration: d, onClose }: { integration: Integration; onClose: () => void }) {
  const { t } = useTranslation("integrations");
  const rotate = useRotateRelaySecret(d);
  if (rotate.data) {
    return (
      <SecretDialog title={t("webhookSecretOf", { name: d.name })} secret={rotate.data.webhook_secret} label={t("webhookSecret")} warning={t("webhookSecretOnce")} onClose={onClose}>
        <p>{t("setWebhook", { url: rotate.data.webhook_url, header: rotate.data.secret_header })}</p>
      </SecretDialog>
    );
  }
  return (
    <Dialog title={t("rotateWebhookSecretTitle", { name: d.name })} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          rotate.mutate();
        }}
      >
        <p>{t("rotateWebhookSecretBody")}</p>
        <ProblemAlert error={rotate.error} />
        <DialogButtons label={t("makeSecret")} onCancel={onClose} pending={rotate.isPending} />
      </form>
    </Dialog>
  );
}
