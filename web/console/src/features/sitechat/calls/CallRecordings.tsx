import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../../components/ProblemAlert";
import type { CallSession } from "./callState";
import { useRecordings } from "./queries";
import "./texts";

/** CallRecordings plays a call's recordings from the API's download links, each with a
 * link to download it. */
export function CallRecordings({ call, when }: { call: CallSession; when: string }) {
  const { t } = useTranslation("calls");
  const { t: common } = useTranslation();
  const recordings = useRecordings(call.call_session_id);
  if (recordings.error) return <ProblemAlert error={recordings.error} />;
  if (recordings.isPending) return <p className="muted">{common("loading")}</p>;
  if (!recordings.data.length) return <p className="muted">{t("noRecordings")}</p>;
  const label = t("recordingOf", { time: when });
  return (
    <ul className="call-recordings" aria-label={t("recordings")}>
      {recordings.data.map((r) =>
        <li key={r.recording_id}>
          {call.media_kind === "video" ? (
            <video controls preload="metadata" src={r.download_url} aria-label={label} />
          ) : (
            <audio controls preload="metadata" src={r.download_url} aria-label={label} />
          )}
          <a href={r.download_url} download={r.file_name} aria-label={t("download", { name: r.file_name })}>
            {r.file_name}
          </a>
        </li>
      )}
    </ul>
  );
}
