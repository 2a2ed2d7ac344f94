import { Replayer } from "@rrweb/replay";
import { EventType } from "@rrweb/types";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../../components/ProblemAlert";
import { clock, Frames, fromFirstPage, storedFrames, type RRWebEvent } from "./frames";
import { ReplayFrame } from "./ReplayFrame";
import "./texts";

/** RecordingView reads every stored frame of the visit and lets the operator go back
 * through them on a timeline. */
export function RecordingView({ visitSessionId }: { visitSessionId: string }) {
  const { t } = useTranslation("cobrowse");
  const [events, setEvents] = useState<RRWebEvent[]>();
  const [frames, setFrames] = useState(0);
  const [error, setError] = useState<unknown>();
  const [loads, setLoads] = useState(0);

  useEffect(() => {
    const all = new Frames();
    let gone = false;
    storedFrames(visitSessionId, 0, all)
      .then(() => {
        if (gone) return;
        setFrames(all.size);
        setEvents(fromFirstPage(all.events()));
      })
      .catch((err) => gone || setError(err));
    return () => {
      gone = true;
    };
  }, [visitSessionId, loads]);

  if (error) return <ProblemAlert error={error} />;
  if (!events) return <p className="muted">{t("loadingRecording")}</p>;
  if (events.length < 2) return <p className="muted">{t("noRecording")}</p>;
  return (
    <div className="stack">
      <div className="row">
        <span className="muted">{t("frames", { count: frames })}</span>
        <button type="button" onClick={() => setLoads((n) => n + 1)}>
          {t("reloadRecording")}
        </button>
      </div>
      <Player key={`${loads}:${events.length}`} events={events} />
    </div>
  );
}

/** showAt draws the recording as it was ms after its first full snapshot (the timeline's
 * start; its Meta event, the Replayer's start, comes lead ms before), what happened at
 * that moment included: rrweb applies what happened before the offset it is given. */
function showAt(r: Replayer, lead: number, ms: number) {
  r.pause(lead + ms + 1);
}

/** Player draws the recording at the moment the timeline says, or plays it from there. */
function Player({ events }: { events: RRWebEvent[] }) {
  const { t, i18n } = useTranslation("cobrowse");
  const replayer = useRef<Replayer>(undefined);
  const first = events.find((e) => e.type === EventType.FullSnapshot)?.timestamp ?? events[0].timestamp;
  const lead = first - events[0].timestamp;
  // Whole seconds, the timeline's step, so its end (the End key) is the recording's.
  const total = Math.ceil((events[events.length - 1].timestamp - first) / 1000) * 1000;
  // The recording opens at its end, the latest moment, to go back from.
  const [at, setAt] = useState(total);
  const [playing, setPlaying] = useState(false);

  const start = useCallback(
    (root: HTMLElement) => {
      const r = new Replayer(events, { root, mouseTail: false, showWarning: false, triggerFocus: false });
      r.on("finish", () => setPlaying(false));
      // After the Replayer's own first drawing, which it defers the same way.
      setTimeout(() => showAt(r, lead, total));
      replayer.current = r;
      return r;
    },
    [events, lead, total],
  );

  useEffect(() => {
    if (!playing) return;
    const tick = setInterval(() => setAt(Math.max(0, Math.min(total, (replayer.current?.getCurrentTime() ?? 0) - lead))), 250);
    return () => clearInterval(tick);
  }, [playing, lead, total]);

  function seek(ms: number) {
    setAt(ms);
    setPlaying(false);
    if (replayer.current) showAt(replayer.current, lead, ms);
  }

  function toggle() {
    const r = replayer.current;
    if (!r) return;
    if (playing) {
      r.pause();
      setPlaying(false);
      return;
    }
    const from = at >= total ? 0 : at;
    setAt(from);
    r.play(lead + from);
    setPlaying(true);
  }

  const moment = t("momentText", { at: clock(at), total: clock(total), clock: new Intl.DateTimeFormat(i18n.language, { timeStyle: "medium" }).format(first + at) });
  return (
    <div className="stack">
      <ReplayFrame label={t("replayView")} start={start} />
      <div className="cobrowse-timeline">
        <button type="button" onClick={toggle}>
          {playing ? t("pause") : t("play")}
        </button>
        <label htmlFor="cobrowse-moment">
          {t("moment")}
        </label>
        <input
          id="cobrowse-moment"
          type="range"
          min={0}
          max={total}
          step={1000}
          value={at}
          aria-valuetext={moment}
          onChange={(e) => seek(Number(e.target.value))}
        />
        <output htmlFor="cobrowse-moment">{moment}</output>
      </div>
    </div>
  );
}
