import { useTranslation } from "react-i18next";
import { NavLink, Outlet } from "react-router";
import { useActiveProjectId } from "../workspace/workspace";
import { CallDock } from "./calls/CallDock";
import { useUnreadConversations } from "./queries";
import { UnreadCount } from "./UnreadCount";
import { useDeskLive } from "./useDeskLive";
import "./texts";
import "./sitechat.css";

/** SiteChatPage is the frame of the operator's desk at /site-chat: its tabs above the page
 * (conversations with how many hold unread messages), and the operator socket kept open
 * while the person is anywhere on the desk, with a word when it is reconnecting. */
export function SiteChatPage() {
  const { t } = useTranslation("siteChat");
  const { t: common } = useTranslation();
  const socket = useDeskLive();
  const unread = useUnreadConversations(useActiveProjectId()).data ?? 0;
  return (
    <>
      <nav className="desk-tabs" aria-label={t("desk")}>
        <NavLink to="/site-chat/visitors">{t("visitors")}</NavLink>
        <NavLink to="/site-chat/conversations">
          {t("conversations")}
          <UnreadCount count={unread} label={common("unreadConversations", { count: unread })} />
        </NavLink>
        <NavLink to="/site-chat/widgets">{t("widgets")}</NavLink>
        <span role="status" className="desk-offline">
          {!socket.open && socket.generation > 0 ? t("offline") : ""}
        </span>
      </nav>
      <Outlet />
      <CallDock />
    </>
  );
}
