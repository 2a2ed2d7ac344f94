import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, Outlet } from "react-router";
import { LanguageSelect } from "../components/LanguageSelect";
import { useDisclosure } from "../components/useDisclosure";
import { useNarrowScreen } from "../lib/narrowScreen";
import { WorkspaceSwitcher } from "../features/workspace/WorkspaceSwitcher";
import { ClientsAndBillingLinks } from "../features/workspace/ClientsAndBillingLinks";
import { AIEmployeeLink } from "../features/ai/AIEmployeeLink";
import { signOut, useMe } from "../features/auth/session";
import { SiteChatNavLink } from "../features/sitechat/SiteChatNavLink";

// The work tracker's running timer and the inbox bell load with the first signed-in page, not with the
// sign-in page's script.
const TimerBadge = lazy(() => import("../features/work/TimerBadge").then((m) => ({ default: m.TimerBadge })));
const InboxBell = lazy(() => import("../features/desktop/InboxBell").then((m) => ({ default: m.InboxBell })));

/** Layout is the frame of every signed-in page: the header with the workspace and the page.
 * On a phone the header keeps the brand, the inbox and the running timer, and the areas,
 * the workspace and the person's controls open below it from the menu button. */
export function Layout() {
  const { t } = useTranslation();
  const me = useMe();
  const narrow = useNarrowScreen();
  const menu = useDisclosure();
  return (
    <>
      <a className="skip-link" href="#main">
        {t("skipToContent")}
      </a>
      <header className="topbar">
        <Link to="/workflows" className="brand">
          {t("appName")}
        </Link>
        {narrow && (
          <>
            <Suspense fallback={null}>
              <InboxBell />
            </Suspense>
            <button {...menu.button} className="menu-button">
              <MenuIcon open={menu.open} />
              {t("menu")}
            </button>
            <Suspense fallback={null}>
              <TimerBadge />
            </Suspense>
          </>
        )}
        <div className="topbar-menu" {...(narrow ? { ...menu.panel, hidden: !menu.open } : {})}>
          <nav aria-label={t("mainNav")}>
            <NavLink to="/workflows">{t("workflows")}</NavLink>
            <NavLink to="/runs" end>
              {t("runs")}
            </NavLink>
            <NavLink to="/approvals">{t("approvals")}</NavLink>
            <ClientsAndBillingLinks />
            <NavLink to="/work">{t("work")}</NavLink>
            <SiteChatNavLink />
            <AIEmployeeLink />
            <NavLink to="/settings">{t("settings")}</NavLink>
          </nav>
          <WorkspaceSwitcher />
          <div className="topbar-end">
            {!narrow && (
              <Suspense fallback={null}>
                <TimerBadge />
                <InboxBell />
              </Suspense>
            )}
            <LanguageSelect quiet />
            <span className="muted person" title={me.data ? `${me.data.name} <${me.data.email}>` : undefined}>
              {me.data?.name || me.data?.email}
            </span>
            <button type="button" className="link" onClick={() => signOut()}>
              {t("signOut")}
            </button>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="console-footer">
        <Link to="/reference">{t("apiReference")}</Link>
      </footer>
    </>
  );
}

/** MenuIcon is the menu button's three lines, a cross while the menu is open. */
function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg className="menu-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
    </svg>
  );
}
