import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { useActiveProjectId } from "../workspace/workspace";
import { useUnreadConversations } from "./queries";
import { UnreadCount } from "./UnreadCount";

/** SiteChatNavLink is the main navigation's link to the site chat desk, with how many of
 * the active project's conversations hold messages the person has not read. */
export function SiteChatNavLink() {
  const { t } = useTranslation();
  const unread = useUnreadConversations(useActiveProjectId()).data ?? 0;
  return (
    <NavLink to="/site-chat">
      {t("siteChat")}
      <UnreadCount count={unread} label={t("unreadConversations", { count: unread })} />
    </NavLink>
  );
}
