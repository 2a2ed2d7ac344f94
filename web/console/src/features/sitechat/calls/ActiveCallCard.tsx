import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ProblemAlert } from "../../../components/ProblemAlert";
import { useNow } from "../../../lib/now";
import { CallMedia } from "./CallMedia";
import { duration, isLive, phaseOf } from "./callState";
import { dismiss, endCall, toggleCamera, toggleMute, type ActiveCall } from "./callStore";
import "./texts";

/** ActiveCallCard is the tab's call: where it stands (calling, ringing, connecting,
 * connected with its time, or how it ended), its media, mute, camera and end, and whether
 * it is being recorded. */
export function ActiveCallCard({ active }: { active: ActiveCall }) {
  const { t } = useTranslation("calls");
  const { call } = active;
  const live = isLive(call);
  const phase = phaseOf(call.status, active.connection);
  const now = useNow(phase === "connected");
  return (
    <div className="call-card" role="group" aria-labelledby="active-call-title" data-phase={phase}>
      <p id="active-call-title" className="call-title">
        <strong>{t("callWithVisitor")}</strong> · {t(call.media_kind === "video" ? "incomingVideo" : "incomingAudio")}
      </p>
      <p role="status" className={`call-phase ${phase}`}>
        {t(`phase_${phase}`)}
        {phase === "connected" && active.connectedAt !== undefined && <span className="call-time"> · {duration(active.connectedAt, now)}</span>}
      </p>
      {call.visit_session_id && <Link to={`/site-chat/visits/${call.visit_session_id}`}>{t("visitorPanel")}</Link>}
      {live && <CallMedia active={active} />}
      {active.recording !== "off" && (
        <p role="status" className={`call-recording ${active.recording}`}>
          {t(`recording_${active.recording}`)}
        </p>
      )}
      <ProblemAlert error={active.error} />
      <div className="row">
        {live ? (
          <>
            <button type="button" aria-pressed={active.muted} onClick={toggleMute}>
              {t("mute")}
            </button>
            {call.media_kind === "video" && (
              <button type="button" aria-pressed={active.cameraOff} onClick={toggleCamera}>
                {t("cameraOff")}
              </button>
            )}
            <button type="button" className="danger" onClick={() => void endCall()}>
              {t("end")}
            </button>
          </>
        ) : (
          <button type="button" onClick={dismiss}>
            {t("close")}
          </button>
        )}
      </div>
    </div>
  );
}
