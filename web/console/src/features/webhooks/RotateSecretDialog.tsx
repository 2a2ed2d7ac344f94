import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { Dialog, DialogButtons } from "../../components/Dialog";
import { SecretDialog } from "../../components/SecretDialog";
import { useRotateWebhookSecret, type WebhookEndpoint } from "./webhooks";
import "./texts";

const gracePeriods = [0, 3600, 86400, 604800] as const;

/** RotateSecretDialog confirms a new secret, with how long the current one keeps working,
 * then shows the new one once. */
export function RotateSecretDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const { t } = useTranslation("webhooks");
  const rotate = useRotateWebhookSecret(endpoint);
  const [grace, setGrace] = useState<(typeof gracePeriods)[number]>(86400);
  function submit(e: FormEvent) {
    e.preventDefault();
    rotate.mutate(grace);
  }
  if (rotate.data) {
    return (
      <SecretDialog title={t("newSecretTitle", { key: endpoint.endpoint_key })} secret={rotate.data.secret} label={t("secret")} warning={t("secretOnce")} onClose={onClose} />
    );
  }
  return (
    <Dialog title={t("rotateTitle", { key: endpoint.endpoint_key })} onClose={onClose}>
      <form className="stack" onSubmit={submit}>
        <p>{t("rotateBody")}</p>
        <div className="field">
          <label htmlFor="rotate-grace">{t("gracePeriod")}</label>
          <select id="rotate-grace" value={grace} onChange={(e) => setGrace(Number(e.target.value) as (typeof gracePeriods)[number])}>
            {gracePeriods.map((g) => (
              <option key={g} value={g}>
                {t(`grace_${g}`)}
              </option>
            ))}
          </select>
        </div>
        <ProblemAlert error={rotate.error} />
        <DialogButtons label={rotate.isPending ? t("rotating") : t("rotate")} onCancel={onClose} pending={rotate.isPending} />
      </form>
    </Dialog>
  );
}
