import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../components/Field";
import { ListTable } from "../../components/ListTable";
import { fieldError, fieldInvalid, ProblemAlert } from "../../components/ProblemAlert";
import { useMe } from "../auth/session";
import { useActive } from "./active";
import {
  canManage,
  roles,
  useAddMember,
  useChangeRole,
  useInvitations,
  useInvite,
  useMembers,
  useRemoveMember,
  useRevokeInvitation,
  type InvitationView,
  type MemberView,
  type Role,
} from "./company";
import { AskFirst } from "../../components/AskFirst";
import { CopyButton } from "../../components/CopyButton";
import { formatTimestamp } from "../../lib/dates";
import { NeedsWorkspace } from "./NeedsWorkspace";
import "./texts";

/** MembersPage lists the active company's members and open invitations; owners and admins
 * add registered people, invite anyone by e-mail, change roles and remove members, as the
 * API allows them. */
export function MembersPage() {
  const { t } = useTranslation("settings");
  const active = useActive();
  return (
    <>
      <h1>{t("membersTitle")}</h1>
      <p className="muted">{t("membersIntro")}</p>
      <NeedsWorkspace active={active}>
        {canManage(active.role) && <AddMemberForm companyId={active.companyId} role={active.role} />}
        {canManage(active.role) && <InviteForm companyId={active.companyId} role={active.role} />}
        <MemberList companyId={active.companyId} role={active.role} />
        <InvitationList companyId={active.companyId} role={active.role} />
      </NeedsWorkspace>
    </>
  );
}

/** offered are the roles the caller may give: only owners make owners. */
const offered = (mine: Role | undefined) => roles.filter((r) => r !== "owner" || mine === "owner");

function RoleOptions({ mine }: { mine: Role | undefined }) {
  const { t } = useTranslation("settings");
  return offered(mine).map((r) => (
    <option key={r} value={r}>
      {t(`role_${r}`)}
    </option>
  ));
}

function AddMemberForm({ companyId, role: mine }: { companyId: string; role: Role | undefined }) {
  const { t } = useTranslation("settings");
  const add = useAddMember(companyId);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate({ email, role }, { onSuccess: () => setEmail("") });
  }
  const roleError = fieldError(add.error, "role");
  return (
    <section className="card" aria-labelledby="add-member">
      <h2 id="add-member">{t("addMember")}</h2>
      <p className="muted">{t("addMemberHint")}</p>
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field label={t("email")} name="email" type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} error={add.error} />
        <div className="field">
          <label htmlFor="new-member-role">{t("role")}</label>
          <select id="new-member-role" value={role} onChange={(e) => setRole(e.target.value as Role)} aria-invalid={roleError ? true : undefined}>
            <RoleOptions mine={mine} />
          </select>
          {roleError && <small className="field-error">{roleError}</small>}
        </div>
        <button type="submit" className="primary" disabled={add.isPending}>
          {t("add")}
        </button>
      </form>
      <ProblemAlert error={add.error} />
    </section>
  );
}

function MemberList({ companyId, role }: { companyId: string; role: Role | undefined }) {
  const { t } = useTranslation("settings");
  const tc = useTranslation().t;
  const members = useMembers(companyId);
  if (members.error) return <ProblemAlert error={members.error} />;
  if (!members.data) return <p className="muted">{tc("loading")}</p>;
  return (
    <ListTable columns={[t("personName"), t("email"), t("role")]} actions={t("actions")}>
      {members.data.items.map((m) => (
        <MemberRow key={m.user_id} companyId={companyId} member={m} mine={role} />
      ))}
    </ListTable>
  );
}

function MemberRow({ companyId, member, mine }: { companyId: string; member: MemberView; mine: Role | undefined }) {
  const { t } = useTranslation("settings");
  const me = useMe().data;
  const remove = useRemoveMember(companyId, member.user_id);
  const who = member.name || member.email;
  // Admins may not change owners; the API refuses it too.
  const editable = canManage(mine) && (member.role !== "owner" || mine === "owner");
  return (
    <tr>
      <td>
        {who}
        {member.user_id === me?.user_id && <span className="muted"> ({t("you")})</span>}
      </td>
      <td>{member.email}</td>
      <td>
        {editable ? <MemberRoleForm companyId={companyId} member={member} who={who} mine={mine} /> : t(`role_${member.role}`)}
      </td>
      <td className="row-actions">
        {editable && (
          <AskFirst label={t("remove")} name={t("removeNamed", { who })} question={t("removeQuestion")} pending={remove.isPending} onConfirm={() => remove.mutate()} />
        )}
        <ProblemAlert error={remove.error} />
      </td>
    </tr>
  );
}

/** MemberRoleForm changes a member's role only when the person says so: choosing another
 * role offers Save and Cancel, since a role given by mistake (an owner made, an admin
 * demoted) takes effect at once. A refusal (the last owner) shows on the drop-down. */
