import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { useActionTypes } from "../../canvas/catalog";
import { statusGlyph } from "../../canvas/graph";
import { LoadMore } from "../../components/LoadMore";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useSearchParam } from "../../lib/useSearchParam";
import { SetupWorkspace } from "../workspace/SetupWorkspace";
import { useWorkspace } from "../workspace/workspace";
import { NewWorkflowForm } from "./NewWorkflowForm";
import { RunButton } from "./RunButton";
import { ago, at } from "./when";
import { useWorkflowList, type WorkflowListItem } from "./workflow";
import "./workflows.css";
import "../../canvas/texts";
import "./texts";

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
  const [search, setSearch, q] = useSearchParam("q");
  const [params, setParams] = useSearchParams();
  const archived = params.get("archived") === "true";
  const list = useWorkflowList(projectId, q, archived);
  const searchId = useId();
  const showArchived = (show: boolean) =>
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        if (show) out.set("archived", "true");
        else out.delete("archived");
        return out;
      },
      { replace: true },
    );
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
        <input id={searchId} type="search" placeholder={t("searchLabel")} maxLength={200} value={search} onChange={(e) => setSearch(e.target.value)} />
        <label className="inline">
          <input type="checkbox" checked={archived} onChange={(e) => showArchived(e.target.checked)} />
          {t("showArchived")}
        </label>
      </form>
      <ProblemAlert error={list.error} />
      {list.isPending ? (
        <p className="muted">{common("loading")}</p>
      ) : workflows.length === 0 ? (
        <p className="muted">{q ? t("noMatch", { q }) : t(archived ? "noArchived" : "noWorkflows")}</p>
      ) : (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{common("name")}</th>
              <th scope="col">{t("status")}</th>
              <th scope="col">{t("triggers")}</th>
              <th scope="col">{t("lastRun")}</th>
              <th scope="col">
                <span className="visually-hidden">{t("runColumn")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {workflows.map((w) => (
              <WorkflowRow key={w.workflow_id} workflow={w} />
            ))}
          </tbody>
        </table>
      )}
      <LoadMore list={list} />
    </section>
  );
}

function WorkflowRow({ workflow }: { workflow: WorkflowListItem }) {
  const { t } = useTranslation("workflows");
  return (
    <tr>
      <td>
        <Link to={`/workflows/${workflow.workflow_id}`}>{workflow.name}</Link>
        {workflow.archived_at && <span className="badge workflow-archived">{t("archivedBadge")}</span>}
        {workflow.description && <div className="muted workflow-description">{workflow.description}</div>}
      </td>
      <td>
        <span className={`badge workflow-status-${workflow.status}`}>{t(`status_${workflow.status}`)}</span>
      </td>
      <td>
        <TriggerNames types={workflow.trigger_types} />
      </td>
      <td>
        <LastRun run={workflow.last_run} />
      </td>
      <td>
        <RunButton
          workflowId={workflow.workflow_id}
          name={workflow.name}
          published={workflow.status === "published"}
          archived={!!workflow.archived_at}
          manual={workflow.trigger_types.includes("manual.trigger")}
        />
      </td>
    </tr>
  );
}

/** TriggerNames names how a workflow starts, by the catalog's names of its trigger types. */
function TriggerNames({ types }: { types: string[] }) {
  const { t } = useTranslation("workflows");
  const catalog = useActionTypes().data;
  if (types.length === 0) return <span className="muted">{t("noTriggers")}</span>;
  return <>{types.map((key) => catalog?.find((type) => type.action_key === key)?.display_name ?? key).join(", ")}</>;
}

/** LastRun is a workflow's newest run: its status as glyph and word, linking to the run, and
 * how long ago it started (the exact time on hover). */
function LastRun({ run }: { run: WorkflowListItem["last_run"] }) {
  const { t, i18n } = useTranslation("workflows");
  const { t: canvas } = useTranslation("canvas");
  if (!run) return <span className="muted">{t("neverRun")}</span>;
  return (
    <span className="last-run">
      <Link to={`/runs/${run.workflow_run_id}`} className={`last-run-status status-${run.status}`}>
        <span aria-hidden="true">{statusGlyph[run.status] ?? "•"}</span> {canvas(`status_${run.status}`)}
      </Link>{" "}
      <time dateTime={run.created_at} title={at(run.created_at, i18n.language)} className="muted">
        {ago(run.created_at, i18n.language)}
      </time>
    </span>
  );
}
