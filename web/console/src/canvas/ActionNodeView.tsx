import { Handle, Position, useUpdateNodeInternals, type NodeProps } from "@xyflow/react";
import { memo, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useBranchLabel } from "./branchLabel";
import { ERROR_BRANCH, handleId, statusGlyph, type ActionNode } from "./graph";
import "./texts";

const categoryGlyph: Record<string, string> = { trigger: "⚡", integration: "⇄", logic: "◆", control: "■" };

/** ActionNodeView is one action on the canvas: its category, label, type, and what the
 * view marks on it (problems, a run's status, a diff's change), always in words too. */
export const ActionNodeView = memo(function ActionNodeView({ data, selected }: NodeProps<ActionNode>) {
  const { t } = useTranslation("canvas");
  const branchLabel = useBranchLabel();
  const { action, typeName, category, trigger, outputs, issues, status, change, dimmed, inLoop } = data;
  // React Flow measures a node's handles when it first draws it; a switch that gains or
  // renames a case has new ones, which an edge can only leave once they are measured again.
  const updateNodeInternals = useUpdateNodeInternals();
  const handles = outputs.join("\n");
  const measured = useRef(handles);
  useEffect(() => {
    if (measured.current === handles) return;
    measured.current = handles;
    updateNodeInternals(action.action_key);
  }, [handles, action.action_key, updateNodeInternals]);
  const classes = ["action-node", `category-${category}`, status && `status-${status}`, change && `change-${change}`, dimmed && "dimmed", inLoop && "in-loop", selected && "selected"];
  return (
    <div className={classes.filter(Boolean).join(" ")} data-action-key={action.action_key} data-status={status}>
      {!trigger && <Handle type="target" position={Position.Left} id="in" />}
      <div className="action-node-head">
        <span className="action-node-glyph" aria-hidden="true">
          {categoryGlyph[category] ?? "•"}
        </span>
        <span className="action-node-label">{action.label || action.action_key}</span>
      </div>
      <div className="action-node-type">{typeName}</div>
      <div className="action-node-marks">
        {status && (
          <span className={`mark status status-${status}`}>
            <span aria-hidden="true">{statusGlyph[status] ?? "•"} </span>
            {t(`status_${status}` as "status_pending", { defaultValue: status })}
          </span>
        )}
        {dimmed && !status && <span className="mark">{t("notReached")}</span>}
        {inLoop && !status && (
          <span className="mark loop-mark">
            <span aria-hidden="true">↻ </span>
            {t(inLoop === "per_item" ? "perItem" : "inLoop")}
          </span>
        )}
        {change && <span className={`mark change-${change}`}>{t(change)}</span>}
        {issues && issues.length > 0 && (
          <span className="mark issues" title={issues.join("\n")}>
            <span aria-hidden="true">⚠ </span>
            {t("issues", { count: issues.length })}
          </span>
        )}
      </div>
      {outputs.map((branch, i) => (
        <Handle
          key={branch}
          type="source"
          position={Position.Right}
          id={handleId(branch)}
          style={{ top: `${((i + 1) * 100) / (outputs.length + 1)}%` }}
          title={branchLabel(branch)}
          className={branch === ERROR_BRANCH ? "error-handle" : undefined}
        >
          {branch && <span className="handle-label">{branchLabel(branch)}</span>}
        </Handle>
      ))}
    </div>
  );
});
