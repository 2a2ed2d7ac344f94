import { useTranslation } from "react-i18next";
import { NavLink, Outlet } from "react-router";
import { CallDock } from "./calls/CallDock";
import { useOperatorSocket } from "./operatorSocket";
import "./texts";
import "./sitechat.css";

/** SiteChatPage is the frame of the operator's desk at /site-chat: its tabs above the page,
 * and the operator socket kept open while the person is anywhere on the desk (the pages
 * listen to it too), with a word when it is reconnecting. */
export function SiteChatPage() {
  const { t } = useTranslation("siteChat");
  const socket = useOperatorSocket(ignore);
  return (
    <>
      <nav className="desk-tabs" aria-label={t("desk")}>
        <NavLink to="/site-chat/visitors">{t("visitors")}</NavLink>
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

function ignore() {}
