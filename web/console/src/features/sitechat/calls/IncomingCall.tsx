import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { CallSession } from "./callState";
import { acceptCall, rejectCall } from "./callStore";
import "./texts";

/** IncomingCall is a visitor's call ringing: who calls and how, accept and decline. An
 * operator already in a call declines or ends that one first. */
export function IncomingCall({ call, busy }: { call: CallSession; busy: boolean }) {
  const { t } = useTranslation("calls");
  const id = `incoming-${call.call_session_id}`;
  return (
    <div className="call-card ringing" role="group" aria-labelledby={id}>
      <p id={id} className="call-title" role="alert">
        <strong>{t("incoming")}</strong> · {t(call.media_kind === "video" ? "incomingVideo" : "incomingAudio")}
      </p>
      {call.visit_session_id && <Link to={`/site-chat/visits/${call.visit_session_id}`}>{t("visitorPanel")}</Link>}
      {busy && <p className="muted">{t("endYourCall")}</p>}
      <div className="row">
        <button type="button" className="primary" disabled={busy} onClick={() => void acceptCall(call)}>
          {t("accept")}
        </button>
        <button type="button" className="danger" onClick={() => void rejectCall(call)}>
          {t("decline")}
        </button>
      </div>
    </div>
  );
}
