import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../components/Field";
import { ListTable } from "../../components/ListTable";
import { fieldError, ProblemAlert } from "../../components/ProblemAlert";
import { useMe } from "../auth/session";
import { useActive } from "./active";
import { canManage, roles, useAddMember, useChangeRole, useMembers, useRemoveMember, type MemberView, type Role } from "./company";
import { AskFirst } from "../../components/AskFirst";
import { NeedsWorkspace } from "./NeedsWorkspace";
import "./texts";

/** MembersPage lists the active company's members; owners and admins add registered people
 * by e-mail, change roles and remove members, as the API allows them. */
export function MembersPage() {
  const { t } = useTranslation("settings");
  const active = useActive();
  return (
    <>
      <h1>{t("membersTitle")}</h1>
      <p className="muted">{t("membersIntro")}</p>
      <NeedsWorkspace active={active}>
        {canManage(active.role) && <AddMemberForm companyId={active.companyId} role={active.role} />}
        <MemberList companyId={active.companyId} role={active.role} />
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
  const change = useChangeRole(companyId, member.user_id);
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
        {editable ? (
          <select aria-label={t("roleOf", { who })} value={member.role} disabled={change.isPending} onChange={(e) => change.mutate(e.target.value as Role)}>
            <RoleOptions mine={mine} />
          </select>
        ) : (
          t(`role_${member.role}`)
        )}
        <ProblemAlert error={change.error} />
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
