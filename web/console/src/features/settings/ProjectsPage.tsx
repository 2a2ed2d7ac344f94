import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Dialog, DialogButtons } from "../../components/Dialog";
import { Field } from "../../components/Field";
import { ListTable } from "../../components/ListTable";
import { ProblemAlert } from "../../components/ProblemAlert";
import { SecretDialog } from "../../components/SecretDialog";
import { useCreateProject, useProjects } from "../workspace/workspace";
import { useActive } from "./active";
import { canManage, useRenameProject, useRotateHookSecret, type ProjectView } from "./company";
import { NeedsWorkspace } from "./NeedsWorkspace";
import "./texts";

/** ProjectsPage creates and renames the active company's projects and rotates their hook
 * secret, each new secret shown once. */
export function ProjectsPage() {
  const { t } = useTranslation("settings");
  const active = useActive();
  return (
    <>
      <h1>{t("projectsTitle")}</h1>
      <p className="muted">{t("projectsIntro")}</p>
      <NeedsWorkspace active={active}>
        <NewProjectForm companyId={active.companyId} />
        <ProjectList companyId={active.companyId} manage={canManage(active.role)} />
      </NeedsWorkspace>
    </>
  );
}

function NewProjectForm({ companyId }: { companyId: string }) {
  const { t } = useTranslation("settings");
  const tc = useTranslation().t;
  const create = useCreateProject(companyId);
  const [name, setName] = useState("");
  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate(name, { onSuccess: () => setName("") });
  }
  return (
    <section className="card" aria-labelledby="new-project">
      <h2 id="new-project">{tc("newProject")}</h2>
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field label={tc("projectName")} name="name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} error={create.error} />
        <button type="submit" className="primary" disabled={create.isPending}>
          {tc("create")}
        </button>
      </form>
      <ProblemAlert error={create.error} />
      {create.data && (
        <SecretDialog title={t("hookSecretOf", { name: create.data.name })} secret={create.data.hook_secret} label={t("hookSecret")} warning={t("hookSecretOnce")} onClose={() => create.reset()} />
      )}
    </section>
  );
}

function ProjectList({ companyId, manage }: { companyId: string; manage: boolean }) {
  const { t } = useTranslation("settings");
  const tc = useTranslation().t;
  const projects = useProjects(companyId);
  if (projects.error) return <ProblemAlert error={projects.error} />;
  if (!projects.data) return <p className="muted">{tc("loading")}</p>;
  return (
    <ListTable columns={[tc("name"), t("hookKey"), t("hookSecret")]} actions={t("actions")}>
      {projects.data.items.map((p) => (
        <ProjectRow key={p.project_id} project={p} manage={manage} />
      ))}
    </ListTable>
  );
}

function ProjectRow({ project, manage }: { project: ProjectView; manage: boolean }) {
  const { t } = useTranslation("settings");
  const [renaming, setRenaming] = useState(false);
  const [rotating, setRotating] = useState(false);
  return (
    <tr>
      <td>{renaming ? <RenameForm project={project} onDone={() => setRenaming(false)} /> : project.name}</td>
      <td>
        <code className="key">{project.hook_key}</code>
      </td>
      <td>
        <code className="key">{project.hook_secret_masked}</code>
      </td>
      <td className="row-actions">
        {!renaming && (
          <button type="button" aria-label={t("renameNamed", { name: project.name })} onClick={() => setRenaming(true)}>
            {t("rename")}
          </button>
        )}
        {manage && (
          <button type="button" aria-label={t("rotateHookSecretOf", { name: project.name })} onClick={() => setRotating(true)}>
            {t("rotateHookSecret")}
          </button>
        )}
        {rotating && <RotateHookSecretDialog project={project} onClose={() => setRotating(false)} />}
      </td>
    </tr>
  );
}

function RenameForm({ project, onDone }: { project: ProjectView; onDone: () => void }) {
  const { t } = useTranslation("settings");
  const tc = useTranslation().t;
  const rename = useRenameProject(project);
  const [name, setName] = useState(project.name);
  function submit(e: FormEvent) {
    e.preventDefault();
    rename.mutate(name, { onSuccess: onDone });
  }
  return (
    <form className="inline-form" onSubmit={submit} noValidate>
      <Field label={t("newName")} name="name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} error={rename.error} autoFocus />
      <button type="submit" className="primary" disabled={rename.isPending}>
        {tc("save")}
      </button>
      <button type="button" onClick={onDone}>
        {tc("cancel")}
      </button>
      <ProblemAlert error={rename.error} />
    </form>
  );
}

function RotateHookSecretDialog({ project, onClose }: { project: ProjectView; onClose: () => void }) {
  const { t } = useTranslation("settings");
  const rotate = useRotateHookSecret(project);
  if (rotate.data) {
    return (
      <SecretDialog title={t("hookSecretOf", { name: project.name })} secret={rotate.data.hook_secret} label={t("hookSecret")} warning={t("hookSecretOnce")} onClose={onClose} />
    );
  }
  return (
    <Dialog title={t("rotateHookSecretTitle", { name: project.name })} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          rotate.mutate();
        }}
      >
        <p>{t("rotateHookSecretBody")}</p>
        <ProblemAlert error={rotate.error} />
        <DialogButtons label={t("rotate")} onCancel={onClose} pending={rotate.isPending} danger />
      </form>
    </Dialog>
  );
}
