import { useId } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../../components/ProblemAlert";
import { formatTimestamp } from "../../../lib/dates";
import { CallRecordings } from "./CallRecordings";
import { duration, isLive, mayRecord } from "./callState";
import { useVisitCalls } from "./queries";
import "./texts";

/** CallHistory lists a visit's calls, newest first: which way, audio or video, when, how
 * it ended and how long it lasted, and the recordings of those the visitor let record. */
export function CallHistory({ visitSessionId }: { visitSessionId: string }) {
  const { t, i18n } = useTranslation("calls");
  const { t: common } = useTranslation();
  const headingId = useId();
  const calls = useVisitCalls(visitSessionId);
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>{t("history")}</h3>
      <ProblemAlert error={calls.error} />
      {calls.isPending ? (
        <p className="muted">{common("loading")}</p>
      ) : calls.data?.length ? (
        <ul className="part-list call-history">
          {calls.data.map((c) => {
            const when = formatTimestamp(c.created_at, i18n.language);
            return (
              <li key={c.call_session_id}>
                <div>
                  <span>
                    {t("callAt", { direction: t(`direction_${c.direction}`), media: t(`media_${c.media_kind}`), time: when })}
                  </span>{" "}
                  <span className="badge muted">{t(`status_${c.status}`)}</span>
                  {c.started_at && c.ended_at && (
                    <small className="muted">{t("lasted", { duration: duration(Date.parse(c.started_at), Date.parse(c.ended_at)) })}</small>
                  )}
                </div>
                {mayRecord(c) && !isLive(c) && <CallRecordings call={c} when={when} />}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted">{t("noCalls")}</p>
      )}
    </section>
  );
}
