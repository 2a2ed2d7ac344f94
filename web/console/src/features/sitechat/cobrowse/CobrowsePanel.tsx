import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ProblemError } from "../../../api/problem";
import { ProblemAlert } from "../../../components/ProblemAlert";
import { send, useOperatorSocket } from "../operatorSocket";
import { useVisit } from "../queries";
import { afterStop, type Status } from "./frames";
import "./texts";
import "./cobrowse.css";

// rrweb's Replayer (about 60 KB gzipped) loads with the first view that draws a page, not
// with the visitor panel.
const LiveView = lazy(() => import("./LiveView").then((m) => ({ default: m.LiveView })));
const RecordingView = lazy(() => import("./RecordingView").then((m) => ({ default: m.RecordingView })));

const badges: Record<Status, string> = {
  idle: "badge muted",
  requested: "badge warn",
  active: "badge ok",
  stopped: "badge muted",
  declined: "badge danger",
  visitorStopped: "badge muted",
};

/** CobrowsePanel is co-browsing in the visitor panel: the operator asks to see the page,
 * the visitor consents in the widget, and the page shows here live, drawn by rrweb in a
 * frame where no script of the page runs; the operator stops, and goes back through the
 * stored frames of the visit. The visit's monitoring_status comes from the visit's query,
 * which the visitor panel keeps live from the socket's notices. */
export function CobrowsePanel({ visitSessionId }: { visitSessionId: string }) {
  const { t } = useTranslation("cobrowse");
  const visit = useVisit(visitSessionId);
  const server = visit.data?.monitoring_status ?? "idle";
  const here = (visit.data?.visitor_state_snapshot.activity as { active?: unknown } | undefined)?.active === true;
  // What the last stop came to, as this panel saw it happen.
  const [ended, setEnded] = useState<Status>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [recording, setRecording] = useState(false);
  // The status before the notice at hand: the notices' own, or the visit's as read.
  const shown = useRef<string>(server);
  const stopping = useRef(false);
  useEffect(() => {
    shown.current = server;
  }, [server]);

  const socket = useOperatorSocket((e) => {
    if (e.visit_session_id !== visitSessionId) return;
    if (e.type === "monitoring.start") {
      setEnded(undefined);
      shown.current = (e.payload as { monitoring_status?: string } | undefined)?.monitoring_status ?? shown.current;
    }
    if (e.type === "monitoring.stop") {
      setEnded(afterStop(shown.current, stopping.current));
      stopping.current = false;
      shown.current = "stopped";
    }
  });

  // Frames go to the sockets that sent monitoring.start: a monitoring under way (asked
  // before a reload, by another operator, before a reconnect) is watched by sending it
  // again, which changes nothing else; once per socket, and never on a visit read before
  // the reconnect, since a monitoring the visitor has ended meanwhile would start again.
  const watch = server === "requested" || server === "active";
  const watching = useRef(-1);
  const fresh = !visit.isFetching;
  useEffect(() => {
    if (!socket.open || !watch || !fresh || watching.current === socket.generation) return;
    watching.current = socket.generation;
    send("monitoring.start", {}, { visit_session_id: visitSessionId }).catch(() => {});
  }, [socket.open, socket.generation, watch, fresh, visitSessionId]);

  function move(type: "monitoring.start" | "monitoring.stop") {
    setError(undefined);
    setBusy(true);
    stopping.current = type === "monitoring.stop";
    // Asking makes this socket watch.
    if (type === "monitoring.start") watching.current = socket.generation;
    send(type, {}, { visit_session_id: visitSessionId })
      .catch((err) => {
        stopping.current = false;
        setError(err);
      })
      .finally(() => setBusy(false));
  }

  const status: Status = server === "stopped" && ended ? ended : server;
  const disconnected = error instanceof ProblemError && error.problem.title === "disconnected";
  return (
    <section className="panel cobrowse" aria-labelledby="cobrowse-title">
      <div className="cobrowse-head">
        <h2 id="cobrowse-title">{t("title")}</h2>
        <p role="status" className="cobrowse-status">
          <span className="visually-hidden">{t("status")}: </span>
          <span className={badges[status]}>{t(`status_${status}`)}</span>
        </p>
      </div>
      <p className="muted">{t("intro")}</p>
      {disconnected ? (
        <div role="alert" className="alert">
          {t("disconnected")}
        </div>
      ) : (
        <ProblemAlert error={error} />
      )}
      <div className="row">
        {!watch && here && (
          <button type="button" className="primary" disabled={busy} onClick={() => move("monitoring.start")}>
            {server === "idle" ? t("ask") : t("askAgain")}
          </button>
        )}
        {watch && (
          <button type="button" disabled={busy} onClick={() => move("monitoring.stop")}>
            {t("stop")}
          </button>
        )}
        {recording && server === "active" && (
          <button type="button" onClick={() => setRecording(false)}>
            {t("backToLive")}
          </button>
        )}
      </div>
      {!watch && !here && <p className="muted">{t("gone")}</p>}
      {server === "active" && !recording && (
        <Suspense fallback={<p className="muted">{t("waitingPage")}</p>}>
          <LiveView visitSessionId={visitSessionId} />
        </Suspense>
      )}
      <section className="stack" aria-labelledby="cobrowse-recording">
        <h3 id="cobrowse-recording">{t("recording")}</h3>
        {recording ? (
          <Suspense fallback={<p className="muted">{t("loadingRecording")}</p>}>
            <RecordingView visitSessionId={visitSessionId} />
          </Suspense>
        ) : (
          <>
            <p className="muted">{t("recordingIntro")}</p>
            <div>
              <button type="button" onClick={() => setRecording(true)}>
                {t("loadRecording")}
              </button>
            </div>
          </>
        )}
      </section>
    </section>
  );
}
