import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { WorkflowTabs } from "../workflows/WorkflowTabs";
import { useActiveProjectId } from "../workspace/workspace";
import { durationMs, useRunFormat } from "./format";
import { readFilters, runStatuses, triggerTypes, useRunList, useVersionNumbers, type RunFilters, type RunRow, type RunScope } from "./runList";
import { StatusWord } from "./StatusWord";
import "./runs.css";
import "./texts";

/** RunsPage lists runs: of one workflow at /workflows/:workflowId/runs, of the active
 * project at /runs. */
export function RunsPage() {
  const { workflowId } = useParams();
  const { t } = useTranslation("runs");
  const projectId = useActiveProjectId();
  if (workflowId) {
    return (
      <>
        <WorkflowTabs workflowId={workflowId} />
        <div className="page">
          <RunList scope={{ workflowId }} />
        </div>
      </>
    );
  }
  return (
    <div className="page">
      <h1>{t("projectRuns")}</h1>
      {projectId ? <RunList key={projectId} scope={{ projectId }} /> : <p className="muted">{t("noProject")}</p>}
    </div>
  );
}

/** RunList is the filters and the table of a workflow's or a project's runs, newest first. */
function RunList({ scope }: { scope: RunScope }) {
  const { t } = useTranslation("runs");
  const { t: tc } = useTranslation();
  const [params] = useSearchParams();
  const filters = readFilters(params);
  const list = useRunList(scope, filters);
  const runs = list.data?.pages.flatMap((p) => p.items) ?? [];
  const ofProject = "projectId" in scope;
  const workflowIds = "workflowId" in scope ? [scope.workflowId] : [...new Set(runs.map((r) => r.workflow_id))];
  const versions = useVersionNumbers(workflowIds);
  const names = new Map(runs.map((r) => [r.workflow_id, r.workflow_name ?? ""]));
  const versionLabel = (versionId: string | null) => {
    if (!versionId) return t("draft");
    const v = versions.get(versionId);
    if (!v) return "…";
    const number = t("versionNumber", { number: v.number });
    return ofProject ? `${names.get(v.workflowId) ?? ""} · ${number}` : number;
  };
  return (
    <>
      <RunFiltersForm filters={filters} versionIds={[...versions.keys()]} versionLabel={versionLabel} />
      <ProblemAlert error={list.error} />
      {list.isPending ? (
        <p className="muted">{tc("loading")}</p>
      ) : runs.length === 0 ? (
        <p className="muted">{t("noRuns")}</p>
      ) : (
        <RunsTable runs={runs} ofProject={ofProject} versionLabel={versionLabel} />
      )}
      {list.hasNextPage && (
        <p>
          <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
            {tc("loadMore")}
          </button>
        </p>
      )}
    </>
  );
}

type RunsTableProps = {
  runs: RunRow[];
  /** ofProject adds the workflow column. */
  ofProject: boolean;
  versionLabel: (versionId: string | null) => string;
};

function RunsTable({ runs, ofProject, versionLabel }: RunsTableProps) {
  const { t } = useTranslation("runs");
  const format = useRunFormat();
  return (
    <table className="list runs-table">
      <caption className="visually-hidden">{t("runsCount", { count: runs.length })}</caption>
      <thead>
        <tr>
          <th scope="col">{t("created")}</th>
          <th scope="col">{t("status")}</th>
          {ofProject && <th scope="col">{t("workflow")}</th>}
          <th scope="col">{t("version")}</th>
          <th scope="col">{t("trigger")}</th>
          <th scope="col">{t("started")}</th>
          <th scope="col">{t("duration")}</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.workflow_run_id}>
            <td>
              <Link to={`/runs/${run.workflow_run_id}`}>{format.date(run.created_at)}</Link>
            </td>
            <td>
              <StatusWord status={run.status} />
            </td>
            {ofProject && (
              <td>
                <Link to={`/workflows/${run.workflow_id}/runs`}>{run.workflow_name}</Link>
              </td>
            )}
            <td>{versionLabel(run.workflow_version_id)}</td>
            <td>{t(`trigger_${run.trigger_type}`)}</td>
            <td>{format.date(run.started_at)}</td>
            <td>{format.duration(durationMs(run.started_at, run.finished_at))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type RunFiltersFormProps = {
  filters: RunFilters;
  versionIds: string[];
  versionLabel: (versionId: string) => string;
};

/** RunFiltersForm narrows the list; each filter lives in the page's address, so a filtered
 * list can be shared and survives a reload. */
function RunFiltersForm({ filters, versionIds, versionLabel }: RunFiltersFormProps) {
  const { t } = useTranslation("runs");
  const [, setParams] = useSearchParams();
  const id = useId();
  const set = (name: string, value: string) =>
    setParams(
      (p) => {
        if (value) p.set(name, value);
        else p.delete(name);
        return p;
      },
      { replace: true },
    );
  const versionOptions = versionIds.map((v) => ({ value: v, label: versionLabel(v) })).sort((a, b) => b.label.localeCompare(a.label, undefined, { numeric: true }));
  return (
    <form className="runs-filters" aria-label={t("filters")} onSubmit={(e) => e.preventDefault()}>
      <FilterSelect
        label={t("status")}
        any={t("anyStatus")}
        value={filters.status}
        onChange={(v) => set("status", v)}
        options={runStatuses.map((s) => ({ value: s, label: t(`status_${s}`, { ns: "canvas" }) }))}
      />
      <FilterSelect
        label={t("trigger")}
        any={t("anyTrigger")}
        value={filters.trigger}
        onChange={(v) => set("trigger", v)}
        options={triggerTypes.map((s) => ({ value: s, label: t(`trigger_${s}`) }))}
      />
      <FilterSelect
        label={t("version")}
        any={t("anyVersion")}
        value={filters.version}
        onChange={(v) => set("version", v)}
        options={versionOptions}
      />
      <div className="field">
        <label htmlFor={`${id}-from`}>{t("from")}</label>
        <input id={`${id}-from`} type="date" value={filters.from ?? ""} max={filters.to} onChange={(e) => set("from", e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-to`}>{t("to")}</label>
        <input id={`${id}-to`} type="date" value={filters.to ?? ""} min={filters.from} onChange={(e) => set("to", e.target.value)} />
      </div>
      <button type="button" onClick={() => setParams({}, { replace: true })}>
        {t("clearFilters")}
      </button>
    </form>
  );
}

type FilterSelectProps = {
  label: string;
  /** any is the choice that filters nothing. */
  any: string;
  value: string | undefined;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
};

function FilterSelect({ label, any, value, options, onChange }: FilterSelectProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ""} onChange={(e) => onChange(e.target.value)}>
        <option value="">{any}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
