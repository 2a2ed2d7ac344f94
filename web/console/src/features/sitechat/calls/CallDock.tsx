import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useOperatorSocket } from "../operatorSocket";
import { ActiveCallCard } from "./ActiveCallCard";
import { CallFailure } from "./CallFailure";
import { IncomingCall } from "./IncomingCall";
import { isLive } from "./callState";
import { leaveCall, onCallEnvelope, useCalls } from "./callStore";
import { readRecordingsAgain } from "./queries";
import "./texts";
import "./calls.css";

/** CallDock is the call bar of the desk, wherever the operator is on it: the visitors'
 * calls ringing, with accept and decline, and the tab's call with its media and controls.
 * Leaving the desk ends the call, whose media and signalling the bar holds. */
export function CallDock() {
  const { t } = useTranslation("calls");
  const queryClient = useQueryClient();
  useOperatorSocket(onCallEnvelope);
  const { active, ringing, failure, starting } = useCalls();
  useEffect(() => () => leaveCall(), []);

  // A recording saved shows in the visit's list of calls.
  const saved = active?.recording === "saved" ? active.call.call_session_id : "";
  useEffect(() => {
    if (saved) void readRecordingsAgain(queryClient, saved);
  }, [saved, queryClient]);

  const answerFailed = failure?.callSessionId ? failure : undefined;
  if (!active && !ringing.length && !answerFailed) return null;
  const busy = !!starting || (!!active && isLive(active.call));
  return (
    <section className="call-dock" aria-label={t("callBar")}>
      {ringing.map((call) => (
        <IncomingCall key={call.call_session_id} call={call} busy={busy} />
      ))}
      {answerFailed && <CallFailure error={answerFailed.error} />}
      {active && <ActiveCallCard active={active} />}
    </section>
  );
}
