import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from "@xyflow/react";
import { createContext, memo, useContext } from "react";
import { useTranslation } from "react-i18next";
import type { ConnectionEdge } from "../../canvas/graph";

/** InsertContext is what the "+" on an edge does: start adding an action in between. */
export const InsertContext = createContext<(edgeId: string) => void>(() => {});

/** InsertableEdge is a connection with its branch named and a "+" in the middle that adds
 * an action between its ends. */
export const InsertableEdge = memo(function InsertableEdge(props: EdgeProps<ConnectionEdge>) {
  const { t } = useTranslation("canvas");
  const te = useTranslation("editor").t;
  const insert = useContext(InsertContext);
  const [path, x, y] = getBezierPath(props);
  const branch = props.data?.branch ?? "";
  return (
    <>
      <BaseEdge id={props.id} path={path} markerEnd={props.markerEnd} interactionWidth={16} />
      <EdgeLabelRenderer>
        <div className="edge-tools nodrag nopan" style={{ transform: `translate(-50%, -50%) translate(${x}px, ${y}px)` }}>
          {branch && <span className="edge-branch">{t(`branch_${branch}` as "branch_")}</span>}
          <button
            type="button"
            className="edge-insert"
            aria-label={te("insertOnEdge", { from: props.source, to: props.target })}
            title={te("insertOnEdge", { from: props.source, to: props.target })}
            onClick={() => insert(props.id)}
          >
            +
          </button>
        </div>
      </EdgeLabelRenderer>
    </>
  );
});
