import { describe, expect, it } from "vitest";
import { askPath, pageContext, sessionOpening } from "./context";

const now = new Date("2026-05-01T10:00:00Z");

describe("page context", () => {
  it("tells the run and its workflow when the person came from a run", () => {
    const at = { projectId: "p", runId: "r", runWorkflowId: "w" };
    expect(pageContext(at, now)).toEqual({
      pageKind: "run",
      projectId: "p",
      workflowRunId: "r",
      workflowId: "w",
      pathname: "/runs/r",
      route: "/runs/:runId",
      timestamp: "2026-05-01T10:00:00.000Z",
    });
    expect(sessionOpening(at, now)).toMatchObject({ workflow_run_id: "r", workflow_id: "w", screen_scope: "run", screen_entity_type: "workflow_run", screen_entity_id: "r" });
  });

  it("tells the workflow when the person came from one, and the project otherwise", () => {
    expect(pageContext({ projectId: "p", workflowId: "w" }, now)).toMatchObject({ pageKind: "workflow", workflowId: "w", pathname: "/workflows/w" });
    expect(sessionOpening({ projectId: "p", workflowId: "w" }, now)).toMatchObject({ workflow_id: "w", screen_scope: "workflow" });
    const project = sessionOpening({ projectId: "p" }, now);
    expect(project).toEqual({ screen_scope: "project", page_context_json: pageContext({ projectId: "p" }, now) });
    expect(project.page_context_json).toMatchObject({ pageKind: "project", pathname: "/projects/p/ai" });
  });

  it("makes the panel's address for a question about a workflow or a run", () => {
    expect(askPath("p", { workflowId: "w 1" })).toBe("/projects/p/ai?workflow_id=w%201");
    expect(askPath("p", { runId: "r" })).toBe("/projects/p/ai?run_id=r");
  });
});
