import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from "@xyflow/react";
import { createContext, memo, useContext } from "react";
import { useTranslation } from "react-i18next";
import type { ConnectionEdge } from "../../canvas/graph";
import "./texts";

/** InsertContext is what the "+" on an edge does: start adding an action in between. */
export const InsertContext = createContext<(edgeId: string) => void>(() => {});

/** InsertableEdge is a connection with a "+" in the middle that adds an action between its
 * ends; the branch it leaves is named at its handle on the node. */
export const InsertableEdge = memo(function InsertableEdge(props: EdgeProps<ConnectionEdge>) {
  const { t } = useTranslation("editor");
  const insert = useContext(InsertContext);
  const [path, x, y] = getBezierPath(props);
  return (
    <>
      <BaseEdge id={props.id} path={path} markerEnd={props.markerEnd} interactionWidth={16} />
      <EdgeLabelRenderer>
        <div className="edge-tools nodrag nopan" style={{ transform: `translate(-50%, -50%) translate(${x}px, ${y}px)` }}>
          <button
            type="button"
            className="edge-insert"
            aria-label={t("insertOnEdge", { from: props.source, to: props.target })}
            title={t("insertOnEdge", { from: props.source, to: props.target })}
            onClick={() => insert(props.id)}
          >
            +
          </button>
        </div>
      </EdgeLabelRenderer>
    </>
  );
});
