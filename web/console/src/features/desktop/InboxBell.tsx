import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { formatTimestamp } from "../../lib/dates";
import { subjectPath, useAcknowledge, useInbox, useInboxStream, type DesktopMessage } from "./inbox";
import "./texts";
import "./desktop.css";

/** InboxBell is the header's bell: the live count of unread desktop messages, and a panel
 * with the messages, each opening the page of what it is about. */
export function InboxBell() {
  const { t } = useTranslation("desktop");
  const inbox = useInbox();
  useInboxStream();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const box = useRef<HTMLDivElement>(null);
  const unread = inbox.data?.pages[0]?.unread_count ?? 0;

  // The panel closes on Escape and on a click outside it, as a menu does.
  useEffect(() => {
    if (!open) return;
    const outside = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpen(false);
    };
    document.addEventListener("mousedown", outside);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("mousedown", outside);
      document.removeEventListener("keydown", escape);
    };
  }, [open]);

  return (
    <div className="inbox" ref={box}>
      <button
        type="button"
        className="inbox-bell"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={unread ? t("inboxUnread", { count: unread }) : t("inbox")}
        onClick={() => setOpen(!open)}
      >
        <BellIcon />
        {unread > 0 && (
          <span className="inbox-count" aria-hidden="true">
            {unread > 99 ? "99+" : unread}
          </span>
        )}
      </button>
      {open && <InboxPanel id={panelId} inbox={inbox} onOpen={() => setOpen(false)} />}
    </div>
  );
}

function InboxPanel({ id, inbox, onOpen }: { id: string; inbox: ReturnType<typeof useInbox>; onOpen: () => void }) {
  const { t } = useTranslation("desktop");
  const ack = useAcknowledge();
  const messages = inbox.data?.pages.flatMap((p) => p.items) ?? [];
  const unread = inbox.data?.pages[0]?.unread_count ?? 0;
  return (
    <section id={id} className="inbox-panel" aria-label={t("inbox")}>
      <div className="row inbox-head">
        <h2>{t("inbox")}</h2>
        {unread > 0 && (
          <button type="button" className="link" onClick={() => ack.all.mutate()} disabled={ack.all.isPending}>
            {t("markAllRead")}
          </button>
        )}
      </div>
      <ProblemAlert error={inbox.error ?? ack.all.error ?? ack.one.error} />
      {inbox.isSuccess && messages.length === 0 && <p className="muted">{t("nothing")}</p>}
      <ul className="inbox-list">
        {messages.map((m) => (
          <InboxItem key={m.desktop_message_id} message={m} onOpen={onOpen} acknowledge={(id) => ack.one.mutate(id)} />
        ))}
      </ul>
      {inbox.hasNextPage && (
        <button type="button" className="link" onClick={() => void inbox.fetchNextPage()} disabled={inbox.isFetchingNextPage}>
          {t("loadMore")}
        </button>
      )}
    </section>
  );
}

function InboxItem({ message: m, onOpen, acknowledge }: { message: DesktopMessage; onOpen: () => void; acknowledge: (id: string) => void }) {
  const { t, i18n } = useTranslation("desktop");
  const path = subjectPath(m);
  const unread = !m.acked_at;
  // Opening a message is reading it.
  const opened = () => {
    if (unread) acknowledge(m.desktop_message_id);
    onOpen();
  };
  return (
    <li className={unread ? "unread" : undefined}>
      <div className="inbox-title">
        {unread && <span className="visually-hidden">{t("unread")}: </span>}
        {path ? (
          <Link to={path} onClick={opened}>
            {m.title}
          </Link>
        ) : (
          <strong>{m.title}</strong>
        )}
      </div>
      {m.body && <p>{m.body}</p>}
      <div className="row">
        <time className="muted" dateTime={m.created_at}>
          {formatTimestamp(m.created_at, i18n.language)}
        </time>
        {unread && (
          <button type="button" className="link" onClick={() => acknowledge(m.desktop_message_id)}>
            {t("markRead")}
          </button>
        )}
      </div>
    </li>
  );
}

function BellIcon() {
  return (
    <svg className="inbox-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M12 3a6 6 0 0 0-6 6v3.6L4.3 16h15.4L18 12.6V9a6 6 0 0 0-6-6Z" />
      <path d="M9.5 19a2.5 2.5 0 0 0 5 0" />
    </svg>
  );
}
