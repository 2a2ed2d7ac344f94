import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useMe } from "../auth/session";
import type { Graph } from "../../canvas/graph";
import { defaultComparison, draftChoice } from "./diff";
import { GraphDiffView } from "./GraphDiffView";
import { PublishForm } from "./PublishForm";
import { ago, at } from "./when";
import { useMemberNames, useRestore, useVersions, useWorkflow, type Workflow, type WorkflowVersion } from "./workflow";
import { WorkflowTabs } from "./WorkflowTabs";
import "./workflows.css";
import "./texts";

/** VersionsPage publishes the draft, lists the published versions, restores one into the
 * draft, and compares any two of them, or one with the draft, on the canvas. */
export function VersionsPage() {
  const { workflowId = "" } = useParams();
  const { t: common } = useTranslation();
  const workflow = useWorkflow(workflowId);
  const versions = useVersions(workflowId);
  return (
    <>
      <WorkflowTabs workflowId={workflowId} />
      <section className="page versions-page">
        <ProblemAlert error={workflow.error ?? versions.error} />
        {workflow.data && versions.items ? (
          <WorkflowVersions workflow={workflow.data} versions={versions.items} />
        ) : (
          !workflow.error && !versions.error && <p className="muted">{common("loading")}</p>
        )}
      </section>
    </>
  );
}

function WorkflowVersions({ workflow, versions }: { workflow: Workflow; versions: WorkflowVersion[] }) {
  const { t } = useTranslation("workflows");
  // Until the person picks, the comparison follows the versions (a publish moves it on).
  const [picked, setPicked] = useState<{ from: string; to: string }>();
  const { from, to } = picked ?? defaultComparison(versions, workflow.draft);
  const compare = (versionId: string) => {
    setPicked({ from: versionId, to: draftChoice });
    document.getElementById("compare")?.scrollIntoView({ behavior: "smooth" });
  };
  return (
    <div className="stack">
      <PublishForm workflow={workflow} />
      <h2>{t("versionsTitle")}</h2>
      {versions.length === 0 ? (
        <p className="muted">{t("noVersions")}</p>
      ) : (
        <VersionTable workflow={workflow} versions={versions} onCompare={compare} />
      )}
      {versions.length > 0 && (
        <>
          <h2 id="compare">{t("diffTitle")}</h2>
          <VersionDiff
            workflow={workflow}
            versions={versions}
            from={from}
            to={to}
            onFrom={(choice) => setPicked({ from: choice, to })}
            onTo={(choice) => setPicked({ from, to: choice })}
          />
        </>
      )}
    </div>
  );
}

function VersionTable({ workflow, versions, onCompare }: { workflow: Workflow; versions: WorkflowVersion[]; onCompare: (versionId: string) => void }) {
  const { t, i18n } = useTranslation("workflows");
  const { t: common } = useTranslation();
  const names = useMemberNames(workflow.company_id).data;
  const me = useMe().data;
  const restore = useRestore(workflow.workflow_id);
  const [confirming, setConfirming] = useState<WorkflowVersion>();
  const newestFirst = [...versions].reverse();
  const by = (userId: string) => (userId === me?.user_id ? t("you") : (names?.get(userId) ?? userId.slice(0, 8)));
  return (
    <>
      {restore.isSuccess && (
        <p role="status" className="notice">
          {t("restored", { number: versions.find((v) => v.workflow_version_id === restore.variables)?.version_number })}
        </p>
      )}
      <ProblemAlert error={restore.error} />
      <table className="list versions">
        <thead>
          <tr>
            <th scope="col">{t("versionNumber")}</th>
            <th scope="col">{t("versionDescription")}</th>
            <th scope="col">{t("versionBy")}</th>
            <th scope="col">{t("versionAt")}</th>
            <th scope="col">
              <span className="visually-hidden">{t("restore")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {newestFirst.map((v) => (
            <tr key={v.workflow_version_id} className={v.is_current ? "current" : undefined}>
              <td>
                <strong>{v.version_number}</strong> {v.is_current && <span className="badge current-badge">{t("current")}</span>}
              </td>
              <td>{v.description || <span className="muted">—</span>}</td>
              <td>{by(v.created_by)}</td>
              <td title={at(v.created_at, i18n.language)}>{ago(v.created_at, i18n.language)}</td>
              <td className="row-actions">
                {confirming?.workflow_version_id === v.workflow_version_id ? (
                  <div className="confirm" role="alertdialog" aria-label={t("restore")}>
                    <span>{t("restoreConfirm", { number: v.version_number })}</span>
                    <button
                      type="button"
                      className="danger"
                      autoFocus
                      disabled={restore.isPending}
                      onClick={() => restore.mutate(v.workflow_version_id, { onSettled: () => setConfirming(undefined) })}
                    >
                      {t("restoreYes")}
                    </button>
                    <button type="button" onClick={() => setConfirming(undefined)}>
                      {common("cancel")}
                    </button>
                  </div>
                ) : (
                  <>
                    <button type="button" onClick={() => onCompare(v.workflow_version_id)}>
                      {t("compare")}
                      <span className="visually-hidden"> {t("versionOption", { number: v.version_number })}</span>
                    </button>
                    <button type="button" onClick={() => setConfirming(v)}>
                      {t("restore")}
                      <span className="visually-hidden"> {t("versionOption", { number: v.version_number })}</span>
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

type VersionDiffProps = {
  workflow: Workflow;
  versions: WorkflowVersion[];
  from: string;
  to: string;
  onFrom: (choice: string) => void;
  onTo: (choice: string) => void;
};

/** VersionDiff compares two of the versions and the draft, picked by the person. */
function VersionDiff({ workflow, versions, from, to, onFrom, onTo }: VersionDiffProps) {
  const { t } = useTranslation("workflows");
  const graphs = useMemo(() => {
    const byChoice = new Map<string, Graph>(versions.map((v) => [v.workflow_version_id, { actions: v.actions, connections: v.connections }]));
    byChoice.set(draftChoice, { actions: workflow.draft.actions, connections: workflow.draft.connections });
    return byChoice;
  }, [workflow, versions]);
  const options = [
    <option key={draftChoice} value={draftChoice}>
      {t("draft")}
    </option>,
    ...[...versions].reverse().map((v) => (
      <option key={v.workflow_version_id} value={v.workflow_version_id}>
        {t(v.is_current ? "versionOptionCurrent" : "versionOption", { number: v.version_number })}
      </option>
    )),
  ];
  const fromGraph = graphs.get(from);
  const toGraph = graphs.get(to);
  return (
    <div className="stack">
      <div className="row diff-picker">
        <label className="inline">
          <span>{t("diffFrom")}</span>
          <select value={from} onChange={(e) => onFrom(e.target.value)}>
            {options}
          </select>
        </label>
        <span aria-hidden="true">→</span>
        <label className="inline">
          <span>{t("diffTo")}</span>
          <select value={to} onChange={(e) => onTo(e.target.value)}>
            {options}
          </select>
        </label>
      </div>
      {fromGraph && toGraph && <GraphDiffView from={fromGraph} to={toGraph} />}
    </div>
  );
}
