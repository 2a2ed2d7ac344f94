import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useBranchLabel } from "../../canvas/branchLabel";
import { GraphView } from "../../canvas/GraphView";
import type { Action, ConnectionEdge, Graph } from "../../canvas/graph";
import { diffGraphs, type ActionChange, type ConnectionChange, type FieldChange } from "./diff";
import "./workflows.css";
import "../../canvas/texts";
import "./texts";

const changeGlyph = { added: "+", removed: "−", changed: "±" } as const;

/** GraphDiffView draws the "to" graph with what changed since "from" marked on the canvas,
 * and beside it the changes in words, config field by field. */
export function GraphDiffView({ from, to }: { from: Graph; to: Graph }) {
  const { t } = useTranslation("workflows");
  const diff = useMemo(() => diffGraphs(from, to), [from, to]);
  const [selected, setSelected] = useState<string>();
  const marks = useCallback((a: Action) => ({ change: diff.actionChange(a.action_key) }), [diff]);
  const edgeClass = useCallback((e: ConnectionEdge) => {
    const change = diff.edgeChange(e);
    return change && `change-${change}`;
  }, [diff]);
  const count = (change: string) => diff.actions.filter((c) => c.change === change).length;
  const edges = (change: string) => diff.connections.filter((c) => c.change === change).length;
  const unchanged = diff.actions.length === 0 && diff.connections.length === 0;

  return (
    <div className="graph-diff">
      <div className="graph-diff-canvas">
        <GraphView graph={diff.graph} marks={marks} edgeClass={edgeClass} onSelect={setSelected} selected={selected} />
      </div>
      <section className="graph-diff-changes" aria-label={t("changesTitle")}>
        {unchanged ? (
          <p className="muted">{t("noChanges")}</p>
        ) : (
          <>
            <p role="status">
              {t("changesSummary", {
                added: count("added"),
                removed: count("removed"),
                changed: count("changed"),
                edgesAdded: edges("added"),
                edgesRemoved: edges("removed"),
              })}
            </p>
            {diff.actions.length > 0 && (
              <>
                <h3>{t("actionsChanged")}</h3>
                <ul className="change-list">
                  {diff.actions.map((c) => (
                    <ActionChangeItem key={c.action.action_key} change={c} selected={c.action.action_key === selected} onSelect={setSelected} />
                  ))}
                </ul>
              </>
            )}
            {diff.connections.length > 0 && (
              <>
                <h3>{t("connectionsChanged")}</h3>
                <ul className="change-list">
                  {diff.connections.map((c) => (
                    <ConnectionChangeItem key={`${c.change}:${c.connection.from}->${c.connection.to}:${c.connection.branch ?? ""}`} change={c} />
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </section>
    </div>
  );
}

function ChangeMark({ change }: { change: ActionChange["change"] }) {
  const { t } = useTranslation("canvas");
  return (
    <span className={`mark change-${change}`}>
      <span aria-hidden="true">{changeGlyph[change]} </span>
      {t(change)}
    </span>
  );
}

function ActionChangeItem({ change, selected, onSelect }: { change: ActionChange; selected: boolean; onSelect: (key: string) => void }) {
  const { t } = useTranslation("workflows");
  const { action } = change;
  return (
    <li className={selected ? "selected" : undefined}>
      <div className="row">
        <ChangeMark change={change.change} />
        <button type="button" className="link" onClick={() => onSelect(action.action_key)} aria-pressed={selected}>
          {action.label || action.action_key}
        </button>
        <code className="muted">{action.action_key}</code>
      </div>
      {change.fields.length > 0 && (
        <table className="field-changes">
          <thead>
            <tr>
              <th scope="col">{t("field")}</th>
              <th scope="col">{t("before")}</th>
              <th scope="col">{t("after")}</th>
            </tr>
          </thead>
          <tbody>
            {change.fields.map((f) => (
              <FieldChangeRow key={f.path} field={f} />
            ))}
          </tbody>
        </table>
      )}
    </li>
  );
}

function FieldChangeRow({ field }: { field: FieldChange }) {
  return (
    <tr>
      <th scope="row">
        <code>{field.path}</code>
      </th>
      <td className="before">
        <JSONValue value={field.before} />
      </td>
      <td className="after">
        <JSONValue value={field.after} />
      </td>
    </tr>
  );
}

/** JSONValue writes a config value as text: strings as they are, anything else as JSON. */
function JSONValue({ value }: { value: unknown }) {
  const { t } = useTranslation("workflows");
  if (value === undefined) return <em className="muted">{t("absent")}</em>;
  return <code>{typeof value === "string" ? value : JSON.stringify(value)}</code>;
}

function ConnectionChangeItem({ change }: { change: ConnectionChange }) {
  const { t } = useTranslation("workflows");
  const branchLabel = useBranchLabel();
  const { from, to, branch } = change.connection;
  return (
    <li>
      <div className="row">
        <ChangeMark change={change.change} />
        <code>{from}</code>
        <span>→</span>
        <code>{to}</code>
        {branch && <span className="muted">{t("branch", { branch: branchLabel(branch) })}</span>}
      </div>
    </li>
  );
}
