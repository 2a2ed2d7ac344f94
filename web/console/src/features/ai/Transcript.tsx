import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { LiveTurn } from "./ai";
import { ToolCallCard } from "./ToolCallCard";
import { entries, lastOutcome, turnGoesOn, type Message, type Session } from "./transcript";
import "./texts";

/** Transcript is the conversation: the person's messages, the employee's answers (the one
 * being written as it streams), and the tools it called with their input and result. Text
 * is shown as text: markup in a message is not applied. */
export function Transcript({ projectId, session, live }: { projectId: string; session: Session | undefined; live: LiveTurn }) {
  const { t } = useTranslation("ai");
  const list = session ? entries(session) : [];
  const end = useRef<HTMLDivElement>(null);
  const busy = live.streaming || (!!session && turnGoesOn(session));
  const waiting = !!session && session.status === "waiting_approval" && !turnGoesOn(session);
  const outcome = session && !busy ? lastOutcome(session) : undefined;

  // The newest entry and the text as it grows stay in view.
  useEffect(() => {
    end.current?.scrollIntoView({ block: "nearest" });
  }, [list.length, live.text]);

  return (
    <section className="ai-transcript" aria-label={t("transcript")}>
      {list.length === 0 && !live.text && <p className="muted">{t("empty")}</p>}
      <ol>
        {list.map((e) =>
          e.kind === "message" ? (
            <MessageItem key={e.message.message_id} message={e.message} />
          ) : (
            <li key={e.call.ai_tool_call_id} className="ai-entry">
              <ToolCallCard projectId={projectId} session={session!} call={e.call} live={live} />
            </li>
          ),
        )}
        {live.text && (
          <li className="ai-entry ai-message assistant" data-streaming="true">
            <span className="ai-who">{t("employee")}</span>
            <p>{live.text}</p>
          </li>
        )}
      </ol>
      <p role="status" className="ai-turn-state muted">
        {busy ? t("writing") : waiting ? t("waitsForYou") : ""}
      </p>
      {outcome && (
        <p className={outcome.kind === "failed" ? "alert" : "muted"} role={outcome.kind === "failed" ? "alert" : undefined}>
          {outcome.kind === "cancelled" ? t("stopped") : outcome.detail ? t("failed", { detail: outcome.detail }) : t("failedNoDetail")}
        </p>
      )}
      <div ref={end} className="ai-transcript-end" />
    </section>
  );
}

function MessageItem({ message }: { message: Message }) {
  const { t } = useTranslation("ai");
  return (
    <li className={`ai-entry ai-message ${message.role}`}>
      <span className="ai-who">{message.role === "user" ? t("you") : t("employee")}</span>
      <p>{message.content}</p>
    </li>
  );
}
