import { useEffect, useId, useState } from "react";
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
  const [search, setSearch] = useState("");
  const q = useSettled(search.trim());
  const list = useWorkflowList(projectId);
  const searchId = useId();
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
      <form role="search" className="workflows-search" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor={searchId} className="visually-hidden">
          {t("searchLabel")}
        </label>
        <input id={searchId} type="search" placeholder={t("searchLabel")} value={search} onChange={(e) => setSearch(e.target.value)} />
      </form>
      <ProblemAlert error={list.error} />
      {list.isPending ? (
        <p className="muted">{common("loading")}</p>
      ) : workflows.length === 0 ? (
        <p className="muted">{q ? t("noMatch", { q }) : t("noWorkflows")}</p>
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

/** useSettled is the value once it has stopped changing for a moment: a search per pause in
 * typing, not per key. */
function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), 250);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}
