import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ProblemError } from "../../api/problem";
import { formatTimestamp } from "../../lib/dates";
import { useSessionSummary } from "./ai";
import { title } from "./transcript";
import "./texts";

type ConversationListProps = {
  projectId: string;
  ids: string[];
  current: string | undefined;
  /** onLeave is called as the person leaves the conversation on screen. */
  onLeave: () => void;
  onNew: () => void;
  forget: (id: string) => void;
};

/** ConversationList is the person's conversations with the employee in this project (those
 * this browser opened), newest first, and the way to start a new one. */
export function ConversationList({ projectId, ids, current, onLeave, onNew, forget }: ConversationListProps) {
  const { t } = useTranslation("ai");
  return (
    <nav className="panel ai-conversations" aria-labelledby="ai-conversations-title">
      <div className="part-head">
        <h2 id="ai-conversations-title">{t("conversations")}</h2>
        <button type="button" onClick={onNew} disabled={!current}>
          {t("newConversation")}
        </button>
      </div>
      {ids.length === 0 ? (
        <p className="muted">{t("noConversations")}</p>
      ) : (
        <ul className="ai-conversation-list">
          {ids.map((id) => (
            <Conversation key={id} projectId={projectId} id={id} current={id === current} onLeave={onLeave} forget={forget} />
          ))}
        </ul>
      )}
      <p className="muted small">{t("keptHere")}</p>
    </nav>
  );
}

function Conversation({ projectId, id, current, onLeave, forget }: { projectId: string; id: string; current: boolean; onLeave: () => void; forget: (id: string) => void }) {
  const { t, i18n } = useTranslation("ai");
  const session = useSessionSummary(projectId, id);
  const gone = session.error instanceof ProblemError && session.error.status === 404;
  useEffect(() => {
    if (gone) forget(id);
  }, [gone, forget, id]);
  const s = session.data;
  if (!s) return null;
  const status = s.status === "idle" ? undefined : s.status;
  return (
    <li>
      <Link to={`/projects/${projectId}/ai?session=${id}`} aria-current={current ? "page" : undefined} onClick={current ? undefined : onLeave}>
        <span className="ai-conversation-title">{title(s) ?? t("untitled", { date: formatTimestamp(s.created_at, i18n.language) })}</span>
      </Link>
      <small className="muted">
        {formatTimestamp(s.updated_at, i18n.language)}
        {status && <span className="badge warn">{t(`session_${status}`)}</span>}
      </small>
    </li>
  );
}
