import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { fieldError, fieldInvalid, ProblemAlert } from "../../components/ProblemAlert";
import { WorkflowTabs } from "../workflows/WorkflowTabs";
import { useActiveProjectId } from "../workspace/workspace";
import { durationMs, useRunFormat } from "./format";
import { readFilters, retryClasses, runStatuses, triggerTypes, useRunList, useVersionNumbers, type RunFilters, type RunRow, type RunScope } from "./runList";
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
  // A search the server refuses is said on the search box; any other Problem above the list.
  const searchProblem = fieldInvalid(list.error, "q");
  return (
    <>
      <RunSearch key={filters.q ?? ""} q={filters.q} error={list.error} />
      <RunFiltersForm filters={filters} versionIds={[...versions.keys()]} versionLabel={versionLabel} />
      <FilterChips filters={filters} versionLabel={versionLabel} />
      {!searchProblem && <ProblemAlert error={list.error} />}
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

/** useSetFilter sets one filter of the address (names as readFilters reads them); an empty
 * value removes it. Each filter lives in the page's address, so a filtered list can be
 * shared and survives a reload. */
function useSetFilter() {
  const [, setParams] = useSearchParams();
  return (name: keyof RunFilters, value: string) =>
    setParams(
      (p) => {
        if (value) p.set(name, value);
        else p.delete(name);
        return p;
      },
      { replace: true },
    );
}

/** RunSearch finds runs by what they carried: a value of the trigger's payload (an order
 * id), a word of the error, or the run's id. */
function RunSearch({ q, error }: { q?: string; error: unknown }) {
  const { t } = useTranslation("runs");
  const set = useSetFilter();
  const [text, setText] = useState(q ?? "");
  const id = useId();
  const message = fieldError(error, "q");
  return (
    <form
      role="search"
      className="runs-search"
      onSubmit={(e) => {
        e.preventDefault();
        set("q", text.trim());
      }}
    >
      <label htmlFor={id}>{t("search")}</label>
      <div className="runs-search-row">
        <input
          id={id}
          type="search"
          value={text}
          maxLength={200}
          placeholder={t("searchPlaceholder")}
          aria-invalid={fieldInvalid(error, "q") || undefined}
          aria-describedby={message ? `${id}-error` : `${id}-hint`}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit">{t("searchButton")}</button>
      </div>
      {message ? (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      ) : (
        <small id={`${id}-hint`} className="muted">
          {t("searchHint")}
        </small>
      )}
    </form>
  );
}

/** FilterChips are the filters in force, each removable alone. */
function FilterChips({ filters, versionLabel }: { filters: RunFilters; versionLabel: (versionId: string) => string }) {
  const { t } = useTranslation("runs");
  const set = useSetFilter();
  const chips: { name: keyof RunFilters; label: string }[] = [];
  if (filters.q) chips.push({ name: "q", label: t("chipSearch", { q: filters.q }) });
  if (filters.status) chips.push({ name: "status", label: `${t("status")}: ${t(`status_${filters.status}`, { ns: "canvas" })}` });
  if (filters.trigger) chips.push({ name: "trigger", label: `${t("trigger")}: ${t(`trigger_${filters.trigger}`)}` });
  if (filters.version) chips.push({ name: "version", label: `${t("version")}: ${versionLabel(filters.version)}` });
  if (filters.from) chips.push({ name: "from", label: `${t("from")}: ${filters.from}` });
  if (filters.to) chips.push({ name: "to", label: `${t("to")}: ${filters.to}` });
  if (filters.failed) chips.push({ name: "failed", label: t("chipFailedAt", { key: filters.failed }) });
  if (filters.retry) chips.push({ name: "retry", label: `${t("retryClass")}: ${t(`retryClass_${filters.retry}`)}` });
  if (chips.length === 0) return null;
  return (
    <ul className="filter-chips" aria-label={t("activeFilters")}>
      {chips.map((c) => (
        <li key={c.name} className="chip">
          <span>{c.label}</span>
          <button type="button" aria-label={t("removeFilter", { filter: c.label })} onClick={() => set(c.name, "")}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** RunFiltersForm narrows the list. */
function RunFiltersForm({ filters, versionIds, versionLabel }: RunFiltersFormProps) {
  const { t } = useTranslation("runs");
  const [, setParams] = useSearchParams();
  const set = useSetFilter();
  const id = useId();
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
      <FilterSelect
        label={t("retryClass")}
        any={t("anyRetryClass")}
        value={filters.retry}
        onChange={(v) => set("retry", v)}
        options={retryClasses.map((c) => ({ value: c, label: t(`retryClass_${c}`) }))}
      />
      <FailedActionField key={filters.failed ?? ""} value={filters.failed} onChange={(v) => set("failed", v)} />
      <button type="button" onClick={() => setParams({}, { replace: true })}>
        {t("clearFilters")}
      </button>
    </form>
  );
}

/** FailedActionField keeps the runs that failed at an action, named by its key; it applies
 * when the person leaves the field or presses Enter, not at each letter. */
function FailedActionField({ value, onChange }: { value?: string; onChange: (value: string) => void }) {
  const { t } = useTranslation("runs");
  const [text, setText] = useState(value ?? "");
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{t("failedAction")}</label>
      <input
        id={id}
        value={text}
        placeholder={t("failedActionPlaceholder")}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => onChange(text.trim())}
        onKeyDown={(e) => {
          if (e.key === "Enter") onChange(text.trim());
        }}
      />
    </div>
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
