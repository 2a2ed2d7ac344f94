import { useTranslation } from "react-i18next";
import { NavLink, Outlet } from "react-router";
import { useActive } from "./active";
import "./settings.css";
import "./texts";

type Link = { to: string; label: string };

/** SettingsLayout is the frame of the settings pages: their menu beside the page, by whose
 * settings they are (the person's, the active company's, the active project's). The
 * company's legal entities have a page of the back office's own, which the menu leads to. */
export function SettingsLayout() {
  const { t } = useTranslation("settings");
  const tc = useTranslation().t;
  const { companyId } = useActive();
  const groups: { id: string; title: string; links: Link[] }[] = [
    {
      id: "settings-you",
      title: t("groupYou"),
      links: [
        { to: "/settings/profile", label: t("profileTitle") },
        { to: "/settings/sessions", label: t("sessionsTitle") },
        { to: "/settings/api-keys", label: t("apiKeysTitle") },
      ],
    },
    {
      id: "settings-company",
      title: t("groupCompany"),
      links: [
        { to: "/settings/members", label: t("membersTitle") },
        ...(companyId ? [{ to: `/companies/${companyId}/legal-entities`, label: t("legalEntities") }] : []),
        { to: "/settings/projects", label: t("projectsTitle") },
        { to: "/settings/party-lookup", label: t("partyLookupTitle") },
      ],
    },
    {
      id: "settings-project",
      title: t("groupProject"),
      links: [
        { to: "/settings/integrations", label: t("integrationsTitle") },
        { to: "/settings/templates", label: t("templatesTitle") },
      ],
    },
    { id: "settings-developers", title: t("groupDevelopers"), links: [{ to: "/reference", label: tc("apiReference") }] },
  ];
  return (
    <div className="settings">
      <nav className="settings-nav" aria-label={t("navLabel")}>
        {groups.map((g) => (
          <div key={g.id}>
            <p id={g.id} className="settings-nav-group">
              {g.title}
            </p>
            <ul aria-labelledby={g.id}>
              {g.links.map((l) => (
                <li key={l.to}>
                  <NavLink to={l.to}>{l.label}</NavLink>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <div className="settings-page">
        <Outlet />
      </div>
    </div>
  );
}
