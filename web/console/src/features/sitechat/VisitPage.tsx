import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { formatTimestamp } from "../../lib/dates";
import { CobrowsePanel } from "./cobrowse/CobrowsePanel";
import { CallPanel } from "./calls/CallPanel";
import { InviteForm } from "./InviteForm";
import { safeLink, sessionOf } from "./live";
import { useOperatorSocket } from "./operatorSocket";
import { siteChatKeys, useConversation, useVisit, type VisitSession, type VisitorSnapshot } from "./queries";
import "./texts";

/** VisitPage is the visitor panel at /site-chat/visits/{id} (and .../call): the visit and
 * its snapshot of the visitor's state, kept live by the notices about the visit, the link
 * to their conversation and the invitation to chat. The co-browse and call panels mount in
 * its panels column. */
export function VisitPage() {
  const { visitSessionId = "" } = useParams();
  const { t, i18n } = useTranslation("siteChat");
  const { t: common } = useTranslation();
  const queryClient = useQueryClient();
  const visit = useVisit(visitSessionId);
  const update = (s: VisitSession) => queryClient.setQueryData(siteChatKeys.visit(visitSessionId), s);
  useOperatorSocket((e) => {
    const s = sessionOf(e);
    if (s?.visit_session_id === visitSessionId) update(s);
  });

  if (visit.error) {
    return (
      <section className="page">
        <ProblemAlert error={visit.error} />
      </section>
    );
  }
  if (!visit.data) return <p className="page muted">{common("loading")}</p>;
  const session = visit.data;
  const state = readSnapshot(session.visitor_state_snapshot);
  const link = safeLink(state.url);
  return (
    <section className="page visit-page">
      <p className="crumbs">
        <Link to="/site-chat/visitors">{t("visitors")}</Link>
      </p>
      <div className="page-head">
        <h1>{state.title || t("visitTitle")}</h1>
        <span className={state.active ? "badge ok" : "badge muted"}>{state.active ? t("visitActive") : t("visitGone")}</span>
      </div>
      <div className="visit-layout">
        <div className="stack">
          <section className="panel" aria-labelledby="visit-state">
            <h2 id="visit-state">{t("visitTitle")}</h2>
            <dl className="facts">
              <dt>{t("currentPage")}</dt>
              <dd>
                {link ? (
                  <a href={link} target="_blank" rel="noreferrer noopener">
                    {state.url}
                  </a>
                ) : (
                  state.url || t("none")
                )}
              </dd>
              <dt>{t("lastActive")}</dt>
              <dd>{state.lastActivity ? formatTimestamp(state.lastActivity, i18n.language) : t("none")}</dd>
              <dt>{t("chat")}</dt>
              <dd>{state.chatOpen ? t("chatOpen") : t("chatClosed")}</dd>
              <dt>{t("invitation")}</dt>
              <dd>{session.invite_status ? t(`invited_${session.invite_status}`) : t("notInvited")}</dd>
              <dt>{t("monitoring")}</dt>
              <dd>{t(`monitoring_${state.monitoring}`)}</dd>
              <dt>{t("events")}</dt>
              <dd>
                {t("eventsTotal", { count: state.events })}
                {state.lastEvent && <small className="muted">{t("lastEvent", { type: state.lastEvent })}</small>}
              </dd>
              <dt>{t("browser")}</dt>
              <dd>{[state.browser, state.os].filter(Boolean).join(", ") || state.userAgent || t("none")}</dd>
              <dt>{t("screen")}</dt>
              <dd>{[state.window, state.device].filter(Boolean).join(", ") || t("none")}</dd>
              <dt>{t("language")}</dt>
              <dd>{state.language || t("none")}</dd>
              <dt>{t("referrer")}</dt>
              <dd className="wrap">{state.referrer || t("none")}</dd>
              <dt>{t("theirConversation")}</dt>
              <dd>
                <ConversationLink conversationId={session.conversation_id} />
              </dd>
            </dl>
          </section>
          {state.active && (
            <section className="panel" aria-labelledby="visit-invite">
              <h2 id="visit-invite">{t("inviteTitle")}</h2>
              <InviteForm visitSessionId={visitSessionId} projectId={session.project_id} chatWidgetId={session.chat_widget_id} onInvited={update} />
            </section>
          )}
        </div>
        {/* The co-browse and call panels (features/sitechat/cobrowse, features/sitechat/calls) mount here. */}
        <div className="stack visit-panels">
          <CobrowsePanel visitSessionId={visitSessionId} />
          <CallPanel visitSessionId={visitSessionId} visitorHere={state.active} />
        </div>
      </div>
    </section>
  );
}

/** ConversationLink leads to the visitor's conversation once their first message opened it. */
function ConversationLink({ conversationId }: { conversationId: string }) {
  const { t } = useTranslation("siteChat");
  const conversation = useConversation(conversationId);
  if (!conversation.data) return <>{conversation.isPending ? "" : t("noConversationYet")}</>;
  return (
    <Link to={`/site-chat/conversations/${conversationId}`}>
      {t("openConversation")}
      {conversation.data.unread_count ? ` (${t("unreadCount", { count: conversation.data.unread_count })})` : ""}
    </Link>
  );
}

type VisitState = {
  url: string;
  title: string;
  active: boolean;
  chatOpen: boolean;
  lastActivity: string;
  monitoring: "idle" | "requested" | "active" | "stopped";
  events: number;
  lastEvent: string;
  browser: string;
  os: string;
  device: string;
  window: string;
  userAgent: string;
  language: string;
  referrer: string;
};

/** size is a width × height, or "" when either is unknown. */
function size(w: unknown, h: unknown): string {
  return typeof w === "number" && typeof h === "number" && w > 0 && h > 0 ? `${w} × ${h}` : "";
}

/** readSnapshot picks what the panel shows out of the snapshot's free-form parts. */
function readSnapshot(s: VisitorSnapshot): VisitState {
  const part = (o: unknown) => (o && typeof o === "object" ? (o as Record<string, unknown>) : {});
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  const activity = part(s.activity);
  const browser = part((s as Record<string, unknown>).browser);
  const monitoring = text(activity.monitoring_status);
  return {
    url: s.current_url ?? "",
    title: s.current_title ?? "",
    active: activity.active === true,
    chatOpen: activity.chat_open === true,
    lastActivity: text(activity.last_activity_at),
    monitoring: monitoring === "requested" || monitoring === "active" || monitoring === "stopped" ? monitoring : "idle",
    events: typeof activity.events_total === "number" ? activity.events_total : 0,
    lastEvent: text(activity.last_event_type),
    browser: [text(browser.name), text(browser.version)].filter(Boolean).join(" "),
    os: text(browser.os),
    device: text(part(s.viewport).device_type),
    window: size(part(s.viewport).width, part(s.viewport).height),
    userAgent: text(browser.user_agent),
    language: text(browser.language),
    referrer: text(part(s.analytics).referrer),
  };
}
