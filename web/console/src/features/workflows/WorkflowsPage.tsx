import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { SetupWorkspace } from "../workspace/SetupWorkspace";
import { useWorkspace } from "../workspace/workspace";
import { NewWorkflowForm } from "./NewWorkflowForm";
import { useWorkflowList, type Workflow } from "./workflow";
import "./workflows.css";

/** WorkflowsPage lists the active project's workflows, searchable and a page at a time. */
export function WorkflowsPage() {
  const workspace = useWorkspace();
  const { t: common } = useTranslation();
  if (workspace.isPending) return <p className="page muted">{common("loading")}</p>;
  if (workspace.error) {
    return (
      <section className="page">
        <ProblemAlert error={workspace.error} />
      </section>
    );
  }
  const projectId = workspace.data.active_project_id;
  if (!projectId) return <SetupWorkspace />;
  return <ProjectWorkflows projectId={projectId} />;
}

function ProjectWorkflows({ projectId }: { projectId: string }) {
  const { t } = useTranslation("workflows");
  const { t: common } = useTranslation();
  const [creating, setCreating] = useState(false);
  const list = useWorkflowList(projectId);
  const workflows = list.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <section className="page workflows-page">
      <div className="page-head">
        <h1>{t("title")}</h1>
        {!creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            {t("newWorkflow")}
          </button>
        )}
      </div>
      {creating && <NewWorkflowForm projectId={projectId} onCancel={() => setCreating(false)} />}
      <ProblemAlert error={list.error} />
      {list.isPending ? (
        <p className="muted">{common("loading")}</p>
      ) : workflows.length === 0 ? (
        <p className="muted">{t("noWorkflows")}</p>
      ) : (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{common("name")}</th>
              <th scope="col">{t("status")}</th>
            </tr>
          </thead>
          <tbody>
            {workflows.map((w) => (
              <WorkflowRow key={w.workflow_id} workflow={w} />
            ))}
          </tbody>
        </table>
      )}
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {list.isFetchingNextPage ? common("loading") : common("loadMore")}
        </button>
      )}
    </section>
  );
}

function WorkflowRow({ workflow }: { workflow: Workflow }) {
  const { t } = useTranslation("workflows");
  return (
    <tr>
      <td>
        <Link to={`/workflows/${workflow.workflow_id}`}>{workflow.name}</Link>
        {workflow.description && <div className="muted workflow-description">{workflow.description}</div>}
      </td>
      <td>
        <span className={`badge workflow-status-${workflow.status}`}>{t(`status_${workflow.status}`)}</span>
      </td>
    </tr>
  );
}
