import { ReactFlowProvider } from "@xyflow/react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { useActionTypes } from "../../canvas/catalog";
import { useLaidOut } from "../../canvas/GraphView";
import { ProblemAlert } from "../../components/ProblemAlert";
import { WorkflowTabs } from "../workflows/WorkflowTabs";
import { useWorkflow } from "../workflows/workflow";
import type { Draft } from "./document";
import { DraftEditor } from "./DraftEditor";
import "./texts";

const emptyGraph = { actions: [], connections: [] };

/** EditorPage is /workflows/:workflowId: the workflow's draft in the editor, laid out first
 * when it was saved without positions. */
export function EditorPage() {
  const { workflowId = "" } = useParams();
  const { t } = useTranslation("editor");
  const workflow = useWorkflow(workflowId);
  const types = useActionTypes();
  // Each load of the draft from the server starts a new editing session (a new undo stack).
  const [session, setSession] = useState(0);
  const [loaded, setLoaded] = useState(workflow.data?.draft);
  if (!loaded && workflow.data) setLoaded(workflow.data.draft);
  const laidOut = useLaidOut(loaded ?? emptyGraph);
  const initial = useMemo<Draft | undefined>(
    () =>
      loaded && laidOut
        ? { actions: laidOut.actions, connections: laidOut.connections, test_input_json: loaded.test_input_json, change_description: loaded.change_description }
        : undefined,
    [loaded, laidOut],
  );
  const reload = async () => {
    const fresh = await workflow.refetch();
    if (!fresh.data) return;
    setLoaded(fresh.data.draft);
    setSession((s) => s + 1);
  };

  if (workflow.error || types.error) {
    return (
      <div className="page">
        <ProblemAlert error={workflow.error ?? types.error} />
      </div>
    );
  }
  if (!workflow.data || !types.data || !initial) {
    return (
      <div className="editor-page">
        <WorkflowTabs workflowId={workflowId} />
        <p className="page muted" aria-busy="true">
          {t("loadingDraft")}
        </p>
      </div>
    );
  }
  return (
    <ReactFlowProvider key={session}>
      <DraftEditor workflow={workflow.data} initial={initial} types={types.data} onReload={() => void reload()} />
    </ReactFlowProvider>
  );
}
