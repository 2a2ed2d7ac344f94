import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { ActiveCall } from "./callStore";
import "./texts";

/** CallMedia plays the visitor's side of the call (their picture on a video call, else
 * their voice alone) and shows the operator's own camera small beside it. */
export function CallMedia({ active }: { active: ActiveCall }) {
  const { t } = useTranslation("calls");
  const video = active.call.media_kind === "video";
  return (
    <div className={video ? "call-media video" : "call-media"}>
      {video ? (
        <>
          <Stream kind="video" stream={active.remote} label={t("remoteVideo")} className="call-remote" />
          <Stream kind="video" stream={active.cameraOff ? undefined : active.local} label={t("localVideo")} className="call-local" muted />
        </>
      ) : (
        <Stream kind="audio" stream={active.remote} />
      )}
    </div>
  );
}

type StreamProps = { kind: "audio" | "video"; stream?: MediaStream; label?: string; className?: string; muted?: boolean };

/** Stream is a media element playing a MediaStream (which React cannot set as an attribute). */
function Stream({ kind, stream, label, className, muted = false }: StreamProps) {
  const ref = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  useEffect(() => {
    if (ref.current && ref.current.srcObject !== (stream ?? null)) ref.current.srcObject = stream ?? null;
  }, [stream]);
  if (kind === "audio") return <audio ref={ref} autoPlay />;
  return <video ref={ref} autoPlay playsInline muted={muted} aria-label={label} title={label} className={className} />;
}
