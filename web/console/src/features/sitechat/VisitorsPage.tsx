import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Dialog } from "../../components/Dialog";
import { ListTable } from "../../components/ListTable";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useNow } from "../../lib/now";
import { useActiveProjectId } from "../workspace/workspace";
import { InviteForm } from "./InviteForm";
import { sinceMinutes } from "./live";
import type { VisitSession } from "./queries";
import { useLiveVisitors } from "./useLiveVisitors";
import "./texts";

/** VisitorsPage is who is on the active project's sites now, live: their page, how long
 * they have been there, whether their chat is open, first visit or returning, and their
 * answer to an invitation; each opens the visitor panel or is invited from here. */
export function VisitorsPage() {
  const { t } = useTranslation("siteChat");
  const projectId = useActiveProjectId();
  if (!projectId) return <p className="page">{t("needsProject")}</p>;
  return <Visitors projectId={projectId} />;
}

function Visitors({ projectId }: { projectId: string }) {
  const { t } = useTranslation("siteChat");
  const { t: common } = useTranslation();
  const visitors = useLiveVisitors(projectId);
  const [inviting, setInviting] = useState<VisitSession>();
  const now = useNow(true);
  return (
    <section className="page desk-page">
      <h1>{t("visitorsNow")}</h1>
      <ProblemAlert error={visitors.error} />
      {visitors.isPending ? (
        <p className="muted">{common("loading")}</p>
      ) : !visitors.data?.length ? (
        <p className="muted">{t("noVisitors")}</p>
      ) : (
        <ListTable columns={[t("page"), t("onSiteFor"), t("chat"), t("visit"), t("invitation")]} actions={t("invite")}>
          {visitors.data.map((v) => {
            const page = v.current_title || v.current_url || t("untitledPage");
            return (
              <tr key={v.visit_session_id} data-visit-session-id={v.visit_session_id}>
                <td>
                  <Link to={`/site-chat/visits/${v.visit_session_id}`} aria-label={t("openVisit", { page })}>
                    {page}
                  </Link>
                  {v.current_title && <small className="muted wrap">{v.current_url}</small>}
                </td>
                <td>{duration(t, v.started_at, now)}</td>
                <td>
                  <span className={v.chat_open ? "badge ok" : "badge muted"}>{v.chat_open ? t("chatOpen") : t("chatClosed")}</span>
                </td>
                <td>{v.is_first_visit ? t("firstVisit") : t("returning")}</td>
                <td>{v.invite_status ? t(`invited_${v.invite_status}`) : t("notInvited")}</td>
                <td className="row-actions">
                  <button type="button" onClick={() => setInviting(v)} aria-label={`${t("invite")}: ${page}`}>
                    {t("invite")}
                  </button>
                </td>
              </tr>
            );
          })}
        </ListTable>
      )}
      {inviting && (
        <Dialog title={t("inviteTitle")} onClose={() => setInviting(undefined)}>
          <InviteForm
            visitSessionId={inviting.visit_session_id}
            projectId={projectId}
            chatWidgetId={inviting.chat_widget_id}
            onInvited={() => setInviting(undefined)}
            onCancel={() => setInviting(undefined)}
          />
        </Dialog>
      )}
    </section>
  );
}

type T = ReturnType<typeof useTranslation<"siteChat">>["t"];

/** duration says how long ago the visit started, in minutes. */
function duration(t: T, since: string, now: number): string {
  const m = sinceMinutes(since, now);
  return m < 1 ? t("seconds") : t("minutes", { count: m });
}
