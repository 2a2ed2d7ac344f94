import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useMe } from "../auth/session";
import { Composer } from "./Composer";
import { useConversation, useMarkRead, useMessages, useSetStatus } from "./queries";
import { Thread } from "./Thread";
import { useVisible } from "./useVisible";
import { useVisitorTyping } from "./useVisitorTyping";
import "./texts";

/** ConversationPage is one conversation at /site-chat/conversations/{id}: the thread,
 * live (the desk puts each message in), the visitor typing, the reply with files, closing
 * and reopening, and the link to the visitor's visit. What it shows counts as read by the
 * person while the page is in view. */
export function ConversationPage() {
  const { conversationId = "" } = useParams();
  return <ConversationView key={conversationId} conversationId={conversationId} />;
}

function ConversationView({ conversationId }: { conversationId: string }) {
  const { t } = useTranslation("siteChat");
  const { t: common } = useTranslation();
  const conversation = useConversation(conversationId);
  const messages = useMessages(conversationId, conversation.isSuccess);
  const me = useMe().data?.user_id;
  const typing = useVisitorTyping(conversationId);
  const markRead = useMarkRead(conversationId);
  const setStatus = useSetStatus(conversationId);
  const visible = useVisible();
  const unread = conversation.data?.unread_count ?? 0;
  const lastId = conversation.data?.last_message?.message_id;
  const marked = useRef<string>(undefined);
  const read = markRead.mutate;
  useEffect(() => {
    if (!visible || unread < 1 || !lastId || marked.current === lastId) return;
    marked.current = lastId;
    read();
  }, [visible, unread, lastId, read]);

  if (conversation.error) {
    return (
      <section className="page">
        <p className="crumbs">
          <Link to="/site-chat/conversations">{t("conversations")}</Link>
        </p>
        <ProblemAlert error={conversation.error} />
      </section>
    );
  }
  if (!conversation.data) return <p className="page muted">{common("loading")}</p>;
  const c = conversation.data;
  const open = c.status === "open";
  return (
    <section className="page conversation-page">
      <p className="crumbs">
        <Link to="/site-chat/conversations">{t("conversations")}</Link>
      </p>
      <div className="page-head">
        <h1>{c.visitor_name ? t("conversationOf", { name: c.visitor_name }) : t("conversationOn", { title: c.title })}</h1>
        <div className="row">
          <span className={open ? "badge ok" : "badge muted"}>{t(`status_${c.status}`)}</span>
          {c.visit_session_id && <Link to={`/site-chat/visits/${c.visit_session_id}`}>{t("visitPanel")}</Link>}
          <button type="button" onClick={() => setStatus.mutate(open ? "closed" : "open")} disabled={setStatus.isPending}>
            {open ? t("closeConversation") : t("reopenConversation")}
          </button>
        </div>
      </div>
      {c.visitor_contact && <p className="muted">{c.visitor_contact}</p>}
      <ProblemAlert error={setStatus.error} />
      <section className="panel thread-panel" aria-label={t("thread")}>
        <ProblemAlert error={messages.error} />
        {messages.data ? <Thread messages={messages.data} me={me} visitorName={c.visitor_name ?? ""} /> : <p className="muted">{common("loading")}</p>}
        <p role="status" className="typing muted">
          {typing ? t("visitorTyping") : ""}
        </p>
        {open ? <Composer conversationId={conversationId} /> : <p className="muted">{t("closedNotice")}</p>}
      </section>
    </section>
  );
}
