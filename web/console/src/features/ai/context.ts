// The page a person asks from travels with the conversation: the workflow or the run they
// were looking at when they opened the panel (`?workflow_id=` or `?run_id=`). The session
// is opened on it (the API notes it in the working memory) and every message carries it as
// its page context.
import type { components } from "../../api/schema.gen";

export type PageContext = components["schemas"]["AIPageContext"];
export type SessionOpening = components["schemas"]["AISessionCreate"];

/** Looking is what the person was looking at: a workflow, a run (with its workflow once
 * known), or the project as a whole. */
export type Looking = { projectId: string; workflowId?: string; runId?: string; runWorkflowId?: string };

/** pageContext is a message's page context, as of now. */
export function pageContext(at: Looking, now: Date): PageContext {
  const timestamp = now.toISOString();
  if (at.runId) {
    return {
      pageKind: "run",
      projectId: at.projectId,
      workflowRunId: at.runId,
      ...(at.runWorkflowId ? { workflowId: at.runWorkflowId } : {}),
      pathname: `/runs/${at.runId}`,
      route: "/runs/:runId",
      timestamp,
    };
  }
  if (at.workflowId) {
    return {
      pageKind: "workflow",
      projectId: at.projectId,
      workflowId: at.workflowId,
      pathname: `/workflows/${at.workflowId}`,
      route: "/workflows/:workflowId",
      timestamp,
    };
  }
  return { pageKind: "project", projectId: at.projectId, pathname: `/projects/${at.projectId}/ai`, route: "/projects/:projectId/ai", timestamp };
}

/** sessionOpening is the body that opens a session on what the person was looking at. */
export function sessionOpening(at: Looking, now: Date): SessionOpening {
  const page_context_json = pageContext(at, now);
  if (at.runId) {
    return {
      workflow_run_id: at.runId,
      ...(at.runWorkflowId ? { workflow_id: at.runWorkflowId } : {}),
      screen_scope: "run",
      screen_entity_type: "workflow_run",
      screen_entity_id: at.runId,
      page_context_json,
    };
  }
  if (at.workflowId) {
    return { workflow_id: at.workflowId, screen_scope: "workflow", screen_entity_type: "workflow", screen_entity_id: at.workflowId, page_context_json };
  }
  return { screen_scope: "project", page_context_json };
}

/** askPath is the panel's address for a question about a workflow or a run. */
export function askPath(projectId: string, about: { workflowId: string } | { runId: string }): string {
  const query = "runId" in about ? `run_id=${encodeURIComponent(about.runId)}` : `workflow_id=${encodeURIComponent(about.workflowId)}`;
  return `/projects/${projectId}/ai?${query}`;
}
