import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { formatTimestamp } from "../../lib/dates";
import { formatFileSize } from "../../lib/fileSize";
import type { Message } from "./queries";

/** Thread is a conversation's messages, oldest first, each with its author (the visitor by
 * the name they gave, else "Visitor" in the person's language) and time, its text as text
 * (never markup) and its files as download links; it keeps the newest in view. */
export function Thread({ messages, me, visitorName }: { messages: Message[]; me: string | undefined; visitorName: string }) {
  const { t, i18n } = useTranslation("siteChat");
  const end = useRef<HTMLLIElement>(null);
  const last = messages.at(-1)?.message_id;
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "nearest" });
  }, [last]);
  if (!messages.length) return <p className="muted">{t("noMessages")}</p>;
  return (
    <ol className="thread">
      {messages.map((m) => {
        const author =
          m.author_kind === "system" ? t("system") : m.author_kind === "visitor" ? visitorName || t("visitor") : m.author_user_id === me ? t("you") : m.author_name;
        return (
          <li key={m.message_id} className={`bubble ${m.author_kind}`} data-author={m.author_kind}>
            <div className="bubble-head">
              <strong>{author}</strong> <small className="muted">{formatTimestamp(m.created_at, i18n.language)}</small>
            </div>
            {m.attachments.length ? (
              <ul className="files">
                {m.attachments.map((a) => (
                  <li key={a.attachment_id}>
                    <a href={a.download_url} download={a.file_name} aria-label={t("download", { name: a.file_name })}>
                      {a.file_name}
                    </a>{" "}
                    <small className="muted">{formatFileSize(a.size_bytes, i18n.language)}</small>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="bubble-body">{m.body}</p>
            )}
          </li>
        );
      })}
      <li ref={end} aria-hidden="true" className="thread-end" />
    </ol>
  );
}
