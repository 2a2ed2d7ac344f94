import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useMatch } from "react-router";
import { useOperatorSocket } from "../operatorSocket";
import { useReadAgain } from "../useReadAgain";
import { CallFailure } from "./CallFailure";
import { CallHistory } from "./CallHistory";
import { callOf, isLive, type MediaKind } from "./callState";
import { offerCall, useCalls } from "./callStore";
import { callKeys } from "./queries";
import "./texts";
import "./calls.css";

/** CallPanel is the visitor panel's call part: an audio or video call to the visitor, with
 * recording if they agree, and the visit's calls with their recordings. The call itself
 * goes on in the call bar (CallDock). At the call link the service hands out
 * (/site-chat/visits/{id}/call) the panel comes into view with the focus on it. */
export function CallPanel({ visitSessionId, visitorHere }: { visitSessionId: string; visitorHere: boolean }) {
  const { t } = useTranslation("calls");
  const headingId = useId();
  const [recordIfAgreed, setRecordIfAgreed] = useState(false);
  const { active, starting, failure } = useCalls();
  const queryClient = useQueryClient();
  const heading = useRef<HTMLHeadingElement>(null);
  const atCallLink = useMatch("/site-chat/visits/:visitSessionId/call");

  // The list of calls follows the notices about this visit's calls.
  const socket = useOperatorSocket((e) => {
    if (callOf(e)?.visit_session_id === visitSessionId) void queryClient.invalidateQueries({ queryKey: callKeys.visitCalls(visitSessionId) });
  });
  useReadAgain(socket.generation, callKeys.visitCalls(visitSessionId));

  useEffect(() => {
    if (!atCallLink || !heading.current) return;
    heading.current.scrollIntoView({ block: "start" });
    heading.current.focus();
  }, [atCallLink]);

  const inCall = !!active && isLive(active.call);
  const call = (media: MediaKind) => void offerCall(visitSessionId, media, recordIfAgreed);
  const disabled = !visitorHere || inCall || !!starting;
  return (
    <section className="panel call-panel" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {t("callTitle")}
      </h2>
      <label className="inline">
        <input type="checkbox" checked={recordIfAgreed} onChange={(e) => setRecordIfAgreed(e.target.checked)} />
        {t("recordIfAgreed")}
      </label>
      <div className="row">
        <button type="button" className="primary" disabled={disabled} onClick={() => call("audio")}>
          {t("audioCall")}
        </button>
        <button type="button" className="primary" disabled={disabled} onClick={() => call("video")}>
          {t("videoCall")}
        </button>
      </div>
      {starting === visitSessionId && <p role="status">{t("starting")}</p>}
      {!visitorHere && <p className="muted">{t("visitorAway")}</p>}
      {inCall && <p className="muted">{t("inCall")}</p>}
      {failure?.visitSessionId === visitSessionId && <CallFailure error={failure.error} />}
      <CallHistory visitSessionId={visitSessionId} />
    </section>
  );
}
