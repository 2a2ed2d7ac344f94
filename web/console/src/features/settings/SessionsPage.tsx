import { useTranslation } from "react-i18next";
import { ListTable } from "../../components/ListTable";
import { ProblemAlert } from "../../components/ProblemAlert";
import { formatTime } from "../../lib/time";
import { useRevokeSession, useSessions, type SessionView } from "./account";
import { AskFirst } from "../../components/AskFirst";
import { deviceOf } from "./device";
import "./texts";

/** SessionsPage lists where the person is signed in and ends the sessions they do not
 * recognise; this browser's own ends with Sign out. */
export function SessionsPage() {
  const { t } = useTranslation("settings");
  const tc = useTranslation().t;
  const sessions = useSessions();
  return (
    <>
      <h1>{t("sessionsTitle")}</h1>
      <p className="muted">{t("sessionsIntro")}</p>
      <ProblemAlert error={sessions.error} />
      {sessions.isPending && <p className="muted">{tc("loading")}</p>}
      {sessions.data && (
        <ListTable columns={[t("device"), t("clientType"), t("ipAddress"), t("signedIn"), t("lastSeen")]} actions={t("actions")}>
          {sessions.data.items.map((s) => (
            <SessionRow key={s.session_id} session={s} />
          ))}
        </ListTable>
      )}
    </>
  );
}

function SessionRow({ session }: { session: SessionView }) {
  const { t, i18n } = useTranslation("settings");
  const revoke = useRevokeSession();
  const label = session.device_label || t(`client_${session.client_type}`);
  const read = deviceOf(label);
  const device = read ? (read.os ? t("browserOn", read) : read.browser) : label;
  return (
    <tr>
      <td>
        <span title={label}>{device}</span>{" "}
        {session.is_current && <span className="badge ok">{t("thisSession")}</span>}
      </td>
      <td>{t(`client_${session.client_type}`)}</td>
      <td>{session.ip_address || "—"}</td>
      <td>{formatTime(session.created_at, i18n.language)}</td>
      <td>{formatTime(session.last_seen_at, i18n.language)}</td>
      <td className="row-actions">
        {!session.is_current && (
          <AskFirst
            label={t("revoke")}
            name={t("revokeSessionNamed", { device })}
            question={t("revokeSessionQuestion")}
            pending={revoke.isPending}
            onConfirm={() => revoke.mutate(session.session_id)}
          />
        )}
        <ProblemAlert error={revoke.error} />
      </td>
    </tr>
  );
}
