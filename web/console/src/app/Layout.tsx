import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, Outlet } from "react-router";
import { LanguageSelect } from "../components/LanguageSelect";
import { WorkspaceSwitcher } from "../features/workspace/WorkspaceSwitcher";
import { ClientsAndBillingLinks } from "../features/workspace/ClientsAndBillingLinks";
import { AIEmployeeLink } from "../features/ai/AIEmployeeLink";
import { signOut, useMe } from "../features/auth/session";
import { SiteChatNavLink } from "../features/sitechat/SiteChatNavLink";

// The work tracker's running timer and the inbox bell load with the first signed-in page, not with the
// sign-in page's script.
const TimerBadge = lazy(() => import("../features/work/TimerBadge").then((m) => ({ default: m.TimerBadge })));
const InboxBell = lazy(() => import("../features/desktop/InboxBell").then((m) => ({ default: m.InboxBell })));

/** Layout is the frame of every signed-in page: the header with the workspace and the page. */
export function Layout() {
  const { t } = useTranslation();
  const me = useMe();
  return (
    <>
      <a className="skip-link" href="#main">
        {t("skipToContent")}
      </a>
      <header className="topbar">
        <Link to="/workflows" className="brand">
          {t("appName")}
        </Link>
        <nav aria-label={t("mainNav")}>
          <NavLink to="/workflows">{t("workflows")}</NavLink>
          <NavLink to="/runs" end>
            {t("runs")}
          </NavLink>
          <ClientsAndBillingLinks />
          <NavLink to="/work">{t("work")}</NavLink>
          <SiteChatNavLink />
          <AIEmployeeLink />
          <NavLink to="/settings">{t("settings")}</NavLink>
        </nav>
        <WorkspaceSwitcher />
        <div className="topbar-end">
          <Suspense fallback={null}>
            <TimerBadge />
            <InboxBell />
          </Suspense>
          <LanguageSelect quiet />
          <span className="muted person" title={me.data ? `${me.data.name} <${me.data.email}>` : undefined}>
            {me.data?.name || me.data?.email}
          </span>
          <button type="button" className="link" onClick={() => signOut()}>
            {t("signOut")}
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
