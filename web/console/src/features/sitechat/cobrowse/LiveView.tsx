import { Replayer } from "@rrweb/replay";
import { useCallback, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../../components/ProblemAlert";
import { useOperatorSocket } from "../operatorSocket";
import { beforeLive, eventOf, Frames, frameOf, fromFirstPage, latestPage, onArrival, storedFrames, type Frame } from "./frames";
import { ReplayFrame } from "./ReplayFrame";
import "./texts";

type Feed = { replayer?: Replayer; frames: Frames; ready: boolean; early: Frame[] };

/** LiveView shows the visitor's page as its frames arrive. It first reads the stored frames
 * from the visit's latest whole page on, so a view that joins a monitoring under way (a
 * reload, a second operator) starts whole, then draws each frame the socket brings, once. */
export function LiveView({ visitSessionId }: { visitSessionId: string }) {
  const { t } = useTranslation("cobrowse");
  const feed = useRef<Feed>({ frames: new Frames(), ready: false, early: [] });
  const [drawn, setDrawn] = useState(false);
  const [error, setError] = useState<unknown>();

  useOperatorSocket((e) => {
    const f = frameOf(e, visitSessionId);
    if (!f) return;
    const s = feed.current;
    if (!s.ready) s.early.push(f);
    else if (s.frames.add(f)) s.replayer?.addEvent(onArrival(eventOf(f)!, Date.now()));
  });

  const start = useCallback(
    (root: HTMLElement) => {
      const r = new Replayer([], { root, liveMode: true, mouseTail: false, showWarning: false, triggerFocus: false });
      r.on("fullsnapshot-rebuilded", () => setDrawn(true));
      const begin = Date.now();
      r.startLive(begin);
      const s = feed.current;
      s.replayer = r;
      latestPage(visitSessionId)
        .then((after) => storedFrames(visitSessionId, after, s.frames))
        .then(() => {
          s.early.forEach((f) => s.frames.add(f));
          s.early = [];
          s.ready = true;
          beforeLive(fromFirstPage(s.frames.events()), begin).forEach((e) => r.addEvent(e));
        })
        .catch(setError);
      return r;
    },
    [visitSessionId],
  );

  return (
    <div className="cobrowse-screen">
      <ProblemAlert error={error} />
      {!drawn && !error && <p className="muted">{t("waitingPage")}</p>}
      <ReplayFrame label={t("liveView")} start={start} />
    </div>
  );
}
