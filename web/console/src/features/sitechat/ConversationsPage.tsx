import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { ListTable } from "../../components/ListTable";
import { ProblemAlert } from "../../components/ProblemAlert";
import { formatTimestamp } from "../../lib/dates";
import { useActiveProjectId } from "../workspace/workspace";
import { useConversations, type ConversationStatus } from "./queries";
import { UnreadCount } from "./UnreadCount";
import "./texts";

const filters: (ConversationStatus | "")[] = ["", "open", "closed"];

/** ConversationsPage is the active project's conversations, the newest activity first:
 * who, the start of the last message, when, the person's unread count and the status; the
 * address's ?status= narrows them to the open or the closed ones. The desk keeps it live. */
export function ConversationsPage() {
  const { t } = useTranslation("siteChat");
  const projectId = useActiveProjectId();
  if (!projectId) return <p className="page">{t("needsProject")}</p>;
  return <Conversations projectId={projectId} />;
}

function Conversations({ projectId }: { projectId: string }) {
  const { t, i18n } = useTranslation("siteChat");
  const { t: common } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get("status");
  const status: ConversationStatus | "" = raw === "open" || raw === "closed" ? raw : "";
  const conversations = useConversations(projectId, status);
  const items = conversations.data?.items;
  return (
    <section className="page desk-page">
      <div className="page-head">
        <h1>{t("conversations")}</h1>
        <nav className="row" aria-label={t("status")}>
          {filters.map((f) => (
            <Link key={f} to={f ? `?status=${f}` : "?"} className="filter" aria-current={f === status ? "page" : undefined}>
              {f ? t(`filter_${f}`) : t("all")}
            </Link>
          ))}
        </nav>
      </div>
      <ProblemAlert error={conversations.error} />
      {conversations.isPending ? (
        <p className="muted">{common("loading")}</p>
      ) : !items?.length ? (
        <p className="muted">{status ? t("noConversationsWithStatus") : t("noConversations")}</p>
      ) : (
        <ListTable columns={[t("conversation"), t("lastMessage"), t("status")]}>
          {items.map((c) => (
            <tr key={c.conversation_id} className={c.unread_count ? "unread" : undefined}>
              <td>
                <Link to={`/site-chat/conversations/${c.conversation_id}`}>{c.visitor_name || c.title}</Link>
                <UnreadCount count={c.unread_count ?? 0} label={t("unreadCount", { count: c.unread_count ?? 0 })} />
                {c.visitor_contact && <small className="muted wrap">{c.visitor_contact}</small>}
              </td>
              <td className="preview">
                {c.last_message ? (
                  <>
                    <span className="wrap">
                      {c.last_message.author_kind === "operator" && <span className="muted">{c.last_message.author_name}: </span>}
                      {c.last_message.body}
                    </span>
                    <small className="muted">{formatTimestamp(c.last_message.created_at, i18n.language)}</small>
                  </>
                ) : (
                  <span className="muted">{t("noMessages")}</span>
                )}
              </td>
              <td>
                <span className={c.status === "open" ? "badge ok" : "badge muted"}>{t(`status_${c.status}`)}</span>
              </td>
            </tr>
          ))}
        </ListTable>
      )}
    </section>
  );
}
