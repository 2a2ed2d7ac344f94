import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { Link } from "react-router";
import { Dialog, DialogButtons } from "../../components/Dialog";
import { useReplayWebhookDelivery, type WebhookEventSummary } from "./webhooks";
import "./texts";

/** ReplayDialog confirms starting a new run from a stored delivery, then leads to it. */
export function ReplayDialog({ event, onClose }: { event: WebhookEventSummary; onClose: () => void }) {
  const { t } = useTranslation("webhooks");
  const tc = useTranslation().t;
  const replay = useReplayWebhookDelivery(event);
  return (
    <Dialog title={replay.data ? t("replayStarted") : t("replayTitle")} onClose={onClose}>
      {replay.data ? (
        <div className="stack">
          <p role="status">{t("replayStartedBody", { id: replay.data.workflow_run_id })}</p>
          <div className="row end">
            <button type="button" onClick={onClose}>
              {tc("close")}
            </button>
            <Link className="button primary" to={`/runs/${replay.data.workflow_run_id}`}>
              {t("openRun")}
            </Link>
          </div>
        </div>
      ) : (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            replay.mutate();
          }}
        >
          <p>{t("replayBody")}</p>
          <ProblemAlert error={replay.error} />
          <DialogButtons label={replay.isPending ? t("replaying") : t("replay")} onCancel={onClose} pending={replay.isPending} />
        </form>
      )}
    </Dialog>
  );
}
