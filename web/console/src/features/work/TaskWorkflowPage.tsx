import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { api, data } from "../../api/client";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { SelectField } from "../../components/SelectField";
import { PeopleOptions } from "./PeopleOptions";
import { personName, useEmployees, useTaskWorkflows, useWorkAccess, workKeys, type TaskProcessRole, type WorkEmployee } from "./queries";
import "./texts";

/** TaskWorkflowPage is one task workflow: its stages, and its process roles with who fills
 * each, which managers rename, fill, add and reset to the template's. */
export function TaskWorkflowPage() {
  const { taskWorkflowId = "" } = useParams();
  const { t } = useTranslation("work");
  const { t: common } = useTranslation();
  const workflow = useTaskWorkflows().data?.find((w) => w.task_workflow_id === taskWorkflowId);
  const manages = useWorkAccess().data?.can.manage_task_workflows ?? false;
  const people = useEmployees().data ?? [];
  const queryClient = useQueryClient();
  const path = { task_workflow_id: taskWorkflowId };
  const roles = useQuery({
    queryKey: workKeys.roles(taskWorkflowId),
    queryFn: () => data(api.GET("/api/v1/work/task-workflows/{task_workflow_id}/roles", { params: { path } })),
  });
  const reset = useMutation({
    mutationFn: () => data(api.POST("/api/v1/work/task-workflows/{task_workflow_id}/roles/reset", { params: { path } })),
    onSuccess: (list) => queryClient.setQueryData(workKeys.roles(taskWorkflowId), list),
  });
  const headingId = useId();
  return (
    <section className="page work-page">
      <p className="crumbs">
        <Link to="/work/task-workflows">{t("taskWorkflows")}</Link>
      </p>
      <h1>{workflow?.name ?? t("taskWorkflow")}</h1>
      {workflow?.description && <p>{workflow.description}</p>}
      {workflow && (
        <p>
          <strong>{t("stages")}:</strong> {workflow.stages.map((s) => s.name).join(" → ")}
        </p>
      )}
      <section className="work-card" aria-labelledby={headingId}>
        <div className="page-head">
          <h2 id={headingId}>{t("roles")}</h2>
          {manages && (
            <button type="button" onClick={() => window.confirm(t("resetConfirm")) && reset.mutate()} disabled={reset.isPending}>
              {t("resetRoles")}
            </button>
          )}
        </div>
        <ProblemAlert error={roles.error ?? reset.error} />
        {roles.isPending ? (
          <p className="muted">{common("loading")}</p>
        ) : (
          <ol className="roles">
            {roles.data?.items.map((role) => (
              <RoleRow key={`${role.task_process_role_id}-${role.name}-${role.user_id ?? ""}`} role={role} people={people} manages={manages} />
            ))}
          </ol>
        )}
        {manages && <NewRoleForm workflowId={taskWorkflowId} />}
      </section>
    </section>
  );
}

function useRoleSaved(workflowId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: workKeys.roles(workflowId) });
}

/** RoleRow is one process role: its name, what it does and who fills it. */
function RoleRow({ role, people, manages }: { role: TaskProcessRole; people: WorkEmployee[]; manages: boolean }) {
  const { t } = useTranslation("work");
  const { t: common } = useTranslation();
  const saved = useRoleSaved(role.task_workflow_id);
  const [name, setName] = useState(role.name);
  const [description, setDescription] = useState(role.description);
  const [userId, setUserId] = useState(role.user_id ?? "");
  const save = useMutation({
    mutationFn: () =>
      data(
        api.PATCH("/api/v1/work/task-workflows/{task_workflow_id}/roles/{task_process_role_id}", {
          params: { path: { task_workflow_id: role.task_workflow_id, task_process_role_id: role.task_process_role_id } },
          body: { name, description, user_id: userId || null },
        }),
      ),
    onSuccess: saved,
  });
  const changed = name !== role.name || description !== role.description || userId !== (role.user_id ?? "");
  if (!manages) {
    const filler = people.find((p) => p.user_id === role.user_id);
    return (
      <li>
        <strong>{role.name}</strong> — {filler ? personName(filler) : t("unfilled")}
        {role.description && <div className="muted">{role.description}</div>}
      </li>
    );
  }
  return (
    <li>
      <form
        className="row role-row"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Field label={t("roleName")} name="name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} error={save.error} />
        <Field label={common("description")} name="description" maxLength={1000} value={description} onChange={(e) => setDescription(e.target.value)} error={save.error} />
        <SelectField
          label={t("filledBy", { role: role.name })}
          name="user_id"
          value={userId}
          onChange={(e) => setUserId(e.target.value)}
          error={save.error}
        >
          <option value="">{t("unfilled")}</option>
          <PeopleOptions people={people} />
        </SelectField>
        <button type="submit" disabled={!changed || save.isPending} aria-label={t("saveRole", { role: role.name })}>
          {common("save")}
        </button>
      </form>
      <ProblemAlert error={save.error} />
    </li>
  );
}

/** NewRoleForm adds a process role at the end. */
function NewRoleForm({ workflowId }: { workflowId: string }) {
  const { t } = useTranslation("work");
  const saved = useRoleSaved(workflowId);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const add = useMutation({
    mutationFn: () =>
      data(api.POST("/api/v1/work/task-workflows/{task_workflow_id}/roles", { params: { path: { task_workflow_id: workflowId } }, body: { name, description } })),
    onSuccess: () => {
      setName("");
      setDescription("");
      return saved();
    },
  });
  const titleId = useId();
  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate();
  }
  return (
    <form className="stack new-role" onSubmit={submit} aria-labelledby={titleId}>
      <h3 id={titleId}>{t("addRole")}</h3>
      <div className="row">
        <Field label={t("roleName")} name="name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} error={add.error} />
        <Field label={t("roleDescription")} name="description" maxLength={1000} value={description} onChange={(e) => setDescription(e.target.value)} error={add.error} />
        <button type="submit" disabled={add.isPending}>
          {t("add")}
        </button>
      </div>
      <ProblemAlert error={add.error} />
    </form>
  );
}