function MemberRoleForm({ companyId, member, who, mine }: { companyId: string; member: MemberView; who: string; mine: Role | undefined }) {
  const { t } = useTranslation("settings");
  const tc = useTranslation().t;
  const change = useChangeRole(companyId, member.user_id);
  const [role, setRole] = useState<Role>(member.role);
  const id = useId();
  const message = fieldError(change.error, "role");
  function submit(e: FormEvent) {
    e.preventDefault();
    change.mutate(role);
  }
  return (
    <form className="role-form" onSubmit={submit} noValidate>
      <select
        name="role"
        aria-label={t("roleOf", { who })}
        value={role}
        onChange={(e) => {
          setRole(e.target.value as Role);
          change.reset();
        }}
        aria-invalid={fieldInvalid(change.error, "role") || undefined}
        aria-describedby={message ? `${id}-error` : undefined}
      >
        <RoleOptions mine={mine} />
      </select>
      {role !== member.role && (
        <>
          <button type="submit" className="primary" aria-label={t("saveRoleOf", { who })} disabled={change.isPending}>
            {change.isPending ? tc("saving") : tc("save")}
          </button>
          <button
            type="button"
            onClick={() => {
              setRole(member.role);
              change.reset();
            }}
          >
            {tc("cancel")}
          </button>
        </>
      )}
      {message && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
      <ProblemAlert error={change.error} />
    </form>
  );
}

function InviteForm({ companyId, role: mine }: { companyId: string; role: Role | undefined }) {
  const { t } = useTranslation("settings");
  const invite = useInvite(companyId);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  // The latest invitation sent stays shown until another is: its link is given only once,
  // so a later attempt that fails (a second click on an emptied field) must not hide it.
  const [sent, setSent] = useState<NonNullable<typeof invite.data>>();
  function submit(e: FormEvent) {
    e.preventDefault();
    invite.mutate(
      { email, role },
      {
        onSuccess: (created) => {
          setSent(created);
          setEmail("");
        },
      },
    );
  }
  const roleError = fieldError(invite.error, "role");
  return (
    <section className="card" aria-labelledby="invite-member">
      <h2 id="invite-member">{t("inviteTitle")}</h2>
      <p className="muted">{t("inviteHint")}</p>
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field label={t("inviteEmail")} name="email" type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} error={invite.error} />
        <div className="field">
          <label htmlFor="invite-role">{t("inviteRole")}</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)} aria-invalid={roleError ? true : undefined}>
            <RoleOptions mine={mine} />
          </select>
          {roleError && <small className="field-error">{roleError}</small>}
        </div>
        <button type="submit" className="primary" disabled={invite.isPending}>
          {t("invite")}
        </button>
      </form>
      <ProblemAlert error={invite.error} />
      {sent && (
        <div role="status" className="stack">
          {sent.accept_url ? (
            <>
              <p>{t("inviteNotMailed", { email: sent.email })}</p>
              <div className="field">
                <label htmlFor="invite-link">{t("inviteLink")}</label>
                <input id="invite-link" readOnly value={sent.accept_url} onFocus={(e) => e.currentTarget.select()} />
              </div>
              <CopyButton text={sent.accept_url} label={t("inviteLink")} />
            </>
          ) : (
            <p>{t("inviteMailed", { email: sent.email })}</p>
          )}
        </div>
      )}
    </section>
  );
}

function InvitationList({ companyId, role }: { companyId: string; role: Role | undefined }) {
  const { t } = useTranslation("settings");
  const invitations = useInvitations(companyId);
  if (invitations.error) return <ProblemAlert error={invitations.error} />;
  const items = invitations.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="pending-invitations">
      <h2 id="pending-invitations">{t("pendingInvitations")}</h2>
      <ListTable columns={[t("email"), t("role"), t("invitedBy"), t("expires")]} actions={t("actions")}>
        {items.map((i) => (
          <InvitationRow key={i.invitation_id} companyId={companyId} invitation={i} mine={role} />
        ))}
      </ListTable>
    </section>
  );
}

function InvitationRow({ companyId, invitation, mine }: { companyId: string; invitation: InvitationView; mine: Role | undefined }) {
  const { t, i18n } = useTranslation("settings");
  const revoke = useRevokeInvitation(companyId, invitation.invitation_id);
  const revocable = canManage(mine) && (invitation.role !== "owner" || mine === "owner");
  return (
    <tr>
      <td>{invitation.email}</td>
      <td>{t(`role_${invitation.role}`)}</td>
      <td>{invitation.invited_by_name}</td>
      <td>{invitation.expired ? t("invitationExpired") : formatTimestamp(invitation.expires_at, i18n.language)}</td>
      <td className="row-actions">
        {revocable && (
          <AskFirst
            label={t("revokeInvitation")}
            name={t("revokeInvitationOf", { email: invitation.email })}
            question={t("revokeInvitationQuestion")}
            pending={revoke.isPending}
            onConfirm={() => revoke.mutate()}
          />
        )}
        <ProblemAlert error={revoke.error} />
      </td>
    </tr>
  );
}
